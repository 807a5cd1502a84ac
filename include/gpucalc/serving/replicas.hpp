// serving/replicas.hpp: the fewest replicas that serve a request rate at a latency SLO (time to
// first token at a percentile, and time per output token), the rate at which that many stop
// meeting it, and what the tokens cost at that size
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "break_search.hpp"
#include "capacity.hpp"
#include "load.hpp"
#include "queueing.hpp"
#include "replica_queues.hpp"

namespace gpucalc {

/// Why replicas_for_rate found a count, or did not.
enum class replicas_verdict {
    found,
    replica_infeasible,  ///< one replica cannot serve the profile at the SLO (replica.verdict)
    /// no count up to assumptions.largest_replicas meets both SLOs (or, disaggregated, no
    /// prefill pool up to 2^40 servers meets the TTFT)
    above_largest,
    /// The profile's p90s make a holding time's C_s² larger than queue_wait takes
    /// (largest_service_scv, 1e6: a p90 about 1,300 × its mean or more), beyond the queueing
    /// approximation: no count is given (service_scv holds the C² that was derived).
    service_scv_out_of_range,
};

constexpr std::string_view to_string(replicas_verdict v) {
    switch (v) {
        case replicas_verdict::found: return "found";
        case replicas_verdict::replica_infeasible: return "replica_infeasible";
        case replicas_verdict::above_largest: return "above_largest";
        case replicas_verdict::service_scv_out_of_range: return "service_scv_out_of_range";
    }
    return "unknown";
}

/// What the replica search assumes. Ranges: ttft_percentile in (0, 1); default_service_scv in
/// [0, 1e6]; largest_replicas in [1, 2^40]; replica as replica_assumptions says.
struct replicas_assumptions {
    /// The percentile the TTFT SLO is for: p99, the percentile serving SLOs are commonly stated
    /// at (DistServe, Zhong et al. 2024 §6, uses 90 % attainment; p99 is the stricter).
    double ttft_percentile = 0.99;
    /// C_s², the squared coefficient of variation of a slot's holding time when the profile
    /// gives no p90s: 1, exponential service, where M/M/c is exact (Gross et al. 2008 §2.3).
    double default_service_scv = 1.0;
    /// The most replicas searched.
    std::int64_t largest_replicas = std::int64_t{1} << 20;
    replica_assumptions replica{};  ///< replica_capacity's
};

/// replicas_for_rate's answer. When found is false, replicas and gpus are 0 and the rates and
/// times describe nothing (0).
struct replicas_estimate {
    bool found = false;
    replicas_verdict verdict = replicas_verdict::replica_infeasible;
    prefill_mode mode = prefill_mode::stall;
    routing route = routing::round_robin;
    request_rate rate{};             ///< λ asked for
    double percentile = 0.99;        ///< the TTFT percentile
    std::int64_t replicas = 0;       ///< R: the fewest meeting both SLOs at λ
    std::int64_t gpus_per_replica = 1;  ///< tensor × pipeline
    std::int64_t gpus = 0;           ///< R × gpus_per_replica (decode replicas)
    /// disaggregated: the prefill servers (each a replica's layout) that keep the prefill pool's
    /// percentile wait + P within the TTFT SLO at λ; 0 in the other modes.
    std::int64_t prefill_servers = 0;
    std::int64_t prefill_gpus = 0;   ///< prefill_servers × gpus_per_replica
    std::int64_t total_gpus = 0;     ///< gpus + prefill_gpus
    double utilization = 0.0;        ///< each replica's λ ÷ R ÷ capacity (load model)
    replica_load load{};             ///< one replica at λ ÷ R
    double service_scv = 1.0;        ///< C_s² of a slot's holding time (see replicas_for_rate)
    duration slot_time{};            ///< the mean time a request holds a batch slot
    queue_wait_estimate slot_queue{};  ///< the wait for a slot (per replica or pooled)
    /// stall and chunked: the wait behind the replica's other prefills (chunked: for the chunk
    /// budget)
    duration prefill_wait{};
    duration time_to_first_token{};  ///< the TTFT percentile: waits + prefill
    duration time_per_token{};       ///< the effective time per output token at λ ÷ R
    /// The largest rate at which R replicas meet both SLOs (bisection on λ): above it the next
    /// replica is needed.
    request_rate break_rate{};
    double headroom = 0.0;           ///< break_rate ÷ λ − 1: the traffic growth R absorbs
    replica_capacity_estimate replica{};  ///< one replica's capacity
    int evaluations = 0;             ///< candidate (R, λ) pairs tested
};

namespace detail {

/// replicas_for_rate's rules for its other inputs. `nested`: the assumptions are another
/// function's `assumptions.replicas`, and errors name them so.
constexpr void check_replicas_inputs(const char* function, const request_profile& p,
                                     routing route, const request_rate& rate,
                                     const replicas_assumptions& a, bool nested = false) {
    const auto name = [nested](const char* own, const char* inner) { return nested ? inner : own; };
    check_request_profile(p, function);
    require_enumerator(function, "route", route, 2, "routing");
    require_positive(function, "rate", rate);
    if (!(a.ttft_percentile > 0.0 && a.ttft_percentile < 1.0)) {
        throw_invalid(function,
                      name("assumptions.ttft_percentile", "assumptions.replicas.ttft_percentile"),
                      a.ttft_percentile, "", "must be in (0, 1)");
    }
    if (!(a.default_service_scv >= 0.0 && a.default_service_scv <= largest_service_scv)) {
        throw_invalid(function,
                      name("assumptions.default_service_scv",
                           "assumptions.replicas.default_service_scv"),
                      a.default_service_scv, "", "must be in [0, 1e6]");
    }
    require_count(function,
                  name("assumptions.largest_replicas", "assumptions.replicas.largest_replicas"),
                  a.largest_replicas);
}

/// The replicas and the disaggregated prefill servers of an answer: servers of one replica's
/// layout each, which is what a fleet holds and pays for.
constexpr std::int64_t servers_of(const replicas_estimate& e) {
    return e.replicas + e.prefill_servers;
}

}  // namespace detail

/// The fewest replicas of `replica` (replica_capacity's estimate for `profile`) that serve λ =
/// `rate` requests/s with `route`, meeting the replica's SLO: the time per output token (mean)
/// and the time to first token at assumptions.ttft_percentile. Method (derived, from the parts
/// cited where they are defined):
/// - TPOT: each replica gets λ ÷ R; replica_at_rate's load model must be stable with its
///   effective time per token τ within the SLO (prefill's lost decode time and slower tokens).
/// - The slot queue: a request holds a batch slot for its prefill (stall P; chunked the chunk
///   steps ⌈N ÷ C⌉ × (T + X); disaggregated none) plus D × τ; C_s² from the lengths' p90s
///   (detail::scv_from_p90: exponential-like spread), or assumptions.default_service_scv.
///   queue_wait (Erlang C, Allen–Cunneen) with B servers at λ ÷ R (round-robin) or R × B at λ
///   (JSQ as a central queue; see routing).
/// - TTFT = the slot wait's percentile + the replica's TTFT floor (P, or the chunks' steps);
///   stall adds the percentile wait behind the replica's other prefills (one M/G/1 server fed
///   λ ÷ R, service P) and one decode step; chunked the same for the chunk budget (one M/G/1
///   server fed λ ÷ R, service N ÷ C steps of T(n) + X). Percentiles are summed (conservative).
/// - disaggregated: prefill_servers as servers_for_wait finds them (λ, service P, the prompts'
///   C², percentile wait ≤ TTFT SLO − P, at most 2^40; none: above_largest). The prefill
///   pool's wait and the decode-slot wait are each kept within the TTFT budget, not their sum
///   (the first token comes from the prefill; the slot wait delays the second).
/// - Search: both tests fail for fewer replicas (monotone in R); R starts at ⌈λ ÷ the replica's
///   sustainable rate⌉ (fewer break the TPOT), gallops (R0, R0 + 1, R0 + 3, ...), then bisects.
/// - break_rate: the root of TTFT − SLO on λ in [λ, R × sustainable rate] (monotone in λ), by
///   Brent's method (secant and inverse quadratic steps safeguarded by bisection), to
///   detail::break_tolerance × λ.
/// No answer (found = false, an answer, not an exception; the verdict says why): the replica is
/// not feasible (or, made by hand, its prefill exceeds its TTFT SLO); the lengths' C² is beyond
/// queue_wait's range (service_scv_out_of_range); no count up to assumptions.largest_replicas
/// meets both SLOs.
/// Ranges: replica as replica_capacity returns it (detail::check_replica_estimate's rules for
/// one made by hand: gpus and batch counts, positive rates); the profile as request_profile says;
/// route an enumerator; rate in [1e-30, 1e15] requests/s (> 0: no traffic needs no replica);
/// assumptions as replicas_assumptions says (its replica field is not read here).
GPUCALC_DETAIL_HOT inline replicas_estimate replicas_for_rate(
    const replica_capacity_estimate& replica, const request_profile& profile, routing route,
    request_rate rate, const replicas_assumptions& assumptions = {}) {
    constexpr const char* function = "replicas_for_rate";
    detail::check_replicas_inputs(function, profile, route, rate, assumptions);
    detail::check_replica_estimate(replica, function);
    replicas_estimate out{};
    out.mode = replica.mode;
    out.route = route;
    out.rate = rate;
    out.percentile = assumptions.ttft_percentile;
    out.gpus_per_replica = replica.gpus;
    out.replica = replica;
    if (!replica.feasible) return out;
    const double lambda = rate.value();
    const std::int64_t cap = assumptions.largest_replicas;
    const detail::replicas_parts parts =
        detail::replicas_parts_of(replica, profile, assumptions.default_service_scv);
    if (!detail::service_scv_in_range(parts)) {
        out.verdict = replicas_verdict::service_scv_out_of_range;
        out.service_scv = parts.c2_prompt > parts.c2_output ? parts.c2_prompt : parts.c2_output;
        return out;
    }
    const auto trial = [&](std::int64_t r, double lam) {
        ++out.evaluations;
        return detail::replicas_try(replica, parts, route, assumptions.ttft_percentile, lam, r);
    };
    // The fewest replicas that can hold the TPOT: λ ÷ R ≤ the sustainable rate.
    const double lowest = std::ceil(lambda / replica.sustainable_rate.value());
    out.verdict = replicas_verdict::above_largest;
    if (!(lowest <= static_cast<double>(cap))) return out;
    std::int64_t fails = lowest > 1.0 ? static_cast<std::int64_t>(lowest) - 1 : 0;
    std::int64_t step = 1;
    std::int64_t candidate = fails + 1;
    detail::replicas_trial t = trial(candidate, lambda);
    while (!t.meets) {
        if (candidate >= cap) return out;
        fails = candidate;
        candidate = cap - fails > step ? fails + step : cap;
        step *= 2;
        t = trial(candidate, lambda);
    }
    std::int64_t good = candidate;
    detail::replicas_trial best = t;
    while (good - fails > 1) {
        const std::int64_t mid = fails + (good - fails) / 2;
        const detail::replicas_trial m = trial(mid, lambda);
        if (m.meets) {
            good = mid;
            best = m;
        } else {
            fails = mid;
        }
    }
    if (replica.mode == prefill_mode::disaggregated && replica.prefill_time > duration{}) {
        // The prefill pool: the fewest servers of the replica's layout whose percentile wait
        // is within the TTFT SLO less P (a budget of 0 asks for no wait at that percentile).
        const duration budget = replica.step.slo.time_to_first_token - replica.prefill_time;
        if (budget < duration{}) {  // a hand-made estimate whose P exceeds its TTFT SLO
            out.verdict = replicas_verdict::replica_infeasible;
            return out;
        }
        const server_search pool = detail::servers_for_wait_checked(
            lambda, replica.prefill_time.value(),
            wait_target{budget, assumptions.ttft_percentile, {}}, parts.c2_prompt,
            detail::largest_count);
        if (!pool.found) return out;  // above_largest
        out.prefill_servers = pool.servers;
        out.prefill_gpus = pool.servers * replica.gpus;
    }
    out.found = true;
    out.verdict = replicas_verdict::found;
    out.replicas = good;
    out.gpus = good * replica.gpus;
    out.load = best.load;
    out.utilization = best.load.utilization;
    out.service_scv = best.service_scv;
    out.slot_time = best.slot_time;
    out.slot_queue = best.slot_queue;
    out.prefill_wait = best.prefill_wait;
    out.time_to_first_token = best.ttft;
    out.time_per_token = best.load.time_per_token;
    // The break: R meets at λ; R × the sustainable rate breaks the TPOT (or meets, at the top).
    double lo = lambda;
    double hi = static_cast<double>(good) * replica.sustainable_rate.value();
    const detail::replicas_trial top = trial(good, hi);
    if (top.meets) {
        lo = hi;
    } else {
        // Below R × the sustainable rate only the TTFT can fail, and TTFT − SLO rises with λ:
        // the break is its root (detail::break_rate_search, Brent's method).
        const auto probe = [&](double lam) {
            const detail::replicas_trial x = trial(good, lam);
            return detail::break_probe{x.meets, x.ttft.value()};
        };
        lo = detail::break_rate_search(probe, lo, hi,
                                       detail::break_probe{best.meets, best.ttft.value()},
                                       detail::break_probe{top.meets, top.ttft.value()},
                                       replica.step.slo.time_to_first_token.value());
    }
    out.break_rate = make<requests_per_second>(lo);
    out.headroom = lo / lambda - 1.0;
    out.total_gpus = out.gpus + out.prefill_gpus;
    return out;
}

/// replica_capacity, then replicas_for_rate (mode, SLO and layout as replica_capacity takes
/// them; assumptions.replica is its assumptions). Ranges: as the two functions state.
inline replicas_estimate replicas_for_rate(const checked_model& m, const checked_cluster& c,
                                           const serving_setup& setup,
                                           const request_profile& profile, const serving_slo& slo,
                                           prefill_mode mode, routing route, request_rate rate,
                                           const replicas_assumptions& assumptions = {}) {
    constexpr const char* function = "replicas_for_rate";
    detail::check_replicas_inputs(function, profile, route, rate, assumptions);
    detail::check_slo(slo, function);
    detail::require_enumerator(function, "mode", mode, 3, "prefill_mode");
    return replicas_for_rate(detail::replica_capacity_as(m, c, setup, profile, slo, mode,
                                                         assumptions.replica, function),
                             profile, route, rate, assumptions);
}
/// The same for a model and a cluster not yet checked: checks both first.
inline replicas_estimate replicas_for_rate(const transformer& m, const cluster& c,
                                           const serving_setup& setup,
                                           const request_profile& profile, const serving_slo& slo,
                                           prefill_mode mode, routing route, request_rate rate,
                                           const replicas_assumptions& assumptions = {}) {
    constexpr const char* function = "replicas_for_rate";
    return replicas_for_rate(check(m, function), detail::check_cluster(c, function), setup,
                             profile, slo, mode, route, rate, assumptions);
}

/// The price of a million output tokens at the size found: total_gpus × price ÷ (λ × mean
/// output tokens), the GPUs paid for whether busy or not (derived). `output_tokens` is the
/// profile's output_mean. An estimate that found nothing answers 0 (read found first).
/// Ranges: price 0 or in [1e-30, $1e9/GPU·h] in base units; output_tokens in [1, 2^40]; an
/// estimate that found an answer (replicas_for_rate's, or one made by hand): its rate in
/// [1e-30, 1e15] requests/s and its total_gpus in [1, 2^40] (errors name "estimate.<member>").
inline token_price replicas_cost_per_million_tokens(const replicas_estimate& estimate,
                                                    std::int64_t output_tokens, gpu_price price) {
    constexpr const char* function = "replicas_cost_per_million_tokens";
    detail::require_non_negative(function, "price", price);
    detail::require_count(function, "output_tokens", output_tokens);
    if (!estimate.found) return token_price{};
    detail::require_positive(function, "estimate.rate", estimate.rate);
    detail::require_count(function, "estimate.total_gpus", estimate.total_gpus);
    const token_rate generated =
        estimate.rate * make<tokens>(static_cast<double>(output_tokens)) / make<sequences>(1.0);
    return price * make<gpus>(static_cast<double>(estimate.total_gpus)) / generated;
}

}  // namespace gpucalc
