// serving/queueing.hpp: requests queueing for c servers (batch slots across replicas): the
// Erlang B and Erlang C functions, the M/M/c queue's wait with the Allen–Cunneen correction for
// non-exponential service, and the fewest servers that keep a percentile wait under a target
#pragma once

#include <cmath>
#include <cstdint>

#include "../detail/checks.hpp"
#include "../units.hpp"

namespace gpucalc {

// Servers are a whole count c in [1, 2^40] (detail::largest_count, as for GPU counts). The
// offered load a = λ × mean service time is in Erlangs, a plain number in [0, 2^40].
// Arrivals are a Poisson process (M/·/c); the formulas' sources are next to each of them.

/// The largest offered load (Erlangs) erlang_b and erlang_c take: 2^40, the largest server
/// count, so every stable queue gpucalc can describe (a < c) is inside it.
inline constexpr double largest_offered_load = 1099511627776.0;
/// The largest squared coefficient of variation of the service time queue_wait takes. A
/// length distribution with C_s² = 10^6 has a standard deviation 1,000× its mean, far beyond
/// any request-length mix; the bound keeps the Allen–Cunneen factor finite.
inline constexpr double largest_service_scv = 1e6;

namespace detail {

/// How many standard deviations √a below min(a, c) the Erlang B recurrence starts (derived,
/// see erlang_b_inverse): the dropped terms are below exp(−K²/2)(1 + √(πa/2)) relative to the
/// kept ones, < 1e-25 for a ≤ 2^40 with K = 12, far below a double's rounding (1.1e-16).
inline constexpr double erlang_start_deviations = 12.0;
/// How far below 1 the test m² < slack × K²a (erlang_b_inverse: the start is 0, √a not needed)
/// keeps: far more than the few roundings in either side, and it only ever sends a start of 0
/// to the square root, which gives 0 too.
inline constexpr double erlang_start_slack = 0.98;
/// 1/B above which the recurrence stops and B is returned as 0: B < 1e-300, and B only falls
/// as c grows. Keeps 1/B finite (it would overflow past 1.8e308).
inline constexpr double erlang_negligible_inverse = 1e300;

/// √x for x ≥ 0, usable in constant expressions (Newton's iteration from above, which
/// decreases monotonically to √x); std::sqrt at run time.
constexpr double sqrt_of(double x) {
    if (!is_constant_evaluated()) return std::sqrt(x);
    if (!(x > 0.0)) return 0.0;
    double r = x > 1.0 ? x : 1.0;
    for (int i = 0; i < 200; ++i) {
        const double next = 0.5 * (r + x / r);
        if (!(next < r)) break;
        r = next;
    }
    return r;
}

/// 1/B(c, a), the inverse of Erlang's loss function, for checked c ≥ 1 and a > 0; capped at
/// erlang_negligible_inverse. Iversen (2015, "Teletraffic Engineering and Network Planning",
/// DTU, the Erlang B recursion) and Jagerman (1974, "Some properties of the Erlang loss
/// function", Bell System Technical Journal 53(3)): B(0) = 1, B(k) = a·B(k−1)/(k + a·B(k−1)),
/// here in its inverse form I(k) = 1 + (k/a)·I(k−1), I(0) = 1 (Iversen's numerically stable
/// form: every term is positive, so each step adds at most a few roundings to the relative
/// error: about 1e-16 × steps at worst). No factorials or powers, so nothing overflows.
/// Starting point (derived): I(c) = Σ_{i=0..c} c!/(i!·a^(c−i)), i.e. P(N ≤ c)/P(N = c) for N
/// Poisson with mean a (the truncated-Poisson form of Erlang B). Starting at k0 with I(k0) = 1
/// keeps only the terms i ≥ k0. With m = ⌊min(a, c)⌋, a dropped term m − j is at most
/// Π_{l<j}(1 − l/m) ≤ exp(−j(j−1)/(2a)) times the kept term m, so starting at
/// k0 = m − ⌈K√a⌉ drops a relative share below exp(−K²/2)(1 + √(πa/2)). Cost: c − k0 steps,
/// stopping early once B < 1e-300: at most min(c, a + 12√a + about 40√a + 1,100) steps.
constexpr double erlang_b_inverse(std::int64_t servers, double offered_load) {
    const double c = static_cast<double>(servers);
    // ⌊min(a, c)⌋ and k0, by truncation (a ≥ 0 and K√a ≤ 12·2^20 fit an int64 exactly);
    // rounding the deviations down and adding 1 starts at or below m − ⌈K√a⌉.
    const std::int64_t m = offered_load < c ? static_cast<std::int64_t>(offered_load) : servers;
    // When m ≤ K√a the start is 0 whatever √a's rounding; m² < slack × K²a says so without the
    // square root (its latency delays the loop's start), the slack keeping the test clear of
    // rounding, so k0 is what it would be otherwise.
    const double md = static_cast<double>(m);
    const std::int64_t k0 =
        md * md < erlang_start_slack * erlang_start_deviations * erlang_start_deviations *
                      offered_load
            ? 0
            : m - static_cast<std::int64_t>(erlang_start_deviations * sqrt_of(offered_load)) - 1;
    const double inverse_load = 1.0 / offered_load;
    double inverse = 1.0;
    double k = static_cast<double>(k0 > 0 ? k0 : 0) + 1.0;
    // Eight steps at once (derived, the same sum regrouped). With x_j = j/a, four steps from
    // I(k−1) give I(k+3) = S + P·I(k−1), S = 1 + x_{k+3} + x_{k+3}x_{k+2} + x_{k+3}x_{k+2}x_{k+1},
    // P = x_{k+3}x_{k+2}x_{k+1}x_k; two such blocks, (S', P') after (S, P), give
    // I(k+7) = (S' + P'·S) + P'P·I(k−1). The sums and products do not depend on I, so only one
    // multiply-add per eight steps waits for the last (the recurrence's rounding chain was its
    // cost); every term is still positive, so the relative error stays a few roundings a block.
    // I only rises once k > a, and below that it is at most k + 1 (each term ≤ 1), so testing
    // the cap once a block returns what testing it every step did; a block that overflows to
    // +∞ (never NaN: every factor is > 0) is above it.
    const auto block = [inverse_load](double j, double& sum, double& product) {
        const double x3 = (j + 3.0) * inverse_load;
        const double x32 = x3 * ((j + 2.0) * inverse_load);
        const double x321 = x32 * ((j + 1.0) * inverse_load);
        sum = 1.0 + x3 + x32 + x321;
        product = x321 * (j * inverse_load);
    };
    for (; k + 7.0 <= c; k += 8.0) {
        double s_low = 0.0, p_low = 0.0, s_high = 0.0, p_high = 0.0;
        block(k, s_low, p_low);
        block(k + 4.0, s_high, p_high);
        inverse = (s_high + p_high * s_low) + p_high * p_low * inverse;
        if (inverse > erlang_negligible_inverse) return erlang_negligible_inverse;
    }
    if (k + 3.0 <= c) {
        double s_low = 0.0, p_low = 0.0;
        block(k, s_low, p_low);
        inverse = s_low + p_low * inverse;
        if (inverse > erlang_negligible_inverse) return erlang_negligible_inverse;
        k += 4.0;
    }
    for (; k <= c; k += 1.0) {  // the last 0 to 3 steps one at a time
        inverse = 1.0 + k * inverse_load * inverse;
        if (inverse > erlang_negligible_inverse) return erlang_negligible_inverse;
    }
    return inverse;
}

constexpr void check_erlang(const char* function, std::int64_t servers, double offered_load) {
    require_count(function, "servers", servers);
    if (!(offered_load >= 0.0 && offered_load <= largest_offered_load)) {
        throw_invalid(function, "offered_load", offered_load, "Erlangs",
                      "must be finite and in [0, 2^40]");
    }
}

/// 1/C for c ≥ 2 and 0 < a < c: ρ + (1 − ρ)/B (see erlang_c_stable), or +∞ where C is
/// returned as 0.
constexpr double erlang_c_inverse(std::int64_t servers, double offered_load) {
    const double c = static_cast<double>(servers);
    const double inverse = erlang_b_inverse(servers, offered_load);
    if (!(inverse < erlang_negligible_inverse)) return HUGE_VAL;
    return offered_load / c + (c - offered_load) / c * inverse;
}
/// Erlang C from the inverse of Erlang B for a < c: C = B/(1 − ρ(1 − B)) (Iversen 2015, Erlang's
/// C formula in terms of his B formula), written as 1/(ρ + (1 − ρ)/B) so that no difference of
/// near-equal numbers is formed; 1 − ρ is (c − a)/c.
constexpr double erlang_c_stable(std::int64_t servers, double offered_load) {
    if (!(offered_load > 0.0)) return 0.0;
    // One server (M/M/1): C = ρ = a exactly (Gross et al. 2008, §2.2), which the formula below
    // reaches only up to rounding; an M/G/1 wait (replicas_for_rate's prefill queue) asks for
    // it on every trial.
    if (servers == 1) return offered_load;
    return 1.0 / erlang_c_inverse(servers, offered_load);
}

}  // namespace detail

/// Erlang's loss function B(c, a): the share of arrivals blocked when c servers with no queue
/// carry offered load a (M/M/c/c; B is insensitive to the service distribution). Computed by
/// the recurrence in detail::erlang_b_inverse (Iversen 2015; Jagerman 1974), O(min(c, √a·53 +
/// 1,100)) multiply-adds, no allocation; values below 1e-300 are returned as 0.
/// Ranges: servers in [1, 2^40]; offered_load a in [0, 2^40] Erlangs (a ≥ c is allowed: the
/// loss system is stable at any load). The answer is in [0, 1).
constexpr double erlang_b(std::int64_t servers, double offered_load) {
    detail::check_erlang("erlang_b", servers, offered_load);
    if (!(offered_load > 0.0)) return 0.0;
    const double inverse = detail::erlang_b_inverse(servers, offered_load);
    return inverse < detail::erlang_negligible_inverse ? 1.0 / inverse : 0.0;
}

/// Erlang's delay function C(c, a): the probability that an arrival waits in an M/M/c queue
/// with offered load a, C = B/(1 − ρ(1 − B)), ρ = a/c (Iversen 2015; Gross, Shortell, Thompson
/// and Harris 2008, "Fundamentals of Queueing Theory", 4th ed., §2.3). For a ≥ c the queue has
/// no steady state (it grows without bound) and the answer is 1, the limit as ρ → 1: every
/// arrival waits; queue_wait reports that case with stable = false. Ranges: as erlang_b. The
/// answer is in [0, 1]; values below 1e-300 are returned as 0.
constexpr double erlang_c(std::int64_t servers, double offered_load) {
    detail::check_erlang("erlang_c", servers, offered_load);
    if (!(offered_load < static_cast<double>(servers))) return 1.0;
    return detail::erlang_c_stable(servers, offered_load);
}

/// What c servers do with Poisson arrivals: queue_wait's answer.
struct queue_wait_estimate {
    double offered_load = 0.0;  ///< a = λ × mean service time, in Erlangs
    double utilization = 0.0;   ///< ρ = a/c, each server's busy share; ≥ 1 when unstable
    /// False when λ ≥ cμ (ρ ≥ 1): the queue grows without bound and has no steady-state wait.
    /// wait_probability is then 1, and the three waits carry no answer (0 s): read this first.
    bool stable = true;
    double wait_probability = 0.0;  ///< Erlang C: the share of arrivals that wait at all
    /// (1 + C_s²)/2, the Allen–Cunneen factor the M/M/c waits are multiplied by (1 for
    /// exponential service, 1/2 for deterministic).
    double service_factor = 1.0;
    duration mean_wait{};        ///< the mean time in queue before service starts, W_q
    double percentile = 0.99;    ///< p, the percentile percentile_wait is for
    duration percentile_wait{};  ///< the p-th percentile of the time in queue (an approximation)
};

namespace detail {

[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_fraction(const char* function,
                                                                const char* field, double value,
                                                                const char* rule) {
    throw_invalid(function, field, value, "", rule);
}

/// queue_wait's and servers_for_wait's rules; `percentile_field` names the percentile as the
/// caller wrote it ("percentile", or servers_for_wait's "target.percentile").
constexpr void check_queue(const char* function, const request_rate& arrival_rate,
                           const duration& mean_service_time, double service_scv,
                           double percentile, const char* percentile_field = "percentile") {
    require_non_negative(function, "arrival_rate", arrival_rate);
    require_positive(function, "mean_service_time", mean_service_time);
    if (!(service_scv >= 0.0 && service_scv <= largest_service_scv)) {
        throw_bad_fraction(function, "service_scv", service_scv, "must be in [0, 1e6]");
    }
    if (!(percentile > 0.0 && percentile < 1.0)) {
        throw_bad_fraction(function, percentile_field, percentile, "must be in (0, 1)");
    }
}

/// queue_wait for checked input (the search calls it once per candidate count).
inline queue_wait_estimate queue_wait_checked(double arrival_rate, double mean_service_time,
                                              std::int64_t servers, double service_scv,
                                              double percentile) {
    queue_wait_estimate q{};
    const double c = static_cast<double>(servers);
    const double a = arrival_rate * mean_service_time;
    q.offered_load = a;
    q.utilization = a / c;
    q.percentile = percentile;
    // Allen 1990, "Probability, Statistics, and Queueing Theory with Computer Science
    // Applications", 2nd ed., Academic Press: the Allen–Cunneen approximation for GI/G/c,
    // W_q ≈ W_q(M/M/c) × (C_a² + C_s²)/2, with C_a² = 1 for Poisson arrivals.
    const double arrival_scv = 1.0;
    q.service_factor = (arrival_scv + service_scv) / 2.0;
    if (!(a < c)) {
        q.stable = false;
        q.wait_probability = 1.0;
        return q;
    }
    // C, and C ÷ (1 − p) for the percentile below. With c ≥ 2 the latter is 1 ÷ ((1/C)(1 − p)),
    // one division after the recurrence instead of two in a row (the same value up to one
    // rounding; replicas_for_rate waits on it every trial).
    const bool one = servers == 1 || !(a > 0.0);
    const double inverse = one ? 0.0 : erlang_c_inverse(servers, a);
    const double waits = one ? erlang_c_stable(servers, a) : 1.0 / inverse;
    q.wait_probability = waits;
    // M/M/c (Gross et al. 2008, §2.3): W_q = C/(cμ − λ), and the wait's tail
    // P(W_q > t) = C·e^(−(cμ − λ)t), so the p-th percentile is ln(C/(1 − p))/(cμ − λ) when
    // C > 1 − p, else 0. With μ = 1/s, cμ − λ = (c − a)/s.
    const double drain_time = mean_service_time / (c - a);  // 1/(cμ − λ)
    q.mean_wait = duration::from_value(q.service_factor * waits * drain_time);
    const double tail_ratio =
        one ? waits / (1.0 - percentile) : 1.0 / (inverse * (1.0 - percentile));
    q.percentile_wait = duration::from_value(
        tail_ratio > 1.0 ? q.service_factor * std::log(tail_ratio) * drain_time : 0.0);
    return q;
}

}  // namespace detail

/// The wait of Poisson arrivals at rate λ for c servers whose service takes mean_service_time
/// on average with squared coefficient of variation service_scv (C_s² = variance/mean²):
/// utilization, Erlang C, the mean wait and a percentile wait.
/// - M/M/c (service_scv = 1) is exact: W_q = C/(cμ − λ), P(W_q > t) = C·e^(−(cμ−λ)t)
///   (Gross et al. 2008, §2.3), t_p = max(0, ln(C/(1 − p))/(cμ − λ)).
/// - M/G/c is approximate: both waits are multiplied by the Allen–Cunneen factor (1 + C_s²)/2
///   (Allen 1990). For the mean this is the standard approximation (exact at c = 1, where it is
///   the Pollaczek–Khinchine formula); scaling the percentile by it too is a further
///   approximation that keeps the exponential tail's shape.
/// - λ ≥ cμ is an explicit answer: stable = false, wait_probability 1, waits 0 s (no answer).
/// Cost: one erlang_c, O(min(c, 53√a + 1,100)). Ranges: arrival_rate 0 or in [1e-30, 1e15]
/// requests/s; mean_service_time in [1e-30 s, 1e6 years]; servers in [1, 2^40]; service_scv in
/// [0, 1e6]; percentile in (0, 1). The answer is finite.
GPUCALC_DETAIL_HOT inline queue_wait_estimate queue_wait(const request_rate& arrival_rate,
                                                         const duration& mean_service_time,
                                                         std::int64_t servers,
                                                         double service_scv = 1.0,
                                                         double percentile = 0.99) {
    detail::check_queue("queue_wait", arrival_rate, mean_service_time, service_scv, percentile);
    detail::require_count("queue_wait", "servers", servers);
    return detail::queue_wait_checked(arrival_rate.value(), mean_service_time.value(), servers,
                                      service_scv, percentile);
}

/// What servers_for_wait aims at: the p-th percentile wait at most `percentile_wait`, and
/// optionally the mean wait at most `mean_wait`.
struct wait_target {
    duration percentile_wait{};  ///< > 0: the largest acceptable p-th percentile wait
    double percentile = 0.99;    ///< p in (0, 1)
    duration mean_wait{};        ///< 0 (the default) for no target on the mean, else > 0
};

/// servers_for_wait's answer.
struct server_search {
    /// False when no count up to largest_servers meets the target (servers and queue then carry
    /// no answer: 0 and a default queue_wait_estimate).
    bool found = false;
    std::int64_t servers = 0;  ///< the fewest servers meeting the target
    queue_wait_estimate queue{};  ///< queue_wait at that count
    int evaluations = 0;          ///< queue_wait evaluations the search made
};

namespace detail {
/// servers_for_wait for checked input (λ in requests/s, the mean service time in seconds):
/// replicas_for_rate sizes its disaggregated prefill pool with it, so that no error of
/// servers_for_wait's can reach its caller.
inline server_search servers_for_wait_checked(double lambda, double s, const wait_target& target,
                                              double service_scv, std::int64_t largest_servers) {
    const double a = lambda * s;
    server_search answer{};
    const double first = std::floor(a) + 1.0;  // the fewest servers with a < c
    if (first > static_cast<double>(largest_servers)) return answer;
    const bool has_mean_target = target.mean_wait.value() > 0.0;
    auto meets = [&](std::int64_t c, queue_wait_estimate& q) {
        q = detail::queue_wait_checked(lambda, s, c, service_scv, target.percentile);
        ++answer.evaluations;
        return q.stable && q.percentile_wait <= target.percentile_wait &&
               (!has_mean_target || q.mean_wait <= target.mean_wait);
    };
    queue_wait_estimate q{};
    std::int64_t fails = static_cast<std::int64_t>(first) - 1;  // unstable, or below c0
    std::int64_t step = 1;
    std::int64_t candidate = fails + 1;
    while (!meets(candidate, q)) {
        if (candidate >= largest_servers) return answer;
        fails = candidate;
        candidate = largest_servers - fails > step ? fails + step : largest_servers;
        step *= 2;
    }
    queue_wait_estimate best = q;
    std::int64_t good = candidate;
    while (good - fails > 1) {
        const std::int64_t mid = fails + (good - fails) / 2;
        if (meets(mid, q)) {
            good = mid;
            best = q;
        } else {
            fails = mid;
        }
    }
    answer.found = true;
    answer.servers = good;
    answer.queue = best;
    return answer;
}
}  // namespace detail

/// The fewest servers c with a stable queue whose percentile wait (and mean wait, when
/// target.mean_wait > 0) is at most the target, as queue_wait computes them.
/// Search (derived): both waits fall as c grows, since C(c, a) falls with c (Iversen 2015) and
/// 1/(c − a) does too, so the test is monotone in c. It starts at ⌊a⌋ + 1, the fewest servers
/// with a < c, gallops (c0, c0 + 1, c0 + 3, c0 + 7, ...) to the first count meeting the
/// target, then bisects the last gap: about 2·log2(answer − a) evaluations of queue_wait, each
/// O(min(c, 53√a + 1,100)), so the cost is at most linear in the answer. Up to rounding in the
/// waits as computed, the answer meets the target and one server fewer does not.
/// Ranges: as queue_wait; target.percentile_wait in [1e-30 s, 1e6 years]; target.mean_wait 0 or
/// in that range; target.percentile in (0, 1); largest_servers in [1, 2^40].
GPUCALC_DETAIL_HOT inline server_search servers_for_wait(
    const request_rate& arrival_rate, const duration& mean_service_time,
    const wait_target& target, double service_scv = 1.0,
    std::int64_t largest_servers = detail::largest_count) {
    constexpr const char* function = "servers_for_wait";
    detail::check_queue(function, arrival_rate, mean_service_time, service_scv,
                        target.percentile, "target.percentile");
    detail::require_positive(function, "target.percentile_wait", target.percentile_wait);
    detail::require_non_negative(function, "target.mean_wait", target.mean_wait);
    detail::require_count(function, "largest_servers", largest_servers);
    return detail::servers_for_wait_checked(arrival_rate.value(), mean_service_time.value(),
                                            target, service_scv, largest_servers);
}

}  // namespace gpucalc
