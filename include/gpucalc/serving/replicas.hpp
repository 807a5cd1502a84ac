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
    /// One replica's capacity: the estimate passed in, or (the overloads taking the model) the
    /// one at the batch cap chosen, replica.batch.
    replica_capacity_estimate replica{};
    /// The largest batch considered: the estimate's batch, or (the overloads taking the model)
    /// replica_capacity's at the SLO, the top of the batch caps searched; 0 when not feasible.
    std::int64_t largest_batch = 0;
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

namespace detail {

/// What every answer echoes of its inputs; the search fills the rest.
inline replicas_estimate replicas_answer_head(const replica_capacity_estimate& replica,
                                              routing route, request_rate rate,
                                              const replicas_assumptions& a) {
    replicas_estimate out{};
    out.mode = replica.mode;
    out.route = route;
    out.rate = rate;
    out.percentile = a.ttft_percentile;
    out.gpus_per_replica = replica.gpus;
    out.replica = replica;
    out.largest_batch = replica.feasible ? replica.batch : 0;
    return out;
}

/// Fills `out` for R = `r` replicas of `replica`, whose trial at λ is `best`: the answer's
/// fields, the break rate and, disaggregated, the prefill pool. The pool may have no answer
/// (its own verdict); then out stays not found.
inline void replicas_answer(replicas_estimate& out, const replica_capacity_estimate& replica,
                            const replicas_parts& parts, routing route,
                            const replicas_assumptions& a, std::int64_t r,
                            const replicas_trial& best) {
    const double lambda = out.rate.value();
    const auto trial = [&](double lam) {
        ++out.evaluations;
        return replicas_try(replica, parts, route, a.ttft_percentile, lam, r);
    };
    if (replica.mode == prefill_mode::disaggregated && replica.prefill_time > duration{}) {
        // The prefill pool: the fewest servers of the replica's layout whose percentile wait
        // is within the TTFT SLO less P (a budget of 0 asks for no wait at that percentile).
        const duration budget = replica.step.slo.time_to_first_token - replica.prefill_time;
        if (budget < duration{}) {  // a hand-made estimate whose P exceeds its TTFT SLO
            out.verdict = replicas_verdict::replica_infeasible;
            return;
        }
        const server_search pool = servers_for_wait_checked(
            lambda, replica.prefill_time.value(), wait_target{budget, a.ttft_percentile, {}},
            parts.c2_prompt, largest_count);
        if (!pool.found) return;  // above_largest
        out.prefill_servers = pool.servers;
        out.prefill_gpus = pool.servers * replica.gpus;
    }
    out.found = true;
    out.verdict = replicas_verdict::found;
    out.replicas = r;
    out.gpus = r * replica.gpus;
    out.total_gpus = out.gpus + out.prefill_gpus;
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
    const double hi = static_cast<double>(r) * replica.sustainable_rate.value();
    const replicas_trial top = trial(hi);
    if (top.meets) {
        lo = hi;
    } else {
        // Below R × the sustainable rate only the TTFT can fail, and TTFT − SLO rises with λ:
        // the break is its root (detail::break_rate_search, Brent's method).
        const auto probe = [&](double lam) {
            const replicas_trial x = trial(lam);
            return break_probe{x.meets, x.ttft.value()};
        };
        lo = break_rate_search(probe, lo, hi, break_probe{best.meets, best.ttft.value()},
                               break_probe{top.meets, top.ttft.value()},
                               replica.step.slo.time_to_first_token.value());
    }
    out.break_rate = make<requests_per_second>(lo);
    out.headroom = lo / lambda - 1.0;
}

/// replicas_for_rate for checked input: the fewest replicas of this one replica.
GPUCALC_DETAIL_HOT inline replicas_estimate replicas_of_replica(
    const replica_capacity_estimate& replica, const request_profile& profile, routing route,
    request_rate rate, const replicas_assumptions& a) {
    replicas_estimate out = replicas_answer_head(replica, route, rate, a);
    if (!replica.feasible) return out;
    const replicas_parts parts = replicas_parts_of(replica, profile, a.default_service_scv);
    if (!service_scv_in_range(parts)) {
        out.verdict = replicas_verdict::service_scv_out_of_range;
        out.service_scv = parts.c2_prompt > parts.c2_output ? parts.c2_prompt : parts.c2_output;
        return out;
    }
    const double lambda = rate.value();
    const std::int64_t cap = a.largest_replicas;
    const auto trial = [&](std::int64_t r) {
        ++out.evaluations;
        return replicas_try(replica, parts, route, a.ttft_percentile, lambda, r);
    };
    // The fewest replicas that can hold the TPOT: λ ÷ R ≤ the sustainable rate.
    const double lowest = std::ceil(lambda / replica.sustainable_rate.value());
    out.verdict = replicas_verdict::above_largest;
    if (!(lowest <= static_cast<double>(cap))) return out;
    replicas_trial best{};
    const std::int64_t r = fewest_meeting(
        trial, lowest > 1.0 ? static_cast<std::int64_t>(lowest) - 1 : 0, cap, best);
    if (r > 0) replicas_answer(out, replica, parts, route, a, r, best);
    return out;
}

/// How many significant bits the batch caps below the largest keep (see batch_cap_at_or_below).
inline constexpr int batch_cap_bits = 6;

/// The largest batch cap at or below b (b ≥ 1) that replicas_for_rate tries: every count up to
/// 64, and above it those with at most six significant bits (64, 66, ..., 126, 128, 132, ...),
/// each within 1/32 of the next. The set does not depend on the SLO or the rate.
constexpr std::int64_t batch_cap_at_or_below(std::int64_t b) {
    int bits = 0;
    while (bits < 63 && (b >> bits) != 0) ++bits;
    const int drop = bits > batch_cap_bits ? bits - batch_cap_bits : 0;
    return (b >> drop) << drop;
}

/// replicas_for_rate over the batch caps of a sized replica (see the overload taking the model).
GPUCALC_DETAIL_HOT inline replicas_estimate replicas_over_batches(
    const checked_model& m, const checked_cluster& c, const replica_sizing& z,
    const request_profile& profile, routing route, request_rate rate,
    const replicas_assumptions& a) {
    if (z.head.verdict != replica_verdict::feasible) {
        return replicas_of_replica(z.head, profile, route, rate, a);
    }
    const std::int64_t top = largest_replica_batch(m, c, z);
    const replica_capacity_estimate at_top = replica_at_batch(m, c, z, top);
    if (!length_scv_in_range(profile, a.default_service_scv)) {
        return replicas_of_replica(at_top, profile, route, rate, a);
    }
    const double lambda = rate.value();
    // A cap's capacity is at most b ÷ (b × P_min + D × T(1)) (derived: T(b) ≥ T(1); P_min = P
    // when prefill stalls, else 0), which rises with b: once λ ÷ (one replica fewer than the best)
    // reaches it, that cap and every smaller one overload, and the search stops (the bound is
    // taken 1e-12 higher, clear of rounding).
    const double p_min = z.head.mode == prefill_mode::stall ? z.head.prefill_time.value() : 0.0;
    const double decode_one = static_cast<double>(z.output_tokens) * z.one.time_per_token.value();
    int evaluations = 0;
    std::int64_t best_r = 0, best_b = 0;
    replicas_trial best{};
    // From the top down; a cap is kept only when it needs fewer replicas (ties keep the larger).
    // The top itself is tried only when memory bounds it, a bound the SLO does not move.
    for (std::int64_t b = top == z.head.memory_batch ? top : batch_cap_at_or_below(top);
         b >= 1 && best_r != 1; b = b > 1 ? batch_cap_at_or_below(b - 1) : 0) {
        const std::int64_t fewer = best_r > 0 ? best_r - 1 : a.largest_replicas;
        const double bd = static_cast<double>(b);
        if (!(lambda / static_cast<double>(fewer) <
              bd / (bd * p_min + decode_one) * (1.0 + 1e-12))) {
            break;
        }
        // A pooled queue of more than 2^40 slots is beyond queueing's range (replicas_try).
        const std::int64_t last = route == routing::join_shortest_queue && largest_count / b < fewer
                                      ? largest_count / b
                                      : fewer;
        const replica_capacity_estimate e = b == top ? at_top : replica_at_batch(m, c, z, b, false);
        // Counts up to λ ÷ capacity overload the replica: they fail.
        const double overloaded = std::floor(lambda / e.capacity.value());
        if (last < 1 || !(overloaded < static_cast<double>(last))) continue;
        const replicas_parts k = replicas_parts_of(e, profile, a.default_service_scv);
        const auto trial = [&](std::int64_t r) {
            ++evaluations;
            return replicas_try(e, k, route, a.ttft_percentile, lambda, r);
        };
        if (!trial(last).meets) continue;  // nor does any count below it
        replicas_trial t{};
        best_r = fewest_meeting(trial, static_cast<std::int64_t>(overloaded), last, t);
        best_b = b;
        best = t;
    }
    if (best_r == 0) {
        replicas_estimate none = replicas_of_replica(at_top, profile, route, rate, a);
        none.evaluations += evaluations;
        return none;
    }
    const replica_capacity_estimate chosen = best_b == top ? at_top
                                                           : replica_at_batch(m, c, z, best_b);
    replicas_estimate out = replicas_answer_head(chosen, route, rate, a);
    out.largest_batch = top;
    out.evaluations = evaluations;
    replicas_answer(out, chosen, replicas_parts_of(chosen, profile, a.default_service_scv), route,
                    a, best_r, best);
    return out;
}

}  // namespace detail

/// The fewest replicas of `replica` (replica_capacity's estimate for `profile`) that serve λ =
/// `rate` requests/s with `route`, meeting the replica's SLO: the time per output token (mean)
/// and the time to first token at assumptions.ttft_percentile, the replica's batch as it is.
/// Method (derived, from the parts cited where they are defined):
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
    return detail::replicas_of_replica(replica, profile, route, rate, assumptions);
}

/// The fewest GPUs that serve λ = `rate` requests/s at `slo`, choosing the replica's batch cap
/// (replica_capacity's model, layout and assumptions.replica as it takes them): for each cap b
/// tried, R(b) = replicas_for_rate(replica_capacity's estimate at batch b, ...); the answer is the
/// fewest, ties going to the larger cap, and equals replicas_for_rate(its `replica`, ...).
/// A larger batch serves more per replica but lengthens every step, and so the TTFT floor and
/// the waits: at a tight TTFT the largest batch replica_capacity finds can leave no room for
/// queueing (derived; the search weighs the two). Caps tried: replica_capacity's batch B when
/// memory (or assumptions.replica.batch_limit) bounds it, and below it every cap up to 64 and
/// those with six significant bits above (detail::batch_cap_at_or_below, within 1/32 of each
/// other). That set grows with a looser SLO and does not depend on the rate, so a looser SLO
/// never needs more GPUs, and a higher rate never fewer (each R(b) being monotone). Cost: a
/// decode step and one replicas_for_rate trial per cap (at most 64 + 32 per doubling of B), plus
/// a search where the count falls; the caps stop where even b ÷ (b × P + D × T(1)) requests/s
/// per replica (stall; b ÷ (D × T(1)) otherwise) cannot carry λ on one replica fewer.
/// Ranges: as replica_capacity and replicas_for_rate (the estimate's overload) state.
inline replicas_estimate replicas_for_rate(const checked_model& m, const checked_cluster& c,
                                           const serving_setup& setup,
                                           const request_profile& profile, const serving_slo& slo,
                                           prefill_mode mode, routing route, request_rate rate,
                                           const replicas_assumptions& assumptions = {}) {
    constexpr const char* function = "replicas_for_rate";
    detail::check_replicas_inputs(function, profile, route, rate, assumptions);
    detail::check_slo(slo, function);
    detail::require_enumerator(function, "mode", mode, 3, "prefill_mode");
    return detail::replicas_over_batches(
        m, c,
        detail::size_replica(m, c, setup, profile, slo, mode, assumptions.replica, function),
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
