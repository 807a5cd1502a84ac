// scaling_bench.cpp: how fast a simulator or planner can time collectives: all-reduce
// evaluations per second, on one link and placed on a checked 2-node H100 cluster, at varied
// message sizes, each beside its raw-double twin (twin_support.hpp says how a twin is written),
// so the ratio is the price of gpucalc's unit types. Both sides are called out of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/scaling/cluster_collectives.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace gpucalc::literals;
namespace detail = gpucalc::detail;
namespace cat = gpucalc::catalog;
using gpucalc::collective;
using gpucalc::collective_algorithm;
using twin::input_mask;

/// Message sizes from 1 KiB to 4 GiB (log-uniform), in bytes.
std::vector<double> varied_sizes() {
    std::vector<double> v;
    for (double e : twin::varied_real(10.0, 32.0, 20261123)) v.push_back(std::exp2(e));
    return v;
}

// --- the twin, in bytes, seconds and bytes per second -------------------------------------------

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

struct raw_spec {
    collective op;
    double bytes;
    std::int64_t ranks;
    collective_algorithm algorithm;
};

/// detail::check(collective_spec), transliterated (the enum and count rules are the
/// library's own code).
inline void raw_check(const raw_spec& s, const char* function) {
    detail::require_enumerator(function, "spec.op", s.op, detail::collective_count, "collective");
    detail::require_enumerator(function, "spec.algorithm", s.algorithm,
                               detail::collective_algorithm_count, "collective_algorithm");
    twin::require_non_negative<gpucalc::data_size>(function, "spec.bytes", s.bytes);
    detail::require_count(function, "spec.ranks", s.ranks);
    if (s.op == collective::point_to_point && s.ranks != 2) {
        detail::throw_invalid(function, "spec.ranks", static_cast<double>(s.ranks), "",
                              "must be 2 for op = point_to_point (a message between two ranks)");
    }
    if (!detail::has_algorithm(s.op, s.algorithm)) {
        detail::throw_invalid_name(function, "spec.algorithm", gpucalc::to_string(s.algorithm),
                                   "is not defined for spec.op = ", gpucalc::to_string(s.op));
    }
}

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
                                                               double alpha, double bus) {
    raw_flat_result e{};
    e.algorithm = a;
    if (n > 1) {
        const detail::alpha_beta_terms t = detail::flat_terms(op, a, n);
        e.latency_term = t.latency_steps * alpha;
        e.bandwidth_term = t.volume * (bytes / bus);
    }
    raw_complete(e, op, n, bytes);
    return e;
}

/// detail::flat_collective_time, transliterated.
GPUCALC_DETAIL_INLINE inline raw_flat_result raw_flat_time(const raw_spec& s, double alpha,
                                                        double bus) {
    const collective op = s.op;
    const collective_algorithm algorithm = s.algorithm;
    const std::int64_t n = s.ranks;
    const double bytes = s.bytes;
    if (algorithm != collective_algorithm::fastest) {
        return raw_flat_estimate(op, algorithm, n, bytes, alpha, bus);
    }
    const raw_flat_result first =
        raw_flat_estimate(op, detail::default_algorithm(op), n, bytes, alpha, bus);
    if (!detail::chooses_ring_or_tree(op) || n <= 1) return first;
    const raw_flat_result tree =
        raw_flat_estimate(op, collective_algorithm::tree, n, bytes, alpha, bus);
    const raw_flat_result* const pair[2] = {&first, &tree};
    return *pair[tree.time < first.time ? 1 : 0];
}

/// A link in base units, with its bus bandwidth.
struct raw_link {
    double per_direction, latency, collective_efficiency;
    std::int32_t span;
};

/// collective_time(spec, link), transliterated (the link's range checks as detail::check).
[[gnu::flatten, gnu::noinline]] raw_flat_result raw_collective_time(const raw_spec& s,
                                                                    const raw_link& l) {
    constexpr const char* function = "collective_time";
    raw_check(s, function);
    twin::require_non_negative<gpucalc::bandwidth>(function, "link.per_direction", l.per_direction);
    twin::require_non_negative<gpucalc::duration>(function, "link.latency", l.latency);
    if (l.span < 0 || l.span == 1) {
        detail::throw_invalid(function, "link.span", static_cast<double>(l.span), "",
                              "must be 0 (not a GPU domain) or >= 2 (a link joins two GPUs or "
                              "more)");
    }
    detail::require_fraction_at(detail::field_path{function, "link."}, "collective_efficiency",
                                l.collective_efficiency);
    if (s.ranks > 1 && !(l.per_direction > 0.0)) {
        detail::throw_invalid(function, "link.per_direction", 0.0, "B/s",
                              "must be > 0 when spec.ranks = ", static_cast<double>(s.ranks),
                              " (the collective moves its data over the link)");
    }
    if (l.span > 0 && s.ranks > l.span) {
        detail::throw_invalid(function, "spec.ranks", static_cast<double>(s.ranks), "",
                              "must not exceed link.span = ", static_cast<double>(l.span),
                              " (the GPUs the link joins into one domain)");
    }
    return raw_flat_time(s, l.latency, l.collective_efficiency * l.per_direction);
}

/// A link's fields in base units, compared as link_spec's operator== compares them.
struct raw_link_fields {
    std::string_view name;
    double per_direction, latency;
    std::int32_t span;
    double collective_efficiency;
};

GPUCALC_DETAIL_INLINE inline bool raw_same_link(const raw_link_fields& a,
                                                const raw_link_fields& b) {
    return a.name == b.name && a.per_direction == b.per_direction && a.latency == b.latency &&
           a.span == b.span && detail::exactly_equal(a.collective_efficiency,
                                                     b.collective_efficiency);
}

/// A checked cluster's values, in base units: what detail::place reads from it.
struct raw_cluster {
    std::int64_t gpus_per_node, nodes, total_gpus;
    raw_link_fields intra, host;
    double inter_latency, inter_efficiency, node_network;
};

struct raw_group_placement {
    std::int64_t ranks_per_node = 0, groups_per_node = 0;
    double tree_bandwidth_derate = 0.92;
};

struct raw_placement {
    std::int64_t ranks, per_node, emptiest, nodes;
    double intra_alpha, intra_bus, inter_alpha, inter_bus, inter_bus_full;
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
    if (p.nodes > 1) {
        p.intra_is_host = raw_same_link(c.intra, c.host);
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
    const double latency =
        (t.latency_steps - inter_steps) * p.intra_alpha + inter_steps * p.inter_alpha;
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
        raw_set_terms(e, 2.0 * ((g - 1.0) * p.intra_alpha + node_steps * p.inter_alpha),
                      intra_used ? volume / p.intra_bus : 0.0,
                      across ? volume / p.inter_bus : 0.0, true);
    } else if (op == collective::broadcast && a == collective_algorithm::tree) {
        raw_set_terms(e, node_steps * p.inter_alpha + (g - 1.0) * p.intra_alpha,
                      intra_used ? bytes / p.intra_bus : 0.0,
                      across ? node_steps * (bytes / p.inter_bus) : 0.0, false);
    } else if (!across) {
        const raw_flat_result flat =
            raw_flat_estimate(op, a, p.ranks, bytes, p.intra_alpha, p.intra_bus);
        raw_set_terms(e, flat.latency_term, flat.bandwidth_term, 0.0, true);
    } else if (a == collective_algorithm::halving_doubling && op != collective::broadcast) {
        const raw_flat_result intra =
            raw_flat_estimate(op, a, p.per_node, bytes, p.intra_alpha, p.intra_bus);
        const raw_flat_result inter =
            raw_flat_estimate(op, a, p.nodes, bytes / g, p.inter_alpha, p.inter_bus / g);
        raw_set_terms(e, intra.latency_term + inter.latency_term, intra.bandwidth_term,
                      inter.bandwidth_term, false);
    } else if (op == collective::all_to_all) {
        const double gmin = static_cast<double>(p.emptiest);
        const double on_node = intra_used ? ((g - 1.0) / n) * (bytes / p.intra_bus) : 0.0;
        const double full_off = (g * (n - g) / n) * (bytes / p.inter_bus_full);
        const double emptiest_off = (gmin * (n - gmin) / n) * (bytes / p.inter_bus);
        raw_set_terms(e, (g - 1.0) * p.intra_alpha + (n - g) * p.inter_alpha, on_node,
                      full_off > emptiest_off ? full_off : emptiest_off, !p.intra_is_host);
    } else if (op == collective::point_to_point) {
        raw_set_terms(e, p.inter_alpha, 0.0, bytes / p.inter_bus, true);
    } else {
        raw_ring_across(e, op, a, p, bytes);
    }
    if (!across) e.binding = gpucalc::link_level::intra_node;
    e.algorithm = a;
    raw_complete(e, op, p.ranks, bytes);
    return e;
}

/// collective_time(spec, checked_cluster, placement), transliterated.
[[gnu::flatten, gnu::noinline]] raw_estimate raw_placed_time(const raw_spec& s,
                                                              const raw_cluster& c,
                                                              const raw_group_placement& where) {
    constexpr const char* function = "collective_time";
    raw_check(s, function);
    const raw_placement p = raw_place(c, s.ranks, where, function);
    const bool fastest = s.algorithm == collective_algorithm::fastest;
    raw_estimate e = raw_placed_estimate(
        s.op, fastest ? detail::default_algorithm(s.op) : s.algorithm, p, s.bytes);
    if (fastest && detail::chooses_ring_or_tree(s.op) && p.ranks > 1) {
        const raw_estimate tree = raw_placed_estimate(s.op, collective_algorithm::tree, p, s.bytes);
        if (tree.time < e.time) e = tree;
    }
    e.nodes = p.nodes;
    e.ranks_per_node = p.per_node;
    e.ranks_on_emptiest_node = p.emptiest;
    e.inter_node_bandwidth = p.inter_bus;
    return e;
}

// --- the library side ----------------------------------------------------------------------

[[gnu::noinline]] gpucalc::collective_time_estimate library_flat(const gpucalc::collective_spec& s,
                                                                  const gpucalc::link_spec& l) {
    return gpucalc::collective_time(s, l);
}

[[gnu::noinline]] gpucalc::placed_collective_estimate library_placed(
    const gpucalc::collective_spec& s, const gpucalc::checked_cluster& c,
    const gpucalc::group_placement& where) {
    return gpucalc::collective_time(s, c, where);
}

gpucalc::checked_cluster two_hgx_h100() {
    gpucalc::cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 2;
    c.inter_node = cat::infiniband_ndr;
    return gpucalc::check(c);
}

raw_link raw_of(const gpucalc::link_spec& l) {
    return {l.per_direction.value(), l.latency.value(), l.collective_efficiency, l.span};
}

raw_link_fields raw_fields(const gpucalc::link_spec& l) {
    return {l.name, l.per_direction.value(), l.latency.value(), l.span, l.collective_efficiency};
}

raw_cluster raw_of(const gpucalc::checked_cluster& c) {
    const gpucalc::cluster& s = c.spec();
    return {s.node.gpus_per_node,
            s.nodes,
            gpucalc::total_gpus(c),
            raw_fields(gpucalc::intra_node_link(c)),
            raw_fields(s.node.gpu.host),
            s.inter_node.latency.value(),
            s.inter_node.collective_efficiency,
            gpucalc::node_network_bandwidth(c).value()};
}

raw_group_placement raw_of(const gpucalc::group_placement& p) {
    return {p.ranks_per_node, p.groups_per_node, p.tree_bandwidth_derate};
}

raw_spec raw_of(const gpucalc::collective_spec& s) {
    return {s.op, s.bytes.value(), s.ranks, s.algorithm};
}

template <class Library>
void expect_same_estimate(const Library& lib, const raw_flat_result& raw) {
    twin::expect_same("time", lib.time, raw.time);
    twin::expect_same("latency term", lib.latency_term, raw.latency_term);
    twin::expect_same("bandwidth term", lib.bandwidth_term, raw.bandwidth_term);
    twin::expect_same("algorithm", lib.algorithm, raw.algorithm);
    twin::expect_same("algorithm bandwidth", lib.algorithm_bandwidth, raw.algorithm_bandwidth);
    twin::expect_same("bus bandwidth", lib.bus_bandwidth, raw.bus_bandwidth);
}

void expect_same_placed(const gpucalc::placed_collective_estimate& lib, const raw_estimate& raw) {
    expect_same_estimate(lib, raw);
    twin::expect_same("nodes", lib.nodes, raw.nodes);
    twin::expect_same("ranks per node", lib.ranks_per_node, raw.ranks_per_node);
    twin::expect_same("ranks on the emptiest node", lib.ranks_on_emptiest_node,
                      raw.ranks_on_emptiest_node);
    twin::expect_same("intra-node term", lib.intra_node_term, raw.intra_node_term);
    twin::expect_same("inter-node term", lib.inter_node_term, raw.inter_node_term);
    twin::expect_same("binding", lib.binding, raw.binding);
    twin::expect_same("inter-node bandwidth", lib.inter_node_bandwidth, raw.inter_node_bandwidth);
}

// The twins must agree with the library before they are timed: every size the loops use, with
// every op and algorithm, within a node, across two nodes (even and uneven), one rank per node,
// the NICs shared by groups, and PCIe-only nodes.
void check_twins() {
    const gpucalc::checked_cluster cluster = two_hgx_h100();
    gpucalc::cluster pcie_spec{};
    pcie_spec.node.gpu = cat::h100_pcie;
    pcie_spec.nodes = 2;
    pcie_spec.inter_node = cat::infiniband_ndr;
    const gpucalc::checked_cluster pcie = gpucalc::check(pcie_spec);
    const collective ops[] = {collective::all_reduce, collective::all_gather,
                              collective::reduce_scatter, collective::all_to_all,
                              collective::broadcast};
    const collective_algorithm algorithms[] = {
        collective_algorithm::ring, collective_algorithm::tree,
        collective_algorithm::halving_doubling, collective_algorithm::direct,
        collective_algorithm::fastest};
    // Strided groups of 1 and 4 ranks a node, sharing the NICs with every GPU or alone.
    std::vector<gpucalc::group_placement> placements;
    for (std::int64_t g : {1, 4}) {
        for (std::int64_t groups : {0, 1}) {
            gpucalc::group_placement w{};
            w.ranks_per_node = g;
            w.groups_per_node = groups;
            w.tree_bandwidth_derate = groups == 0 ? 0.92 : 1.0;
            placements.push_back(w);
        }
    }
    for (double size : varied_sizes()) {
        for (collective_algorithm a : algorithms) {
            for (std::int64_t n : {1, 8, 16}) {
                const gpucalc::collective_spec s{collective::all_reduce,
                                                 gpucalc::make<gpucalc::bytes>(size), n, a};
                if (!detail::has_algorithm(s.op, a)) continue;
                if (n <= 8) {
                    expect_same_estimate(library_flat(s, cat::nvlink4),
                                         raw_collective_time(raw_of(s), raw_of(cat::nvlink4)));
                }
            }
            for (collective op : ops) {
                if (!detail::has_algorithm(op, a)) continue;
                for (std::int64_t n : {1, 2, 4, 8, 9, 12, 16}) {
                    const gpucalc::collective_spec s{op, gpucalc::make<gpucalc::bytes>(size), n,
                                                     a};
                    for (const gpucalc::checked_cluster* c : {&cluster, &pcie}) {
                        expect_same_placed(library_placed(s, *c, {}),
                                           raw_placed_time(raw_of(s), raw_of(*c), {}));
                        for (const gpucalc::group_placement& w : placements) {
                            const std::int64_t g = w.ranks_per_node;
                            if (n % g != 0 || n / g > 2) continue;
                            expect_same_placed(library_placed(s, *c, w),
                                               raw_placed_time(raw_of(s), raw_of(*c), raw_of(w)));
                        }
                    }
                }
            }
            const gpucalc::collective_spec p2p{collective::point_to_point,
                                               gpucalc::make<gpucalc::bytes>(size), 2,
                                               collective_algorithm::direct};
            gpucalc::group_placement one{};
            one.ranks_per_node = 1;
            expect_same_placed(library_placed(p2p, cluster, one),
                               raw_placed_time(raw_of(p2p), raw_of(cluster), raw_of(one)));
        }
    }
}

// Both loops take their sizes already in their own representation. The link, cluster and
// placement each loop passes go through DoNotOptimize first: passed as constants (the catalog's
// nvlink4, a default placement), they let GCC clone the called function for those constants
// (library_flat became library_flat.constprop, its link checks and bus bandwidth folded away)
// for one side and not the other, and the pair compared constant folding, not the unit types.
void BM_flat_all_reduce_units(benchmark::State& state) {
    std::vector<gpucalc::collective_spec> specs;
    for (double size : varied_sizes()) {
        specs.push_back({collective::all_reduce, gpucalc::make<gpucalc::bytes>(size), 8,
                         collective_algorithm::fastest});
    }
    gpucalc::link_spec link = cat::nvlink4;
    benchmark::DoNotOptimize(link);
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::collective_time_estimate e = library_flat(specs[i], link);
        benchmark::DoNotOptimize(e.time.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_flat_all_reduce_units);

void BM_flat_all_reduce_raw(benchmark::State& state) {
    std::vector<raw_spec> specs;
    for (double size : varied_sizes()) {
        specs.push_back({collective::all_reduce, size, 8, collective_algorithm::fastest});
    }
    raw_link link = raw_of(cat::nvlink4);
    benchmark::DoNotOptimize(link);
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_flat_result e = raw_collective_time(specs[i], link);
        benchmark::DoNotOptimize(e.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_flat_all_reduce_raw);

void BM_placed_all_reduce_units(benchmark::State& state) {
    std::vector<gpucalc::collective_spec> specs;
    for (double size : varied_sizes()) {
        specs.push_back({collective::all_reduce, gpucalc::make<gpucalc::bytes>(size), 16,
                         collective_algorithm::fastest});
    }
    gpucalc::checked_cluster cluster = two_hgx_h100();
    gpucalc::group_placement where{};
    benchmark::DoNotOptimize(cluster);
    benchmark::DoNotOptimize(where);
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::placed_collective_estimate e = library_placed(specs[i], cluster, where);
        benchmark::DoNotOptimize(e.time.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_placed_all_reduce_units);

void BM_placed_all_reduce_raw(benchmark::State& state) {
    std::vector<raw_spec> specs;
    for (double size : varied_sizes()) {
        specs.push_back({collective::all_reduce, size, 16, collective_algorithm::fastest});
    }
    raw_cluster cluster = raw_of(two_hgx_h100());
    raw_group_placement where{};
    benchmark::DoNotOptimize(cluster);
    benchmark::DoNotOptimize(where);
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_estimate e = raw_placed_time(specs[i], cluster, where);
        benchmark::DoNotOptimize(e.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_placed_all_reduce_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
