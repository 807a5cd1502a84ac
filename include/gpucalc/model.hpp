// model.hpp: what a transformer workload is: its shape, its exact parameter count (total and
// active), its FLOPs per token, and the parameters a LoRA adapter adds
#pragma once

#include <cstdint>
#include <string_view>

#include "detail/checks.hpp"
#include "error.hpp"
#include "units.hpp"

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

/// Rejects a shape no model has: non-positive sizes; KV heads that do not divide the heads;
/// a head_dim other than hidden/heads left implicit when hidden is not divisible; an MoE
/// top-k outside [1, experts] (0 or 1 for a dense model); a negative window; a model whose
/// parameter count would pass 2^53.
constexpr void check(const transformer& m, const char* function = "check(transformer)") {
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

namespace detail {
/// One layer's parameters by kind; weights are matrices (rows × columns), biases vectors.
struct layer_parameters {
    std::int64_t attention_weights = 0;  ///< Q, K, V, O
    std::int64_t attention_biases = 0;
    std::int64_t expert_weights = 0;     ///< one expert's MLP matrices
    std::int64_t expert_biases = 0;
    std::int64_t router = 0;             ///< MoE gate
    std::int64_t norm = 0;               ///< one norm layer
};

constexpr layer_parameters layer_parameters_of(const transformer& m) {
    const std::int64_t h = m.hidden;
    const std::int64_t q_width = q_width_of(m);
    const std::int64_t kv_width = kv_width_of(m);
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
    const detail::layer_parameters p = detail::layer_parameters_of(m);
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
/// Reproduces the published checkpoint counts (tests: Llama-2/3, Mistral, Mixtral).
constexpr parameter_counts parameter_count(const transformer& m) {
    check(m, "parameter_count");
    return detail::count_parameters(m);
}

/// Narayanan et al. 2021 (SC21), Eq. 2, for GPT-style models: P = 12·l·h²·(1 + 13/(12h) +
/// (V + s)/(12·l·h)). It counts a plain 4h MLP with biases and learned positions of length s,
/// and leaves out the final layer norm; parameter_count() is the exact figure.
constexpr double megatron_parameter_count(std::int64_t layers, std::int64_t hidden,
                                          std::int64_t vocab, std::int64_t sequence) {
    detail::require_count("megatron_parameter_count", "layers", layers);
    detail::require_count("megatron_parameter_count", "hidden", hidden);
    detail::require_count("megatron_parameter_count", "vocab", vocab);
    detail::require_count("megatron_parameter_count", "sequence", sequence);
    const double l = static_cast<double>(layers);
    const double h = static_cast<double>(hidden);
    return 12.0 * l * h * h *
           (1.0 + 13.0 / (12.0 * h) +
            (static_cast<double>(vocab) + static_cast<double>(sequence)) / (12.0 * l * h));
}

/// How activations are recomputed in the backward pass (Korthikanti et al. 2022).
enum class recompute {
    none,       ///< keep every activation
    selective,  ///< recompute only the attention core (QKᵀ, softmax, dropout, ·V)
    full,       ///< keep each layer's input and recompute the layer
};

constexpr std::string_view to_string(recompute r) {
    switch (r) {
        case recompute::none: return "none";
        case recompute::selective: return "selective";
        case recompute::full: return "full";
    }
    return "unknown";
}

/// Forward-pass FLOPs for one token, split by where they go. Matmul FLOPs only (2 per
/// multiply-add); norms, softmax and element-wise work are left out, as in Narayanan et al. 2021.
struct forward_flops {
    flop_count layers{};     ///< weight matmuls of all layers (active experts only)
    flop_count attention{};  ///< QKᵀ and attention·V over the attended keys, all layers
    flop_count lm_head{};    ///< the output projection to the vocabulary
    flop_count total{};
};

/// Forward FLOPs of one token that attends to `context` keys (capped by a sliding window).
/// Weight matmuls cost 2 FLOPs per active parameter (Kaplan et al. 2020, §2.1); attention costs
/// 2·2·context·(heads·head_dim) per layer for QKᵀ and ·V (Narayanan et al. 2021, §5.1, which,
/// like Chowdhery et al. 2022 App. B, counts all keys, not half for a causal mask).
namespace detail {
/// forward_flops_per_token() for a model and context already checked.
GPUCALC_DETAIL_INLINE constexpr forward_flops forward_flops_unchecked(const transformer& m,
                                                                     std::int64_t context) {
    const detail::layer_parameters p = detail::layer_parameters_of(m);
    const double weights_per_layer = static_cast<double>(
        p.attention_weights + active_experts_of(m) * p.expert_weights + p.router);
    const double q_width = static_cast<double>(q_width_of(m));
    forward_flops f{};
    f.layers = make<flops>(2.0 * weights_per_layer * static_cast<double>(m.layers));
    f.attention = make<flops>(4.0 * static_cast<double>(attended_tokens(m, context)) * q_width *
                              static_cast<double>(m.layers));
    f.lm_head = make<flops>(2.0 * static_cast<double>(m.vocab * m.hidden));
    f.total = f.layers + f.attention + f.lm_head;
    return f;
}
}  // namespace detail

constexpr forward_flops forward_flops_per_token(const transformer& m, std::int64_t context) {
    check(m, "forward_flops_per_token");
    detail::require_count("forward_flops_per_token", "context", context);
    return detail::forward_flops_unchecked(m, context);
}

/// Training FLOPs per token at `sequence` length: `model` counts the useful work (forward and
/// a backward of twice the forward, Kaplan et al. 2020 §2.1); `hardware` adds what recompute
/// repeats. Full recompute repeats the layers' forward but not the output head, which is how
/// Narayanan et al. 2021 Eq. 3 reaches 96·B·s·l·h²(1 + s/(6h) + V/(16·l·h)) per iteration;
/// selective recompute repeats only the attention core (derived from Korthikanti et al. 2022 §5).
struct training_flops {
    flop_count model{};
    flop_count hardware{};
};

constexpr training_flops training_flops_per_token(const transformer& m, std::int64_t sequence,
                                                  recompute policy = recompute::none) {
    const forward_flops f = forward_flops_per_token(m, sequence);
    training_flops t{};
    t.model = 3.0 * f.total;
    switch (policy) {
        case recompute::none: t.hardware = t.model; break;
        case recompute::selective: t.hardware = t.model + f.attention; break;
        case recompute::full: t.hardware = t.model + f.layers + f.attention; break;
    }
    return t;
}

/// Kaplan et al. 2020 (§2.1): training compute C ≈ 6·N·D for N non-embedding parameters and
/// D tokens. Pass the active parameter count for an MoE model.
constexpr flop_count kaplan_training_flops(double parameters, double tokens) {
    detail::require_positive("kaplan_training_flops", "parameters", parameters);
    detail::require_positive("kaplan_training_flops", "tokens", tokens);
    return make<flops>(6.0 * parameters * tokens);
}

/// Narayanan et al. 2021 (SC21) Eq. 3: FLOPs of one training iteration of a GPT model with
/// full activation recomputation, F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)).
constexpr flop_count megatron_flops_per_iteration(std::int64_t batch, std::int64_t sequence,
                                                  std::int64_t layers, std::int64_t hidden,
                                                  std::int64_t vocab) {
    detail::require_count("megatron_flops_per_iteration", "batch", batch);
    detail::require_count("megatron_flops_per_iteration", "sequence", sequence);
    detail::require_count("megatron_flops_per_iteration", "layers", layers);
    detail::require_count("megatron_flops_per_iteration", "hidden", hidden);
    detail::require_count("megatron_flops_per_iteration", "vocab", vocab);
    const double b = static_cast<double>(batch);
    const double s = static_cast<double>(sequence);
    const double l = static_cast<double>(layers);
    const double h = static_cast<double>(hidden);
    const double v = static_cast<double>(vocab);
    return make<flops>(96.0 * b * s * l * h * h * (1.0 + s / (6.0 * h) + v / (16.0 * l * h)));
}

/// Which weight matrices a LoRA adapter is attached to (a bit set).
enum lora_target : std::uint32_t {
    lora_q = 1U << 0,
    lora_k = 1U << 1,
    lora_v = 1U << 2,
    lora_o = 1U << 3,
    lora_gate = 1U << 4,  ///< gated MLPs only
    lora_up = 1U << 5,
    lora_down = 1U << 6,
    lora_attention = lora_q | lora_k | lora_v | lora_o,
    lora_mlp = lora_gate | lora_up | lora_down,
    lora_all_linear = lora_attention | lora_mlp,
};

/// A LoRA adapter (Hu et al. 2021): each targeted d_in × d_out matrix W gains B·A with
/// A: r × d_in and B: d_out × r, so r·(d_in + d_out) trainable parameters.
struct lora_adapter {
    std::int64_t rank = 16;
    std::uint32_t targets = lora_q | lora_v;  ///< Hu et al. 2021 §7.1 adapt W_q and W_v
};

/// Trainable parameters the adapter adds to `m` (derived from the definition above). MoE
/// MLP targets are adapted in every expert.
constexpr std::int64_t lora_parameter_count(const transformer& m, const lora_adapter& adapter) {
    check(m, "lora_parameter_count");
    detail::require_count("lora_parameter_count", "rank", adapter.rank);
    if (adapter.targets == 0 || (adapter.targets & ~static_cast<std::uint32_t>(lora_all_linear)) != 0) {
        detail::throw_invalid("lora_parameter_count", "targets", static_cast<double>(adapter.targets),
                              "", "must be a non-empty set of lora_target bits");
    }
    if ((adapter.targets & lora_gate) != 0 && m.mlp != mlp_kind::gated) {
        detail::throw_invalid("lora_parameter_count", "targets", static_cast<double>(adapter.targets),
                              "", "names lora_gate, but a plain MLP has no gate matrix");
    }
    const std::int64_t h = m.hidden;
    const std::int64_t q_width = q_width_of(m);
    const std::int64_t kv_width = kv_width_of(m);
    const std::int64_t f = m.ffn_hidden;
    std::int64_t widths = 0;  // sum of (d_in + d_out) over targeted matrices, one layer
    if (adapter.targets & lora_q) widths += h + q_width;
    if (adapter.targets & lora_k) widths += h + kv_width;
    if (adapter.targets & lora_v) widths += h + kv_width;
    if (adapter.targets & lora_o) widths += q_width + h;
    std::int64_t mlp_widths = 0;
    if (adapter.targets & lora_gate) mlp_widths += h + f;
    if (adapter.targets & lora_up) mlp_widths += h + f;
    if (adapter.targets & lora_down) mlp_widths += f + h;
    return adapter.rank * m.layers * (widths + experts_of(m) * mlp_widths);
}

}  // namespace gpucalc
