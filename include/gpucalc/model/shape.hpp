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

constexpr std::string_view to_string(mlp_kind k) {
    switch (k) {
        case mlp_kind::gated: return "gated";
        case mlp_kind::plain: return "plain";
    }
    return "unknown";
}
constexpr std::string_view to_string(norm_kind k) {
    switch (k) {
        case norm_kind::rms_norm: return "rms_norm";
        case norm_kind::layer_norm: return "layer_norm";
    }
    return "unknown";
}
constexpr std::string_view to_string(position_kind k) {
    switch (k) {
        case position_kind::rotary: return "rotary";
        case position_kind::learned: return "learned";
    }
    return "unknown";
}

/// A decoder-only transformer as its config file describes it. Counts are plain integers.
/// Zero in kv_heads or head_dim means "the usual default" (kv_heads = heads, i.e. multi-head
/// attention; head_dim = hidden / heads). experts <= 1 means a dense model.
///
/// Valid ranges (check() enforces them; docs/memory.md, "Input ranges"): layers, hidden, heads,
/// ffn_hidden and vocab in [1, 2^40]; kv_heads, head_dim, max_context, experts and
/// sliding_window in [0, 2^40] (0: the default); experts_per_token in [1, experts] for an MoE,
/// 0 or 1 for a dense model; each enum one of its enumerators; and the whole parameter count
/// (router, biases, norms and a learned position table included) below 2^53, so every count
/// gpucalc forms from it is an exact integer.
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

namespace detail {
/// A count that may be 0 (a default, or "none"): in [0, 2^40]. `negative_rule` is the whole rule
/// a negative value breaks, saying what 0 means.
constexpr void require_count_or_zero(const char* function, const char* field, std::int64_t value,
                                     const char* negative_rule) {
    if (value < 0) throw_invalid(function, field, static_cast<double>(value), "", negative_rule);
    if (value > largest_count) {
        throw_invalid(function, field, static_cast<double>(value), "", "must be <= 2^40");
    }
}

/// The query (heads × head_dim) and key/value (kv_heads × head_dim) widths of a model whose
/// shape is checked: each product is at most its attention weights, below 2^53.
constexpr std::int64_t q_width_unchecked(const transformer& m) { return m.heads * head_dim_of(m); }
constexpr std::int64_t kv_width_unchecked(const transformer& m) {
    return kv_heads_of(m) * head_dim_of(m);
}

/// The checks q_width_of and kv_width_of make of the fields a width reads (`kv`: the key/value
/// width): each count in its range, and the product below 2^53. Returns the width.
constexpr std::int64_t checked_width(const transformer& m, const char* function, bool kv) {
    require_count(function, "heads", m.heads);
    if (kv) {
        require_count_or_zero(function, "kv_heads", m.kv_heads,
                              "must be >= 0 (0 means kv_heads = heads)");
    }
    require_count_or_zero(function, "head_dim", m.head_dim,
                          "must be >= 0 (0 means hidden / heads)");
    if (m.head_dim == 0) require_count(function, "hidden", m.hidden);
    const std::int64_t heads = kv ? kv_heads_of(m) : m.heads;
    const double width = static_cast<double>(heads) * static_cast<double>(head_dim_of(m));
    if (!(width < largest_exact_count)) {
        throw_invalid(function, kv ? "kv_heads x head_dim" : "heads x head_dim", width, "",
                      "must stay below 2^53, where counts stop being exact");
    }
    return heads * head_dim_of(m);
}
}  // namespace detail

/// Width of the query projection (heads × head_dim) and of the key or value projection
/// (kv_heads × head_dim). They check the fields they read (heads and hidden in [1, 2^40];
/// kv_heads and head_dim in [0, 2^40]; the width below 2^53), not the whole model; a
/// checked_model carries both widths ready.
constexpr std::int64_t q_width_of(const transformer& m) {
    return detail::checked_width(m, "q_width_of", false);
}
constexpr std::int64_t kv_width_of(const transformer& m) {
    return detail::checked_width(m, "kv_width_of", true);
}

/// Keys a token attends to at `context`: the sliding window caps it.
constexpr std::int64_t attended_tokens(const transformer& m, std::int64_t context) {
    return m.sliding_window > 0 && context > m.sliding_window ? m.sliding_window : context;
}

namespace detail {
/// The exact parameter count of a model whose fields are each in range, formed in double:
/// model/parameters.hpp's count_parameters term for term. Every term is a sum of products of
/// non-negative integers, and rounding is monotonic, so when the result is below 2^53 every
/// intermediate was too, and exact; at or above it the model is rejected.
constexpr double parameter_total(const transformer& m) {
    const double h = static_cast<double>(m.hidden);
    const double d = static_cast<double>(head_dim_of(m));
    const double q = static_cast<double>(m.heads) * d;
    const double kv = static_cast<double>(kv_heads_of(m)) * d;
    const double f = static_cast<double>(m.ffn_hidden);
    const double experts = static_cast<double>(experts_of(m));
    const double bias = m.linear_biases ? 1.0 : 0.0;
    const double matrices = m.mlp == mlp_kind::gated ? 3.0 : 2.0;
    const double attention = h * q + 2.0 * h * kv + q * h + bias * (q + 2.0 * kv + h);
    const double expert = matrices * h * f + bias * ((matrices - 1.0) * f + h);
    const double router = m.experts > 1 ? h * experts : 0.0;
    const double norm = m.norm == norm_kind::rms_norm ? h : 2.0 * h;
    const double vocab = static_cast<double>(m.vocab) * h;
    const double positions =
        m.positions == position_kind::learned ? static_cast<double>(m.max_context) * h : 0.0;
    return static_cast<double>(m.layers) * (attention + experts * expert + router + 2.0 * norm) +
           vocab + positions + norm + (m.tied_embeddings ? 0.0 : vocab);
}

/// The rules check(transformer) applies (model/checked.hpp), naming `function` in its errors:
/// every count in its range (see transformer); KV heads that do not divide the heads; a
/// head_dim other than hidden/heads left implicit when hidden is not divisible; learned
/// positions without a table size; an MoE top-k outside [1, experts] (0 or 1 for a dense
/// model); an enum outside its enumerators; a parameter count at or past 2^53.
constexpr void check_shape(const transformer& m, const char* function) {
    require_count(function, "layers", m.layers);
    require_count(function, "hidden", m.hidden);
    require_count(function, "heads", m.heads);
    require_count(function, "ffn_hidden", m.ffn_hidden);
    require_count(function, "vocab", m.vocab);
    require_count_or_zero(function, "kv_heads", m.kv_heads,
                          "must be >= 0 (0 means kv_heads = heads)");
    if (m.kv_heads > 0 && !divides(m.kv_heads, m.heads)) {
        throw_invalid(function, "kv_heads", static_cast<double>(m.kv_heads), "",
                      "must divide heads = ", static_cast<double>(m.heads),
                      " (0 means kv_heads = heads)");
    }
    require_count_or_zero(function, "head_dim", m.head_dim,
                          "must be >= 0 (0 means hidden / heads)");
    if (m.head_dim == 0 && !divides(m.heads, m.hidden)) {
        throw_invalid(function, "head_dim", static_cast<double>(m.head_dim), "",
                      "must be > 0, or 0 with hidden divisible by heads = ",
                      static_cast<double>(m.heads), "");
    }
    require_count_or_zero(function, "max_context", m.max_context,
                          "must be >= 0 (0 leaves it unstated)");
    require_enumerator(function, "mlp", m.mlp, 2, "mlp_kind");
    require_enumerator(function, "norm", m.norm, 2, "norm_kind");
    require_enumerator(function, "positions", m.positions, 2, "position_kind");
    if (m.positions == position_kind::learned && m.max_context < 1) {
        throw_invalid(function, "max_context", static_cast<double>(m.max_context), "",
                      "must be >= 1 with learned positions (it sizes their table)");
    }
    require_count_or_zero(function, "experts", m.experts, "must be >= 0 (0 or 1 means dense)");
    if (m.experts > 1 && (m.experts_per_token < 1 || m.experts_per_token > m.experts)) {
        throw_invalid(function, "experts_per_token",
                      static_cast<double>(m.experts_per_token), "",
                      "must be in [1, experts = ", static_cast<double>(m.experts), "]");
    }
    if (m.experts <= 1 && (m.experts_per_token < 0 || m.experts_per_token > 1)) {
        throw_invalid(function, "experts_per_token",
                      static_cast<double>(m.experts_per_token), "",
                      "must be 0 or 1 for a dense model (experts <= 1)");
    }
    require_count_or_zero(function, "sliding_window", m.sliding_window,
                          "must be >= 0 (0 means full attention)");
    // Every field is in range, so the total below cannot overflow a double, and checking it
    // bounds every count formed from the model (see parameter_total).
    const double total = parameter_total(m);
    if (!(total < largest_exact_count)) {
        throw_invalid(function, "parameter count", total, "",
                      "must stay below 2^53, where counts stop being exact");
    }
}
}  // namespace detail

}  // namespace gpucalc
