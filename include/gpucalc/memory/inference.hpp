// memory/inference.hpp: how many bytes serving a model needs on each GPU: weights at any
// precision, the KV cache, activation workspace and runtime overhead
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "overhead.hpp"

namespace gpucalc {

/// KV-cache bytes one token adds across the whole model: keys and values for every layer and
/// KV head, 2 · layers · kv_heads · head_dim · bytes per element (derived from the attention
/// definition; Llama-2-7B at 16 bits: 512 KiB, reference/hardware-and-models.md).
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

/// Tensor-parallel rules shared by serving and training: TP splits attention heads, so it must
/// divide them; KV heads are split when TP divides them and replicated when they divide TP.
constexpr void check_tensor_parallel(const transformer& m, std::int64_t tp, const char* function) {
    require_count(function, "tensor_parallel", tp);
    if (!divides(tp, m.heads)) {
        throw_invalid(function, "tensor_parallel", static_cast<double>(tp), "",
                      "must divide attention heads = ", static_cast<double>(m.heads), "");
    }
    const std::int64_t kv = kv_heads_of(m);
    if (!divides(tp, kv) && !divides(kv, tp)) {
        throw_invalid(function, "tensor_parallel", static_cast<double>(tp), "",
                      "must divide KV heads = ", static_cast<double>(kv),
                      " or be a multiple of it (KV heads are then replicated)");
    }
}

constexpr void check_pipeline_parallel(const transformer& m, std::int64_t pp,
                                       const char* function) {
    require_count(function, "pipeline_parallel", pp);
    if (pp > m.layers) {
        throw_invalid(function, "pipeline_parallel", static_cast<double>(pp), "",
                      "must not exceed layers = ", static_cast<double>(m.layers), "");
    }
}

/// KV heads one GPU holds: its share, or one replicated head when TP exceeds the KV heads.
constexpr std::int64_t kv_heads_per_gpu(const transformer& m, std::int64_t tp) {
    const std::int64_t kv = kv_heads_of(m);
    return kv >= tp ? exact_quotient(kv, tp) : 1;  // check_tensor_parallel: tp divides kv
}

/// Weight elements on the most loaded pipeline stage, split into linear-layer weights and
/// "embedding-class" ones (embedding, head, norms). The first stage holds the embedding, the
/// last the head and final norm; a tied head needs its own copy once they are on different
/// stages (Megatron-LM keeps one on the last stage). Stages hold ceil(layers / pp) layers.
struct stage_weights {
    double linear = 0.0;
    double embedding_class = 0.0;
    double experts = 0.0;  ///< the MoE experts' share of `linear` (0 for a dense model)
};

constexpr stage_weights weights_on_worst_stage(const transformer& m, std::int64_t tp,
                                               std::int64_t pp, std::int64_t expert_parallel) {
    const layer_parameters p = layer_parameters_of(m);
    const double t = static_cast<double>(tp);
    const double layers = static_cast<double>(ceil_div(m.layers, pp));
    const double experts_here =
        static_cast<double>(experts_of(m)) / static_cast<double>(expert_parallel);
    const double linear_per_layer =
        static_cast<double>(p.attention_weights + p.attention_biases) / t +
        experts_here * static_cast<double>(p.expert_weights + p.expert_biases) / t +
        static_cast<double>(p.router);
    const double norms_per_layer = 2.0 * static_cast<double>(p.norm);
    const double head = static_cast<double>(m.vocab * m.hidden) / t;
    const double positions =
        m.positions == position_kind::learned ? static_cast<double>(m.max_context * m.hidden) / t : 0.0;
    const double embedding = head + positions;  // the token table is vocab × hidden, as the head
    const double final_norm = static_cast<double>(p.norm);
    double ends = 0.0;
    if (pp == 1) {
        ends = embedding + (m.tied_embeddings ? 0.0 : head) + final_norm;
    } else {
        const double last = head + final_norm;  // tied or not, the last stage holds a head
        ends = embedding > last ? embedding : last;
    }
    const double experts =
        m.experts > 1 ? layers * experts_here * static_cast<double>(p.expert_weights + p.expert_biases) / t
                      : 0.0;
    return {layers * linear_per_layer, layers * norms_per_layer + ends, experts};
}

/// Live activation elements per token of one layer's forward (derived): the residual stream
/// and the normalized input, plus the larger of attention's projections (Q, K, V and the
/// output projection's input) and the MLP's intermediates, split by TP. FlashAttention-style
/// kernels keep no s² score matrix.
constexpr double workspace_elements_per_token(const transformer& m, std::int64_t tp) {
    const double t = static_cast<double>(tp);
    const double q_width = static_cast<double>(m.heads * head_dim_of(m));
    const double kv_width = static_cast<double>(kv_heads_of(m) * head_dim_of(m));
    const double attention = (2.0 * q_width + 2.0 * kv_width) / t;
    const double mlp = (m.mlp == mlp_kind::gated ? 3.0 : 2.0) * static_cast<double>(m.ffn_hidden) / t;
    return 2.0 * static_cast<double>(m.hidden) + (attention > mlp ? attention : mlp);
}

}  // namespace detail

/// Per-GPU memory to serve `m` with `setup`, on the most loaded GPU.
/// Weights: elements × bits per element (block scales included), split by TP and PP.
/// KV cache: batch × cached tokens × kv_cache_bytes_per_token ÷ TP (replicated KV heads count
/// once per GPU) ÷ PP stages, where cached tokens are capped by a sliding window (Mistral's
/// rolling buffer, Jiang et al. 2023) and rounded up to whole paged blocks (Kwon et al. 2023).
/// Activations: max_tokens_per_step tokens of one layer's live tensors, plus fp32 logits for
/// one position per sequence (derived). Overhead: see runtime_overhead.
constexpr inference_memory inference_memory_per_gpu(const transformer& m,
                                                    const inference_setup& setup) {
    constexpr const char* function = "inference_memory";
    check(m, function);
    detail::require_count(function, "batch", setup.batch);
    detail::require_count(function, "context", setup.context);
    detail::require_count(function, "max_tokens_per_step", setup.max_tokens_per_step);
    if (setup.kv_block_tokens < 0) {
        detail::throw_invalid(function, "kv_block_tokens",
                              static_cast<double>(setup.kv_block_tokens), "",
                              "must be >= 0 (0 means no paging)");
    }
    detail::check_tensor_parallel(m, setup.tensor_parallel, function);
    detail::check_pipeline_parallel(m, setup.pipeline_parallel, function);
    detail::check(setup.overhead, function);
    const std::int64_t tp = setup.tensor_parallel;
    const std::int64_t pp = setup.pipeline_parallel;

    inference_memory r{};
    const detail::stage_weights w = detail::weights_on_worst_stage(m, tp, pp, 1);
    r.weights = storage_size(w.linear, setup.weights) + storage_size(w.embedding_class, setup.embeddings);

    std::int64_t cached = attended_tokens(m, setup.context);
    if (setup.kv_block_tokens > 0) {
        cached = detail::ceil_div(cached, setup.kv_block_tokens) * setup.kv_block_tokens;
    }
    r.cached_tokens_per_sequence = cached;
    const double kv_elements_per_token =
        2.0 * static_cast<double>(detail::ceil_div(m.layers, pp) *
                                  detail::kv_heads_per_gpu(m, tp) * head_dim_of(m));
    r.kv_cache_per_token = storage_size(kv_elements_per_token, setup.kv_cache);
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
