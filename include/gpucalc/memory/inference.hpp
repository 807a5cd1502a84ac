// memory/inference.hpp: how many bytes serving a model needs on each GPU: weights at any
// precision, the KV cache, activation workspace and runtime overhead
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "overhead.hpp"

namespace gpucalc {

/// KV-cache bytes one token adds across the whole model: keys and values for every layer and
/// KV head, 2 · layers · kv_heads · head_dim · bytes per element (derived from the attention
/// definition; Llama-2-7B at 16 bits: 512 KiB, from HF config meta-llama/Llama-2-7b-hf).
/// Ranges: the model's (check()); `kv` as bits_per_element says.
constexpr data_size kv_cache_bytes_per_token(const transformer& m, const storage_format& kv) {
    constexpr const char* function = "kv_cache_bytes_per_token";
    const checked_model cm = check(m, function);
    detail::check_format(kv, function, "kv.");
    const double elements = 2.0 * static_cast<double>(m.layers * cm.kv_width());
    return storage_size(elements, kv);
}

/// Bytes on the most loaded GPU, by kind.
struct inference_memory {
    data_size weights{};
    data_size kv_cache{};
    data_size activations{};
    data_size overhead{};
    data_size total{};
    data_size kv_cache_per_token{};  ///< this GPU's share of one token of one sequence
    std::int64_t cached_tokens_per_sequence = 0;  ///< after the window cap and block rounding
};

namespace detail {
/// The checks inference_memory_per_gpu makes of a setup, naming `function` in its errors.
GPUCALC_DETAIL_INLINE constexpr void check_inference(const checked_model& cm,
                                                     const serving_setup& setup,
                                                     const char* function) {
    detail::check(cm, setup, function);
    detail::check(setup.overhead, function);
}

/// inference_memory_per_gpu for a setup check_inference has passed. The serving searches check
/// a setup once and then probe counts that keep it valid (memory/fit.hpp).
GPUCALC_DETAIL_INLINE constexpr inference_memory inference_memory_unchecked(
    const checked_model& cm, const serving_setup& setup) {
    const transformer& m = cm.spec();
    const std::int64_t tp = setup.parallel.tensor;
    const std::int64_t pp = setup.parallel.pipeline;

    inference_memory r{};
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, tp, pp, 1);
    // (w.layers is ceil(layers / pp): the most loaded stage.)
    r.weights = storage_size(w.linear, setup.weights) + storage_size(w.embedding_class, setup.embeddings);

    std::int64_t cached = detail::attended_unchecked(m, setup.context);
    if (setup.kv_block_tokens > 0) {
        cached = detail::ceil_div(cached, setup.kv_block_tokens) * setup.kv_block_tokens;
    }
    r.cached_tokens_per_sequence = cached;
    r.kv_cache_per_token = storage_size(detail::kv_elements_per_token(cm, tp, w.layers), setup.kv_cache);
    // cached < context + kv_block_tokens <= 2^41, so the product is formed in double: it may
    // pass 2^53 (a large block rounds every sequence up), and the cache is then a large size,
    // never a wrapped count.
    r.kv_cache =
        static_cast<double>(setup.batch) * static_cast<double>(cached) * r.kv_cache_per_token;

    const std::int64_t all_tokens = setup.batch * setup.context;
    const std::int64_t step_tokens =
        all_tokens < setup.max_tokens_per_step ? all_tokens : setup.max_tokens_per_step;
    const double logits_bytes = 4.0 * static_cast<double>(setup.batch * m.vocab) /
                                static_cast<double>(tp);  // fp32 logits, one position each
    r.activations = storage_size(static_cast<double>(step_tokens) *
                                     detail::workspace_elements_per_token(cm, tp),
                                 setup.activations) +
                    make<bytes>(logits_bytes);

    const data_size tensors = r.weights + r.kv_cache + r.activations;
    r.overhead = detail::overhead_for(setup.overhead, tensors, tp * pp > 1);
    r.total = tensors + r.overhead;
    return r;
}

/// inference_memory_per_gpu, naming `function` in its errors (the searches name themselves).
GPUCALC_DETAIL_INLINE constexpr inference_memory inference_memory_of(const checked_model& cm,
                                                                     const serving_setup& setup,
                                                                     const char* function) {
    check_inference(cm, setup, function);
    return inference_memory_unchecked(cm, setup);
}
}  // namespace detail

/// Per-GPU memory to serve `m` with `setup`, on the most loaded GPU.
/// Weights: elements × bits per element (block scales included), split by TP and PP.
/// KV cache: batch × cached tokens × kv_cache_bytes_per_token ÷ TP (replicated KV heads count
/// once per GPU) ÷ PP stages, where cached tokens are capped by a sliding window (Mistral's
/// rolling buffer, Jiang et al. 2023) and rounded up to whole paged blocks (Kwon et al. 2023).
/// Activations: max_tokens_per_step tokens of one layer's live tensors, plus fp32 logits for
/// one position per sequence (derived). Overhead: see runtime_overhead. A checked model skips
/// the model's checks; the setup's are still made. Ranges: the model's (check()) and the
/// setup's (see serving_setup and runtime_overhead); every field of the result is finite and
/// >= 0.
GPUCALC_DETAIL_HOT constexpr inference_memory inference_memory_per_gpu(const checked_model& m,
                                                                       const serving_setup& setup) {
    return detail::inference_memory_of(m, setup, "inference_memory_per_gpu");
}
GPUCALC_DETAIL_HOT constexpr inference_memory inference_memory_per_gpu(const transformer& m,
                                                                       const serving_setup& setup) {
    constexpr const char* function = "inference_memory_per_gpu";
    return detail::inference_memory_of(check(m, function), setup, function);
}

}  // namespace gpucalc
