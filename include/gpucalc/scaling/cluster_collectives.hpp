// scaling/cluster_collectives.hpp: how long a collective takes among a group of ranks placed on
// a cluster, inside a node over its scale-up link (or PCIe) and across nodes over the network,
// following NCCL's ring and tree, and which level binds
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../hardware/cluster.hpp"
#include "../units.hpp"
#include "collectives.hpp"
#include "placement.hpp"

namespace gpucalc {
namespace detail {

/// Fills the estimate's terms: the latency, each level's bandwidth term, and their sum
/// (`pipelined` false: one level after the other) or the larger (true: both at once). The
/// binding level is the one with the larger term, a tie going to the network.
GPUCALC_DETAIL_INLINE constexpr void set_terms(placed_collective_estimate& e, duration latency,
                                              duration intra, duration inter, bool pipelined) {
    e.latency_term = latency;
    e.intra_node_term = intra;
    e.inter_node_term = inter;
    e.bandwidth_term = !pipelined ? intra + inter : intra > inter ? intra : inter;
    e.binding = intra > inter ? link_level::intra_node : link_level::inter_node;
}

/// NCCL's rings across k > 1 nodes (every ring op, and broadcast's scatter + all-gather): the
/// base once, then the flat steps, of which the passes × (k − 1) that cross nodes cost α_inter
/// and the rest α_intra (ring latency in src/graph/tuning.cc, github.com/NVIDIA/nccl: 2(nNodes −
/// 1) of all-reduce's 2(n − 1) steps, nNodes − 1 of all-gather's and reduce-scatter's n − 1; the
/// same for the broadcast chain, plus the scatter's first ⌈log2 k⌉ steps, derived). NCCL at
/// commit b6475625 counts 2·nNodes crossings for the all-reduce and, once the ring leaves the
/// node, raises each intra-node hop to the network's post overhead (getNetOverhead: 1 µs on
/// Intel CPUs, 2 µs on AMD, with LL); neither is followed. Each channel's ring makes
/// g − 1 intra-node hops and one NIC hop per node, and each GPU is the exit on 1/g of the
/// channels, so a GPU's intra-node link carries (g − 1)/g of the ring volume V and the node's
/// NICs carry V: V × max((g − 1)/(g B_intra), 1/N) (derived). On a PCIe-only node the NIC
/// traffic crosses the same host link, so the link carries all of V.
GPUCALC_DETAIL_INLINE constexpr void ring_across(placed_collective_estimate& e, collective op,
                                                collective_algorithm algorithm,
                                                const placement& p, data_size bytes) {
    const alpha_beta_terms t = flat_terms(op, algorithm, p.ranks);
    const double crossings = static_cast<double>(p.nodes - 1);
    double inter_steps = op == collective::all_reduce ? 2.0 * crossings : crossings;
    if (op == collective::broadcast && algorithm == collective_algorithm::halving_doubling) {
        inter_steps += static_cast<double>(ceil_log2(p.nodes));
    }
    const duration latency = p.base + (t.latency_steps - inter_steps) * p.intra_alpha +
                             inter_steps * p.inter_alpha;
    const data_size volume = t.volume * bytes;
    const double g = static_cast<double>(p.per_node);
    const double intra_share = p.intra_is_host ? 1.0 : (g - 1.0) / g;
    const duration intra =
        p.per_node == 1 ? duration{} : intra_share * (volume / p.intra_bus);
    set_terms(e, latency, intra, volume / p.inter_bus, true);
}

/// One algorithm (not fastest) for the group placed as `p`, k ≥ 1 nodes.
GPUCALC_DETAIL_INLINE constexpr placed_collective_estimate placed_estimate(
    collective op, collective_algorithm algorithm, const placement& p, data_size bytes) {
    const double g = static_cast<double>(p.per_node);
    const double n = static_cast<double>(p.ranks);
    const double node_steps = static_cast<double>(ceil_log2(p.nodes));
    const bool across = p.nodes > 1;
    const bool intra_used = p.per_node > 1;
    placed_collective_estimate e{};
    if (op == collective::all_reduce && algorithm == collective_algorithm::tree) {
        // NCCL's tree: a chain through each node's g ranks, a double binary tree across the k
        // nodes (one node: the chain alone), up and down: latency base + 2[(g − 1)α_intra +
        // ⌈log2 k⌉α_inter] (tuning.cc, whose log2i rounds k down; a tree of k leaves is
        // ⌈log2 k⌉ deep), each element up once and down once over each level at the derated
        // bus bandwidth: 2S ÷ (d × B_intra) and 2S ÷ (d × N), pipelined.
        const data_size volume = (2.0 / p.tree_derate) * bytes;
        set_terms(e, p.base + 2.0 * ((g - 1.0) * p.intra_alpha + node_steps * p.inter_alpha),
                  intra_used ? volume / p.intra_bus : duration{},
                  across ? volume / p.inter_bus : duration{}, true);
    } else if (op == collective::broadcast && algorithm == collective_algorithm::tree) {
        // A binomial tree across the k nodes at N, then NCCL's pipelined chain inside each
        // (one node: the chain alone, as NCCL's tree inside a node; derived):
        // base + ⌈log2 k⌉(α_inter + S/N) + (g − 1)α_intra + S/B_intra.
        set_terms(e, p.base + node_steps * p.inter_alpha + (g - 1.0) * p.intra_alpha,
                  intra_used ? bytes / p.intra_bus : duration{},
                  across ? node_steps * (bytes / p.inter_bus) : duration{}, false);
    } else if (!across) {
        // Within one node, every other algorithm is the flat one over the node's link.
        const collective_time_estimate flat =
            flat_estimate(op, algorithm, p.ranks, bytes, p.base, p.intra_alpha, p.intra_bus);
        set_terms(e, flat.latency_term, flat.bandwidth_term, duration{}, true);
    } else if (algorithm == collective_algorithm::halving_doubling &&
               op != collective::broadcast) {
        // Hierarchical, not pipelined: the node's g ranks first, then the k nodes, each GPU
        // carrying 1/g of the message at N ÷ g (the classic three-phase all-reduce; for the
        // all-reduce the intra-node reduce-scatter and all-gather together are Rabenseifner's
        // over g, exactly so for g a power of two). One collective: the base once, the two
        // phases' hops each.
        const collective_time_estimate intra = flat_estimate(
            op, algorithm, p.per_node, bytes, duration{}, p.intra_alpha, p.intra_bus);
        const collective_time_estimate inter = flat_estimate(
            op, algorithm, p.nodes, bytes / g, duration{}, p.inter_alpha, p.inter_bus / g);
        set_terms(e, p.base + intra.latency_term + inter.latency_term, intra.bandwidth_term,
                  inter.bandwidth_term, false);
    } else if (op == collective::all_to_all) {
        // Each rank sends S/n to every peer: (g − 1)/n · S on-node over B_intra and (n − g)/n · S
        // off-node, a node's g ranks sharing its N, at once (derived); the busier of the fullest
        // and the emptiest node's NICs sets the network's term. On a PCIe-only node both go
        // over the GPU's one host link, so the two terms add. Steps to on-node peers cost
        // α_intra, the others α_inter, and the base once.
        const double gmin = static_cast<double>(p.emptiest);
        const duration on_node = intra_used ? ((g - 1.0) / n) * (bytes / p.intra_bus)
                                            : duration{};
        const duration full_off = (g * (n - g) / n) * (bytes / p.inter_bus_full);
        const duration emptiest_off = (gmin * (n - gmin) / n) * (bytes / p.inter_bus);
        set_terms(e, p.base + (g - 1.0) * p.intra_alpha + (n - g) * p.inter_alpha, on_node,
                  full_off > emptiest_off ? full_off : emptiest_off, !p.intra_is_host);
    } else if (op == collective::point_to_point) {
        // Two ranks on two nodes (g = 1): one message over this rank's share of the NICs.
        set_terms(e, p.base + p.inter_alpha, duration{}, bytes / p.inter_bus, true);
    } else {
        ring_across(e, op, algorithm, p, bytes);
    }
    if (!across) e.binding = link_level::intra_node;
    e.algorithm = algorithm;
    complete(e, op, p.ranks, bytes);
    return e;
}

/// collective_time(spec, cluster) for a checked spec and placement: `fastest` resolved. The
/// estimate is initialized from placed_estimate's result, never assigned it: a struct holding
/// quantities is not trivially copyable, so an assignment went through a temporary and a
/// member-wise copy (GCC 12: 35 more instructions a call than the raw-double twin), where an
/// initialization constructs the result in place.
GPUCALC_DETAIL_INLINE constexpr placed_collective_estimate placed_collective_time(
    const collective_spec& spec, const placement& p) {
    const bool fastest = spec.algorithm == collective_algorithm::fastest;
    placed_collective_estimate e = placed_estimate(
        spec.op, fastest ? default_algorithm(spec.op) : spec.algorithm, p, spec.bytes);
    if (fastest && chooses_ring_or_tree(spec.op) && p.ranks > 1) {
        const placed_collective_estimate tree =
            placed_estimate(spec.op, collective_algorithm::tree, p, spec.bytes);
        if (tree.time < e.time) e = tree;  // a tie keeps the ring
    }
    e.nodes = p.nodes;
    e.ranks_per_node = p.per_node;
    e.ranks_on_emptiest_node = p.emptiest;
    e.inter_node_bandwidth = p.inter_bus;
    return e;
}

}  // namespace detail

/// How long `spec` takes among spec.ranks GPUs of `c`, each level's bandwidth term, and which
/// binds. It follows NCCL's structure (src/graph/tuning.cc in github.com/NVIDIA/nccl), where
/// collective_time(spec, link) prices the textbook algorithms among n endpoints of one link.
///
/// Placement (`where`): by default the ranks fill a node before the next (contiguous): g =
/// min(n, gpus_per_node) ranks on each of k = ⌈n/g⌉ nodes, the last holding g' = n − (k − 1)g.
/// `where.ranks_per_node` = g > 0 places a strided group, g ranks on each of n/g nodes.
/// Every GPU of a node runs a collective like this one at once (a data-parallel group of
/// tensor-parallel replicas; full-node groups), so a node's NICs are shared in proportion to
/// the GPUs, unless `where.groups_per_node` says how many groups share them. The network share N
/// is the emptiest node's (see placed_collective_estimate::inter_node_bandwidth); the
/// intra-node link, B_intra = bus_bandwidth(intra_node_link(c)), is the fullest node's.
///
/// Latency: every collective among two ranks or more pays a base latency once (NCCL's baseLat,
/// src/graph/tuning.cc): within one node the node link's base_latency, across nodes the larger of
/// it and inter_node.base_latency (derived); the costs below leave it out. α_intra and α_inter
/// are the two links' per-hop `latency`.
///
/// Within one node (k = 1), the flat collective over intra_node_link(c) (as on one link), except
/// the trees, which are NCCL's chain through the node: all_reduce 2(n − 1)α + 2S ÷ (d·B_intra),
/// d = where.tree_bandwidth_derate; broadcast (n − 1)α + S/B_intra. Across nodes (k > 1;
/// derived unless cited):
/// - ring (every op) and broadcast's halving_doubling: the flat steps, the passes × (k − 1)
///   node crossings at α_inter and the rest at α_intra (NCCL's ring latency); bandwidth
///   V × max((g − 1)/(g·B_intra), 1/N), V the flat volume (1/B_intra for all of V on a
///   PCIe-only node, whose NIC traffic crosses the same link);
/// - all_reduce tree: 2[(g − 1)α_intra + ⌈log2 k⌉α_inter] + 2S ÷ (d · min(B_intra, N));
/// - broadcast tree: ⌈log2 k⌉(α_inter + S/N) + (g − 1)α_intra + S/B_intra;
/// - halving_doubling of all_reduce, all_gather, reduce_scatter: hierarchical, the flat one over
///   the node's g ranks plus the flat one over the k nodes with S/g at N ÷ g;
/// - all_to_all: (g − 1)α_intra + (n − g)α_inter + the larger (on a PCIe-only node, the sum) of
///   (g − 1)/n · S ÷ B_intra and g(n − g)/n · S ÷ N, over the fullest and the emptiest node;
/// - point_to_point (g = 1 across nodes): α_inter + S ÷ N.
/// `fastest` is the faster of ring and tree for all_reduce and broadcast (a tie: the ring).
/// NCCL's own choice depends on its version, protocol and tuning; this is a model of it.
/// Ranges: the spec as collective_spec states, spec.ranks at most total_gpus(c); `where` as
/// group_placement states.
GPUCALC_DETAIL_HOT constexpr placed_collective_estimate collective_time(
    const collective_spec& spec, const checked_cluster& c, const group_placement& where = {}) {
    constexpr const char* function = "collective_time";
    detail::check(spec, function);
    return detail::placed_collective_time(spec, detail::place(c, spec.ranks, where, function));
}

/// The same for a cluster not yet checked: checks it first (see check(cluster)), naming its
/// fields under collective_time.
constexpr placed_collective_estimate collective_time(const collective_spec& spec,
                                                     const cluster& c,
                                                     const group_placement& where = {}) {
    constexpr const char* function = "collective_time";
    detail::check(spec, function);
    const checked_cluster checked = detail::check_cluster(c, function);
    return detail::placed_collective_time(spec,
                                          detail::place(checked, spec.ranks, where, function));
}

}  // namespace gpucalc
