// scaling/rank_order.hpp: how a parallel layout numbers its ranks, and so how the groups of each
// parallel dimension fall on nodes: how many nodes the slowest group spans and how many of its
// ranks its fullest and emptiest nodes hold
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"

namespace gpucalc {
namespace detail {

/// gcd(a, b) for counts in [0, 2^62] (Euclid); gcd(0, b) = b.
constexpr std::int64_t common_divisor(std::int64_t a, std::int64_t b) {
    while (b != 0) {
        const std::int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/// A rank order: the sizes of a layout's parallel dimensions, innermost (fastest varying) first.
/// Rank r has coordinate ⌊r / (d_0 ⋯ d_{i−1})⌋ mod d_i in dimension i, and rank r sits on node
/// ⌊r / G⌋ of G GPUs each (the launcher fills a node before the next: torchrun's and Slurm's
/// block distribution). Megatron-LM's orders, initialize_model_parallel in
/// megatron/core/parallel_state.py (github.com/NVIDIA/Megatron-LM, its `order` "tp-cp-ep-dp-pp"):
/// - dense layers: TP, CP, DP, PP (dense_rank_order);
/// - expert layers: expert TP, EP, expert DP, PP, where expert DP = (TP·CP·DP) ÷ (expert TP ·
///   EP) and context parallelism folds into it (the RankGenerator built with cp 1 for experts;
///   expert_rank_order).
/// A group of a dimension, or of a run of neighbouring dimensions, is the ranks that differ only
/// in those coordinates.
struct rank_order {
    static constexpr int most_dimensions = 6;
    std::int64_t sizes[most_dimensions]{};
    int count = 0;
};

/// Appends a dimension of `size` ranks as the next outer one.
constexpr rank_order& then(rank_order& o, std::int64_t size) {
    o.sizes[o.count++] = size;
    return o;
}

/// How the groups of a run of dimensions fall on nodes: the group that binds (see
/// slowest_group_shape), its ranks, the nodes it spans, and its ranks on its fullest and its
/// emptiest node.
struct group_shape {
    std::int64_t ranks = 1;
    std::int64_t nodes = 1;
    std::int64_t fullest = 1;
    std::int64_t emptiest = 1;
};

/// Whether `a` binds rather than `b`: a group that crosses nodes before one that does not; then
/// fewer ranks on its emptiest node (that node's share of the network is the narrowest,
/// placement's network_share); then more nodes (more network hops); then more ranks on its
/// fullest node (a longer chain inside the node). Derived: every group of a dimension runs its
/// collective at once, and the step waits for the slowest.
constexpr bool binds_before(const group_shape& a, const group_shape& b) {
    const bool a_crosses = a.nodes > 1;
    const bool b_crosses = b.nodes > 1;
    if (a_crosses != b_crosses) return a_crosses;
    if (a.emptiest != b.emptiest) return a.emptiest < b.emptiest;
    if (a.nodes != b.nodes) return a.nodes > b.nodes;
    return a.fullest > b.fullest;
}

/// The shape of the group of `n` ranks `stride` apart whose first rank sits `offset` ranks into
/// its node (stride < G, n >= 2). Its last rank is offset + (n − 1)·stride into that node, so it
/// spans ⌊that ÷ G⌋ + 1 nodes; the first node holds ⌊(G − 1 − offset) ÷ stride⌋ + 1 of its
/// ranks, the last one ⌊(last − (nodes − 1)·G) ÷ stride⌋ + 1, and each node between ⌊G ÷
/// stride⌋, or one more when stride does not divide G: taken as ⌊G ÷ stride⌋ on the emptiest
/// node and ⌊G ÷ stride⌋ + 1 on the fullest then (derived; exact when stride divides G).
constexpr group_shape shape_at(std::int64_t offset, std::int64_t n, std::int64_t stride,
                               std::int64_t node_gpus) {
    group_shape s{};
    s.ranks = n;
    const std::int64_t last = offset + (n - 1) * stride;
    s.nodes = last / node_gpus + 1;
    if (s.nodes == 1) {
        s.fullest = n;
        s.emptiest = n;
        return s;
    }
    const std::int64_t first_node = (node_gpus - 1 - offset) / stride + 1;
    const std::int64_t last_node = (last - (s.nodes - 1) * node_gpus) / stride + 1;
    s.fullest = first_node > last_node ? first_node : last_node;
    s.emptiest = first_node < last_node ? first_node : last_node;
    if (s.nodes > 2) {
        const std::int64_t between = node_gpus / stride;
        const std::int64_t most = divides(stride, node_gpus) ? between : between + 1;
        if (between < s.emptiest) s.emptiest = between;
        if (most > s.fullest) s.fullest = most;
    }
    return s;
}

/// The binding shape among groups whose first rank sits at an offset in [lo, hi] into its node
/// (lo <= hi < G): the nodes spanned grow with the offset and take at most two values there (the
/// offsets span fewer than G ranks), so the extremes are at lo, hi, and either side of the
/// offset where one more node is reached (derived).
constexpr group_shape slowest_in_offsets(std::int64_t lo, std::int64_t hi, std::int64_t n,
                                         std::int64_t stride, std::int64_t node_gpus) {
    group_shape worst = shape_at(lo, n, stride, node_gpus);
    const auto consider = [&](std::int64_t offset) {
        const group_shape s = shape_at(offset, n, stride, node_gpus);
        if (binds_before(s, worst)) worst = s;
    };
    consider(hi);
    // The first offset at which the last rank reaches the next node boundary past lo's.
    const std::int64_t span = (n - 1) * stride;
    const std::int64_t step = ((lo + span) / node_gpus + 1) * node_gpus - span;
    if (step <= hi) {
        consider(step);
        consider(step - 1);
    }
    return worst;
}

/// How many blocks' offsets slowest_group_shape examines one by one; past it, it takes every
/// offset in a node as reachable, which can only find a slower group (a bound on the work of a
/// step evaluation for nodes of thousands of GPUs; derived).
constexpr std::int64_t most_offsets_examined = 1024;

/// The binding group (binds_before) among the groups of dimensions [first, last] of `order` on
/// nodes of `node_gpus` GPUs. Groups sit in blocks of B = n·s consecutive ranks (n the group's
/// ranks, s the product of the inner dimensions' sizes); block b's groups start at offsets b·B
/// mod G to b·B + s − 1 mod G into their first node, and those offsets repeat after G ÷ gcd(B,
/// G) blocks. It depends only on the order and G, never on how many nodes the cluster has:
/// nodes the layout leaves idle change nothing. Requires: 0 <= first <= last < order.count, the
/// product of every size at most 2^62, node_gpus >= 1.
constexpr group_shape slowest_group_shape(const rank_order& order, int first, int last,
                                          std::int64_t node_gpus) {
    std::int64_t stride = 1;
    for (int i = 0; i < first; ++i) stride *= order.sizes[i];
    std::int64_t n = 1;
    for (int i = first; i <= last; ++i) n *= order.sizes[i];
    std::int64_t blocks = 1;
    for (int i = last + 1; i < order.count; ++i) blocks *= order.sizes[i];
    group_shape one{};
    one.ranks = n;
    if (n == 1) return one;
    if (stride >= node_gpus) {
        // Neighbours are G or more ranks apart: each rank on a node of its own.
        one.nodes = n;
        return one;
    }
    const std::int64_t advance = (n * stride) % node_gpus;  // one block's shift of offsets
    const std::int64_t distinct = node_gpus / common_divisor(advance, node_gpus);
    const std::int64_t examined = blocks < distinct ? blocks : distinct;
    if (examined > most_offsets_examined) {
        return slowest_in_offsets(0, node_gpus - 1, n, stride, node_gpus);
    }
    group_shape worst{};
    std::int64_t start = 0;  // block b's first offset: b·B mod G
    for (std::int64_t b = 0; b < examined; ++b) {
        const std::int64_t end = start + stride - 1;  // < start + G: wraps at most once
        group_shape s = end < node_gpus
                            ? slowest_in_offsets(start, end, n, stride, node_gpus)
                            : slowest_in_offsets(start, node_gpus - 1, n, stride, node_gpus);
        if (end >= node_gpus) {
            const group_shape wrapped =
                slowest_in_offsets(0, end - node_gpus, n, stride, node_gpus);
            if (binds_before(wrapped, s)) s = wrapped;
        }
        if (b == 0 || binds_before(s, worst)) worst = s;
        start = (start + advance) % node_gpus;
    }
    return worst;
}

/// Megatron-LM's order of a dense layer's ranks: TP, CP, DP, PP (dimensions 0 to 3).
constexpr rank_order dense_rank_order(std::int64_t tensor, std::int64_t context,
                                      std::int64_t data, std::int64_t pipeline) {
    rank_order o{};
    then(then(then(then(o, tensor), context), data), pipeline);
    return o;
}

/// Megatron Core's order of an expert layer's ranks: expert TP (the layout's TP), EP, expert DP
/// = CP·DP ÷ EP, PP (dimensions 0 to 3).
constexpr rank_order expert_rank_order(std::int64_t tensor, std::int64_t context,
                                       std::int64_t data, std::int64_t expert,
                                       std::int64_t pipeline) {
    rank_order o{};
    then(then(then(then(o, tensor), expert), context * data / expert), pipeline);
    return o;
}

}  // namespace detail
}  // namespace gpucalc
