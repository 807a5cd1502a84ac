// model/shape.hpp: what a transformer is: the shape its config gives, its defaults, its checks
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"

namespace gpucalc {

/// The feed-forward block: gated (SwiGLU/GeGLU: gate, up and down matrices) or plain (up and
/// down, e.g. GELU in GPT-2/3).
enum class mlp_kind { gated, plain };

/// Normalization layers: RMSNorm has a weight per channel; LayerNorm a weight and a bias.
enum class norm_kind { rms_norm, layer_norm };

/// Position information: rotary (no parameters) or a learned table of max_context rows.
enum class position_kind { rotary, learned };

constexpr std::string_view to_string(mlp_kind k) { return k == mlp_kind::gated ? "gated" : "plain"; }
constexpr std::string_view to_string(norm_kind k) {
    return k == norm_kind::rms_norm ? "rms_norm" : "layer_norm";
}
constexpr std::string_view to_string(position_kind k) {
    return k == position_kind::rotary ? "rotary" : "learned";
}

/// A decoder-only transformer as its config file describes it. Counts are plain integers.
/// Zero in kv_heads or head_dim means "the usual default" (kv_heads = heads, i.e. multi-head
/// attention; head_dim = hidden / heads). experts <= 1 means a dense model.
struct transformer {
    std::string_view name{};
    std::int64_t layers = 0;
    std::int64_t hidden = 0;             ///< model width d_model
    std::int64_t heads = 0;              ///< query heads
    std::int64_t kv_heads = 0;           ///< key/value heads: = heads (MHA), 1 (MQA), else GQA
    std::int64_t head_dim = 0;
    std::int64_t ffn_hidden = 0;         ///< feed-forward width, per expert
    std::int64_t vocab = 0;
    std::int64_t max_context = 0;        ///< trained context; the learned position table's rows
    mlp_kind mlp = mlp_kind::gated;
    norm_kind norm = norm_kind::rms_norm;
    position_kind positions = position_kind::rotary;
    bool linear_biases = false;          ///< a bias on every linear layer (GPT-2/3)
    bool tied_embeddings = false;        ///< output head shares the input embedding
    std::int64_t experts = 0;            ///< MoE experts per layer; 0 or 1 = dense
    std::int64_t experts_per_token = 0;  ///< MoE top-k; 0 = dense
    std::int64_t sliding_window = 0;     ///< attention window in tokens; 0 = full attention
};

/// Key/value heads after defaults are applied.
constexpr std::int64_t kv_heads_of(const transformer& m) {
    return m.kv_heads > 0 ? m.kv_heads : m.heads;
}

/// Head dimension after defaults are applied.
constexpr std::int64_t head_dim_of(const transformer& m) {
    return m.head_dim > 0 ? m.head_dim : (m.heads > 0 ? m.hidden / m.heads : 0);
}

/// Experts per layer (1 for a dense model) and experts each token is routed to.
constexpr std::int64_t experts_of(const transformer& m) { return m.experts > 1 ? m.experts : 1; }
constexpr std::int64_t active_experts_of(const transformer& m) {
    return m.experts > 1 ? m.experts_per_token : 1;
}

/// Width of the query projection (heads × head_dim) and of the key or value projection
/// (kv_heads × head_dim).
constexpr std::int64_t q_width_of(const transformer& m) { return m.heads * head_dim_of(m); }
constexpr std::int64_t kv_width_of(const transformer& m) { return kv_heads_of(m) * head_dim_of(m); }

/// Keys a token attends to at `context`: the sliding window caps it.
constexpr std::int64_t attended_tokens(const transformer& m, std::int64_t context) {
    return m.sliding_window > 0 && context > m.sliding_window ? m.sliding_window : context;
}

namespace detail {
/// The rules check(transformer) applies (model/checked.hpp), naming `function` in its errors:
/// non-positive sizes; KV heads that do not divide the heads; a head_dim other than
/// hidden/heads left implicit when hidden is not divisible; an MoE top-k outside [1, experts]
/// (0 or 1 for a dense model); a negative window; a parameter count past 2^53.
constexpr void check_shape(const transformer& m, const char* function) {
    detail::require_count(function, "layers", m.layers);
    detail::require_count(function, "hidden", m.hidden);
    detail::require_count(function, "heads", m.heads);
    detail::require_count(function, "ffn_hidden", m.ffn_hidden);
    detail::require_count(function, "vocab", m.vocab);
    if (m.kv_heads < 0 || (m.kv_heads > 0 && !detail::divides(m.kv_heads, m.heads))) {
        detail::throw_invalid(function, "kv_heads", static_cast<double>(m.kv_heads), "",
                              "must divide heads = ", static_cast<double>(m.heads),
                              " (0 means kv_heads = heads)");
    }
    if (m.head_dim < 0 || (m.head_dim == 0 && !detail::divides(m.heads, m.hidden))) {
        detail::throw_invalid(function, "head_dim", static_cast<double>(m.head_dim), "",
                              "must be > 0, or 0 with hidden divisible by heads = ",
                              static_cast<double>(m.heads), "");
    }
    if (m.max_context < 0) {
        detail::throw_invalid(function, "max_context", static_cast<double>(m.max_context), "",
                              "must be >= 0");
    }
    if (m.positions == position_kind::learned && m.max_context < 1) {
        detail::throw_invalid(function, "max_context", static_cast<double>(m.max_context), "",
                              "must be >= 1 with learned positions (it sizes their table)");
    }
    if (m.experts < 0) {
        detail::throw_invalid(function, "experts", static_cast<double>(m.experts), "",
                              "must be >= 0 (0 or 1 means dense)");
    }
    if (m.experts > 1 && (m.experts_per_token < 1 || m.experts_per_token > m.experts)) {
        detail::throw_invalid(function, "experts_per_token",
                              static_cast<double>(m.experts_per_token), "",
                              "must be in [1, experts = ", static_cast<double>(m.experts), "]");
    }
    if (m.experts <= 1 && (m.experts_per_token < 0 || m.experts_per_token > 1)) {
        detail::throw_invalid(function, "experts_per_token",
                              static_cast<double>(m.experts_per_token), "",
                              "must be 0 or 1 for a dense model (experts <= 1)");
    }
    if (m.sliding_window < 0) {
        detail::throw_invalid(function, "sliding_window", static_cast<double>(m.sliding_window),
                              "", "must be >= 0 (0 means full attention)");
    }
    // Counts are exact integers: every product must stay below 2^53, where doubles and the
    // integer arithmetic here stop being exact. A bound on the total (in double) keeps each
    // intermediate product below it too.
    const double h = static_cast<double>(m.hidden);
    const double widths = static_cast<double>(m.heads + 2 * kv_heads_of(m)) *
                          static_cast<double>(head_dim_of(m));
    const double bound =
        static_cast<double>(m.layers) *
            (2.0 * h * widths + 3.0 * h * static_cast<double>(m.ffn_hidden) *
                                    static_cast<double>(experts_of(m)) + 8.0 * h) +
        2.0 * h * static_cast<double>(m.vocab + m.max_context) + 2.0 * h;
    if (!(bound < detail::largest_exact_count)) {
        detail::throw_invalid(function, "layers", static_cast<double>(m.layers), "",
                              "with this width and vocabulary gives over 2^53 parameters, past "
                              "what gpucalc counts exactly");
    }
}
}  // namespace detail

}  // namespace gpucalc
