// roofline/inference.hpp: how long an LLM decode step and a prefill take at best on one
// serving replica, and which bound holds
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../parallelism/costs.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "attention.hpp"
#include "op.hpp"

namespace gpucalc {

/// A decode step's best time on one serving replica, and which bound holds. The work is one
/// TP rank's share, summed over the pipeline stages a token passes through in turn (so per GPU
/// when the pipeline is 1). Communication between GPUs is not included: the scaling module
/// composes it.
struct decode_estimate {
    duration time_per_token{};            ///< one step: every sequence advances one token
    stream_token_rate stream_rate{};      ///< each sequence's speed: one token per step
    token_rate aggregate_rate{};          ///< the whole batch's: stream_rate × batch sequences
    gpucalc::bound bound = gpucalc::bound::memory;
    flop_count flops{};                   ///< per TP rank per step
    data_size bytes{};                    ///< per TP rank per step: weights, KV read and written
    data_size weight_bytes{};
    data_size kv_bytes{};
    duration compute_time{};
    duration memory_time{};
};

namespace detail {

/// Expected distinct experts a batch touches in one MoE layer with uniform top-k routing:
/// E·(1 − (1 − k/E)^b) (derived: each expert is missed by a token with probability 1 − k/E).
/// The power is taken by repeated squaring, at most 63 steps whatever `batch` (a loop over
/// the tokens ran 2^40 times for a batch of 2^40), on the complements p = 1 − (1 − k/E)^m,
/// which square as 1 − (1 − p)² = p·(2 − p) and combine as p + q·(1 − p), so nothing cancels:
/// within a few ulps of E·(−expm1(b·log1p(−k/E))), which is not constexpr.
constexpr double experts_touched(const transformer& m, std::int64_t batch) {
    if (m.experts <= 1) return 1.0;
    const double e = static_cast<double>(m.experts);
    double reached = static_cast<double>(m.experts_per_token) / e;  // by 2^i tokens
    double touched = 0.0;                                            // by the tokens so far
    for (std::int64_t n = batch; n > 0; n >>= 1) {
        if ((n & 1) != 0) touched += reached * (1.0 - touched);
        reached *= 2.0 - reached;
    }
    return e * touched;
}

/// Weight bytes a forward pass over `tokens` tokens reads on one GPU: every linear layer (of an
/// MoE only the experts the tokens reach: the expected number under uniform routing, or the
/// fewest possible, k, when `fewest_experts`), the norms and the output head. The input
/// embedding is a lookup of one row per token, not a read of the table.
GPUCALC_DETAIL_INLINE constexpr data_size weight_bytes_read(const checked_model& cm, std::int64_t tp,
                                                            std::int64_t tokens,
                                                            const storage_format& linear,
                                                            const storage_format& rest,
                                                            bool fewest_experts = false) {
    const transformer& m = cm.spec();
    const stage_weights w = weights_on_worst_stage(cm, tp, 1, 1);
    double unread_experts = 0.0;
    if (w.experts > 0.0) {
        const double touched = fewest_experts ? static_cast<double>(m.experts_per_token)
                                              : experts_touched(m, tokens);
        unread_experts = w.experts * (1.0 - touched / static_cast<double>(m.experts));
    }
    // The norms and the head: every embedding-class weight but the ones only looked up.
    return storage_size_unchecked(w.linear - unread_experts, linear) +
           storage_size_unchecked(w.embedding_class - w.lookup, rest);
}

/// The checks every forward pass of `setup` on `gpu` shares (decode and prefill): the model and
/// the serving setup (its storage formats included: workload.hpp), the efficiencies, the
/// bandwidth and the peak at `setup.compute`, which it returns.
GPUCALC_DETAIL_INLINE constexpr flop_rate check_pass(const checked_model& cm, const gpu_spec& gpu,
                                                     const serving_setup& s,
                                                     const char* function) {
    check(cm, s, function);
    check(s.efficiency, function);
    require_positive(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    return peak_of(gpu, s.compute, function, "compute");
}

/// decode() with the MoE experts touched taken as expected (false) or as few as possible,
/// naming `function` in its errors. Inlined under Clang (detail/config.hpp): it returns
/// quantities, and decode_step_time reaches it two levels down, below what Clang 14's flatten
/// inlines, so out of line its estimate went through memory (Clang: 1,333 instructions a
/// decode_step_time against its raw-double twin's 1,301).
GPUCALC_DETAIL_INLINE constexpr decode_estimate decode_step(const checked_model& cm,
                                                            const gpu_spec& gpu,
                                                            const serving_setup& s,
                                                            bool fewest_experts,
                                                            const char* function) {
    const transformer& m = cm.spec();
    const flop_rate peak_rate = check_pass(cm, gpu, s, function);
    const std::int64_t tp = s.parallel.tensor;
    const double b = static_cast<double>(s.batch);
    decode_estimate d{};
    d.weight_bytes = detail::weight_bytes_read(cm, tp, s.batch, s.weights, s.embeddings, fewest_experts);
    const double cached = static_cast<double>(detail::attended_unchecked(m, s.context));
    d.kv_bytes = storage_size_unchecked(
        b * (cached + 1.0) * detail::kv_elements_per_token(cm, tp, static_cast<double>(m.layers)),
        s.kv_cache);
    d.bytes = d.weight_bytes + d.kv_bytes;
    d.flops = detail::pass_forward_flops(cm, s.parallel, {s.batch, 1, s.context, 1, pair_count::causal});
    const op_timing o = detail::op_time_unchecked({d.flops, d.bytes}, peak_rate,
                                                  gpu.memory_bandwidth, s.efficiency);
    d.compute_time = o.compute_time;
    d.memory_time = o.memory_time;
    d.bound = o.bound;
    d.time_per_token = o.time;
    d.stream_rate = detail::one_token_per_sequence() / o.time;
    d.aggregate_rate = d.stream_rate * make<sequences>(b);
    return d;
}
}  // namespace detail

/// The best decode step of `m` on `gpu` for `setup.batch` sequences of `setup.context` cached
/// tokens (Williams et al. 2009 applied per step): the step reads the weights once for the
/// whole batch and each sequence's KV cache (capped by a sliding window), writes one new KV
/// entry per sequence, and performs the batch's forward FLOPs (forward_flops_per_token at that
/// context). Time = max(FLOPs ÷ attainable peak, bytes ÷ attainable bandwidth) for one TP
/// rank's share; with pipeline stages, a token passes through each in turn, so the time is
/// their sum, which is the same formula over all layers. A checked model skips the model's
/// checks; the setup's are still made. Ranges: the model as check(transformer); setup.batch and
/// setup.context in [1, 2^40] with batch × context × vocab below 2^53; setup.parallel a serving
/// layout (tensor and pipeline only, as parallelism.hpp states); setup.weights, embeddings and
/// kv_cache as bits_per_element states; setup.compute a peak the GPU has (peak()); each
/// efficiency in [1e-30, 1]; the GPU's memory_bandwidth in [1e-30 B/s, 1e30 B/s]. The answer is
/// then finite and positive.
GPUCALC_DETAIL_HOT constexpr decode_estimate decode(const checked_model& m, const gpu_spec& gpu,
                                                   const serving_setup& setup) {
    return detail::decode_step(m, gpu, setup, false, "decode");
}
GPUCALC_DETAIL_HOT constexpr decode_estimate decode(const transformer& m, const gpu_spec& gpu,
                                                   const serving_setup& setup) {
    return detail::decode_step(check(m, "decode"), gpu, setup, false, "decode");
}

/// Where decode turns compute-bound as the batch grows.
struct compute_bound_crossover {
    bool reached = false;    ///< false: memory-bound at every batch up to `searched_up_to`
    std::int64_t batch = 0;  ///< the smallest compute-bound batch, when reached
    /// The largest batch the search tried: the limit, or the largest batch the setup accepts
    /// (batch × context × vocab below 2^53) when that is smaller.
    std::int64_t searched_up_to = 0;
};

/// The smallest batch at which decode turns compute-bound (the ridge, in batch terms). Each
/// sequence also reads its own KV cache, which batching does not share, so at long contexts
/// some setups never cross: `reached` is then false. Ranges: limit in [1, 2^40]; the setup as
/// decode states, except `setup.batch`, which the search sets (from 1 up to the limit, or to
/// the largest batch with batch × context × vocab below 2^53 when that is smaller). A binary
/// search: at most 42 decode evaluations.
constexpr compute_bound_crossover decode_compute_bound_batch(const checked_model& m,
                                                             const gpu_spec& gpu, serving_setup s,
                                                             std::int64_t limit = 1 << 20) {
    constexpr const char* function = "decode_compute_bound_batch";
    detail::require_count(function, "limit", limit);
    auto compute_bound = [&](std::int64_t b) {
        s.batch = b;
        return detail::decode_step(m, gpu, s, false, function).bound == bound::compute;
    };
    // Batch 1 first: every other rule of the setup is checked there, under this name.
    const bool at_one = compute_bound(1);
    // The largest batch the setup accepts, from the rule itself (rounding may leave the first
    // guess one or two too high).
    const double context_by_vocab =
        static_cast<double>(s.context) * static_cast<double>(m.spec().vocab);
    const double fitting = detail::largest_exact_count / context_by_vocab;
    std::int64_t high = fitting < static_cast<double>(limit) ? static_cast<std::int64_t>(fitting)
                                                             : limit;
    s.batch = high;
    while (high > 1 && !(detail::tokens_by_vocab(m.spec(), s) < detail::largest_exact_count)) {
        s.batch = --high;
    }
    if (at_one) return {true, 1, high};
    if (!compute_bound(high)) return {false, 0, high};
    const std::int64_t searched_up_to = high;
    std::int64_t low = 1;  // low is memory-bound, high compute-bound
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        if (compute_bound(mid)) high = mid; else low = mid;
    }
    return {true, high, searched_up_to};
}
constexpr compute_bound_crossover decode_compute_bound_batch(const transformer& m,
                                                             const gpu_spec& gpu,
                                                             const serving_setup& s,
                                                             std::int64_t limit = 1 << 20) {
    return decode_compute_bound_batch(check(m, "decode_compute_bound_batch"), gpu, s, limit);
}

/// A prefill's best time on one serving replica (one TP rank's share, summed over the pipeline
/// stages), and which bound holds. Communication is not included.
struct prefill_estimate {
    duration time_to_first_token{};
    gpucalc::bound bound = gpucalc::bound::compute;
    flop_count flops{};   ///< per TP rank
    data_size bytes{};    ///< per TP rank: weights once, the KV cache written
    duration compute_time{};
    duration memory_time{};
};

/// The best prefill of `m` on `gpu`: `setup.batch` prompts of `setup.prompt` tokens. The layers'
/// FLOPs for every prompt token, attention over the keys each token sees (i for token i when
/// `setup.causal`, capped by a sliding window), and the output head for the last token of each
/// prompt only; bytes are the weights read once and the KV cache written (derived). A checked
/// model skips the model's checks; the setup's are still made. Ranges: as decode, and
/// setup.prompt in [1, 2^40] with batch × prompt × vocab below 2^53 (checked after its factors).
GPUCALC_DETAIL_HOT constexpr prefill_estimate prefill(const checked_model& cm, const gpu_spec& gpu,
                                                     const serving_setup& s) {
    constexpr const char* function = "prefill";
    const transformer& m = cm.spec();
    const flop_rate peak_rate = detail::check_pass(cm, gpu, s, function);
    detail::require_count(function, "prompt", s.prompt);
    const double prompt_tokens_by_vocab = static_cast<double>(s.batch) *
                                          static_cast<double>(s.prompt) * static_cast<double>(m.vocab);
    if (!(prompt_tokens_by_vocab < detail::largest_exact_count)) {
        detail::throw_invalid(function, "batch x prompt x vocab", prompt_tokens_by_vocab, "",
                              "must stay below 2^53, where counts stop being exact");
    }
    const std::int64_t tp = s.parallel.tensor;
    const double b = static_cast<double>(s.batch);
    const double n = static_cast<double>(s.prompt);
    prefill_estimate r{};
    // The head runs for each prompt's last token only.
    r.flops = detail::pass_forward_flops(
        cm, s.parallel,
        {s.batch, s.prompt, s.prompt, 1, s.causal ? pair_count::causal : pair_count::all_keys});
    // Every prompt token's K and V are written (a sliding-window cache overwrites in place).
    r.bytes = detail::weight_bytes_read(cm, tp, s.batch * s.prompt, s.weights, s.embeddings) +
              detail::storage_size_unchecked(
                  b * n * detail::kv_elements_per_token(cm, tp, static_cast<double>(m.layers)),
                  s.kv_cache);
    const op_timing o = detail::op_time_unchecked({r.flops, r.bytes}, peak_rate,
                                                  gpu.memory_bandwidth, s.efficiency);
    r.compute_time = o.compute_time;
    r.memory_time = o.memory_time;
    r.bound = o.bound;
    r.time_to_first_token = o.time;
    return r;
}
GPUCALC_DETAIL_HOT constexpr prefill_estimate prefill(const transformer& m, const gpu_spec& gpu,
                                                     const serving_setup& s) {
    return prefill(check(m, "prefill"), gpu, s);
}

}  // namespace gpucalc
