// serving_queueing_test.cpp: Erlang B reproduces the published 1 %-blocking table, Erlang C and
// the M/M/c waits reproduce the M/M/1 and M/M/2 closed forms and an independent long-double
// sum, the limits ρ → 0 and ρ → 1 hold, the recurrence stays accurate to 10^5 servers and
// matches the Halfin–Whitt limit at 2^40, and the waits are monotone in servers and traffic.
#include <gpucalc/serving/queueing.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

using namespace gpucalc;

namespace {
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;

/// Erlang B as P(N = c)/P(N ≤ c) for N Poisson(a), summed directly in long double from the
/// mode outwards in log space (an independent reference: no recurrence, no truncation).
long double direct_erlang_b(std::int64_t c, long double a) {
    // log of a^i/i! relative to a^c/c!, summed for i = c, c − 1, ..., 0 while terms matter.
    long double sum = 1.0L;
    long double term = 1.0L;
    for (std::int64_t i = c; i > 0; --i) {
        term *= static_cast<long double>(i) / a;  // a^(i-1)/(i-1)! ÷ a^c/c!
        sum += term;
        if (term < 1e-30L * sum && static_cast<long double>(i) < a) break;
    }
    return 1.0L / sum;
}
long double direct_erlang_c(std::int64_t c, long double a) {
    const long double b = direct_erlang_b(c, a);
    const long double rho = a / static_cast<long double>(c);
    return b / (1.0L - rho * (1.0L - b));
}

/// The same recurrence as the library's, in long double from k = 0 (no truncated start).
long double long_double_erlang_b(std::int64_t c, long double a) {
    long double inverse = 1.0L;
    for (std::int64_t k = 1; k <= c; ++k) inverse = 1.0L + static_cast<long double>(k) / a * inverse;
    return 1.0L / inverse;
}

queue_wait_estimate wait_for(double lambda, double service_s, std::int64_t c, double scv = 1.0,
                             double p = 0.99) {
    return queue_wait(make<requests_per_second>(lambda), make<seconds>(service_s), c, scv, p);
}
}  // namespace

TEST_CASE("erlang_b: the published 1 % blocking table") {
    // The Erlang B table's traffic at 1 % blocking for 2, 5, 10, 50 and 100 circuits: 0.153,
    // 1.36, 4.46, 37.9 and 84.06 Erlangs (ITU-D, "Teletraffic Engineering Handbook", Iversen
    // 2005, Erlang's B-formula tables; the same figures appear in every Erlang B table).
    // The table rounds the traffic to 3 or 4 significant figures, so B is 1 % to within 0.5 %.
    CHECK(erlang_b(2, 0.153) == approx(0.01, 0.005));
    CHECK(erlang_b(5, 1.36) == approx(0.01, 0.005));
    CHECK(erlang_b(10, 4.46) == approx(0.01, 0.005));
    CHECK(erlang_b(50, 37.9) == approx(0.01, 0.005));
    CHECK(erlang_b(100, 84.06) == approx(0.01, 0.005));
    // Exact small cases: B(1, a) = a/(1 + a); B(2, a) = a²/2 / (1 + a + a²/2).
    static_assert(erlang_b(1, 1.0) == 0.5, "B(1, 1) = 1/2");
    CHECK(erlang_b(1, 3.0) == approx(0.75));
    CHECK(erlang_b(2, 2.0) == approx(2.0 / 5.0));
    CHECK(erlang_b(7, 0.0) == 0.0);
}

TEST_CASE("erlang_c: M/M/1, M/M/2 closed forms and the long-double direct sum") {
    // M/M/1: P(wait) = ρ (Gross et al. 2008, §2.2).
    CHECK(erlang_c(1, 0.3) == approx(0.3));
    CHECK(erlang_c(1, 0.9) == approx(0.9));
    // M/M/2: C = 2ρ²/(1 + ρ): at a = 1 (ρ = 1/2) it is 1/3.
    static_assert(erlang_c(2, 1.0) > 0.333333333 && erlang_c(2, 1.0) < 0.333333334, "C(2,1)");
    CHECK(erlang_c(2, 1.6) == approx(2.0 * 0.64 / 1.8));
    // c in {5, 10, 50, 100} at ρ = 0.8 and 0.9 against the independent direct sum.
    for (std::int64_t c : {5, 10, 50, 100}) {
        for (double rho : {0.8, 0.9}) {
            const double a = rho * static_cast<double>(c);
            CAPTURE(c);
            CAPTURE(rho);
            CHECK(erlang_c(c, a) ==
                  approx(static_cast<double>(direct_erlang_c(c, static_cast<long double>(a))), 1e-13));
        }
    }
    // Four-figure values (derived: from the direct sum above, not from a published table):
    CHECK(erlang_c(10, 8.0) == approx(0.4092, 1e-3));
    CHECK(erlang_c(5, 4.0) == approx(0.5541, 1e-3));
}

TEST_CASE("queue_wait: the M/M/1 closed form at c = 1") {
    // λ = 3/s, s = 0.25 s (μ = 4/s): ρ = 0.75, P(wait) = ρ, W_q = ρ/(μ − λ) = 0.75 s, and
    // P(W_q > t) = ρe^(−(μ−λ)t) gives t_99 = ln(0.75/0.01) s = 4.3175 s.
    const queue_wait_estimate q = wait_for(3.0, 0.25, 1);
    CHECK(q.stable);
    CHECK(q.utilization == approx(0.75));
    CHECK(q.offered_load == approx(0.75));
    CHECK(q.wait_probability == approx(0.75));
    CHECK(q.mean_wait.value() == approx(0.75));
    CHECK(q.percentile_wait.value() == approx(std::log(75.0)));
    CHECK(q.service_factor == 1.0);
    // M/D/1 (C_s² = 0): Allen–Cunneen halves the wait, which is Pollaczek–Khinchine exactly:
    // W_q = ρ s /(2(1 − ρ)) = 0.375 s.
    CHECK(wait_for(3.0, 0.25, 1, 0.0).mean_wait.value() == approx(0.375));
    // A percentile whose tail the wait probability does not reach: no wait.
    CHECK(wait_for(3.0, 0.25, 1, 1.0, 0.2).percentile_wait.value() == 0.0);
}

TEST_CASE("limits: rho -> 0 and rho -> 1") {
    // ρ → 0: nobody waits.
    CHECK(erlang_c(10, 1e-9) < 1e-60);
    CHECK(erlang_c(10, 0.0) == 0.0);
    const queue_wait_estimate idle = wait_for(0.0, 1.0, 4);
    CHECK(idle.stable);
    CHECK(idle.wait_probability == 0.0);
    CHECK(idle.mean_wait.value() == 0.0);
    CHECK(idle.percentile_wait.value() == 0.0);
    // ρ → 1: everyone waits and the wait grows as 1/(1 − ρ).
    CHECK(erlang_c(64, 64.0 * (1.0 - 1e-9)) == approx(1.0, 1e-6));
    const double near = wait_for(64.0 * (1.0 - 1e-6), 1.0, 64).mean_wait.value();
    CHECK(near > 1e4);
    CHECK(std::isfinite(near));
    // ρ ≥ 1 is an explicit answer, never inf or NaN.
    for (double lambda : {64.0, 65.0, 1e15}) {
        const queue_wait_estimate q = wait_for(lambda, 1.0, 64);
        CHECK_FALSE(q.stable);
        CHECK(q.wait_probability == 1.0);
        CHECK(q.mean_wait.value() == 0.0);
        CHECK(q.percentile_wait.value() == 0.0);
        CHECK(q.utilization == approx(lambda / 64.0));
    }
    CHECK(erlang_c(64, 64.0) == 1.0);
    CHECK(erlang_c(64, 1000.0) == 1.0);
}

TEST_CASE("numerics: stable to 10^5 servers and beyond") {
    // 10^5 servers at ρ = 0.99 and 0.999: the truncated-start recurrence against the full
    // long-double recurrence from k = 0 (10^5 steps) and the direct sum.
    for (double rho : {0.9, 0.99, 0.999}) {
        const std::int64_t c = 100000;
        const double a = rho * static_cast<double>(c);
        const double b = erlang_b(c, a);
        CAPTURE(rho);
        CHECK(std::isfinite(b));
        CHECK(b == approx(static_cast<double>(long_double_erlang_b(c, a)), 1e-11));
        CHECK(erlang_c(c, a) ==
              approx(static_cast<double>(direct_erlang_c(c, static_cast<long double>(a))), 1e-11));
    }
    // Halfin and Whitt 1981 ("Heavy-traffic limits for queues with many exponential servers",
    // Operations Research 29(3)): with c − a = β√c, C → 1/(1 + βΦ(β)/φ(β)) as c grows. At
    // c = 2^40 and β = 1: Φ(1) = 0.841345, φ(1) = 0.241971, so C → 0.223361.
    const double c40 = static_cast<double>(two_to_40);
    const double beta = 1.0;
    const double phi = std::exp(-beta * beta / 2.0) / std::sqrt(2.0 * 3.14159265358979323846);
    const double cdf = 0.5 * std::erfc(-beta / std::sqrt(2.0));
    CHECK(erlang_c(two_to_40, c40 - beta * std::sqrt(c40)) ==
          approx(1.0 / (1.0 + beta * cdf / phi), 1e-4));
    // Far more servers than load: B underflows to exactly 0, never NaN.
    CHECK(erlang_b(two_to_40, 3.0) == 0.0);
    CHECK(erlang_c(two_to_40, 3.0) == 0.0);
    CHECK(erlang_b(3, 1099511627776.0) == approx(1.0 - 3.0 / 1099511627776.0, 1e-9));
}

TEST_CASE("monotonicity: more servers never raise the wait, more traffic never lowers it") {
    for (double scv : {0.0, 1.0, 4.0}) {
        double last_mean = 1e300;
        double last_p99 = 1e300;
        double last_c = 2.0;
        for (std::int64_t c = 58; c <= 200; ++c) {
            const queue_wait_estimate q = wait_for(57.3, 1.0, c, scv);
            CHECK(q.stable);
            CHECK(q.mean_wait.value() <= last_mean);
            CHECK(q.percentile_wait.value() <= last_p99);
            CHECK(q.wait_probability <= last_c);
            last_mean = q.mean_wait.value();
            last_p99 = q.percentile_wait.value();
            last_c = q.wait_probability;
        }
        double previous_mean = 0.0;
        double previous_p99 = 0.0;
        for (double lambda = 1.0; lambda < 64.0; lambda += 0.5) {
            const queue_wait_estimate q = wait_for(lambda, 1.0, 64, scv);
            CHECK(q.mean_wait.value() >= previous_mean);
            CHECK(q.percentile_wait.value() >= previous_p99);
            previous_mean = q.mean_wait.value();
            previous_p99 = q.percentile_wait.value();
        }
    }
}

TEST_CASE("servers_for_wait: the fewest servers meeting the target") {
    const request_rate lambda = make<requests_per_second>(1000.0);
    const duration s = make<seconds>(2.0);
    wait_target target{};
    target.percentile_wait = make<milliseconds>(100.0);
    const server_search r = servers_for_wait(lambda, s, target);
    REQUIRE(r.found);
    CHECK(r.queue.percentile_wait <= target.percentile_wait);
    const queue_wait_estimate fewer = queue_wait(lambda, s, r.servers - 1);
    CHECK(fewer.percentile_wait > target.percentile_wait);
    CHECK(r.queue.percentile_wait == queue_wait(lambda, s, r.servers).percentile_wait);
    CHECK(r.servers > 2000);
    CHECK(r.evaluations <= 2 * 7 + 2);  // 2·log2(answer − a) + 2
    // A mean target as well, tighter than the p99 one, needs at least as many servers.
    wait_target both = target;
    both.mean_wait = make<milliseconds>(0.01);
    const server_search r2 = servers_for_wait(lambda, s, both);
    REQUIRE(r2.found);
    CHECK(r2.servers >= r.servers);
    CHECK(r2.queue.mean_wait <= both.mean_wait);
    CHECK(queue_wait(lambda, s, r2.servers - 1).mean_wait > both.mean_wait);
    // A linear scan agrees on a small case (M/G/c, C_s² = 2, p95).
    wait_target small{};
    small.percentile_wait = make<seconds>(0.05);
    small.percentile = 0.95;
    const server_search r3 = servers_for_wait(make<requests_per_second>(10.0), make<seconds>(1.0),
                                              small, 2.0);
    std::int64_t scan = 11;
    while (queue_wait(make<requests_per_second>(10.0), make<seconds>(1.0), scan, 2.0, 0.95)
               .percentile_wait > small.percentile_wait) {
        ++scan;
    }
    CHECK(r3.servers == scan);
    // A cap below the answer: an explicit no.
    const server_search capped = servers_for_wait(lambda, s, target, 1.0, 2010);
    CHECK_FALSE(capped.found);
    CHECK(capped.servers == 0);
    const server_search unstable_cap = servers_for_wait(lambda, s, target, 1.0, 2000);
    CHECK_FALSE(unstable_cap.found);
    // No traffic: one server, no wait.
    const server_search idle = servers_for_wait(request_rate{}, s, target);
    CHECK(idle.found);
    CHECK(idle.servers == 1);
}
