// model/parameters.hpp: how many parameters a transformer has, total and active, by place
#pragma once

#include <cstdint>

#include "shape.hpp"

namespace gpucalc {

/// Parameters by where they sit. Counts are exact integers; `active` counts what one token
/// uses (top-k experts of an MoE, all of a dense model).
struct parameter_counts {
    std::int64_t embedding = 0;   ///< token embedding, plus the learned position table if any
    std::int64_t attention = 0;   ///< all layers: Q, K, V, O (and their biases)
    std::int64_t mlp = 0;         ///< all layers, all experts
    std::int64_t router = 0;      ///< MoE gates, all layers
    std::int64_t norms = 0;       ///< per-layer norms and the final norm
    std::int64_t lm_head = 0;     ///< untied output head; 0 when tied
    std::int64_t total = 0;
    std::int64_t active = 0;      ///< per token: only experts_per_token of the experts
    std::int64_t per_layer = 0;   ///< one layer, all experts (attention + mlp + router + norms)
};

/// One layer's parameters by kind; weights are matrices (rows × columns), biases vectors.
struct layer_parameters {
    std::int64_t attention_weights = 0;  ///< Q, K, V, O
    std::int64_t attention_biases = 0;
    std::int64_t expert_weights = 0;     ///< one expert's MLP matrices
    std::int64_t expert_biases = 0;
    std::int64_t router = 0;             ///< MoE gate
    std::int64_t norm = 0;               ///< one norm layer
};

namespace detail {

/// One layer's parameters of a model whose shape is checked (every product is below 2^53).
constexpr layer_parameters layer_parameters_of(const transformer& m) {
    const std::int64_t h = m.hidden;
    const std::int64_t q_width = q_width_unchecked(m);
    const std::int64_t kv_width = kv_width_unchecked(m);
    const std::int64_t matrices = m.mlp == mlp_kind::gated ? 3 : 2;
    const std::int64_t bias = m.linear_biases ? 1 : 0;
    layer_parameters p{};
    p.attention_weights = h * q_width + 2 * h * kv_width + q_width * h;
    p.attention_biases = bias * (q_width + 2 * kv_width + h);
    p.expert_weights = matrices * h * m.ffn_hidden;
    p.expert_biases = bias * ((matrices - 1) * m.ffn_hidden + h);
    p.router = m.experts > 1 ? h * m.experts : 0;
    p.norm = m.norm == norm_kind::rms_norm ? h : 2 * h;
    return p;
}

/// parameter_count() without the shape check, for callers that have checked `m` already.
constexpr parameter_counts count_parameters(const transformer& m) {
    const layer_parameters p = layer_parameters_of(m);
    const std::int64_t attention = p.attention_weights + p.attention_biases;
    const std::int64_t expert = p.expert_weights + p.expert_biases;

    parameter_counts c{};
    c.per_layer = attention + experts_of(m) * expert + p.router + 2 * p.norm;
    c.embedding = m.vocab * m.hidden +
                  (m.positions == position_kind::learned ? m.max_context * m.hidden : 0);
    c.attention = m.layers * attention;
    c.mlp = m.layers * experts_of(m) * expert;
    c.router = m.layers * p.router;
    c.norms = m.layers * 2 * p.norm + p.norm;
    c.lm_head = m.tied_embeddings ? 0 : m.vocab * m.hidden;
    c.total = c.embedding + c.attention + c.mlp + c.router + c.norms + c.lm_head;
    c.active = c.total - m.layers * (experts_of(m) - active_experts_of(m)) * expert;
    return c;
}
}  // namespace detail

/// Exact parameter count of `m`, derived from the architecture (each weight matrix is
/// rows × columns; a bias adds its width; RMSNorm has hidden weights, LayerNorm 2 × hidden).
/// Reproduces the published checkpoint counts (tests: Llama-2/3, Mistral, Mixtral). Ranges:
/// the model's (see transformer); every count returned is an exact integer below 2^53.
constexpr parameter_counts parameter_count(const transformer& m) {
    detail::check_shape(m, "parameter_count");
    return detail::count_parameters(m);
}

}  // namespace gpucalc
