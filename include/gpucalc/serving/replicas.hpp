// serving/replicas.hpp: the fewest replicas that serve a request rate at a latency SLO (time to
// first token at a percentile, and time per output token), the rate at which that many stop
// meeting it, and what the tokens cost at that size
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "capacity.hpp"
#include "load.hpp"
#include "break_search.hpp"
#include "queueing.hpp"

namespace gpucalc {

/// How requests are spread over the replicas; each answer says which it assumes.
enum class routing {
    /// Request k goes to replica k mod R: R independent queues, each fed λ ÷ R and each an
    /// M/G/B queue for its B batch slots. Round-robin's arrivals to one replica are less
    /// variable than Poisson (Erlang-R intervals), so treating them as Poisson overstates the
    /// wait: an upper bound.
    round_robin,
    /// Join the shortest queue, approximated by one central queue for all R × B slots (an M/G/RB
    /// queue fed λ). Exact for a central queue; optimistic for JSQ, which routes at arrival and
    /// cannot move a request once a slot frees elsewhere (Gupta, Harchol-Balter, Sigman and
    /// Whitt 2007, "Analysis of join-the-shortest-queue routing for web server farms",
    /// Performance Evaluation 64: JSQ comes near, not to, the central queue). The herding of
    /// prefills that issue 16 and the simulation show under JSQ is not modelled.
    join_shortest_queue,
};

constexpr std::string_view to_string(routing r) {
    switch (r) {
        case routing::round_robin: return "round_robin";
        case routing::join_shortest_queue: return "join_shortest_queue";
    }
    return "unknown";
}

/// Why replicas_for_rate found a count, or did not.
enum class replicas_verdict {
    found,
    replica_infeasible,  ///< one replica cannot serve the profile at the SLO (replica.verdict)
    above_largest,       ///< no count up to assumptions.largest_replicas meets both SLOs
};

constexpr std::string_view to_string(replicas_verdict v) {
    switch (v) {
        case replicas_verdict::found: return "found";
        case replicas_verdict::replica_infeasible: return "replica_infeasible";
        case replicas_verdict::above_largest: return "above_largest";
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

/// The squared coefficient of variation of a length with mean m and 90th percentile p90
/// (derived): the spread taken proportional to p90 − m, scaled so that an exponential length
/// (p90 = m ln 10, C² = 1) gives 1; p90 = m gives 0 (fixed lengths).
constexpr double scv_from_p90(std::int64_t mean, std::int64_t p90) {
    const double ln10_minus_one = 1.302585092994046;  // ln 10 − 1: an exponential's (p90 − m)/m
    const double c = static_cast<double>(p90 - mean) /
                     (ln10_minus_one * static_cast<double>(mean));
    return c * c;
}

/// What replicas_for_rate computes for R replicas at rate λ: everything but the search's own
/// fields. `meets` is whether both SLOs hold.
struct replicas_trial {
    bool meets = false;
    replica_load load{};
    double service_scv = 1.0;
    duration slot_time{};
    queue_wait_estimate slot_queue{};
    duration prefill_wait{};
    duration ttft{};
};

/// What every trial of one replicas_for_rate call shares, computed once.
struct replicas_parts {
    load_parts load{};  ///< load_at's rate-free parts
    /// The slot is held through the request's prefill and its D tokens (derived): stall P,
    /// chunked the chunks' ⌈N ÷ C⌉ steps (capacity's TTFT floor), disaggregated 0 (decode slots
    /// only). This is the prefill's part.
    double prefill_hold = 0.0;
    /// C_s² of the prompt and output lengths: each from its p90, or the default without one.
    double c2_prompt = 1.0;
    double c2_output = 1.0;
};

inline replicas_parts replicas_parts_of(const replica_capacity_estimate& e,
                                        const request_profile& p, const replicas_assumptions& a) {
    replicas_parts k{};
    const replica_step_model& s = e.step;
    k.load = load_parts_of(s);
    k.prefill_hold = s.mode == prefill_mode::stall     ? s.prefill_time.value()
                     : s.mode == prefill_mode::chunked ? e.time_to_first_token.value()
                                                       : 0.0;
    k.c2_prompt = p.prompt_p90 > 0 ? scv_from_p90(p.prompt_mean, p.prompt_p90)
                                   : a.default_service_scv;
    k.c2_output = p.output_p90 > 0 ? scv_from_p90(p.output_mean, p.output_p90)
                                   : a.default_service_scv;
    return k;
}

inline replicas_trial replicas_try(const replica_capacity_estimate& e, const replicas_parts& k,
                                   routing route, const replicas_assumptions& a, double lambda,
                                   std::int64_t r) {
    replicas_trial t{};
    const replica_step_model& s = e.step;
    const double per_replica = lambda / static_cast<double>(r);
    t.load = load_at(s, make<requests_per_second>(per_replica), k.load);
    const double tau = t.load.time_per_token.value();
    const double d = static_cast<double>(s.output_tokens);
    const double prefill_hold = k.prefill_hold;  // see replicas_parts
    const double decode_hold = d * tau;
    t.slot_time = duration::from_value(prefill_hold + decode_hold);
    // C_s² of the holding time (derived): prefill ∝ prompt length, decode ∝ output length,
    // independent, each with its p90's C², or the default without a p90.
    const double c2_prompt = k.c2_prompt;
    const double c2_output = k.c2_output;
    const double hold = prefill_hold + decode_hold;
    t.service_scv = (prefill_hold * prefill_hold * c2_prompt + decode_hold * decode_hold * c2_output) /
                    (hold * hold);
    if (t.service_scv > largest_service_scv) t.service_scv = largest_service_scv;
    if (!t.load.slo_met) return t;
    const bool pooled = route == routing::join_shortest_queue;
    const double arrivals = pooled ? lambda : per_replica;
    const std::int64_t servers = pooled ? r * s.batch : s.batch;
    const double servers_d = static_cast<double>(r) * static_cast<double>(s.batch);
    if (pooled && servers_d > largest_offered_load) return t;  // beyond queueing's range
    t.slot_queue = queue_wait_checked(arrivals, hold, servers, t.service_scv, a.ttft_percentile);
    if (!t.slot_queue.stable) return t;
    double first_token = e.time_to_first_token.value();  // P, or the chunks' steps
    if (s.mode == prefill_mode::stall) {
        // Behind the replica's other prefills (derived): its prefills as one M/G/1 server fed
        // λ ÷ R with service P (the load model's prefill share λP ÷ R is its utilization), the
        // prompts' C², plus one decode step, the longest a prefill waits for the running step.
        const queue_wait_estimate q =
            queue_wait_checked(per_replica, s.prefill_time.value(), 1, c2_prompt,
                               a.ttft_percentile);
        if (!q.stable) return t;
        t.prefill_wait = duration::from_value(q.percentile_wait.value() + e.time_per_token.value());
        first_token += t.prefill_wait.value();
    } else if (s.mode == prefill_mode::chunked) {
        // Behind the replica's other prompts (derived, as for stall): the chunk budget is one
        // server that admits C prompt tokens per step, so a prompt of N tokens holds it for
        // N ÷ C steps, each T(n) + X long while the budget is in use (n: the load model's
        // running batch). Fed λ ÷ R, its utilization λ N (T(n) + X) ÷ (R C) reaches 1 exactly at
        // the load model's chunk-fed capacity C ÷ (N (T(m) + X)), m = C D ÷ N. Plus one step,
        // the longest a new prompt waits for the running step to end.
        const double chunk_step = s.step_fixed.value() +
                                  s.step_per_sequence.value() * t.load.running_batch +
                                  s.chunk_step_extra.value();
        const double budget_hold = static_cast<double>(s.prompt_tokens) /
                                   static_cast<double>(s.chunk_tokens) * chunk_step;
        const queue_wait_estimate q =
            queue_wait_checked(per_replica, budget_hold, 1, c2_prompt, a.ttft_percentile);
        if (!q.stable) return t;
        t.prefill_wait = duration::from_value(q.percentile_wait.value() + e.time_per_token.value());
        first_token += t.prefill_wait.value();
    }
    // The percentiles are added: at least the sum's percentile (conservative).
    t.ttft = duration::from_value(t.slot_queue.percentile_wait.value() + first_token);
    t.meets = t.ttft <= s.slo.time_to_first_token;
    return t;
}


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
/// - disaggregated: prefill_servers from servers_for_wait (λ, service P, the prompts' C²,
///   percentile wait ≤ TTFT SLO − P). The prefill pool's wait and the decode-slot wait are each
///   kept within the TTFT budget, not their sum (the first token comes from the prefill; the
///   slot wait delays the second).
/// - Search: both tests fail for fewer replicas (monotone in R); R starts at ⌈λ ÷ the replica's
///   sustainable rate⌉ (fewer break the TPOT), gallops (R0, R0 + 1, R0 + 3, ...), then bisects.
/// - break_rate: the root of TTFT − SLO on λ in [λ, R × sustainable rate] (monotone in λ), by
///   Brent's method (secant and inverse quadratic steps safeguarded by bisection), to
///   detail::break_tolerance × λ.
/// No answer (found = false, an answer, not an exception): the replica is not feasible, or no
/// count up to assumptions.largest_replicas meets both SLOs.
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
    const detail::replicas_parts parts = detail::replicas_parts_of(replica, profile, assumptions);
    const auto trial = [&](std::int64_t r, double lam) {
        ++out.evaluations;
        return detail::replicas_try(replica, parts, route, assumptions, lam, r);
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
    if (replica.mode == prefill_mode::disaggregated) {
        const duration budget = replica.step.slo.time_to_first_token - replica.prefill_time;
        const double c2_prompt = profile.prompt_p90 > 0
                                     ? detail::scv_from_p90(profile.prompt_mean, profile.prompt_p90)
                                     : assumptions.default_service_scv;
        if (budget > duration{} && replica.prefill_time > duration{}) {
            const server_search pool = servers_for_wait(
                rate, replica.prefill_time, wait_target{budget, assumptions.ttft_percentile, {}},
                c2_prompt);
            out.prefill_servers = pool.found ? pool.servers : 0;
        }
        out.prefill_gpus = out.prefill_servers * replica.gpus;
    }
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
/// Ranges: price 0 or in [1e-30, $1e9/GPU·h] in base units; output_tokens in [1, 2^40].
inline token_price replicas_cost_per_million_tokens(const replicas_estimate& e,
                                                    std::int64_t output_tokens, gpu_price price) {
    constexpr const char* function = "replicas_cost_per_million_tokens";
    detail::require_non_negative(function, "price", price);
    detail::require_count(function, "output_tokens", output_tokens);
    if (!e.found) return token_price{};
    const token_rate generated =
        e.rate * make<tokens>(static_cast<double>(output_tokens)) / make<sequences>(1.0);
    return price * make<gpus>(static_cast<double>(e.total_gpus)) / generated;
}

}  // namespace gpucalc
