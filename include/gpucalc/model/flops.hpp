// model/flops.hpp: how many FLOPs a transformer does per token, forward and in training
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../detail/config.hpp"
#include "../units.hpp"
#include "checked.hpp"
#include "parameters.hpp"
#include "shape.hpp"

namespace gpucalc {

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

/// Which (query, key) pairs attention work counts.
enum class pair_count {
    /// Every query scores every key it may see: the convention MFU is reported in (Narayanan et
    /// al. 2021 §5.1 and Chowdhery et al. 2022 App. B count all keys, not half for a causal mask),
    /// and the work of a bidirectional mask.
    all_keys,
    /// Each new query scores only the keys up to itself: the work a causal kernel does, since it
    /// skips the masked blocks (Dao et al. 2022 §3.1). Time estimates count this.
    causal,
};

constexpr std::string_view to_string(pair_count c) {
    switch (c) {
        case pair_count::all_keys: return "all_keys";
        case pair_count::causal: return "causal";
    }
    return "unknown";
}

namespace detail {
/// attention_pairs() for a checked model and counts.
constexpr double attention_pairs_unchecked(const transformer& m, std::int64_t queries,
                                           std::int64_t keys, pair_count counted) {
    const double q = static_cast<double>(queries);
    const double cached = static_cast<double>(keys - queries);
    const double window = m.sliding_window > 0 ? static_cast<double>(m.sliding_window)
                                               : static_cast<double>(keys);
    if (counted == pair_count::all_keys) {
        return q * (static_cast<double>(keys) < window ? static_cast<double>(keys) : window);
    }
    // Query i (1-based) sees cached + i keys, capped at the window.
    const double uncapped_until = window - cached;  // last i below the cap
    if (uncapped_until >= q) return q * cached + q * (q + 1.0) / 2.0;
    if (uncapped_until <= 0.0) return q * window;
    const double n = uncapped_until;
    return n * cached + n * (n + 1.0) / 2.0 + (q - n) * window;
}
}  // namespace detail

/// (query, key) pairs one layer's attention scores per sequence when `queries` new tokens follow
/// `keys − queries` cached ones, counted as `counted` says, each query's keys capped by a sliding
/// window (derived). The one count every attention FLOP in gpucalc comes from: 4 × pairs ×
/// heads × head_dim FLOPs per layer for QKᵀ and ·V (Narayanan et al. 2021, §5.1).
/// Ranges: the model's (check()); `queries` and `keys` in [1, 2^40], queries <= keys;
/// `counted` a pair_count value.
constexpr double attention_pairs(const transformer& m, std::int64_t queries, std::int64_t keys,
                                 pair_count counted) {
    constexpr const char* function = "attention_pairs";
    detail::check_shape(m, function);
    detail::require_count(function, "queries", queries);
    detail::require_count(function, "keys", keys);
    detail::require_enumerator(function, "counted", counted, 2, "pair_count");
    if (queries > keys) {
        detail::throw_invalid(function, "queries", static_cast<double>(queries), "",
                              "must not exceed keys = ", static_cast<double>(keys),
                              " (the new tokens are among the keys)");
    }
    return detail::attention_pairs_unchecked(m, queries, keys, counted);
}

/// Forward-pass FLOPs for one token, split by where they go. Matmul FLOPs only (2 per
/// multiply-add); norms, softmax and element-wise work are left out, as in Narayanan et al. 2021.
struct forward_flops {
    flop_count layers{};     ///< weight matmuls of all layers (active experts only)
    flop_count attention{};  ///< QKᵀ and attention·V over the attended keys, all layers
    flop_count lm_head{};    ///< the output projection to the vocabulary
    flop_count total{};
};

namespace detail {
/// One layer's forward FLOPs on one GPU, the one formula every FLOP count in gpucalc uses.
struct layer_forward {
    flop_count gemm{};
    flop_count attention{};
};

/// The GPU holds `q` query and output-projection columns and `kv` key and value columns of the
/// attention (heads × head_dim, split by TP; a replicated KV head counts whole), `expert_share`
/// of each expert's matrices (1 ÷ TP) and the MoE router whole. The weight matmuls cost 2 FLOPs
/// per weight and token (Kaplan et al. 2020, §2.1): Q and O are h × q each, K and V h × kv each;
/// the attention core 4 × pairs × q per sequence, QKᵀ and ·V (Narayanan et al. 2021, §5.1).
/// `batch` sequences each add `queries` tokens after `keys − queries` cached ones.
GPUCALC_DETAIL_INLINE constexpr layer_forward layer_forward_flops(
    const checked_model& cm, double q, double kv, double expert_share, std::int64_t batch,
    std::int64_t queries, std::int64_t keys, pair_count counted) {
    const transformer& m = cm.spec();
    const layer_parameters& p = cm.layer();
    const double h = static_cast<double>(m.hidden);
    const double tokens = static_cast<double>(batch) * static_cast<double>(queries);
    const double weights = 2.0 * h * q + 2.0 * h * kv +
                           static_cast<double>(active_experts_of(m) * p.expert_weights) * expert_share +
                           static_cast<double>(p.router);
    const double pairs = attention_pairs_unchecked(m, queries, keys, counted);
    return {make<flops>(2.0 * tokens * weights),
            make<flops>(4.0 * static_cast<double>(batch) * pairs * q)};
}

/// forward_flops_per_token() for a model and context already checked.
GPUCALC_DETAIL_INLINE constexpr forward_flops forward_flops_unchecked(const checked_model& cm,
                                                                     std::int64_t context) {
    const transformer& m = cm.spec();
    const layer_forward one =
        layer_forward_flops(cm, static_cast<double>(cm.q_width()), static_cast<double>(cm.kv_width()),
                            1.0, 1, 1, context, pair_count::all_keys);
    forward_flops f{};
    f.layers = static_cast<double>(m.layers) * one.gemm;
    f.attention = static_cast<double>(m.layers) * one.attention;
    f.lm_head = make<flops>(2.0 * static_cast<double>(m.vocab * m.hidden));
    f.total = f.layers + f.attention + f.lm_head;
    return f;
}
}  // namespace detail

/// Forward FLOPs of one token that attends to `context` keys (capped by a sliding window).
/// Weight matmuls cost 2 FLOPs per active parameter (Kaplan et al. 2020, §2.1); attention costs
/// 2·2·context·(heads·head_dim) per layer for QKᵀ and ·V (Narayanan et al. 2021, §5.1, which,
/// like Chowdhery et al. 2022 App. B, counts all keys, not half for a causal mask).
/// Ranges: the model's (check()); `context` in [1, 2^40].
constexpr forward_flops forward_flops_per_token(const transformer& m, std::int64_t context) {
    const checked_model cm = check(m, "forward_flops_per_token");
    detail::require_count("forward_flops_per_token", "context", context);
    return detail::forward_flops_unchecked(cm, context);
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

/// Ranges: the model's (check()); `sequence` in [1, 2^40]; `policy` a recompute value.
constexpr training_flops training_flops_per_token(const transformer& m, std::int64_t sequence,
                                                  recompute policy = recompute::none) {
    constexpr const char* function = "training_flops_per_token";
    const checked_model cm = check(m, function);
    detail::require_count(function, "sequence", sequence);
    detail::require_enumerator(function, "policy", policy, 3, "recompute");
    const forward_flops f = detail::forward_flops_unchecked(cm, sequence);
    training_flops t{};
    t.model = 3.0 * f.total;
    switch (policy) {
        case recompute::none: t.hardware = t.model; break;
        case recompute::selective: t.hardware = t.model + f.attention; break;
        case recompute::full: t.hardware = t.model + f.layers + f.attention; break;
    }
    return t;
}

}  // namespace gpucalc
