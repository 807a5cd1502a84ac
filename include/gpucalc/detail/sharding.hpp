// detail/sharding.hpp: how tensor and pipeline parallelism split a model's weights and live
// tensors across GPUs; shared by the serving and training footprints
#pragma once

#include <cstdint>

#include "../model.hpp"
#include "checks.hpp"

namespace gpucalc {
namespace detail {

/// TP splits the attention heads, so it must divide them; the KV heads are split when TP
/// divides them and replicated (one per GPU) when TP is a multiple of them, as vLLM does.
constexpr bool tensor_parallel_allowed(const transformer& m, std::int64_t tp) {
    const std::int64_t kv = kv_heads_of(m);
    return divides(tp, m.heads) && (divides(tp, kv) || divides(kv, tp));
}

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

/// Query and key/value widths on one GPU: queries split by TP, keys and values by their heads
/// (replicated heads counted once per GPU).
struct attention_widths {
    double q = 0.0;
    double kv = 0.0;
};

constexpr attention_widths attention_widths_per_gpu(const transformer& m, std::int64_t tp) {
    return {static_cast<double>(q_width_of(m)) / static_cast<double>(tp),
            static_cast<double>(kv_heads_per_gpu(m, tp) * head_dim_of(m))};
}

/// KV-cache elements one token adds on one GPU over `layers` layers: a key and a value per
/// layer and (per-GPU) KV head.
constexpr double kv_elements_per_token(const transformer& m, std::int64_t tp, double layers) {
    return 2.0 * layers * attention_widths_per_gpu(m, tp).kv;
}

/// Weight elements on the most loaded pipeline stage, split into linear-layer weights and
/// "embedding-class" ones (embedding, head, norms). The first stage holds the token embedding
/// (split by TP over the vocabulary, Megatron-LM's vocab-parallel embedding) and the learned
/// position table (not split); the last the head and final norm; a tied head needs its own
/// copy once they are on different stages (Megatron-LM keeps one on the last stage). Stages
/// hold ceil(layers / pp) layers.
struct stage_weights {
    double linear = 0.0;
    double embedding_class = 0.0;
    double experts = 0.0;  ///< the MoE experts' share of `linear` (0 for a dense model)
    double layers = 0.0;   ///< layers on the stage
};

constexpr stage_weights weights_on_worst_stage(const transformer& m, std::int64_t tp,
                                               std::int64_t pp, std::int64_t expert_parallel) {
    const layer_parameters p = layer_parameters_of(m);
    const double t = static_cast<double>(tp);
    const double h = static_cast<double>(m.hidden);
    const attention_widths w = attention_widths_per_gpu(m, tp);
    const double bias = m.linear_biases ? 1.0 : 0.0;
    const double attention = 2.0 * h * w.q + 2.0 * h * w.kv + bias * (w.q + 2.0 * w.kv + h);
    const double experts_here =
        static_cast<double>(experts_of(m)) / static_cast<double>(expert_parallel);
    const double expert = static_cast<double>(p.expert_weights + p.expert_biases) / t;

    stage_weights r{};
    r.layers = static_cast<double>(ceil_div(m.layers, pp));
    r.linear = r.layers * (attention + experts_here * expert + static_cast<double>(p.router));
    r.experts = m.experts > 1 ? r.layers * experts_here * expert : 0.0;

    const double head = static_cast<double>(m.vocab) * h / t;
    const double positions =
        m.positions == position_kind::learned ? static_cast<double>(m.max_context) * h : 0.0;
    const double embedding = head + positions;
    const double final_norm = static_cast<double>(p.norm);
    double ends = 0.0;
    if (pp == 1) {
        ends = embedding + (m.tied_embeddings ? 0.0 : head) + final_norm;
    } else {
        const double last = head + final_norm;  // tied or not, the last stage holds a head
        ends = embedding > last ? embedding : last;
    }
    r.embedding_class = r.layers * 2.0 * static_cast<double>(p.norm) + ends;
    return r;
}

/// Live activation elements per token of one layer's forward at inference (derived): the
/// residual stream and the normalized input, plus the larger of attention's projections
/// (Q, K, V and the output projection's input) and the MLP's intermediates, per GPU.
/// FlashAttention-style kernels keep no s² score matrix.
constexpr double workspace_elements_per_token(const transformer& m, std::int64_t tp) {
    const attention_widths w = attention_widths_per_gpu(m, tp);
    const double attention = 2.0 * w.q + 2.0 * w.kv;
    const double mlp = (m.mlp == mlp_kind::gated ? 3.0 : 2.0) *
                       static_cast<double>(m.ffn_hidden) / static_cast<double>(tp);
    return 2.0 * static_cast<double>(m.hidden) + (attention > mlp ? attention : mlp);
}

}  // namespace detail
}  // namespace gpucalc
