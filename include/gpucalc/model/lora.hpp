// model/lora.hpp: how many trainable parameters a LoRA adapter adds to a transformer
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "shape.hpp"

namespace gpucalc {

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

namespace detail {
/// The fields a LoRA check reports: the member paths the caller wrote ("adapter.rank" for
/// lora_parameter_count, "lora.adapter.rank" in a training job).
struct lora_fields {
    const char* rank;
    const char* targets;
};

/// Σ (d_in + d_out) over the matrices `targets` names in one layer of a checked model, each
/// expert's MLP matrices counted once per expert. Each term is at most a few times the layer's
/// parameters, so the sum stays far below 2^63.
constexpr std::int64_t lora_widths_per_layer(const transformer& m, std::uint32_t targets) {
    const std::int64_t h = m.hidden;
    const std::int64_t q_width = q_width_unchecked(m);
    const std::int64_t kv_width = kv_width_unchecked(m);
    const std::int64_t f = m.ffn_hidden;
    std::int64_t widths = 0;  // sum of (d_in + d_out) over targeted matrices, one layer
    if (targets & lora_q) widths += h + q_width;
    if (targets & lora_k) widths += h + kv_width;
    if (targets & lora_v) widths += h + kv_width;
    if (targets & lora_o) widths += q_width + h;
    std::int64_t mlp_widths = 0;
    if (targets & lora_gate) mlp_widths += h + f;
    if (targets & lora_up) mlp_widths += h + f;
    if (targets & lora_down) mlp_widths += f + h;
    return widths + experts_of(m) * mlp_widths;
}

/// The adapter's rules for a checked model, naming `function` and `fields`: a rank in
/// [1, 2^40]; targets a non-empty set of lora_target bits, no gate on a plain MLP; and the
/// adapter's parameter count, rank × layers × widths, below 2^53 (it is formed in double first,
/// so a large rank is a broken rule, never a wrapped count).
constexpr void check_lora(const transformer& m, const lora_adapter& adapter, const char* function,
                          const lora_fields& fields) {
    require_count(function, fields.rank, adapter.rank);
    if (adapter.targets == 0 ||
        (adapter.targets & ~static_cast<std::uint32_t>(lora_all_linear)) != 0) {
        throw_invalid(function, fields.targets, static_cast<double>(adapter.targets), "",
                      "must be a non-empty set of lora_target bits");
    }
    if ((adapter.targets & lora_gate) != 0 && m.mlp != mlp_kind::gated) {
        throw_invalid(function, fields.targets, static_cast<double>(adapter.targets), "",
                      "names lora_gate, but a plain MLP has no gate matrix");
    }
    const double count = static_cast<double>(adapter.rank) * static_cast<double>(m.layers) *
                         static_cast<double>(lora_widths_per_layer(m, adapter.targets));
    if (!(count < largest_exact_count)) {
        throw_invalid(function, fields.rank, static_cast<double>(adapter.rank), "",
                      "gives ", count, " adapter parameters; they must stay below 2^53, where "
                      "counts stop being exact");
    }
}

/// lora_parameter_count() for a model and adapter already checked.
constexpr std::int64_t lora_parameters_unchecked(const transformer& m,
                                                 const lora_adapter& adapter) {
    return adapter.rank * m.layers * lora_widths_per_layer(m, adapter.targets);
}
}  // namespace detail

/// Trainable parameters the adapter adds to `m` (derived from the definition above). MoE
/// MLP targets are adapted in every expert. Ranges: the model's (check()); `adapter.rank` in
/// [1, 2^40]; `adapter.targets` a non-empty set of lora_target bits (no lora_gate on a plain
/// MLP); and the count itself below 2^53.
constexpr std::int64_t lora_parameter_count(const transformer& m, const lora_adapter& adapter) {
    constexpr const char* function = "lora_parameter_count";
    detail::check_shape(m, function);
    detail::check_lora(m, adapter, function, {"adapter.rank", "adapter.targets"});
    return detail::lora_parameters_unchecked(m, adapter);
}

}  // namespace gpucalc
