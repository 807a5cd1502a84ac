// scaling/placement.hpp: how long a collective takes among a group of ranks placed on a
// cluster: inside one node over its scale-up link (or PCIe), across nodes over the scale-out
// network, and which of the two binds
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

/// A collective's time on a cluster, and why: how the group was placed, which level binds and
/// the network bandwidth this group gets.
struct placed_collective_estimate : collective_time_estimate {
    std::int64_t nodes = 1;           ///< k: the nodes the group spans
    std::int64_t ranks_per_node = 1;  ///< g: the group's ranks on each (on the fullest) node
    link_level binding = link_level::intra_node;  ///< the level whose part of the time is larger
    /// N_g: the group's share of a node's scale-out bus bandwidth (0 within one node):
    /// bus_bandwidth(inter_node) × nics_per_node × g ÷ gpus_per_node.
    bandwidth inter_node_bandwidth{};
};

namespace detail {

/// The group's placement and the links it uses, from a checked cluster.
struct placement {
    std::int64_t ranks;
    std::int64_t per_node;       ///< g
    std::int64_t nodes;          ///< k
    duration intra_alpha;
    bandwidth intra_bus;         ///< B_intra
    duration inter_alpha;
    bandwidth inter_bus;         ///< N_g
};

/// Places `ranks` ranks on `c` (checked) by the rule collective_time(spec, cluster) states.
GPUCALC_DETAIL_INLINE constexpr placement place(const checked_cluster& c, std::int64_t ranks,
                                                std::int64_t ranks_per_node,
                                                const char* function) {
    const cluster& spec = c.spec();
    const std::int64_t node_gpus = spec.node.gpus_per_node;
    if (ranks > total_gpus(c)) {
        throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                      "must not exceed the cluster's GPUs = ",
                      static_cast<double>(total_gpus(c)), " (nodes x node.gpus_per_node)");
    }
    if (ranks_per_node < 0 || ranks_per_node > node_gpus) {
        throw_invalid(function, "ranks_per_node", static_cast<double>(ranks_per_node), "",
                      "must be 0 (contiguous) or in [1, node.gpus_per_node = ",
                      static_cast<double>(node_gpus), "]");
    }
    placement p{};
    p.ranks = ranks;
    if (ranks_per_node == 0) {
        // Contiguous: ranks fill a node before the next. An uneven group (12 ranks on 8-GPU
        // nodes) is sized as its fullest node, which binds.
        p.per_node = ranks < node_gpus ? ranks : node_gpus;
        p.nodes = ceil_div(ranks, p.per_node);
    } else {
        if (!divides(ranks_per_node, ranks)) {
            throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                          "must be a multiple of ranks_per_node = ",
                          static_cast<double>(ranks_per_node), " (the same ranks on each node)");
        }
        p.per_node = ranks_per_node;
        p.nodes = exact_quotient(ranks, ranks_per_node);
        if (p.nodes > spec.nodes) {
            throw_invalid(function, "ranks_per_node", static_cast<double>(ranks_per_node), "",
                          "places spec.ranks on more nodes than the cluster's nodes = ",
                          static_cast<double>(spec.nodes), " (spec.ranks / ranks_per_node)");
        }
    }
    const link_spec& intra = intra_node_link(c);
    p.intra_alpha = intra.latency;
    p.intra_bus = intra.collective_efficiency * intra.per_direction;
    p.inter_alpha = spec.inter_node.latency;
    if (p.nodes > 1) {
        // Every GPU of a node runs the same collective at once (a data-parallel group of
        // tensor-parallel replicas; a full-node group), so the gpus_per_node ÷ g groups on a
        // node share its NICs evenly (derived). Rail-optimized fabrics (a NIC per GPU) and
        // shared NICs differ in nics_per_node.
        p.inter_bus = (spec.inter_node.collective_efficiency * node_network_bandwidth(c)) *
                      (static_cast<double>(p.per_node) / static_cast<double>(node_gpus));
    }
    return p;
}

/// The flat rule across nodes: the algorithm's flat steps, each ending when its slowest hop
/// does (the larger α), and its flat volume over the slower level's bandwidth. NCCL's rings
/// thread through each node and cross to the next over one NIC per channel, so each node sends
/// out the volume each GPU sends over its intra-node link (derived).
GPUCALC_DETAIL_INLINE constexpr void across_flat(placed_collective_estimate& e, collective op,
                                                collective_algorithm algorithm,
                                                const placement& p, data_size bytes) {
    const bool intra_used = p.per_node > 1;
    const bool network_binds = !intra_used || p.inter_bus <= p.intra_bus;
    const duration alpha =
        intra_used && p.intra_alpha > p.inter_alpha ? p.intra_alpha : p.inter_alpha;
    const alpha_beta_terms t = flat_terms(op, algorithm, p.ranks);
    e.latency_term = t.latency_steps * alpha;
    e.bandwidth_term = t.volume * (bytes / (network_binds ? p.inter_bus : p.intra_bus));
    e.binding = network_binds ? link_level::inter_node : link_level::intra_node;
}

/// Sets the binding level to the one whose part of the time is larger (a tie: the network).
GPUCALC_DETAIL_INLINE constexpr void bind_larger(placed_collective_estimate& e, duration intra,
                                                duration inter) {
    e.binding = intra > inter ? link_level::intra_node : link_level::inter_node;
}

/// One algorithm (not fastest) across k > 1 nodes.
GPUCALC_DETAIL_INLINE constexpr placed_collective_estimate across_nodes(
    collective op, collective_algorithm algorithm, const placement& p, data_size bytes) {
    const double g = static_cast<double>(p.per_node);
    const double n = static_cast<double>(p.ranks);
    const double node_steps = static_cast<double>(ceil_log2(p.nodes));
    const bool intra_used = p.per_node > 1;
    placed_collective_estimate e{};
    if (op == collective::all_reduce && algorithm == collective_algorithm::tree) {
        // NCCL: a chain through each node's g ranks, a double binary tree across the k nodes,
        // up and down (derived from NCCL's tree all-reduce): latency 2[(g − 1)α_intra +
        // ⌈log2 k⌉α_inter], bandwidth 2S ÷ min(B_intra, N_g).
        const bool network_binds = !intra_used || p.inter_bus <= p.intra_bus;
        e.latency_term = 2.0 * ((g - 1.0) * p.intra_alpha + node_steps * p.inter_alpha);
        e.bandwidth_term = 2.0 * (bytes / (network_binds ? p.inter_bus : p.intra_bus));
        e.binding = network_binds ? link_level::inter_node : link_level::intra_node;
    } else if (op == collective::broadcast && algorithm == collective_algorithm::tree) {
        // A binomial tree across the k nodes at N_g, then a pipelined chain inside each node
        // (derived from the flat binomial tree and chain).
        const duration inter_alpha = node_steps * p.inter_alpha;
        const duration inter_beta = node_steps * (bytes / p.inter_bus);
        const duration intra_alpha = (g - 1.0) * p.intra_alpha;
        const duration intra_beta = intra_used ? bytes / p.intra_bus : duration{};
        e.latency_term = inter_alpha + intra_alpha;
        e.bandwidth_term = inter_beta + intra_beta;
        bind_larger(e, intra_alpha + intra_beta, inter_alpha + inter_beta);
    } else if (algorithm == collective_algorithm::halving_doubling &&
               op != collective::broadcast) {
        // Hierarchical, not pipelined: the node's g ranks first, then the k nodes, each GPU
        // carrying 1/g of the message at N_g ÷ g (the classic three-phase all-reduce; for the
        // all-reduce the intra-node reduce-scatter and all-gather together are Rabenseifner's
        // over g, exactly so for g a power of two).
        const collective_time_estimate intra =
            flat_estimate(op, algorithm, p.per_node, bytes, p.intra_alpha, p.intra_bus);
        const collective_time_estimate inter = flat_estimate(
            op, algorithm, p.nodes, bytes / g, p.inter_alpha, p.inter_bus / g);
        e.latency_term = intra.latency_term + inter.latency_term;
        e.bandwidth_term = intra.bandwidth_term + inter.bandwidth_term;
        bind_larger(e, intra.time, inter.time);
    } else if (op == collective::all_to_all) {
        // Each rank sends (g − 1)/n · S on-node and (n − g)/n · S off-node at once; a node's
        // g ranks share N_g (derived).
        const duration on_node =
            intra_used ? ((g - 1.0) / n) * (bytes / p.intra_bus) : duration{};
        const duration off_node = (g * (n - g) / n) * (bytes / p.inter_bus);
        e.latency_term = (n - 1.0) * p.inter_alpha;
        e.bandwidth_term = on_node > off_node ? on_node : off_node;
        bind_larger(e, on_node, off_node);
    } else if (op == collective::point_to_point) {
        // Two ranks on two nodes (g = 1): one message over this rank's share of the NICs.
        e.latency_term = p.inter_alpha;
        e.bandwidth_term = bytes / p.inter_bus;
        e.binding = link_level::inter_node;
    } else {
        // Rings of every op, and broadcast's scatter + all-gather: the flat rule.
        across_flat(e, op, algorithm, p, bytes);
    }
    e.algorithm = algorithm;
    complete(e, op, p.ranks, bytes);
    return e;
}

/// collective_time(spec, cluster) for a checked spec and placement: `fastest` resolved.
GPUCALC_DETAIL_INLINE constexpr placed_collective_estimate placed_collective_time(
    const collective_spec& spec, const placement& p) {
    placed_collective_estimate e{};
    if (p.nodes <= 1) {
        const collective_time_estimate flat =
            flat_collective_time(spec, p.intra_alpha, p.intra_bus);
        static_cast<collective_time_estimate&>(e) = flat;
    } else if (spec.algorithm != collective_algorithm::fastest) {
        e = across_nodes(spec.op, spec.algorithm, p, spec.bytes);
    } else {
        e = across_nodes(spec.op, default_algorithm(spec.op), p, spec.bytes);
        if (chooses_ring_or_tree(spec.op)) {
            const placed_collective_estimate tree =
                across_nodes(spec.op, collective_algorithm::tree, p, spec.bytes);
            if (tree.time < e.time) e = tree;  // a tie keeps the ring
        }
    }
    e.nodes = p.nodes;
    e.ranks_per_node = p.per_node;
    e.inter_node_bandwidth = p.inter_bus;
    return e;
}

}  // namespace detail

/// How long `spec` takes among spec.ranks GPUs of `c`, and which level binds.
///
/// Placement: the ranks fill a node before the next (contiguous): g = min(n, gpus_per_node)
/// ranks on each of k = ⌈n/g⌉ nodes, an uneven group (12 ranks on 8-GPU nodes) sized as its
/// fullest node. `ranks_per_node` = g > 0 places a strided group instead, g ranks on each of
/// n/g nodes: a data-parallel group of tensor-parallel replicas is g = 1.
///
/// Within one node (k = 1): the flat collective over intra_node_link(c). Across nodes
/// (derived; every GPU of a node runs the same collective at once, so the gpus_per_node ÷ g
/// groups of a node share its NICs: N_g = bus_bandwidth(inter_node) × nics_per_node × g ÷
/// gpus_per_node; B_intra = bus_bandwidth(intra-node link), not used when g = 1):
/// - ring (every op) and broadcast's halving_doubling: the flat formula over n ranks, its steps
///   at the larger α, its volume over min(B_intra, N_g);
/// - all_reduce tree: 2[(g − 1)α_intra + ⌈log2 k⌉α_inter] + 2S ÷ min(B_intra, N_g) (NCCL: a
///   chain inside each node, a double binary tree across nodes);
/// - broadcast tree: a binomial tree across nodes at N_g, then a pipelined chain inside each;
/// - halving_doubling of all_reduce, all_gather, reduce_scatter: hierarchical, the flat one
///   over the node's g ranks plus the flat one over the k nodes with S/g at N_g ÷ g;
/// - all_to_all: (n − 1)α_inter + max((g − 1)/n · S ÷ B_intra, g(n − g)/n · S ÷ N_g);
/// - point_to_point (g = 1 across nodes): α_inter + S ÷ N_g.
/// `fastest` is the faster of ring and tree for all_reduce and broadcast, as on one link.
/// Ranges: the spec as collective_spec states, spec.ranks at most total_gpus(c);
/// ranks_per_node 0 or in [1, gpus_per_node], dividing spec.ranks into at most c's nodes.
constexpr placed_collective_estimate collective_time(const collective_spec& spec,
                                                     const checked_cluster& c,
                                                     std::int64_t ranks_per_node = 0) {
    constexpr const char* function = "collective_time";
    detail::check(spec, function);
    return detail::placed_collective_time(
        spec, detail::place(c, spec.ranks, ranks_per_node, function));
}

/// The same for a cluster not yet checked: checks it first (see check(cluster)), naming its
/// fields under collective_time.
constexpr placed_collective_estimate collective_time(const collective_spec& spec,
                                                     const cluster& c,
                                                     std::int64_t ranks_per_node = 0) {
    constexpr const char* function = "collective_time";
    detail::check(spec, function);
    const checked_cluster checked = detail::check_cluster(c, function);
    return detail::placed_collective_time(
        spec, detail::place(checked, spec.ranks, ranks_per_node, function));
}

}  // namespace gpucalc
