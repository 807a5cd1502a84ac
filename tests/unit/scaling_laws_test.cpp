// scaling_laws_test.cpp: Amdahl's, Gustafson's and Gunther's laws reproduce their closed forms
// at hand-computed points, the USL peaks where Gunther's formula says, and the largest GPU count
// at an efficiency floor is the one the closed-form inequality gives.
#include <gpucalc/literals.hpp>
#include <gpucalc/scaling/laws.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

using namespace gpucalc;
using namespace gpucalc::literals;

namespace {
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;
}  // namespace

TEST_CASE("Amdahl: speedup 1/(s + (1 - s)/N) and efficiency speedup/N") {
    // s = 0.05 on 8 GPUs: 1/(0.05 + 0.95/8) = 1/0.16875 (hand-computed).
    CHECK(amdahl_speedup(0.05, 8) == approx(1.0 / 0.16875));
    CHECK(amdahl_efficiency(0.05, 8) == approx(1.0 / 0.16875 / 8.0));
    // s = 0.1 on 16: 1/(0.1 + 0.9/16) = 1/0.15625 = 6.4.
    CHECK(amdahl_speedup(0.1, 16) == approx(6.4));
    // 1 % serial caps 1,024 GPUs at 1024/11.23 = 91.2x (hand-computed).
    CHECK(amdahl_speedup(0.01, 1024) == approx(1024.0 / 11.23));
    // The limit 1/s as N grows: 2^40 GPUs at s = 0.1 are within 1e-11 of 10x.
    CHECK(amdahl_speedup(0.1, two_to_40) == approx(10.0));
    // The edges: no serial part scales perfectly (exactly N); all serial does not scale at all.
    CHECK(amdahl_speedup(0.0, 1000) == 1000.0);
    CHECK(amdahl_efficiency(0.0, 1000) == 1.0);
    CHECK(amdahl_speedup(1.0, 1000) == 1.0);
    CHECK(amdahl_speedup(0.3, 1) == 1.0);
    CHECK(amdahl_efficiency(0.3, 1) == 1.0);
}

TEST_CASE("Gustafson: scaled speedup N - s(N - 1)") {
    CHECK(gustafson_speedup(0.05, 8) == approx(7.65));          // 8 - 0.05 x 7
    CHECK(gustafson_speedup(0.01, 1024) == approx(1013.77));    // 1024 - 0.01 x 1023
    CHECK(gustafson_speedup(0.0, 64) == 64.0);
    CHECK(gustafson_speedup(1.0, 64) == 1.0);
    // The same serial fraction costs far less when the problem grows with the machine.
    CHECK(gustafson_speedup(0.01, 1024) > 10.0 * amdahl_speedup(0.01, 1024));
}

TEST_CASE("USL: capacity N/(1 + sigma(N - 1) + kappa N(N - 1)), throughput lambda C(N)") {
    const usl_parameters p{0.05, 0.002};
    // N = 8: 1 + 0.05 x 7 + 0.002 x 8 x 7 = 1.462; N = 64: 1 + 3.15 + 8.064 = 12.214.
    CHECK(usl_capacity(p, 8) == approx(8.0 / 1.462));
    CHECK(usl_efficiency(p, 8) == approx(1.0 / 1.462));
    CHECK(usl_capacity(p, 64) == approx(64.0 / 12.214));
    CHECK(usl_efficiency(p, 64) == approx(1.0 / 12.214));
    CHECK(usl_capacity(p, 1) == 1.0);
    CHECK(usl_throughput(1000.0, p, 8) == approx(8000.0 / 1.462));
    // In a rate's own unit.
    CHECK(usl_throughput(1000.0_tokens_per_s, p, 64) ==
          approx(64000.0 / 12.214 * 1.0_tokens_per_s));
    // With kappa = 0 the USL is Amdahl's law with s = sigma, to the bit.
    for (std::int64_t n : {1, 2, 3, 8, 100, 4096}) {
        CAPTURE(n);
        CHECK(usl_capacity({0.07, 0.0}, n) == amdahl_speedup(0.07, n));
        CHECK(usl_efficiency({0.07, 0.0}, n) == amdahl_efficiency(0.07, n));
    }
}

TEST_CASE("USL peak: Gunther's N* = sqrt((1 - sigma)/kappa) and the best whole count") {
    // sqrt(0.95 / 0.002) = sqrt(475). Whole counts: C(21) = 21/2.84, C(22) = 22/2.974,
    // C(23) = 23/3.112 (hand-computed), so 22 is best.
    const throughput_peak p = usl_peak({0.05, 0.002});
    CHECK(p.exists);
    CHECK(p.gpus == approx(std::sqrt(475.0)));
    CHECK(p.best_gpus == 22);
    CHECK(p.capacity == approx(22.0 / 2.974));
    CHECK_FALSE(p.capped);
    CHECK(usl_capacity({0.05, 0.002}, 21) < p.capacity);
    CHECK(usl_capacity({0.05, 0.002}, 23) < p.capacity);
    // The usl R package's test suite (smoeding/usl, tests/peak-scalability.R) pins
    // peak.scalability for sigma = 0.001, kappa = 0.00001 at 316.0696, printed to 7 digits.
    CHECK(usl_peak({0.001, 0.00001}).gpus == approx(316.0696, 0.00005 / 316.0696));
    // kappa = 0: throughput rises towards lambda/sigma for ever, an explicit no-peak.
    const throughput_peak none = usl_peak({0.05, 0.0});
    CHECK_FALSE(none.exists);
    CHECK(none.best_gpus == 0);
    // sigma = 1 never gains from a second GPU: the peak is one GPU, whatever kappa.
    CHECK(usl_peak({1.0, 0.0}).exists);
    CHECK(usl_peak({1.0, 0.0}).best_gpus == 1);
    CHECK(usl_peak({1.0, 0.0}).gpus == 1.0);
    CHECK(usl_peak({1.0, 0.01}).best_gpus == 1);
    CHECK(usl_peak({1.0, 0.01}).gpus == 0.0);  // the formula's sqrt(0/0.01)
    // kappa past 1 - sigma: the throughput falls from the first GPU on, N* < 1.
    CHECK(usl_peak({0.5, 0.9}).gpus < 1.0);
    CHECK(usl_peak({0.5, 0.9}).best_gpus == 1);
    // kappa at its floor puts N* beyond 2^40: the best count is capped there, and says so.
    const throughput_peak beyond = usl_peak({0.0, 1e-30});
    CHECK(beyond.gpus == approx(1e15));
    CHECK(beyond.best_gpus == two_to_40);
    CHECK(beyond.capped);
    // Also where sigma > 0 saturates the capacity, so that C(2^40 - 1) and C(2^40) round equal
    // (found by the fuzz run, seed 20260101): the cap stays the answer.
    CHECK(usl_peak({0.005410589672509914, 1e-30}).best_gpus == two_to_40);
    CHECK(usl_peak({0.005410589672509914, 1e-30}).capped);
    // N* = 2^39 (kappa = 2^-78, exact), inside the range: a real peak, not capped.
    const throughput_peak inside = usl_peak({0.0, std::ldexp(1.0, -78)});
    CHECK(inside.gpus == std::ldexp(1.0, 39));
    CHECK_FALSE(inside.capped);
    CHECK(std::fabs(static_cast<double>(inside.best_gpus) - inside.gpus) <= 1.5);
    // Every other peak above: not capped.
    CHECK_FALSE(none.capped);
    CHECK_FALSE(usl_peak({1.0, 0.0}).capped);
    CHECK_FALSE(usl_peak({0.5, 0.9}).capped);
}

TEST_CASE("USL peak: the best whole count is the largest capacity among its neighbours") {
    // Checked against brute force over a grid of sigma and kappa: C(best) >= C(best +- 1), and
    // best is floor(N*) or ceil(N*).
    for (double sigma : {0.0, 0.01, 0.1, 0.5, 0.9}) {
        for (double kappa : {1e-6, 1e-4, 0.002, 0.03, 0.2}) {
            CAPTURE(sigma);
            CAPTURE(kappa);
            const usl_parameters p{sigma, kappa};
            const throughput_peak peak = usl_peak(p);
            const std::int64_t best = peak.best_gpus;
            CHECK(usl_capacity(p, best) >= usl_capacity(p, best + 1));
            if (best > 1) {
                CHECK(usl_capacity(p, best) > usl_capacity(p, best - 1));
                CHECK(std::fabs(static_cast<double>(best) - peak.gpus) < 1.0);
            }
        }
    }
}

TEST_CASE("largest GPU count at an efficiency floor, with the named defaults") {
    CHECK(good_scaling_efficiency == 0.75);
    CHECK(wasteful_scaling_efficiency == 0.60);
    // Amdahl, s = 0.05: N <= 1 + (1/f - 1)/s gives 7.67 at 75 % and 14.33 at 60 %.
    CHECK(amdahl_largest_gpus(0.05).gpus == 7);
    CHECK(amdahl_largest_gpus(0.05).bounded);
    CHECK(amdahl_largest_gpus(0.05).efficiency == approx(1.0 / 1.3));
    CHECK(amdahl_largest_gpus(0.05, wasteful_scaling_efficiency).gpus == 14);
    // "At or above": s = 0.25 has efficiency exactly 1/2 at N = 5, which the floor 0.5 keeps.
    CHECK(amdahl_largest_gpus(0.25, 0.5).gpus == 5);
    CHECK(amdahl_largest_gpus(0.25, 0.5).efficiency == 0.5);
    // USL {0.05, 0.002}: the denominator is 1.31 at N = 6 and 1.384 at 7 (limit 4/3); 1.63 at
    // 10 and 1.72 at 11 (limit 5/3).
    CHECK(usl_largest_gpus({0.05, 0.002}).gpus == 6);
    CHECK(usl_largest_gpus({0.05, 0.002}, wasteful_scaling_efficiency).gpus == 10);
    CHECK(usl_largest_gpus({0.05, 0.002}, wasteful_scaling_efficiency).efficiency ==
          approx(1.0 / 1.63));
    // A floor of 1 keeps only the first GPU unless scaling is perfect.
    CHECK(usl_largest_gpus({0.05, 0.0}, 1.0).gpus == 1);
}

TEST_CASE("largest GPU count: an explicit 'unbounded' when efficiency stays above the floor") {
    const scaling_limit perfect = usl_largest_gpus({0.0, 0.0});
    CHECK_FALSE(perfect.bounded);
    CHECK(perfect.gpus == two_to_40);
    CHECK(perfect.efficiency == 1.0);
    CHECK_FALSE(amdahl_largest_gpus(0.0, wasteful_scaling_efficiency).bounded);
    // Amdahl's efficiency tends to 0, but not before 2^40 GPUs for a tiny serial fraction.
    CHECK_FALSE(amdahl_largest_gpus(1e-15).bounded);
    CHECK(amdahl_largest_gpus(1e-9).bounded);
}

TEST_CASE("largest GPU count agrees with the closed-form inequality and is exact at its edge") {
    // 1/(1 + s(N - 1)) >= f  <=>  N <= 1 + (1/f - 1)/s (derived); away from ties the floor of
    // the right side is the answer, and the answer's neighbour always misses the floor.
    for (double s : {0.001, 0.013, 0.05, 0.2, 0.7}) {
        for (double f : {0.3, 0.6, 0.75, 0.9}) {
            CAPTURE(s);
            CAPTURE(f);
            const scaling_limit limit = amdahl_largest_gpus(s, f);
            const double bound = 1.0 + (1.0 / f - 1.0) / s;
            CHECK(limit.gpus == static_cast<std::int64_t>(std::floor(bound)));
            CHECK(amdahl_efficiency(s, limit.gpus) >= f);
            CHECK(amdahl_efficiency(s, limit.gpus + 1) < f);
            const usl_parameters p{s / 2.0, s / 100.0};
            const scaling_limit u = usl_largest_gpus(p, f);
            CHECK(usl_efficiency(p, u.gpus) >= f);
            CHECK(usl_efficiency(p, u.gpus + 1) < f);
        }
    }
}
