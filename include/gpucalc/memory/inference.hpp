// memory/inference.hpp: how many bytes serving a model needs on each GPU: weights at any
// precision, the KV cache, activation workspace and runtime overhead
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../detail/sharding.hpp"
#include "overhead.hpp"

namespace gpucalc {

/// KV-cache bytes one token adds across the whole model: keys and values for every layer and
/// KV head, 2 · layers · kv_heads · head_dim · bytes per element (derived from the attention
/// definition; Llama-2-7B at 16 bits: 512 KiB, from HF config meta-llama/Llama-2-7b-hf).
constexpr data_size kv_cache_bytes_per_token(const transformer& m, const storage_format& kv) {
    check(m, "kv_cache_bytes_per_token");
    const double elements = 2.0 * static_cast<double>(m.layers * kv_heads_of(m) * head_dim_of(m));
    return storage_size(elements, kv);
}

/// One serving configuration. Every assumption is a field with its default's source.
struct inference_setup {
    std::int64_t batch = 1;        ///< sequences held at once
    std::int64_t context = 4096;   ///< tokens per sequence in the KV cache (prompt + output)
    /// Linear-layer weights. Quantized formats carry their block scales (formats::int4_g128).
    storage_format weights = formats::bf16;
    /// Embedding, output head and norms: weight-only quantizers (GPTQ, AWQ, bitsandbytes) leave
    /// them in 16 bits, so they have their own format.
    storage_format embeddings = formats::bf16;
    storage_format kv_cache = formats::bf16;
    storage_format activations = formats::bf16;
    std::int64_t tensor_parallel = 1;
    std::int64_t pipeline_parallel = 1;
    /// Paged KV cache: each sequence holds whole blocks of this many tokens; 0 = no paging.
    /// vLLM's default block is 16 tokens (Kwon et al. 2023, §7.2).
    std::int64_t kv_block_tokens = 0;
    /// Tokens one forward pass processes at most (the chunked-prefill budget); it sizes the
    /// activation workspace. 2,048 is vLLM's max_num_batched_tokens floor (uncertain: engines
    /// and versions differ, 512–16,384).
    std::int64_t max_tokens_per_step = 2048;
    runtime_overhead overhead{};
};

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
/// batch × context × vocab, the largest count a serving evaluation forms: it must stay below
/// 2^53, where counts stop being exact. The searches in fit.hpp ask this before they probe.
constexpr double tokens_by_vocab(const transformer& m, const inference_setup& setup) {
    return static_cast<double>(setup.batch) * static_cast<double>(setup.context) *
           static_cast<double>(m.vocab);
}

/// The serving setup's shape checks (counts, parallel degrees, paging), which involve no
/// quantity; the overhead is checked on its own.
constexpr void check(const transformer& m, const inference_setup& setup, const char* function) {
    gpucalc::check(m, function);
    require_count(function, "batch", setup.batch);
    require_count(function, "context", setup.context);
    require_count(function, "max_tokens_per_step", setup.max_tokens_per_step);
    if (!(tokens_by_vocab(m, setup) < largest_exact_count)) {
        throw_invalid(function, "batch x context x vocab", tokens_by_vocab(m, setup), "",
                      "must stay below 2^53, where counts stop being exact");
    }
    if (setup.kv_block_tokens < 0) {
        throw_invalid(function, "kv_block_tokens", static_cast<double>(setup.kv_block_tokens), "",
                      "must be >= 0 (0 means no paging)");
    }
    check_tensor_parallel(m, setup.tensor_parallel, function);
    check_pipeline_parallel(m, setup.pipeline_parallel, function);
}
}  // namespace detail

/// Per-GPU memory to serve `m` with `setup`, on the most loaded GPU.
/// Weights: elements × bits per element (block scales included), split by TP and PP.
/// KV cache: batch × cached tokens × kv_cache_bytes_per_token ÷ TP (replicated KV heads count
/// once per GPU) ÷ PP stages, where cached tokens are capped by a sliding window (Mistral's
/// rolling buffer, Jiang et al. 2023) and rounded up to whole paged blocks (Kwon et al. 2023).
/// Activations: max_tokens_per_step tokens of one layer's live tensors, plus fp32 logits for
/// one position per sequence (derived). Overhead: see runtime_overhead.
GPUCALC_DETAIL_HOT constexpr inference_memory inference_memory_per_gpu(const transformer& m,
                                                    const inference_setup& setup) {
    constexpr const char* function = "inference_memory";
    detail::check(m, setup, function);
    detail::check(setup.overhead, function);
    const std::int64_t tp = setup.tensor_parallel;
    const std::int64_t pp = setup.pipeline_parallel;

    inference_memory r{};
    const detail::stage_weights w = detail::weights_on_worst_stage(m, tp, pp, 1);
    // (w.layers is ceil(layers / pp): the most loaded stage.)
    r.weights = storage_size(w.linear, setup.weights) + storage_size(w.embedding_class, setup.embeddings);

    std::int64_t cached = attended_tokens(m, setup.context);
    if (setup.kv_block_tokens > 0) {
        cached = detail::ceil_div(cached, setup.kv_block_tokens) * setup.kv_block_tokens;
    }
    r.cached_tokens_per_sequence = cached;
    r.kv_cache_per_token = storage_size(detail::kv_elements_per_token(m, tp, w.layers), setup.kv_cache);
    r.kv_cache = static_cast<double>(setup.batch * cached) * r.kv_cache_per_token;

    const std::int64_t all_tokens = setup.batch * setup.context;
    const std::int64_t step_tokens =
        all_tokens < setup.max_tokens_per_step ? all_tokens : setup.max_tokens_per_step;
    const double logits_bytes = 4.0 * static_cast<double>(setup.batch * m.vocab) /
                                static_cast<double>(tp);  // fp32 logits, one position each
    r.activations = storage_size(static_cast<double>(step_tokens) *
                                     detail::workspace_elements_per_token(m, tp),
                                 setup.activations) +
                    make<bytes>(logits_bytes);

    const data_size tensors = r.weights + r.kv_cache + r.activations;
    r.overhead = detail::overhead_for(setup.overhead, tensors, tp * pp > 1);
    r.total = tensors + r.overhead;
    return r;
}

}  // namespace gpucalc
