// model/closed_forms.hpp: what the published closed forms give for parameters and FLOPs
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../units.hpp"

namespace gpucalc {

/// Narayanan et al. 2021 (SC21), Eq. 2, for GPT-style models: P = 12·l·h²·(1 + 13/(12h) +
/// (V + s)/(12·l·h)). It counts a plain 4h MLP with biases and learned positions of length s,
/// and leaves out the final layer norm; parameter_count() is the exact figure. Ranges: every
/// count in [1, 2^40] (the result, at most about 2e37, is finite).
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

/// Kaplan et al. 2020 (§2.1): training compute C ≈ 6·N·D for N non-embedding parameters and
/// D tokens. Pass the active parameter count for an MoE model. Ranges: `parameters` in
/// [1, 2^53] (the counts gpucalc handles exactly); `tokens` in token_count's input range
/// (docs/units.md), so the result is finite and positive.
constexpr flop_count kaplan_training_flops(double parameters, token_count tokens) {
    if (!(parameters >= 1.0 && parameters <= detail::largest_exact_count)) {
        detail::throw_invalid("kaplan_training_flops", "parameters", parameters, "",
                              "must be in [1, 2^53]");
    }
    detail::require_positive("kaplan_training_flops", "tokens", tokens);
    return make<flops>(6.0 * parameters * in<gpucalc::tokens>(tokens));
}

/// Narayanan et al. 2021 (SC21) Eq. 3: FLOPs of one training iteration of a GPT model with
/// full activation recomputation, F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)). Ranges: every
/// count in [1, 2^40] (the result, at most about 2e62 FLOP, is finite).
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

}  // namespace gpucalc
