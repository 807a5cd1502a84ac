// serving/capacity.hpp: one serving replica's capacity under continuous batching: the largest
// batch that meets a time-per-token SLO and fits in memory, and the request rate it sustains when
// prefill stalls the batch, is chunked into it, or runs on separate GPUs
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware/cluster.hpp"
#include "../memory/fit.hpp"
#include "../memory/inference.hpp"
#include "../model.hpp"
#include "../scaling/inference.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "load.hpp"

namespace gpucalc {

/// The request lengths a replica serves, in tokens. A p90 of 0 means "use the mean".
/// Ranges: prompt_mean and output_mean in [1, 2^40]; each p90 0 or in [its mean, 2^40].
struct request_profile {
    std::int64_t prompt_mean = 1024;
    std::int64_t output_mean = 256;
    std::int64_t prompt_p90 = 0;  ///< sizes the KV cache; 0: prompt_mean
    std::int64_t output_p90 = 0;  ///< sizes the KV cache; 0: output_mean
};

/// What the replica's assumptions are. Ranges: chunk_tokens in [1, 2^40]; memory_headroom in
/// [0, 1); batch_limit in [1, 2^40]; parallel as serving_parallel_assumptions says.
struct replica_assumptions {
    /// Prompt tokens each step carries in chunked mode. 512: vLLM's max_num_batched_tokens
    /// when chunked prefill is on (v0.4–v0.6), and the budget Sarathi-Serve evaluates under
    /// strict latency SLOs (Agrawal et al. 2024, OSDI, §5; 2,048 under relaxed ones).
    /// Uncertain: engines count the running decodes inside the budget; here the chunk is on
    /// top of them. Read only in chunked mode.
    std::int64_t chunk_tokens = 512;
    /// Memory kept free when sizing the batch: vLLM's gpu_memory_utilization = 0.9 leaves 10%
    /// (Kwon et al. 2023; vLLM's documented default).
    double memory_headroom = 0.1;
    /// The largest batch searched.
    std::int64_t batch_limit = std::int64_t{1} << 20;
    serving_parallel_assumptions parallel{};  ///< TP/PP communication, as decode_step_time
};

/// Why a replica can or cannot serve the profile at the SLO.
enum class replica_verdict {
    feasible,
    does_not_fit,          ///< not even one sequence at the sizing context fits in memory
    tpot_below_batch_one,  ///< the time-per-token SLO is below T(1), the batch-1 step
    ttft_below_prefill,    ///< the TTFT SLO is below the prefill of one mean prompt, alone
};

constexpr std::string_view to_string(replica_verdict v) {
    switch (v) {
        case replica_verdict::feasible: return "feasible";
        case replica_verdict::does_not_fit: return "does_not_fit";
        case replica_verdict::tpot_below_batch_one: return "tpot_below_batch_one";
        case replica_verdict::ttft_below_prefill: return "ttft_below_prefill";
    }
    return "unknown";
}

/// One replica's capacity: the chosen batch, its step time, and the rates it sustains in `mode`.
/// When not feasible, batch and the rates are 0 and the times hold what was computed.
struct replica_capacity_estimate {
    prefill_mode mode = prefill_mode::stall;
    replica_verdict verdict = replica_verdict::feasible;
    bool feasible = false;
    std::int64_t gpus = 1;              ///< tensor × pipeline
    std::int64_t decode_context = 0;    ///< prompt_mean + ⌈output_mean ÷ 2⌉: T(B)'s context
    std::int64_t memory_context = 0;    ///< p90 prompt + p90 output: the KV cache's sizing
    std::int64_t memory_batch = 0;      ///< the largest batch that fits at memory_context
    std::int64_t batch = 0;             ///< B: the largest meeting the SLO and fitting
    duration time_per_token_batch_one{};  ///< T(1)
    duration time_per_token{};          ///< T(B), decode only
    duration prefill_time{};            ///< P: one mean prompt, alone on the replica
    /// chunked: X, what a chunk adds to a step at batch B; 0 in the other modes.
    duration chunk_step_extra{};
    duration time_to_first_token{};     ///< the floor, no queueing: P, or ⌈N ÷ C⌉ × (T(B) + X)
    duration longest_token_gap{};       ///< one step behind one prefill: T+P, T+X, or T
    /// What the throughput would be were prefill free: B ÷ (D × T(B)) (the decode-only bound).
    request_rate decode_only_rate{};
    /// The rate at which the batch saturates (see replica_load's capacity).
    request_rate capacity{};
    /// The sustainable rate: the largest at which the effective time per token meets the SLO
    /// (≤ capacity).
    request_rate sustainable_rate{};
    token_rate output_token_rate{};     ///< sustainable_rate × output_mean
    duration time_per_token_at_rate{};  ///< the effective time per token at sustainable_rate
    /// disaggregated: prefill replicas of the same layout one decode replica needs at
    /// sustainable_rate (sustainable_rate × P); 0 in the other modes.
    double prefill_replicas_per_decode_replica = 0.0;
    replica_step_model step{};          ///< what replica_at_rate evaluates
};

namespace detail {

/// A request profile's rules: the means counts, each p90 0 (the mean) or in [mean, 2^40].
constexpr void check_request_profile(const request_profile& p, const char* function) {
    require_count(function, "profile.prompt_mean", p.prompt_mean);
    require_count(function, "profile.output_mean", p.output_mean);
    if (p.prompt_p90 != 0 && !(p.prompt_p90 >= p.prompt_mean && p.prompt_p90 <= largest_count)) {
        throw_invalid(function, "profile.prompt_p90", static_cast<double>(p.prompt_p90), "",
                      "must be 0 (the mean) or in [profile.prompt_mean = ",
                      static_cast<double>(p.prompt_mean), ", 2^40]");
    }
    if (p.output_p90 != 0 && !(p.output_p90 >= p.output_mean && p.output_p90 <= largest_count)) {
        throw_invalid(function, "profile.output_p90", static_cast<double>(p.output_p90), "",
                      "must be 0 (the mean) or in [profile.output_mean = ",
                      static_cast<double>(p.output_mean), ", 2^40]");
    }
}

/// The rules of a replica_capacity_estimate passed back in (replica_capacity's, or one made by
/// hand): gpus in [1, 2^40]; when feasible, batch in [1, 2^40], capacity and sustainable_rate in
/// [1e-30, 1e15] requests/s, the times 0 or in range, and the step model's rules. Errors name
/// the field as "replica.<member>".
constexpr void check_replica_estimate(const replica_capacity_estimate& e, const char* function) {
    require_count(function, "replica.gpus", e.gpus);
    if (!e.feasible) return;
    require_count(function, "replica.batch", e.batch);
    require_positive(function, "replica.capacity", e.capacity);
    require_positive(function, "replica.sustainable_rate", e.sustainable_rate);
    require_non_negative(function, "replica.prefill_time", e.prefill_time);
    require_non_negative(function, "replica.time_to_first_token", e.time_to_first_token);
    require_non_negative(function, "replica.time_per_token", e.time_per_token);
    check_step_model(e.step, function, true);
}

GPUCALC_DETAIL_INLINE constexpr void check_replica_inputs(const request_profile& p,
                                                          const serving_slo& slo,
                                                          prefill_mode mode,
                                                          const replica_assumptions& a,
                                                          const char* function) {
    check_request_profile(p, function);
    check_slo(slo, function);
    require_enumerator(function, "mode", mode, 3, "prefill_mode");
    require_count(function, "assumptions.chunk_tokens", a.chunk_tokens);
    require_count(function, "assumptions.batch_limit", a.batch_limit);
    if (!(a.memory_headroom >= 0.0 && a.memory_headroom < 1.0)) {
        throw_invalid(function, "assumptions.memory_headroom", a.memory_headroom, "",
                      "must be in [0, 1)");
    }
}

/// The fused step's extra time for a chunk of C prompt tokens at decode batch b (derived,
/// after Sarathi-Serve's piggybacking, Agrawal et al. 2024 §4): the chunk's FLOPs first fill the
/// compute a memory-bound decode step leaves idle (roofline − compute), the rest adds; its
/// all-reduces add in full (upper bound: the engine fuses them with the decode's). The chunk's
/// compute is the mean prompt's per token × C, which counts each chunk's attention over the
/// earlier chunks on average (the chunks' FLOPs sum to the whole prompt's).
GPUCALC_DETAIL_INLINE constexpr duration chunk_extra(const parallel_decode_estimate& d,
                                                     duration chunk_compute,
                                                     duration chunk_communication) {
    const duration idle = d.roofline_time - d.compute_time;
    const duration spill = chunk_compute > idle ? chunk_compute - idle : duration{};
    return spill + chunk_communication;
}

/// What replica_capacity computes before it chooses the batch: the replica's verdict, its
/// contexts, memory bound, batch-1 step and prefill, and the chunk's parts. replicas_for_rate
/// keeps it to evaluate the same replica at other batch caps (replica_at_batch).
struct replica_sizing {
    /// mode, verdict, feasible (false), gpus, the contexts, memory_batch, T(1) and P; when not
    /// feasible, also the times replica_capacity reports (T(1) and the TTFT floor).
    replica_capacity_estimate head{};
    parallel_decode_estimate one{};  ///< the batch-1 decode step
    serving_setup decode{};          ///< the setup decode steps run at (decode_context)
    serving_parallel_assumptions parallel{};
    serving_slo slo{};
    std::int64_t prompt_tokens = 1;
    std::int64_t output_tokens = 1;
    std::int64_t chunk_tokens = 1;
    double chunks = 0.0;              ///< ⌈N ÷ C⌉
    duration chunk_compute{};         ///< chunked: the chunk's compute (see chunk_extra)
    duration chunk_communication{};   ///< chunked: the chunk's all-reduces
    const char* function = "";
};

/// The decode step at batch b of a sized replica (b in [1, head.memory_batch]).
constexpr parallel_decode_estimate replica_decode(const checked_model& m, const checked_cluster& c,
                                                  const replica_sizing& z, std::int64_t b) {
    serving_setup s = z.decode;
    s.batch = b;
    return decode_across(m, c, s, z.parallel, z.function);
}

/// The chunked TTFT floor at a decode step d: ⌈N ÷ C⌉ × (T + X).
constexpr duration replica_ttft_chunked(const replica_sizing& z, const parallel_decode_estimate& d) {
    return z.chunks * (d.time_per_token + chunk_extra(d, z.chunk_compute, z.chunk_communication));
}

/// Whether the replica at decode step d (at some batch) meets both SLO floors: T ≤ TPOT and,
/// chunked, the chunks' steps ≤ TTFT.
constexpr bool replica_meets_slo(const replica_sizing& z, const parallel_decode_estimate& d) {
    return d.time_per_token <= z.slo.time_per_output_token &&
           (z.head.mode != prefill_mode::chunked ||
            replica_ttft_chunked(z, d) <= z.slo.time_to_first_token);
}

/// replica_capacity up to the choice of the batch, its errors naming `function`.
GPUCALC_DETAIL_INLINE constexpr replica_sizing size_replica(
    const checked_model& m, const checked_cluster& c, const serving_setup& setup,
    const request_profile& profile, const serving_slo& slo, prefill_mode mode,
    const replica_assumptions& assumptions, const char* function) {
    check_replica_inputs(profile, slo, mode, assumptions, function);
    replica_sizing z{};
    z.function = function;
    z.slo = slo;
    z.parallel = assumptions.parallel;
    z.prompt_tokens = profile.prompt_mean;
    z.output_tokens = profile.output_mean;
    z.chunk_tokens = assumptions.chunk_tokens;
    replica_capacity_estimate& r = z.head;
    r.mode = mode;
    const std::int64_t n_prompt = profile.prompt_mean;
    const std::int64_t d_out = profile.output_mean;
    r.decode_context = n_prompt + detail::ceil_div(d_out, 2);
    r.memory_context = (profile.prompt_p90 > 0 ? profile.prompt_p90 : n_prompt) +
                       (profile.output_p90 > 0 ? profile.output_p90 : d_out);

    z.decode = setup;
    z.decode.context = r.decode_context;
    z.one = replica_decode(m, c, z, 1);  // checks the setup and the layout
    r.gpus = setup.parallel.tensor * setup.parallel.pipeline;
    r.time_per_token_batch_one = z.one.time_per_token;

    serving_setup pre = setup;
    pre.batch = 1;
    pre.prompt = n_prompt;
    const parallel_prefill_estimate p = detail::prefill_across(m, c, pre, assumptions.parallel,
                                                               function);
    r.prefill_time = p.time_to_first_token;
    z.chunks = static_cast<double>(detail::ceil_div(n_prompt, assumptions.chunk_tokens));
    if (mode == prefill_mode::chunked) {
        z.chunk_compute = p.compute_time * (static_cast<double>(assumptions.chunk_tokens) /
                                            static_cast<double>(n_prompt));
        pre.prompt = assumptions.chunk_tokens;
        z.chunk_communication =
            detail::prefill_across(m, c, pre, assumptions.parallel, function).communication_time;
    }

    serving_setup mem = setup;
    mem.context = r.memory_context;
    r.memory_batch = detail::largest_serving_count(function, m, mem, &serving_setup::batch,
                                                   c.spec().node.gpu, assumptions.memory_headroom,
                                                   assumptions.batch_limit);
    const duration ttft_floor =
        mode == prefill_mode::chunked ? replica_ttft_chunked(z, z.one) : r.prefill_time;
    if (r.memory_batch == 0) {
        r.verdict = replica_verdict::does_not_fit;
    } else if (z.one.time_per_token > slo.time_per_output_token) {
        r.verdict = replica_verdict::tpot_below_batch_one;
    } else if (ttft_floor > slo.time_to_first_token) {
        r.verdict = replica_verdict::ttft_below_prefill;
    }
    if (r.verdict != replica_verdict::feasible) {
        r.time_per_token = z.one.time_per_token;
        r.time_to_first_token = ttft_floor;
    }
    return z;
}

/// The largest batch of a feasible sized replica that meets both SLO floors: bisection over
/// [1, memory_batch] (batch 1 meets them: the verdict says so; T and X grow with the batch).
constexpr std::int64_t largest_replica_batch(const checked_model& m, const checked_cluster& c,
                                             const replica_sizing& z) {
    return largest_that_fits(
        z.function, z.head.memory_batch, [](std::int64_t) { return true; },
        [&](std::int64_t b) { return replica_meets_slo(z, replica_decode(m, c, z, b)); });
}

/// The estimate of a feasible sized replica at batch b (in [1, its largest batch]): what
/// replica_capacity answers when its batch is b. `rates`: also the sustainable rate and what
/// follows from it (replicas_for_rate's batch search skips them for the caps it only tries;
/// they are then 0).
constexpr replica_capacity_estimate replica_at_batch(const checked_model& m,
                                                     const checked_cluster& c,
                                                     const replica_sizing& z, std::int64_t b,
                                                     bool rates = true) {
    replica_capacity_estimate r = z.head;
    r.feasible = true;
    r.batch = b;
    const prefill_mode mode = r.mode;
    const parallel_decode_estimate at_b = replica_decode(m, c, z, b);
    r.time_per_token = at_b.time_per_token;

    replica_step_model& s = r.step;
    s.mode = mode;
    s.slo = z.slo;
    s.batch = b;
    s.prompt_tokens = z.prompt_tokens;
    s.output_tokens = z.output_tokens;
    s.chunk_tokens = z.chunk_tokens;
    s.prefill_time = r.prefill_time;
    // The step as an affine function of the running batch, the chord from T(1) to T(B)
    // (derived; the roofline step is a max of two affine terms, so the chord lies on or above
    // it, and the load model's times are upper bounds between the two).
    s.step_per_sequence = b > 1 ? (at_b.time_per_token - z.one.time_per_token) /
                                      static_cast<double>(b - 1)
                                : duration{};
    s.step_fixed = z.one.time_per_token - s.step_per_sequence;
    if (s.step_fixed < duration{}) s.step_fixed = duration{};  // rounding only: T(B) <= B T(1)
    if (mode == prefill_mode::chunked) {
        s.chunk_step_extra = detail::chunk_extra(at_b, z.chunk_compute, z.chunk_communication);
        r.chunk_step_extra = s.chunk_step_extra;
    }
    r.time_to_first_token =
        mode == prefill_mode::chunked ? replica_ttft_chunked(z, at_b) : r.prefill_time;
    r.longest_token_gap = r.time_per_token + (mode == prefill_mode::stall     ? r.prefill_time
                                              : mode == prefill_mode::chunked ? r.chunk_step_extra
                                                                              : duration{});
    const sequence_count b_seq = make<sequences>(static_cast<double>(b));
    r.decode_only_rate = b_seq / (static_cast<double>(z.output_tokens) * r.time_per_token);
    r.capacity = detail::saturation_rate(s);
    if (!rates) return r;
    r.sustainable_rate = detail::slo_rate(s, r.capacity);
    r.output_token_rate = r.sustainable_rate *
                          make<tokens>(static_cast<double>(z.output_tokens)) / make<sequences>(1.0);
    r.time_per_token_at_rate = detail::load_at(s, r.sustainable_rate).time_per_token;
    if (mode == prefill_mode::disaggregated) {
        r.prefill_replicas_per_decode_replica =
            (r.sustainable_rate * r.prefill_time / make<sequences>(1.0)).value();
    }
    return r;
}

/// replica_capacity, its errors naming `function` (replicas_for_rate calls it too).
GPUCALC_DETAIL_HOT constexpr replica_capacity_estimate replica_capacity_as(
    const checked_model& m, const checked_cluster& c, const serving_setup& setup,
    const request_profile& profile, const serving_slo& slo, prefill_mode mode,
    const replica_assumptions& assumptions, const char* function) {
    const replica_sizing z = size_replica(m, c, setup, profile, slo, mode, assumptions, function);
    if (z.head.verdict != replica_verdict::feasible) return z.head;
    return replica_at_batch(m, c, z, largest_replica_batch(m, c, z));
}

}  // namespace detail

/// One replica's capacity under continuous batching (iteration-level scheduling, Yu et al. 2022
/// "Orca" §4.2; paged KV cache, Kwon et al. 2023 "vLLM"), for `profile`'s requests at `slo`,
/// with prefill in `mode`. `setup` gives the layout (parallel.tensor, parallel.pipeline), the
/// formats, efficiency, paging, step budget and overhead; its batch, context and prompt are
/// replaced. The replica runs on `c`'s GPU type (TP × PP of its GPUs; decode_step_time's
/// placement rules).
/// - T(B): decode_step_time at batch B and the mean decode context N + ⌈D ÷ 2⌉ (derived: a
///   running sequence is, on average, halfway through its D output tokens, and the step is
///   affine in the context, so the mean step is the step at the mean context).
/// - Memory: max_batch_for_inference at the sizing context p90 prompt + p90 output (the means
///   without p90s), keeping assumptions.memory_headroom free.
/// - B: the largest batch ≤ that bound with T(B) ≤ slo.time_per_output_token, and in chunked
///   mode also ⌈N ÷ C⌉ × (T(B) + X(B)) ≤ slo.time_to_first_token; found by bisection (T and X
///   grow with B).
/// - P: prefill_time of one mean prompt; X: detail::chunk_extra.
/// - Rates: replica_at_rate's model (load.hpp): capacity 1 ÷ (P_eff + D × T(B) ÷ B) with
///   P_eff = P (stall), N × X ÷ C (chunked; also ≤ C ÷ (N × (T(B) + X))), 0 (disaggregated:
///   B ÷ (D × T(B))); sustainable_rate is the largest rate whose effective time per token meets
///   the SLO, found by bisection.
/// Not feasible (an answer, not an exception): nothing fits (does_not_fit); T(1) above the
/// TPOT SLO (tpot_below_batch_one); P, or in chunked mode ⌈N ÷ C⌉ × (T(1) + X(1)), above the
/// TTFT SLO (ttft_below_prefill). Queueing delays are not included (serving/queueing).
/// Ranges: the model's (check()); the setup's as decode_step_time and prefill_time state, with
/// N + p90/means below the model's limits as serving_setup states; the profile, SLO,
/// assumptions as their types state; mode an enumerator. About 2 × log2(batch_limit) decode and
/// memory evaluations and 66 of the closed-form load model.
GPUCALC_DETAIL_HOT constexpr replica_capacity_estimate replica_capacity(
    const checked_model& m, const checked_cluster& c, const serving_setup& setup,
    const request_profile& profile, const serving_slo& slo, prefill_mode mode,
    const replica_assumptions& assumptions = {}) {
    return detail::replica_capacity_as(m, c, setup, profile, slo, mode, assumptions,
                                       "replica_capacity");
}
/// The same for a model and a cluster not yet checked: checks both first.
constexpr replica_capacity_estimate replica_capacity(const transformer& m, const cluster& c,
                                                  const serving_setup& setup,
                                                  const request_profile& profile,
                                                  const serving_slo& slo, prefill_mode mode,
                                                  const replica_assumptions& assumptions = {}) {
    constexpr const char* function = "replica_capacity";
    return replica_capacity(check(m, function), detail::check_cluster(c, function), setup,
                            profile, slo, mode, assumptions);
}

/// The replica's behaviour at `rate` requests/s (see replica_at_rate(replica_step_model)).
/// A replica that is not feasible answers stable = false, slo_met = false.
constexpr replica_load replica_at_rate(const replica_capacity_estimate& e, request_rate rate) {
    constexpr const char* function = "replica_at_rate";
    detail::require_non_negative(function, "rate", rate);
    detail::check_replica_estimate(e, function);
    if (!e.feasible) {
        replica_load l{};
        l.mode = e.mode;
        l.rate = rate;
        return l;
    }
    return detail::load_at(e.step, rate);
}

}  // namespace gpucalc
