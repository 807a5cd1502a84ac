// hostile_scaling_laws_test.cpp: input outside the stated ranges of the scaling laws and fits
// is invalid_input naming the function the caller called, the field as the caller wrote it
// (points[2].throughput), the value and the rule; input inside them gives a finite answer or an
// explicit "no answer" (throughput_peak::exists, scaling_limit::bounded).
#include <gpucalc/literals.hpp>
#include <gpucalc/scaling/fit.hpp>
#include <gpucalc/scaling/laws.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace gpucalc;
using namespace gpucalc::literals;

namespace {
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;
}  // namespace

TEST_CASE("laws: gpus below 1 or above 2^40") {
    CHECK_THROWS_WITH_AS(amdahl_speedup(0.1, 0), "amdahl_speedup: gpus = 0 must be >= 1",
                         invalid_input);
    CHECK_THROWS_WITH_AS(amdahl_efficiency(0.1, -3), "amdahl_efficiency: gpus = -3 must be >= 1",
                         invalid_input);
    CHECK_THROWS_WITH_AS(gustafson_speedup(0.1, two_to_40 + 1),
                         "gustafson_speedup: gpus = 1099511627777 must be <= 2^40", invalid_input);
    CHECK_THROWS_WITH_AS(usl_capacity({0.1, 0.0}, 0), "usl_capacity: gpus = 0 must be >= 1",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_throughput(1.0, {0.1, 0.0}, std::numeric_limits<std::int64_t>::min()),
                         "usl_throughput: gpus = -9.22337203685478e+18 must be >= 1",
                         invalid_input);
    // 2^40 itself is in range and finite.
    CHECK(std::isfinite(usl_efficiency({1.0, 1.0}, two_to_40)));
    CHECK(usl_efficiency({1.0, 1.0}, two_to_40) > 0.0);
}

TEST_CASE("laws: serial fraction and sigma outside [0, 1], NaN") {
    CHECK_THROWS_WITH_AS(amdahl_speedup(1.5, 8),
                         "amdahl_speedup: serial_fraction = 1.5 must be in [0, 1]", invalid_input);
    CHECK_THROWS_WITH_AS(amdahl_efficiency(-0.01, 8),
                         "amdahl_efficiency: serial_fraction = -0.01 must be in [0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(gustafson_speedup(not_a_number, 8),
                         "gustafson_speedup: serial_fraction = nan must be in [0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(amdahl_largest_gpus(inf),
                         "amdahl_largest_gpus: serial_fraction = inf must be in [0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_capacity({-0.1, 0.0}, 8),
                         "usl_capacity: contention = -0.1 must be in [0, 1]", invalid_input);
    CHECK_THROWS_WITH_AS(usl_peak({not_a_number, 0.001}),
                         "usl_peak: contention = nan must be in [0, 1]",
                         invalid_input);
}

TEST_CASE("laws: kappa below 0, above 1, or positive below 1e-30") {
    CHECK_THROWS_WITH_AS(usl_efficiency({0.1, -0.001}, 8),
                         "usl_efficiency: coherency = -0.001 must be 0 or in [1e-30, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_largest_gpus({0.1, 2.0}),
                         "usl_largest_gpus: coherency = 2 must be 0 or in [1e-30, 1]",
                         invalid_input);
    // A denormal kappa would make (1 - sigma)/kappa overflow in the peak.
    CHECK_THROWS_WITH_AS(usl_peak({0.0, std::numeric_limits<double>::denorm_min()}),
                         "usl_peak: coherency = 4.94065645841247e-324 must be 0 or in [1e-30, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_peak({0.0, not_a_number}),
                         "usl_peak: coherency = nan must be 0 or in [1e-30, 1]",
                         invalid_input);
    // -0 is 0.
    CHECK_FALSE(usl_peak({0.1, -0.0}).exists);
}

namespace {
/// The documented guarantee of usl_peak's best_gpus, checked with usl_capacity itself: when the
/// peak exists and is not capped, C(best) >= C(best - 1) and C(best) >= C(best + 1) exactly as
/// computed (neighbours in [1, 2^40]), best within 11 of N* (or 1 when N* < 1), and C(best)
/// within 1e-15 of the highest capacity over whole counts.
void check_peak_guarantee(const usl_parameters& p) {
    CAPTURE(p.contention);
    CAPTURE(p.coherency);
    const throughput_peak peak = usl_peak(p);
    REQUIRE(peak.exists);
    REQUIRE_FALSE(peak.capped);
    const std::int64_t best = peak.best_gpus;
    CAPTURE(best);
    const double at_best = usl_capacity(p, best);
    CHECK(peak.capacity == at_best);
    if (best > 1) CHECK(at_best >= usl_capacity(p, best - 1));
    if (best < two_to_40) CHECK(at_best >= usl_capacity(p, best + 1));
    CHECK((std::fabs(static_cast<double>(best) - peak.gpus) <= 11.0 ||
           (best == 1 && peak.gpus < 1.0)));
    // The highest capacity over whole counts is at floor(N*) or ceil(N*) (C rises up to N* and
    // falls after it), worked out in long double (64-bit significand on x86-64: 2^11 times
    // finer than double).
    const long double sigma = p.contention;
    const long double kappa = p.coherency;
    const auto exact = [&](long double n) {
        return n / (1.0L + sigma * (n - 1.0L) + kappa * n * (n - 1.0L));
    };
    const long double star = std::sqrt((1.0L - sigma) / kappa);
    long double highest = 1.0L;  // C(1)
    for (long double n : {std::floor(star), std::ceil(star)}) {
        if (n >= 1.0L && n <= static_cast<long double>(two_to_40)) {
            highest = std::max(highest, exact(n));
        }
    }
    CHECK(static_cast<double>((highest - exact(static_cast<long double>(best))) / highest) <=
          1e-15);
}
}  // namespace

TEST_CASE("usl_peak at tiny coherency: best is a local maximum of the capacity as computed") {
    // The fuzz report: at coherency below about 1e-20 the curve is flat to rounding near N*.
    // usl_peak({0, 1.75e-23}) (N* = 239,045,721,866.9) gave a best whose capacity computes
    // exactly equal to the count below's, so the promised C(best) > C(best - 1) failed, and a
    // count four below computes an ulp higher. The guarantee is now the local maximum, which
    // holds exactly there.
    check_peak_guarantee({0.0, 1.75e-23});
    // Found by sweeping kappa = m x 10^e (e = -30 .. -15) against the old code, which stepped
    // once at most: at sigma = 0, kappa = 1.3e-24 (N* = 877,058,019,307.0) it answered
    // 877,058,019,306, whose capacity computes an ulp below the count under it
    // (0x1.9869769fd70efp+38 against 0x1.9869769fd70fp+38), breaking even C(best) >= C(best - 1).
    check_peak_guarantee({0.0, 1.3e-24});
    check_peak_guarantee({0.0, 2.25e-24});  // N* = 666,666,666,666.7, the same
    // A sweep over tiny coherency (1e-30 .. 1e-15, N* below 2^40) and contention at its ends:
    // 0, tiny, moderate, near 1 (where the curve saturates at 1/sigma and is flat for billions
    // of counts).
    int checked = 0;
    for (double sigma : {0.0, 1e-300, 1e-20, 1e-9, 0.0039, 0.3, 0.48, 0.9, 1.0 - 1e-12}) {
        for (int e = -30; e <= -15; ++e) {
            for (double m : {1.0, 1.3, 1.75, 2.25, 3.0, 5.5, 8.32}) {
                const usl_parameters p{sigma, m * std::pow(10.0, e)};
                if (usl_peak(p).capped) continue;  // N* beyond 2^40: best is 2^40 by rule
                check_peak_guarantee(p);
                ++checked;
            }
        }
    }
    CHECK(checked > 600);
}

TEST_CASE("laws: efficiency floors outside (0, 1]") {
    CHECK_THROWS_WITH_AS(amdahl_largest_gpus(0.1, 0.0),
                         "amdahl_largest_gpus: efficiency_floor = 0 must be in (0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_largest_gpus({0.1, 0.0}, 1.5),
                         "usl_largest_gpus: efficiency_floor = 1.5 must be in (0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_largest_gpus({0.1, 0.0}, not_a_number),
                         "usl_largest_gpus: efficiency_floor = nan must be in (0, 1]",
                         invalid_input);
    // The smallest positive floor is valid, and answered explicitly: unbounded below 2^40.
    const scaling_limit tiny =
        usl_largest_gpus({0.1, 0.0}, std::numeric_limits<double>::denorm_min());
    CHECK_FALSE(tiny.bounded);
    CHECK(tiny.gpus == two_to_40);
}

TEST_CASE("laws: a throughput that is not positive, or beyond its range") {
    CHECK_THROWS_WITH_AS(usl_throughput(-5.0, {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = -5 must be finite and > 0", invalid_input);
    CHECK_THROWS_WITH_AS(usl_throughput(not_a_number, {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = nan must be finite and > 0", invalid_input);
    CHECK_THROWS_WITH_AS(usl_throughput(1e31, {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = 1e+31 must be at most 1e30", invalid_input);
    CHECK_THROWS_WITH_AS(usl_throughput(1e-31, {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = 1e-31 must be at least 1e-30",
                         invalid_input);
    CHECK_THROWS_WITH_AS(usl_throughput(0.0_tokens_per_s, {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = 0 tokens/s must be finite and > 0",
                         invalid_input);
    // Beyond its range the value reads in the base unit, as the bound does (in M tokens/s it
    // would need exponent form: "1.00000000000000e+23M tokens/s").
    CHECK_THROWS_WITH_AS(usl_throughput(make<tokens_per_second>(1e29), {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = 1e+29 tokens/s must be at most 1e20 "
                         "tokens/s",
                         invalid_input);
    // Just past the bound, the M tokens/s it would show has more digits than the 15 it keeps
    // ("1,000,000,000,000,000M tokens/s"): the base unit again.
    CHECK_THROWS_WITH_AS(usl_throughput(make<tokens_per_second>(1e21), {0.1, 0.0}, 8),
                         "usl_throughput: single_gpu = 1e+21 tokens/s must be at most 1e20 "
                         "tokens/s",
                         invalid_input);
    // The largest valid inputs give a finite answer: 1e30 x 2^40.
    CHECK(std::isfinite(usl_throughput(1e30, {0.0, 0.0}, two_to_40)));
}

TEST_CASE("fits: fewer points than parameters, or too few distinct GPU counts") {
    CHECK_THROWS_WITH_AS(fit_usl({{1, 100.0}, {2, 190.0}}),
                         "fit_usl: points = 2 must hold at least 3 measurements (one per fitted "
                         "parameter)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_amdahl({{1, 100.0}}),
                         "fit_amdahl: points = 1 must hold at least 2 measurements (one per "
                         "fitted parameter)",
                         invalid_input);
    const std::vector<scaling_measurement<>> none;
    CHECK_THROWS_WITH_AS(fit_usl(none),
                         "fit_usl: points = 0 must hold at least 3 measurements (one per fitted "
                         "parameter)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_usl({{1, 100.0}, {2, 190.0}, {2, 191.0}, {1, 99.0}}),
                         "fit_usl: distinct gpus in points = 2 must be at least 3 (one per fitted "
                         "parameter)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_amdahl({{4, 100.0}, {4, 101.0}, {4, 99.0}}),
                         "fit_amdahl: distinct gpus in points = 1 must be at least 2 (one per "
                         "fitted parameter)",
                         invalid_input);
}

TEST_CASE("fits: a bad point is named by its index") {
    CHECK_THROWS_WITH_AS(fit_usl({{1, 100.0}, {2, 190.0}, {4, -1.0}, {8, 500.0}}),
                         "fit_usl: points[2].throughput = -1 must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_usl({{1, 100.0}, {2, 190.0}, {4, 0.0}, {8, 500.0}}),
                         "fit_usl: points[2].throughput = 0 must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_usl({{1, 100.0}, {0, 190.0}, {4, 300.0}}),
                         "fit_usl: points[1].gpus = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(fit_amdahl({{1, 100.0}, {two_to_40 + 1, 190.0}}),
                         "fit_amdahl: points[1].gpus = 1099511627777 must be <= 2^40",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_amdahl({{1, 100.0}, {2, not_a_number}}),
                         "fit_amdahl: points[1].throughput = nan must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(fit_amdahl({{1, 100.0}, {2, inf}}),
                         "fit_amdahl: points[1].throughput = inf must be at most 1e30",
                         invalid_input);
    const std::array<scaling_measurement<token_rate>, 4> typed{
        {{1, 100.0_tokens_per_s}, {2, 190.0_tokens_per_s}, {4, 300.0_tokens_per_s},
         {8, make<tokens_per_second>(-2.0)}}};
    CHECK_THROWS_WITH_AS(fit_usl(typed),
                         "fit_usl: points[3].throughput = -2 tokens/s must be finite and > 0",
                         invalid_input);
}

TEST_CASE("fit-based predictions check the fit they are given") {
    usl_fit<> fit{};
    fit.single_gpu = 100.0;
    fit.parameters = {0.05, 0.001};
    CHECK(predicted_efficiency(fit, 8) == approx(usl_efficiency(fit.parameters, 8)));
    fit.parameters.contention = 2.0;
    CHECK_THROWS_WITH_AS(predicted_efficiency(fit, 8),
                         "predicted_efficiency: fit.parameters.contention = 2 must be in [0, 1]",
                         invalid_input);
    fit.parameters.contention = 0.05;
    fit.single_gpu = -1.0;
    CHECK_THROWS_WITH_AS(predicted_throughput(fit, 8),
                         "predicted_throughput: fit.single_gpu = -1 must be finite and > 0",
                         invalid_input);
    fit.single_gpu = 100.0;
    CHECK_THROWS_WITH_AS(predicted_throughput(fit, 0),
                         "predicted_throughput: gpus = 0 must be >= 1",
                         invalid_input);
    CHECK_THROWS_WITH_AS(largest_gpus(fit, 0.0),
                         "largest_gpus: efficiency_floor = 0 must be in (0, 1]", invalid_input);
    amdahl_fit<> a{};
    a.single_gpu = 100.0;
    a.serial_fraction = not_a_number;
    CHECK_THROWS_WITH_AS(largest_gpus(a),
                         "largest_gpus: fit.serial_fraction = nan must be in [0, 1]",
                         invalid_input);
    // A default-constructed fit has no throughput, which predicted_throughput reads; the
    // efficiency functions read only sigma and kappa (or s), and s = 0 is perfect scaling.
    CHECK_THROWS_WITH_AS(predicted_throughput(amdahl_fit<>{}, 2),
                         "predicted_throughput: fit.single_gpu = 0 must be finite and > 0",
                         invalid_input);
    CHECK(predicted_efficiency(amdahl_fit<>{}, 2) == 1.0);
    CHECK_FALSE(largest_gpus(usl_fit<>{}).bounded);
    // Beyond the range where every fitted lambda lies (the throughput range widened 2^41 either
    // way), a lambda is not one a fit returned.
    fit.single_gpu = 1e43;
    CHECK_THROWS_WITH_AS(predicted_throughput(fit, 8),
                         "predicted_throughput: fit.single_gpu = 1e+43 must be in [1e-30 / 2^41, "
                         "2^41 x 1e30] (where every fitted single_gpu lies)",
                         invalid_input);
    amdahl_fit<token_rate> typed{};
    typed.single_gpu = make<tokens_per_second>(1e-50);
    CHECK_THROWS_WITH_AS(predicted_throughput(typed, 8),
                         "predicted_throughput: fit.single_gpu = 1e-50 tokens/s must be in "
                         "[1e-30 / 2^41 tokens/s, 2^41 x 1e20 tokens/s] (where every fitted "
                         "single_gpu lies)",
                         invalid_input);
}

TEST_CASE("fits: a fitted lambda outside the throughput range is accepted by every function") {
    // Points falling as 1/N from N = 100 fit sigma = kappa = 1, where C(N) = 1/N, so lambda is
    // 100 x 1e30 = 1e32: beyond the 1e30 a law takes as input, yet every answer is finite.
    const usl_fit<> falling = fit_usl({{100, 1e30}, {200, 0.5e30}, {400, 0.25e30}});
    CHECK(falling.single_gpu == approx(1e32));
    CHECK(falling.parameters.contention == approx(1.0));
    CHECK(falling.parameters.coherency == approx(1.0));
    CHECK(predicted_throughput(falling, 100) == approx(1e30));
    CHECK(predicted_throughput(falling, 1) == approx(1e32));
    CHECK(std::isfinite(predicted_throughput(falling, two_to_40)));
    CHECK(predicted_efficiency(falling, 100) == approx(1e-4));  // C(N)/N = 1/N^2
    CHECK(largest_gpus(falling).gpus == 1);
    // Points rising linearly from N = 1e6 at 1e-30: perfect scaling with lambda = 1e-36, below
    // the 1e-30 a law takes.
    const usl_fit<> rising = fit_usl({{1000000, 1e-30}, {2000000, 2e-30}, {4000000, 4e-30}});
    CHECK(rising.single_gpu == approx(1e-36));
    CHECK(predicted_throughput(rising, 1) == approx(1e-36));
    CHECK(predicted_throughput(rising, 8000000) == approx(8e-30));
    CHECK(predicted_efficiency(rising, 64) == approx(1.0));
    CHECK_FALSE(largest_gpus(rising).bounded);
    const amdahl_fit<> rising_amdahl = fit_amdahl({{1000000, 1e-30}, {4000000, 4e-30}});
    CHECK(rising_amdahl.single_gpu == approx(1e-36));
    CHECK(predicted_throughput(rising_amdahl, 2) == approx(2e-36));
    CHECK_FALSE(largest_gpus(rising_amdahl).bounded);
    // The same with a unit: lambda = 1e22 tokens/s, beyond token_rate's 1e20 tokens/s.
    const std::array<scaling_measurement<token_rate>, 3> typed{
        {{100, make<tokens_per_second>(1e20)}, {200, make<tokens_per_second>(0.5e20)},
         {400, make<tokens_per_second>(0.25e20)}}};
    const usl_fit<token_rate> typed_fit = fit_usl(typed);
    CHECK(typed_fit.single_gpu == approx(make<tokens_per_second>(1e22)));
    CHECK(predicted_throughput(typed_fit, 200) == approx(make<tokens_per_second>(0.5e20)));
}

TEST_CASE("fits: inputs at the edges of their ranges give finite answers") {
    // Throughputs twelve orders of magnitude apart, GPU counts from 1 to 2^40.
    const usl_fit<> wide = fit_usl({{1, 1e-30}, {1024, 1e-20}, {two_to_40, 1e30}});
    CHECK(std::isfinite(wide.single_gpu));
    CHECK(wide.single_gpu > 0.0);
    CHECK(wide.r_squared >= 0.0);
    CHECK(wide.r_squared <= 1.0);
    CHECK(std::isfinite(wide.rms_relative_error));
    const amdahl_fit<> huge = fit_amdahl({{1, 1e30}, {two_to_40, 1e30}});
    CHECK(huge.serial_fraction == approx(1.0));
    CHECK(std::isfinite(huge.single_gpu));
}
