// scaling/placement.hpp: where a group of ranks sits on a cluster: how many nodes it spans, its
// ranks on the fullest and the emptiest node, and the links and network share it gets there
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../hardware/cluster.hpp"
#include "../hardware/link.hpp"
#include "../units.hpp"
#include "collectives.hpp"

namespace gpucalc {

/// Where a group of ranks sits on a cluster, and how it shares the nodes with other groups.
/// Ranges: ranks_per_node 0 or in [1, node.gpus_per_node], dividing spec.ranks into at most the
/// cluster's nodes; groups_per_node 0 or in [1, node.gpus_per_node ÷ g], g the group's ranks on
/// its fullest node (groups on one node use distinct GPUs); tree_bandwidth_derate in [1e-30, 1].
struct group_placement {
    /// 0 (the default): contiguous, the ranks fill a node before the next. g > 0: strided, g
    /// ranks on each of spec.ranks ÷ g nodes (a data-parallel group of tensor-parallel replicas
    /// of 8 GPUs each is g = 1).
    std::int64_t ranks_per_node = 0;
    /// How many groups, this one included, run a collective at once on each node and share its
    /// NICs evenly. 0 (the default): every GPU of every node is busy with a group like this one,
    /// so a node holding g' of the group's ranks gives it g' ÷ gpus_per_node of its network.
    std::int64_t groups_per_node = 0;
    /// The fraction of the tree all-reduce's bus bandwidth that NCCL's model keeps: busBw × .92
    /// for the tree in src/graph/tuning.cc (github.com/NVIDIA/nccl; × .9 in its early
    /// versions). 1: the ideal pipelined tree.
    double tree_bandwidth_derate = 0.92;
};

/// Which level of a cluster limits a collective: the link inside a node or the network between
/// nodes.
enum class link_level { intra_node, inter_node };

/// The level's name; "unknown" for a value outside the enumerators (printing never throws).
constexpr std::string_view to_string(link_level l) {
    switch (l) {
        case link_level::intra_node: return "intra_node";
        case link_level::inter_node: return "inter_node";
    }
    return "unknown";
}

/// A collective's time on a cluster, and why: how the group was placed, the bandwidth term of
/// each level, which of them binds, and the network share this group gets.
struct placed_collective_estimate : collective_time_estimate {
    std::int64_t nodes = 1;                   ///< k: the nodes the group spans
    std::int64_t ranks_per_node = 1;          ///< g: the group's ranks on its fullest node
    /// The group's ranks on its emptiest node: n − (k − 1)g for a contiguous group, g when the
    /// group is even. Below g, the group is uneven.
    std::int64_t ranks_on_emptiest_node = 1;
    /// The bytes the intra-node links carry over their bandwidth (0 for one rank a node): the
    /// bandwidth term the time would have if the network were infinitely fast.
    duration intra_node_term{};
    /// The bytes the network carries over this group's share of it (0 within one node).
    duration inter_node_term{};
    /// The level with the larger term (a tie: the network); intra_node within one node.
    link_level binding = link_level::intra_node;
    /// N: the group's share of its emptiest node's scale-out bus bandwidth (0 within one node):
    /// bus_bandwidth(inter_node) × nics_per_node × g' ÷ gpus_per_node (g' its ranks there), or
    /// ÷ groups_per_node when that is set, and at most g' × bus_bandwidth(gpu.host).
    bandwidth inter_node_bandwidth{};
};

namespace detail {

/// The group's placement and the links it uses, from a checked cluster.
struct placement {
    std::int64_t ranks;
    std::int64_t per_node;      ///< g, on the fullest node
    std::int64_t emptiest;      ///< g' on the emptiest node
    std::int64_t nodes;         ///< k
    duration base;              ///< the per-collective latency (see place)
    duration intra_alpha;
    bandwidth intra_bus;        ///< B_intra
    duration inter_alpha;
    bandwidth inter_bus;        ///< N at the emptiest node
    bandwidth inter_bus_full;   ///< N at the fullest node
    bool intra_is_host;         ///< the node's GPUs talk over their host link (PCIe-only)
    double tree_derate;
};

/// A node's network share for a group holding `g_node` of its GPUs: `network` (the node's
/// scale-out bus bandwidth) times g_node ÷ gpus_per_node when every GPU is busy (groups 0), or
/// ÷ groups; with GPUDirect RDMA a NIC's traffic crosses the GPU's host link, so at most g_node
/// of those (`host`, 0 when the GPU has none). Derived.
GPUCALC_DETAIL_INLINE constexpr bandwidth network_share(bandwidth network, bandwidth host,
                                                        std::int64_t g_node,
                                                        std::int64_t node_gpus,
                                                        std::int64_t groups) {
    const double g = static_cast<double>(g_node);
    const bandwidth share = groups == 0
                                ? network * (g / static_cast<double>(node_gpus))
                                : network / static_cast<double>(groups);
    const bandwidth cap = g * host;
    return host > bandwidth{} && cap < share ? cap : share;
}

/// Fills the links and the network share of a group already placed as `p` (ranks, per_node,
/// emptiest and nodes set), checking `where`'s sharing and derate.
GPUCALC_DETAIL_INLINE constexpr placement with_links(const checked_cluster& c, placement p,
                                                     const group_placement& where,
                                                     const char* function) {
    const cluster& spec = c.spec();
    const std::int64_t node_gpus = spec.node.gpus_per_node;
    const std::int64_t ranks = p.ranks;
    const std::int64_t groups = where.groups_per_node;
    if (groups < 0 || groups > node_gpus || groups * p.per_node > node_gpus) {
        throw_invalid(function, "placement.groups_per_node", static_cast<double>(groups), "",
                      "must be 0 (every GPU busy) or in [1, node.gpus_per_node / the group's "
                      "ranks on its fullest node = ",
                      static_cast<double>(node_gpus / p.per_node),
                      "] (groups on a node use distinct GPUs)");
    }
    require_fraction_of_peak(function, "placement.tree_bandwidth_derate",
                             where.tree_bandwidth_derate);
    p.tree_derate = where.tree_bandwidth_derate;
    const link_spec& intra = intra_node_link(c);
    p.intra_alpha = intra.latency;
    p.intra_bus = intra.collective_efficiency * intra.per_direction;
    p.inter_alpha = spec.inter_node.latency;
    // The collective's base latency, once: the node link's within a node, and across nodes
    // the larger of the two levels' (NCCL charges one baseLat per collective whatever the
    // hardware, src/graph/tuning.cc; taking the slower level's when they differ is derived).
    // One rank communicates nothing and pays none.
    p.base = ranks > 1 ? intra.base_latency : duration{};
    if (p.nodes > 1) {
        const link_spec& host = spec.node.gpu.host;
        p.intra_is_host = intra == host;
        if (spec.inter_node.base_latency > p.base) p.base = spec.inter_node.base_latency;
        const bandwidth network = spec.inter_node.collective_efficiency * node_network_bandwidth(c);
        const bandwidth host_bus = host.collective_efficiency * host.per_direction;
        p.inter_bus = network_share(network, host_bus, p.emptiest, node_gpus, groups);
        p.inter_bus_full = p.emptiest == p.per_node
                               ? p.inter_bus
                               : network_share(network, host_bus, p.per_node, node_gpus, groups);
    }
    return p;
}

/// Places `ranks` ranks on `c` (checked) by the rule collective_time(spec, cluster) states.
GPUCALC_DETAIL_INLINE constexpr placement place(const checked_cluster& c, std::int64_t ranks,
                                                const group_placement& where,
                                                const char* function) {
    const cluster& spec = c.spec();
    const std::int64_t node_gpus = spec.node.gpus_per_node;
    if (ranks > total_gpus(c)) {
        throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                      "must not exceed the cluster's GPUs = ",
                      static_cast<double>(total_gpus(c)), " (nodes x node.gpus_per_node)");
    }
    const std::int64_t strided = where.ranks_per_node;
    if (strided < 0 || strided > node_gpus) {
        throw_invalid(function, "placement.ranks_per_node", static_cast<double>(strided), "",
                      "must be 0 (contiguous) or in [1, node.gpus_per_node = ",
                      static_cast<double>(node_gpus), "]");
    }
    placement p{};
    p.ranks = ranks;
    if (strided == 0) {
        // Contiguous: ranks fill a node before the next; the last node holds the rest.
        p.per_node = ranks < node_gpus ? ranks : node_gpus;
        p.nodes = ceil_div(ranks, p.per_node);
        p.emptiest = ranks - (p.nodes - 1) * p.per_node;
    } else {
        if (!divides(strided, ranks)) {
            throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                          "must be a multiple of placement.ranks_per_node = ",
                          static_cast<double>(strided), " (the same ranks on each node)");
        }
        p.per_node = strided;
        p.emptiest = strided;
        p.nodes = exact_quotient(ranks, strided);
        if (p.nodes > spec.nodes) {
            throw_invalid(function, "placement.ranks_per_node", static_cast<double>(strided), "",
                          "places spec.ranks on more nodes than the cluster's nodes = ",
                          static_cast<double>(spec.nodes),
                          " (spec.ranks / placement.ranks_per_node)");
        }
    }
    return with_links(c, p, where, function);
}

}  // namespace detail

}  // namespace gpucalc
