// roofline/llm.hpp: how long LLM prefill, decode and training steps take at best on a GPU, how
// close a measurement is to that, and whether a claimed speed is possible
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../detail/sharding.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "op.hpp"

namespace gpucalc {

namespace detail {
/// (query, key) pairs the attention core scores when `queries` new tokens follow
/// `keys − queries` cached ones: all pairs, or with a causal mask Σ over the new tokens of the
/// keys up to each, every count capped by a sliding window (derived).
constexpr double attended_pairs(const transformer& m, std::int64_t queries, std::int64_t keys,
                                bool causal) {
    const double q = static_cast<double>(queries);
    const double cached = static_cast<double>(keys - queries);
    const double window = m.sliding_window > 0 ? static_cast<double>(m.sliding_window)
                                               : static_cast<double>(keys);
    if (!causal) return q * (static_cast<double>(keys) < window ? static_cast<double>(keys) : window);
    // Query i (1-based) sees cached + i keys, capped at the window.
    const double uncapped_until = window - cached;  // last i below the cap
    if (uncapped_until >= q) return q * cached + q * (q + 1.0) / 2.0;
    if (uncapped_until <= 0.0) return q * window;
    const double n = uncapped_until;
    return n * cached + n * (n + 1.0) / 2.0 + (q - n) * window;
}
}  // namespace detail

/// Query rows FlashAttention processes per block of K and V it streams (its B_r). FlashAttention
/// re-reads K and V once per query block, Θ(N²d²/M) traffic (Dao et al. 2022, Theorem 2);
/// FlashAttention-2 uses 64–128-row blocks (Dao 2023, §3.3). Uncertain: 64–128; 128 planned.
inline constexpr std::int64_t default_flash_query_block = 128;

/// The attention core of one layer (QKᵀ, softmax, ·V) for `batch` sequences of `queries` new
/// tokens appended after `keys − queries` cached ones, on one GPU of a TP group. FLOPs:
/// 2·2·(query, key) pairs·(heads × head_dim)/tp (Narayanan et al. 2021, §5.1), where a causal
/// mask keeps for query i only the keys up to it, and a sliding window caps them. Bytes:
/// FlashAttention reads Q and writes O once and streams K and V once per block of
/// `flash_query_block` queries (Dao et al. 2022, Theorem 2); the standard algorithm reads K and
/// V once but also writes and reads back the score matrix S and the probabilities P, one
/// element per pair and head each (their Algorithm 0).
constexpr op_cost attention_cost(const transformer& m, std::int64_t batch, std::int64_t queries,
                                 std::int64_t keys, bool flash = true, bool causal = true,
                                 const storage_format& activations = formats::bf16,
                                 std::int64_t tensor_parallel = 1,
                                 std::int64_t flash_query_block = default_flash_query_block) {
    constexpr const char* function = "attention_cost";
    check(m, function);
    detail::require_count(function, "batch", batch);
    detail::require_count(function, "queries", queries);
    detail::require_count(function, "keys", keys);
    detail::require_count(function, "flash_query_block", flash_query_block);
    if (queries > keys) {
        detail::throw_invalid(function, "queries", static_cast<double>(queries), "",
                              "must not exceed keys = ", static_cast<double>(keys),
                              " (the new tokens are among the keys)");
    }
    detail::check_tensor_parallel(m, tensor_parallel, function);
    const detail::attention_widths w = detail::attention_widths_per_gpu(m, tensor_parallel);
    const double b = static_cast<double>(batch);
    const double q = static_cast<double>(queries);
    const double pairs = detail::attended_pairs(m, queries, keys, causal);
    const double k = static_cast<double>(attended_tokens(m, keys));
    const double heads = static_cast<double>(m.heads) / static_cast<double>(tensor_parallel);
    double elements = b * 2.0 * q * w.q;  // Q in, O out
    if (flash) {
        const double blocks = static_cast<double>(detail::ceil_div(queries, flash_query_block));
        elements += b * blocks * 2.0 * k * w.kv;
    } else {
        elements += b * 2.0 * k * w.kv + b * 4.0 * heads * pairs;  // S and P, written and read
    }
    return {make<flops>(4.0 * b * pairs * w.q), storage_size(elements, activations)};
}

/// One decode configuration: `batch` sequences each add one token over `context` cached ones.
struct decode_setup {
    std::int64_t batch = 1;
    std::int64_t context = 4096;                  ///< tokens already in each sequence's cache
    std::int64_t tensor_parallel = 1;
    storage_format weights = formats::bf16;       ///< linear layers (quantized formats allowed)
    storage_format embeddings = formats::bf16;    ///< output head and norms
    storage_format kv_cache = formats::bf16;
    compute_precision compute = compute_precision::bf16;  ///< int4 weights usually run in bf16
    gpucalc::efficiency efficiency{};
};

/// A decode step's best time on one GPU of the TP group, and which bound holds.
struct decode_estimate {
    duration time_per_token{};            ///< one step: every sequence advances one token
    double tokens_per_second = 0.0;       ///< per stream (1 / time_per_token)
    double aggregate_tokens_per_second = 0.0;  ///< all streams of the batch
    gpucalc::bound bound = gpucalc::bound::memory;
    flop_count flops{};                   ///< per GPU per step
    data_size bytes{};                    ///< per GPU per step: weights read, KV read and written
    data_size weight_bytes{};
    data_size kv_bytes{};
    duration compute_time{};
    duration memory_time{};
    /// Tensor-parallel communication per step. The seam for the scaling module: zero here, and
    /// time_per_token does not include it.
    duration communication{};
};

namespace detail {

/// Expected distinct experts a batch touches in one MoE layer with uniform top-k routing:
/// E·(1 − (1 − k/E)^b) (derived: each expert is missed by a token with probability 1 − k/E).
constexpr double experts_touched(const transformer& m, std::int64_t batch) {
    if (m.experts <= 1) return 1.0;
    const double e = static_cast<double>(m.experts);
    const double miss = 1.0 - static_cast<double>(m.experts_per_token) / e;
    double all_miss = 1.0;
    for (std::int64_t i = 0; i < batch && all_miss > 1e-12; ++i) all_miss *= miss;
    return e * (1.0 - all_miss);
}

/// Weight bytes a forward pass over `tokens` tokens reads on one GPU: every linear layer (of an
/// MoE only the experts the tokens reach: the expected number under uniform routing, or the
/// fewest possible, k, when `fewest_experts`), the norms and the output head. The input
/// embedding is a lookup of one row per token, not a read of the table.
GPUCALC_DETAIL_INLINE constexpr data_size weight_bytes_read(const transformer& m, std::int64_t tp,
                                                            std::int64_t tokens,
                                                            const storage_format& linear,
                                                            const storage_format& rest,
                                                            bool fewest_experts = false) {
    const stage_weights w = weights_on_worst_stage(m, tp, 1, 1);
    const layer_parameters p = layer_parameters_of(m);
    const double head = static_cast<double>(m.vocab * m.hidden) / static_cast<double>(tp);
    const double norms = static_cast<double>(m.layers * 2 * p.norm + p.norm);
    double unread_experts = 0.0;
    if (w.experts > 0.0) {
        const double touched = fewest_experts ? static_cast<double>(m.experts_per_token)
                                              : experts_touched(m, tokens);
        unread_experts = w.experts * (1.0 - touched / static_cast<double>(m.experts));
    }
    return storage_size(w.linear - unread_experts, linear) + storage_size(head + norms, rest);
}

/// The checks every forward pass on `gpu` shares (decode and prefill): the model, the batch,
/// the tokens (context or prompt), the TP degree, the efficiencies and the bandwidth.
GPUCALC_DETAIL_INLINE constexpr void check_pass(const transformer& m, const gpu_spec& gpu,
                                                std::int64_t batch, const char* tokens_field,
                                                std::int64_t tokens, std::int64_t tp,
                                                const efficiency& eff, const char* function) {
    gpucalc::check(m, function);
    require_count(function, "batch", batch);
    require_count(function, tokens_field, tokens);
    check_tensor_parallel(m, tp, function);
    check(eff, function);
    require_positive(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
}

}  // namespace detail

/// The best decode step of `m` on `gpu` (Williams et al. 2009 applied per step): the step reads
/// the weights once for the whole batch and each sequence's KV cache (capped by a sliding
/// window), writes one new KV entry per sequence, and performs the batch's forward FLOPs
/// (forward_flops_per_token at that context). Time = max(FLOPs ÷ attainable peak, bytes ÷
/// attainable bandwidth), per GPU of the TP group.
namespace detail {
constexpr decode_estimate decode_step(const transformer& m, const gpu_spec& gpu,
                                      const decode_setup& s, bool fewest_experts) {
    constexpr const char* function = "decode";
    check_pass(m, gpu, s.batch, "context", s.context, s.tensor_parallel, s.efficiency, function);
    const double t = static_cast<double>(s.tensor_parallel);
    const double b = static_cast<double>(s.batch);
    decode_estimate d{};
    d.weight_bytes = detail::weight_bytes_read(m, s.tensor_parallel, s.batch, s.weights,
                                               s.embeddings, fewest_experts);
    const double cached = static_cast<double>(attended_tokens(m, s.context));
    d.kv_bytes = storage_size(
        b * (cached + 1.0) *
            detail::kv_elements_per_token(m, s.tensor_parallel, static_cast<double>(m.layers)),
        s.kv_cache);
    d.bytes = d.weight_bytes + d.kv_bytes;
    d.flops = (b / t) * detail::forward_flops_unchecked(m, s.context).total;
    const op_timing o = detail::op_time_unchecked({d.flops, d.bytes}, peak(gpu, s.compute),
                                                  gpu.memory_bandwidth, s.efficiency);
    d.compute_time = o.compute_time;
    d.memory_time = o.memory_time;
    d.bound = o.limit;
    d.time_per_token = o.time;
    d.tokens_per_second = 1.0 / in<seconds>(o.time);
    d.aggregate_tokens_per_second = b * d.tokens_per_second;
    return d;
}
}  // namespace detail

/// The best decode step of `m` on `gpu`; see above.
GPUCALC_DETAIL_HOT constexpr decode_estimate decode(const transformer& m, const gpu_spec& gpu,
                                                   const decode_setup& s) {
    return detail::decode_step(m, gpu, s, false);
}

/// Where decode turns compute-bound as the batch grows.
struct compute_bound_crossover {
    bool reached = false;    ///< false: memory-bound at every batch up to the limit
    std::int64_t batch = 0;  ///< the smallest compute-bound batch, when reached
};

/// The smallest batch at which decode turns compute-bound (the ridge, in batch terms). Each
/// sequence also reads its own KV cache, which batching does not share, so at long contexts
/// some setups never cross: `reached` is then false.
constexpr compute_bound_crossover decode_compute_bound_batch(const transformer& m,
                                                             const gpu_spec& gpu, decode_setup s,
                                                             std::int64_t limit = 1 << 20) {
    detail::require_count("decode_compute_bound_batch", "limit", limit);
    auto compute_bound = [&](std::int64_t b) {
        s.batch = b;
        return decode(m, gpu, s).bound == bound::compute;
    };
    if (!compute_bound(limit)) return {false, 0};
    std::int64_t low = 0, high = limit;  // low is memory-bound (or 0), high compute-bound
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        if (compute_bound(mid)) high = mid; else low = mid;
    }
    return {true, high};
}

/// One prefill: `batch` prompts of `prompt` tokens each.
struct prefill_setup {
    std::int64_t batch = 1;
    std::int64_t prompt = 2048;
    std::int64_t tensor_parallel = 1;
    storage_format weights = formats::bf16;
    storage_format embeddings = formats::bf16;
    storage_format kv_cache = formats::bf16;
    compute_precision compute = compute_precision::bf16;
    gpucalc::efficiency efficiency{};
    /// Causal kernels skip the masked half of the score matrix: token i attends to i keys
    /// (Dao et al. 2022 §3.1). Off, every token attends to the whole prompt.
    bool causal = true;
};

struct prefill_estimate {
    duration time_to_first_token{};
    gpucalc::bound bound = gpucalc::bound::compute;
    flop_count flops{};   ///< per GPU
    data_size bytes{};    ///< per GPU: weights once, the KV cache written
    duration compute_time{};
    duration memory_time{};
    duration communication{};  ///< seam for the scaling module; zero here
};

/// The best prefill of `m` on `gpu`: the layers' FLOPs for every prompt token, attention over
/// the keys each token sees (i for token i when causal, capped by a sliding window), and the
/// output head for the last token of each prompt only; bytes are the weights read once and the
/// KV cache written (derived).
GPUCALC_DETAIL_HOT constexpr prefill_estimate prefill(const transformer& m, const gpu_spec& gpu,
                                                     const prefill_setup& s) {
    constexpr const char* function = "prefill";
    detail::check_pass(m, gpu, s.batch, "prompt", s.prompt, s.tensor_parallel, s.efficiency, function);
    const double t = static_cast<double>(s.tensor_parallel);
    const double b = static_cast<double>(s.batch);
    const double n = static_cast<double>(s.prompt);
    const forward_flops one = detail::forward_flops_unchecked(m, 1);  // attention per key: one key
    const double pairs = detail::attended_pairs(m, s.prompt, s.prompt, s.causal);
    prefill_estimate r{};
    r.flops = (b / t) * (n * one.layers + pairs * one.attention + one.lm_head);
    // Every prompt token's K and V are written (a sliding-window cache overwrites in place).
    r.bytes = detail::weight_bytes_read(m, s.tensor_parallel, s.batch * s.prompt, s.weights,
                                        s.embeddings) +
              storage_size(b * n * detail::kv_elements_per_token(m, s.tensor_parallel,
                                                                 static_cast<double>(m.layers)),
                           s.kv_cache);
    const op_timing o = detail::op_time_unchecked({r.flops, r.bytes}, peak(gpu, s.compute),
                                                  gpu.memory_bandwidth, s.efficiency);
    r.compute_time = o.compute_time;
    r.memory_time = o.memory_time;
    r.bound = o.limit;
    r.time_to_first_token = o.time;
    return r;
}

/// Model FLOPs utilization achieved in training, as published runs report it. The default is
/// a planning figure from public measurements (docs/roofline.md): Llama 3 405B trained at
/// 38–43% on H100 (Dubey et al. 2024, Table 4), Megatron-LM's 1T GPT at 52% on A100 (Narayanan
/// et al. 2021), PaLM 540B at 46.2% on TPU v4 (Chowdhery et al. 2022). Uncertain: 0.35–0.56.
inline constexpr double default_training_mfu = 0.40;

/// One training run's throughput assumptions.
struct training_run {
    std::int64_t gpus = 8;
    std::int64_t sequence = 4096;
    compute_precision compute = compute_precision::bf16;
    double mfu = default_training_mfu;  ///< model FLOPs ÷ (GPUs × peak), in (0, 1]
    /// Count FLOPs as 6·N·D (Kaplan et al. 2020) instead of the exact per-token count.
    bool six_n_d = false;
};

namespace detail {
/// Model FLOPs per token of a training run: exact at its sequence length, or 6·N with N the
/// active non-embedding parameters (Kaplan et al. 2020 count no embedding parameters; the
/// output head, a matmul, is kept).
constexpr flop_count training_model_flops_per_token(const transformer& m, const training_run& run,
                                                    const char* function) {
    check(m, function);
    require_count(function, "run.sequence", run.sequence);
    require_count(function, "run.gpus", run.gpus);
    require_fraction(function, "run.mfu", run.mfu);
    if (run.six_n_d) {
        const parameter_counts c = count_parameters(m);
        return make<flops>(6.0 * static_cast<double>(c.active - c.embedding));
    }
    return 3.0 * forward_flops_unchecked(m, run.sequence).total;
}
}  // namespace detail

/// One training step of `tokens_per_step` tokens (the global batch): model FLOPs ÷ (GPUs × peak
/// × MFU). The seam for the scaling module is the MFU itself: a composed step time from
/// parallelism and collectives replaces it.
constexpr duration training_step_time(const transformer& m, const gpu_spec& gpu,
                                      double tokens_per_step, const training_run& run = {}) {
    constexpr const char* function = "training_step_time";
    detail::require_positive(function, "tokens_per_step", tokens_per_step);
    const flop_count per_token = detail::training_model_flops_per_token(m, run, function);
    return (tokens_per_step * per_token) /
           (static_cast<double>(run.gpus) * run.mfu * peak(gpu, run.compute));
}

/// Time to train `tokens` tokens: model FLOPs ÷ (GPUs × peak × MFU), the FLOPs exact per token
/// at the run's sequence length (training_flops_per_token().model) or 6·N·D.
constexpr duration time_to_train(const transformer& m, const gpu_spec& gpu, double tokens,
                                 const training_run& run = {}) {
    constexpr const char* function = "time_to_train";
    detail::require_positive(function, "tokens", tokens);
    const flop_count per_token = detail::training_model_flops_per_token(m, run, function);
    return (tokens * per_token) / (static_cast<double>(run.gpus) * run.mfu * peak(gpu, run.compute));
}

/// The MFU a training run achieved, from its measured throughput in tokens per second across
/// all its GPUs: model FLOPs per second ÷ (GPUs × peak) (Chowdhery et al. 2022, App. B).
constexpr double training_mfu(const transformer& m, const gpu_spec& gpu,
                              double measured_tokens_per_second, const training_run& run = {}) {
    constexpr const char* function = "training_mfu";
    detail::require_positive(function, "measured_tokens_per_second", measured_tokens_per_second);
    training_run any = run;
    any.mfu = 1.0;  // not an input here
    const flop_count per_token = detail::training_model_flops_per_token(m, any, function);
    return (measured_tokens_per_second * per_token / make<seconds>(1.0)) /
           (static_cast<double>(run.gpus) * peak(gpu, run.compute));
}

/// Narayanan et al. 2021, Eq. 4: end-to-end training time ≈ 8·T·P / (n·X) for T tokens, P
/// parameters, n GPUs each sustaining X FLOP/s, with activation recomputation (their factor 8 =
/// 2 forward + 4 backward + 2 recomputed forward, per parameter and token).
constexpr duration megatron_training_time(double tokens, double parameters, std::int64_t gpus,
                                          flop_rate per_gpu) {
    constexpr const char* function = "megatron_training_time";
    detail::require_positive(function, "tokens", tokens);
    detail::require_positive(function, "parameters", parameters);
    detail::require_count(function, "gpus", gpus);
    detail::require_positive(function, "per_gpu", per_gpu);
    return make<flops>(8.0 * tokens * parameters) / (static_cast<double>(gpus) * per_gpu);
}

namespace detail {
/// The decode step at 100% of both peaks, the yardstick for measurements and claims.
constexpr decode_estimate decode_at_peak(const transformer& m, const gpu_spec& gpu,
                                         const decode_setup& s, bool fewest_experts) {
    decode_setup at_peak = s;
    at_peak.efficiency = ideal;
    return decode_step(m, gpu, at_peak, fewest_experts);
}
}  // namespace detail

/// How close a measured decode speed is to the hardware: model bandwidth utilization (bytes
/// a step must move ÷ time ÷ bandwidth) and model FLOPs utilization (FLOPs ÷ time ÷ peak), per
/// GPU (the MBU of Databricks' "LLM Inference Performance Engineering", 2023).
struct utilization {
    double mbu = 0.0;
    double mfu = 0.0;
};

constexpr utilization decode_utilization(const transformer& m, const gpu_spec& gpu,
                                         const decode_setup& s,
                                         double measured_tokens_per_second_per_stream) {
    detail::require_positive("decode_utilization", "measured_tokens_per_second_per_stream",
                             measured_tokens_per_second_per_stream);
    const decode_estimate d = detail::decode_at_peak(m, gpu, s, false);
    const duration step = make<seconds>(1.0 / measured_tokens_per_second_per_stream);
    return {(d.bytes / step) / gpu.memory_bandwidth, (d.flops / step) / peak(gpu, s.compute)};
}

/// Whether a claimed per-stream decode speed is possible: at most the roofline bound at 100%
/// of both peaks.
struct plausibility {
    bool possible = false;
    double claimed = 0.0;          ///< tokens/s per stream
    double bound = 0.0;            ///< the most the hardware allows, tokens/s per stream
    double fraction_of_bound = 0.0;
    gpucalc::bound limit = gpucalc::bound::memory;
};

constexpr plausibility check_decode_claim(const transformer& m, const gpu_spec& gpu,
                                          const decode_setup& s,
                                          double claimed_tokens_per_second_per_stream) {
    detail::require_positive("check_decode_claim", "claimed_tokens_per_second_per_stream",
                             claimed_tokens_per_second_per_stream);
    // The most optimistic step: an MoE batch might reach only k experts.
    const decode_estimate d = detail::decode_at_peak(m, gpu, s, true);
    plausibility p{};
    p.claimed = claimed_tokens_per_second_per_stream;
    p.bound = d.tokens_per_second;
    p.fraction_of_bound = p.claimed / p.bound;
    p.possible = p.claimed <= p.bound;
    p.limit = d.bound;
    return p;
}

}  // namespace gpucalc
