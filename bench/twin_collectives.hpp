// twin_collectives.hpp: the raw-double twin of the placed collectives (scaling/collectives.hpp,
// scaling/cluster_collectives.hpp), in bytes, seconds and bytes per second, shared by
// scaling_bench.cpp, scaling_inference_bench.cpp and scaling_step_bench.cpp so the three cannot
// drift apart (twin_support.hpp says how a twin is written). It includes twin_support.hpp first,
// so that header's `#pragma clang fp contract(off)`, which holds to the end of the translation
// unit, is in force here too (it is repeated below so the header does not depend on that).
#pragma once

#include <gpucalc/scaling/cluster_collectives.hpp>

#include "twin_support.hpp"

#include <cstdint>
#include <string_view>

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace twin {

namespace detail = gpucalc::detail;
using gpucalc::collective;
using gpucalc::collective_algorithm;

/// collective_time_estimate in base units: what the flat functions return.
struct raw_flat_result {
    double time = 0.0, latency_term = 0.0, bandwidth_term = 0.0;
    collective_algorithm algorithm = collective_algorithm::ring;
    double algorithm_bandwidth = 0.0, bus_bandwidth = 0.0;
};

/// placed_collective_estimate in base units, derived from the flat result as the library's is
/// (a flat twin returning this whole struct builds and copies twice the bytes its library
/// function does).
struct raw_estimate : raw_flat_result {
    std::int64_t nodes = 1, ranks_per_node = 1, ranks_on_emptiest_node = 1;
    double intra_node_term = 0.0, inter_node_term = 0.0;
    gpucalc::link_level binding = gpucalc::link_level::intra_node;
    double inter_node_bandwidth = 0.0;
};

GPUCALC_DETAIL_INLINE inline void raw_complete(raw_flat_result& e, collective op, std::int64_t n,
                                               double bytes) {
    e.time = e.latency_term + e.bandwidth_term;
    if (e.time > 0.0) {
        e.algorithm_bandwidth = bytes / e.time;
        e.bus_bandwidth = detail::bus_factor_unchecked(op, n) * e.algorithm_bandwidth;
    }
}

/// detail::flat_estimate, transliterated.
GPUCALC_DETAIL_INLINE inline raw_flat_result raw_flat_estimate(collective op,
                                                               collective_algorithm a,
                                                               std::int64_t n, double bytes,
                                                               double base, double alpha,
                                                               double bus) {
    raw_flat_result e{};
    e.algorithm = a;
    if (n > 1) {
        const detail::alpha_beta_terms t = detail::flat_terms(op, a, n);
        e.latency_term = base + t.latency_steps * alpha;
        e.bandwidth_term = t.volume * (bytes / bus);
    }
    raw_complete(e, op, n, bytes);
    return e;
}

/// A link's fields in base units, compared as link_spec's operator== compares them.
struct raw_link_fields {
    std::string_view name;
    double per_direction, latency;
    std::int64_t span;
    double collective_efficiency, base_latency;
};

GPUCALC_DETAIL_INLINE inline bool raw_same_link(const raw_link_fields& a,
                                                const raw_link_fields& b) {
    return a.name == b.name && a.per_direction == b.per_direction && a.latency == b.latency &&
           a.span == b.span &&
           detail::exactly_equal(a.collective_efficiency, b.collective_efficiency) &&
           a.base_latency == b.base_latency;
}

/// A checked cluster's values, in base units: what detail::place reads from it.
struct raw_cluster {
    std::int64_t gpus_per_node, nodes, total_gpus;
    raw_link_fields intra, host;
    double inter_latency, inter_efficiency, node_network, inter_base_latency;
};

struct raw_group_placement {
    std::int64_t ranks_per_node = 0, groups_per_node = 0;
    double tree_bandwidth_derate = 0.92;
};

struct raw_placement {
    std::int64_t ranks, per_node, emptiest, nodes;
    double base, intra_alpha, intra_bus, inter_alpha, inter_bus, inter_bus_full;
    bool intra_is_host;
    double tree_derate;
};

/// detail::network_share, transliterated.
GPUCALC_DETAIL_INLINE inline double raw_network_share(double network, double host,
                                                      std::int64_t g_node,
                                                      std::int64_t node_gpus,
                                                      std::int64_t groups) {
    const double g = static_cast<double>(g_node);
    const double share = groups == 0 ? network * (g / static_cast<double>(node_gpus))
                                     : network / static_cast<double>(groups);
    const double cap = g * host;
    return host > 0.0 && cap < share ? cap : share;
}

/// detail::with_links, transliterated.
GPUCALC_DETAIL_INLINE inline raw_placement raw_with_links(const raw_cluster& c, raw_placement p,
                                                          const raw_group_placement& where,
                                                          const char* function) {
    const std::int64_t node_gpus = c.gpus_per_node;
    const std::int64_t ranks = p.ranks;
    const std::int64_t groups = where.groups_per_node;
    if (groups < 0 || groups > node_gpus || groups * p.per_node > node_gpus) {
        detail::throw_invalid(function, "placement.groups_per_node", static_cast<double>(groups),
                              "",
                              "must be 0 (every GPU busy) or in [1, node.gpus_per_node / the "
                              "group's ranks on its fullest node = ",
                              static_cast<double>(node_gpus / p.per_node),
                              "] (groups on a node use distinct GPUs)");
    }
    detail::require_fraction_of_peak(function, "placement.tree_bandwidth_derate",
                                     where.tree_bandwidth_derate);
    p.tree_derate = where.tree_bandwidth_derate;
    p.intra_alpha = c.intra.latency;
    p.intra_bus = c.intra.collective_efficiency * c.intra.per_direction;
    p.inter_alpha = c.inter_latency;
    p.base = ranks > 1 ? c.intra.base_latency : 0.0;
    if (p.nodes > 1) {
        p.intra_is_host = raw_same_link(c.intra, c.host);
        if (c.inter_base_latency > p.base) p.base = c.inter_base_latency;
        const double network = c.inter_efficiency * c.node_network;
        const double host_bus = c.host.collective_efficiency * c.host.per_direction;
        p.inter_bus = raw_network_share(network, host_bus, p.emptiest, node_gpus, groups);
        p.inter_bus_full =
            p.emptiest == p.per_node
                ? p.inter_bus
                : raw_network_share(network, host_bus, p.per_node, node_gpus, groups);
    }
    return p;
}

/// detail::place, transliterated.
GPUCALC_DETAIL_INLINE inline raw_placement raw_place(const raw_cluster& c, std::int64_t ranks,
                                                     const raw_group_placement& where,
                                                     const char* function) {
    const std::int64_t node_gpus = c.gpus_per_node;
    if (ranks > c.total_gpus) {
        detail::throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                              "must not exceed the cluster's GPUs = ",
                              static_cast<double>(c.total_gpus), " (nodes x node.gpus_per_node)");
    }
    const std::int64_t strided = where.ranks_per_node;
    if (strided < 0 || strided > node_gpus) {
        detail::throw_invalid(function, "placement.ranks_per_node", static_cast<double>(strided),
                              "", "must be 0 (contiguous) or in [1, node.gpus_per_node = ",
                              static_cast<double>(node_gpus), "]");
    }
    raw_placement p{};
    p.ranks = ranks;
    if (strided == 0) {
        p.per_node = ranks < node_gpus ? ranks : node_gpus;
        p.nodes = detail::ceil_div(ranks, p.per_node);
        p.emptiest = ranks - (p.nodes - 1) * p.per_node;
    } else {
        if (!detail::divides(strided, ranks)) {
            detail::throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                                  "must be a multiple of placement.ranks_per_node = ",
                                  static_cast<double>(strided), " (the same ranks on each node)");
        }
        p.per_node = strided;
        p.emptiest = strided;
        p.nodes = detail::exact_quotient(ranks, strided);
        if (p.nodes > c.nodes) {
            detail::throw_invalid(function, "placement.ranks_per_node",
                                  static_cast<double>(strided), "",
                                  "places spec.ranks on more nodes than the cluster's nodes = ",
                                  static_cast<double>(c.nodes),
                                  " (spec.ranks / placement.ranks_per_node)");
        }
    }
    return raw_with_links(c, p, where, function);
}

/// detail::set_terms, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_set_terms(raw_estimate& e, double latency, double intra,
                                                double inter, bool pipelined) {
    e.latency_term = latency;
    e.intra_node_term = intra;
    e.inter_node_term = inter;
    e.bandwidth_term = !pipelined ? intra + inter : intra > inter ? intra : inter;
    e.binding = intra > inter ? gpucalc::link_level::intra_node : gpucalc::link_level::inter_node;
}

/// detail::ring_across, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_ring_across(raw_estimate& e, collective op,
                                                  collective_algorithm a, const raw_placement& p,
                                                  double bytes) {
    const detail::alpha_beta_terms t = detail::flat_terms(op, a, p.ranks);
    const double crossings = static_cast<double>(p.nodes - 1);
    double inter_steps = op == collective::all_reduce ? 2.0 * crossings : crossings;
    if (op == collective::broadcast && a == collective_algorithm::halving_doubling) {
        inter_steps += static_cast<double>(detail::ceil_log2(p.nodes));
    }
    const double latency = p.base + (t.latency_steps - inter_steps) * p.intra_alpha +
                           inter_steps * p.inter_alpha;
    const double volume = t.volume * bytes;
    const double g = static_cast<double>(p.per_node);
    const double intra_share = p.intra_is_host ? 1.0 : (g - 1.0) / g;
    const double intra = p.per_node == 1 ? 0.0 : intra_share * (volume / p.intra_bus);
    raw_set_terms(e, latency, intra, volume / p.inter_bus, true);
}

/// detail::placed_estimate, transliterated: every op and algorithm.
GPUCALC_DETAIL_INLINE inline raw_estimate raw_placed_estimate(collective op,
                                                              collective_algorithm a,
                                                              const raw_placement& p,
                                                              double bytes) {
    const double g = static_cast<double>(p.per_node);
    const double n = static_cast<double>(p.ranks);
    const double node_steps = static_cast<double>(detail::ceil_log2(p.nodes));
    const bool across = p.nodes > 1;
    const bool intra_used = p.per_node > 1;
    raw_estimate e{};
    if (op == collective::all_reduce && a == collective_algorithm::tree) {
        const double volume = (2.0 / p.tree_derate) * bytes;
        raw_set_terms(e, p.base + 2.0 * ((g - 1.0) * p.intra_alpha + node_steps * p.inter_alpha),
                      intra_used ? volume / p.intra_bus : 0.0,
                      across ? volume / p.inter_bus : 0.0, true);
    } else if (op == collective::broadcast && a == collective_algorithm::tree) {
        raw_set_terms(e, p.base + node_steps * p.inter_alpha + (g - 1.0) * p.intra_alpha,
                      intra_used ? bytes / p.intra_bus : 0.0,
                      across ? node_steps * (bytes / p.inter_bus) : 0.0, false);
    } else if (!across) {
        const raw_flat_result flat =
            raw_flat_estimate(op, a, p.ranks, bytes, p.base, p.intra_alpha, p.intra_bus);
        raw_set_terms(e, flat.latency_term, flat.bandwidth_term, 0.0, true);
    } else if (a == collective_algorithm::halving_doubling && op != collective::broadcast) {
        const raw_flat_result intra =
            raw_flat_estimate(op, a, p.per_node, bytes, 0.0, p.intra_alpha, p.intra_bus);
        const raw_flat_result inter =
            raw_flat_estimate(op, a, p.nodes, bytes / g, 0.0, p.inter_alpha, p.inter_bus / g);
        raw_set_terms(e, p.base + intra.latency_term + inter.latency_term, intra.bandwidth_term,
                      inter.bandwidth_term, false);
    } else if (op == collective::all_to_all) {
        const double gmin = static_cast<double>(p.emptiest);
        const double on_node = intra_used ? ((g - 1.0) / n) * (bytes / p.intra_bus) : 0.0;
        const double full_off = (g * (n - g) / n) * (bytes / p.inter_bus_full);
        const double emptiest_off = (gmin * (n - gmin) / n) * (bytes / p.inter_bus);
        raw_set_terms(e, p.base + (g - 1.0) * p.intra_alpha + (n - g) * p.inter_alpha, on_node,
                      full_off > emptiest_off ? full_off : emptiest_off, !p.intra_is_host);
    } else if (op == collective::point_to_point) {
        raw_set_terms(e, p.base + p.inter_alpha, 0.0, bytes / p.inter_bus, true);
    } else {
        raw_ring_across(e, op, a, p, bytes);
    }
    if (!across) e.binding = gpucalc::link_level::intra_node;
    e.algorithm = a;
    raw_complete(e, op, p.ranks, bytes);
    return e;
}

inline raw_link_fields raw_fields(const gpucalc::link_spec& l) {
    return {l.name, l.per_direction.value(), l.latency.value(), l.span, l.collective_efficiency,
            l.base_latency.value()};
}

inline raw_cluster raw_of(const gpucalc::checked_cluster& c) {
    const gpucalc::cluster& s = c.spec();
    return {s.node.gpus_per_node,
            s.nodes,
            gpucalc::total_gpus(c),
            raw_fields(gpucalc::intra_node_link(c)),
            raw_fields(s.node.gpu.host),
            s.inter_node.latency.value(),
            s.inter_node.collective_efficiency,
            gpucalc::node_network_bandwidth(c).value(),
            s.inter_node.base_latency.value()};
}

}  // namespace twin
