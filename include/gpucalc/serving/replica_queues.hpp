// serving/replica_queues.hpp: what replicas_for_rate tests for one candidate count of replicas at
// one rate: how requests are routed, the slot queue, the waits behind prefills and the TTFT
// percentile they add up to; and the lengths' variability the queues are fed
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "capacity.hpp"
#include "load.hpp"
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
    /// prefills that the discrete-event simulation (tests/sim) shows under JSQ is not modelled.
    join_shortest_queue,
};

constexpr std::string_view to_string(routing r) {
    switch (r) {
        case routing::round_robin: return "round_robin";
        case routing::join_shortest_queue: return "join_shortest_queue";
    }
    return "unknown";
}

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

/// A length's C²: from its p90, or `default_scv` without one (a p90 of 0).
constexpr double length_scv(std::int64_t mean, std::int64_t p90, double default_scv) {
    return p90 > 0 ? scv_from_p90(mean, p90) : default_scv;
}

/// Whether a profile's lengths' C² are within what queue_wait takes (largest_service_scv, 1e6):
/// a p90 far above its mean (about 1,300 × or more) gives a C² beyond it, and replicas_for_rate
/// then answers service_scv_out_of_range. The holding time's C² is a weighted mean of the two
/// (at most the larger), so both in range keep every queue's C² in range.
constexpr bool length_scv_in_range(const request_profile& p, double default_scv) {
    return length_scv(p.prompt_mean, p.prompt_p90, default_scv) <= largest_service_scv &&
           length_scv(p.output_mean, p.output_p90, default_scv) <= largest_service_scv;
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
                                        const request_profile& p, double default_service_scv) {
    replicas_parts k{};
    const replica_step_model& s = e.step;
    k.load = load_parts_of(s);
    k.prefill_hold = s.mode == prefill_mode::stall     ? s.prefill_time.value()
                     : s.mode == prefill_mode::chunked ? e.time_to_first_token.value()
                                                       : 0.0;
    k.c2_prompt = length_scv(p.prompt_mean, p.prompt_p90, default_service_scv);
    k.c2_output = length_scv(p.output_mean, p.output_p90, default_service_scv);
    return k;
}

inline replicas_trial replicas_try(const replica_capacity_estimate& e, const replicas_parts& k,
                                   routing route, double percentile, double lambda,
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
    // Both parts are in range (length_scv_in_range), so only rounding can take it past.
    if (t.service_scv > largest_service_scv) t.service_scv = largest_service_scv;
    if (!t.load.slo_met) return t;
    const bool pooled = route == routing::join_shortest_queue;
    const double arrivals = pooled ? lambda : per_replica;
    const std::int64_t servers = pooled ? r * s.batch : s.batch;
    const double servers_d = static_cast<double>(r) * static_cast<double>(s.batch);
    if (pooled && servers_d > largest_offered_load) return t;  // beyond queueing's range
    t.slot_queue = queue_wait_checked(arrivals, hold, servers, t.service_scv, percentile);
    if (!t.slot_queue.stable) return t;
    double first_token = e.time_to_first_token.value();  // P, or the chunks' steps
    if (s.mode == prefill_mode::stall) {
        // Behind the replica's other prefills (derived): its prefills as one M/G/1 server fed
        // λ ÷ R with service P (the load model's prefill share λP ÷ R is its utilization), the
        // prompts' C², plus one decode step, the longest a prefill waits for the running step.
        const queue_wait_estimate q =
            queue_wait_checked(per_replica, s.prefill_time.value(), 1, c2_prompt,
                               percentile);
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
            queue_wait_checked(per_replica, budget_hold, 1, c2_prompt, percentile);
        if (!q.stable) return t;
        t.prefill_wait = duration::from_value(q.percentile_wait.value() + e.time_per_token.value());
        first_token += t.prefill_wait.value();
    }
    // The percentiles are added: at least the sum's percentile (conservative).
    t.ttft = duration::from_value(t.slot_queue.percentile_wait.value() + first_token);
    t.meets = t.ttft <= s.slo.time_to_first_token;
    return t;
}

/// length_scv_in_range for the parts computed already.
constexpr bool service_scv_in_range(const replicas_parts& k) {
    return k.c2_prompt <= largest_service_scv && k.c2_output <= largest_service_scv;
}

/// The fewest counts in (fails, last] whose trial meets (trial(r).meets, monotone in r), or 0
/// when none does: gallop up from fails + 1 (fails + 1, + 2, + 4, ...), then bisect the last
/// gap. `best` receives the answer's trial.
template <class Trial>
inline std::int64_t fewest_meeting(const Trial& trial, std::int64_t fails, std::int64_t last,
                                   replicas_trial& best) {
    std::int64_t step = 1;
    std::int64_t candidate = fails + 1;
    replicas_trial t = trial(candidate);
    while (!t.meets) {
        if (candidate >= last) return 0;
        fails = candidate;
        candidate = last - fails > step ? fails + step : last;
        step *= 2;
        t = trial(candidate);
    }
    std::int64_t good = candidate;
    best = t;
    while (good - fails > 1) {
        const std::int64_t mid = fails + (good - fails) / 2;
        const replicas_trial m = trial(mid);
        if (m.meets) {
            good = mid;
            best = m;
        } else {
            fails = mid;
        }
    }
    return good;
}

}  // namespace detail

}  // namespace gpucalc
