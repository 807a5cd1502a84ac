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

/// Trainable parameters the adapter adds to `m` (derived from the definition above). MoE
/// MLP targets are adapted in every expert.
constexpr std::int64_t lora_parameter_count(const transformer& m, const lora_adapter& adapter) {
    detail::check_shape(m, "lora_parameter_count");
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
