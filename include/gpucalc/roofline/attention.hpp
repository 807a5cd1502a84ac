// roofline/attention.hpp: what one layer's attention core (QKᵀ, softmax, ·V) costs on a GPU:
// FLOPs over the (query, key) pairs a causal mask or sliding window keeps, and the bytes
// FlashAttention or the standard algorithm moves
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "op.hpp"

namespace gpucalc {

/// Query rows FlashAttention processes per block of K and V it streams (its B_r). FlashAttention
/// re-reads K and V once per query block, Θ(N²d²/M) traffic (Dao et al. 2022, Theorem 2);
/// FlashAttention-2 uses 64–128-row blocks (Dao 2023, §3.3). Uncertain: 64–128; 128 planned.
inline constexpr std::int64_t default_flash_query_block = 128;

namespace detail {
/// Whether attention_cost's `tensor_parallel` argument obeys the TP rules (parallelism.hpp's
/// check_tensor_parallel): in [1, 2^40], dividing the heads, and dividing or a multiple of the
/// KV heads.
constexpr bool tensor_parallel_argument_allowed(const checked_model& cm, std::int64_t tp) {
    const std::int64_t kv = detail::kv_heads_unchecked(cm);
    return tp >= 1 && tp <= largest_count && divides(tp, cm.spec().heads) &&
           (divides(tp, kv) || divides(kv, tp));
}

/// Throws for attention_cost's `tensor_parallel` argument breaking the TP rules, named as the
/// argument, not as a layout's member.
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_tensor_parallel(const transformer& m,
                                                                       std::int64_t tp,
                                                                       const char* function) {
    require_count(function, "tensor_parallel", tp);
    if (!divides(tp, m.heads)) {
        throw_invalid(function, "tensor_parallel", static_cast<double>(tp), "",
                      "must divide attention heads = ", static_cast<double>(m.heads), "");
    }
    const double kv = static_cast<double>(detail::kv_heads_unchecked(m));
    throw_invalid(function, "tensor_parallel", static_cast<double>(tp), "",
                  "must divide KV heads = ", kv,
                  " or be a multiple of it (KV heads are then replicated)");
}
}  // namespace detail

/// The attention core of one layer (QKᵀ, softmax, ·V) for `batch` sequences of `queries` new
/// tokens appended after `keys − queries` cached ones, on one GPU of a TP group. FLOPs:
/// 2·2·(query, key) pairs·(heads × head_dim)/tp (Narayanan et al. 2021, §5.1), where a causal
/// mask keeps for query i only the keys up to it, and a sliding window caps them. Bytes:
/// FlashAttention reads Q and writes O once and streams K and V once per block of
/// `flash_query_block` queries (Dao et al. 2022, Theorem 2); the standard algorithm reads K and
/// V once but also writes and reads back the score matrix S and the probabilities P, one
/// element per pair and head each (their Algorithm 0). Ranges: the model as check(transformer);
/// batch, queries, keys and flash_query_block in [1, 2^40], queries at most keys;
/// tensor_parallel in [1, 2^40], dividing the heads and dividing or a multiple of the KV heads;
/// activations as bits_per_element states. (At the largest sizes the answer exceeds what
/// op_time takes, which then says so.)
constexpr op_cost attention_cost(const transformer& m, std::int64_t batch, std::int64_t queries,
                                 std::int64_t keys, bool flash = true, bool causal = true,
                                 const storage_format& activations = formats::bf16,
                                 std::int64_t tensor_parallel = 1,
                                 std::int64_t flash_query_block = default_flash_query_block) {
    constexpr const char* function = "attention_cost";
    const checked_model cm = check(m, function);
    detail::require_count(function, "batch", batch);
    detail::require_count(function, "queries", queries);
    detail::require_count(function, "keys", keys);
    detail::require_count(function, "flash_query_block", flash_query_block);
    if (queries > keys) {
        detail::throw_invalid(function, "queries", static_cast<double>(queries), "",
                              "must not exceed keys = ", static_cast<double>(keys),
                              " (the new tokens are among the keys)");
    }
    if (!detail::tensor_parallel_argument_allowed(cm, tensor_parallel)) {
        detail::throw_bad_tensor_parallel(m, tensor_parallel, function);
    }
    detail::check_format(activations, function, "activations.");
    const detail::attention_widths w = detail::attention_widths_per_gpu(cm, tensor_parallel);
    const double b = static_cast<double>(batch);
    const double q = static_cast<double>(queries);
    const double pairs = detail::attention_pairs_unchecked(
        m, queries, keys, causal ? pair_count::causal : pair_count::all_keys);
    const double k = static_cast<double>(detail::attended_unchecked(m, keys));
    const double heads = static_cast<double>(m.heads) / static_cast<double>(tensor_parallel);
    double elements = b * 2.0 * q * w.q;  // Q in, O out
    if (flash) {
        const double blocks = static_cast<double>(detail::ceil_div(queries, flash_query_block));
        elements += b * blocks * 2.0 * k * w.kv;
    } else {
        elements += b * 2.0 * k * w.kv + b * 4.0 * heads * pairs;  // S and P, written and read
    }
    return {make<flops>(4.0 * b * pairs * w.q),
            detail::storage_size_unchecked(elements, activations)};
}

}  // namespace gpucalc
