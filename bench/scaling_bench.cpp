// scaling_bench.cpp: how fast a simulator or planner can time collectives: all-reduce
// evaluations per second, on one link and placed on a checked 2-node H100 cluster, at varied
// message sizes, each beside its raw-double twin (twin_support.hpp says how a twin is written),
// so the ratio is the price of gpucalc's unit types. Both sides are called out of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/scaling/placement.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cstdint>
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

/// collective_time_estimate in base units.
struct raw_estimate {
    double time = 0.0, latency_term = 0.0, bandwidth_term = 0.0;
    collective_algorithm algorithm = collective_algorithm::ring;
    double algorithm_bandwidth = 0.0, bus_bandwidth = 0.0;
    std::int64_t nodes = 1, ranks_per_node = 1;
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

GPUCALC_DETAIL_INLINE inline void raw_complete(raw_estimate& e, collective op, std::int64_t n,
                                               double bytes) {
    e.time = e.latency_term + e.bandwidth_term;
    if (e.time > 0.0) {
        e.algorithm_bandwidth = bytes / e.time;
        e.bus_bandwidth = detail::bus_factor_unchecked(op, n) * e.algorithm_bandwidth;
    }
}

/// detail::flat_estimate, transliterated.
GPUCALC_DETAIL_INLINE inline raw_estimate raw_flat_estimate(collective op, collective_algorithm a,
                                                            std::int64_t n, double bytes,
                                                            double alpha, double bus) {
    raw_estimate e{};
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
GPUCALC_DETAIL_INLINE inline raw_estimate raw_flat_time(const raw_spec& s, double alpha,
                                                        double bus) {
    if (s.algorithm != collective_algorithm::fastest) {
        return raw_flat_estimate(s.op, s.algorithm, s.ranks, s.bytes, alpha, bus);
    }
    const raw_estimate first =
        raw_flat_estimate(s.op, detail::default_algorithm(s.op), s.ranks, s.bytes, alpha, bus);
    if (!detail::chooses_ring_or_tree(s.op) || s.ranks <= 1) return first;
    const raw_estimate tree =
        raw_flat_estimate(s.op, collective_algorithm::tree, s.ranks, s.bytes, alpha, bus);
    return tree.time < first.time ? tree : first;
}

/// A link in base units, with its bus bandwidth.
struct raw_link {
    double per_direction, latency, collective_efficiency;
    std::int32_t span;
};

/// collective_time(spec, link), transliterated (the link's range checks as detail::check).
[[gnu::noinline]] raw_estimate raw_collective_time(const raw_spec& s, const raw_link& l) {
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
    return raw_flat_time(s, l.latency, l.collective_efficiency * l.per_direction);
}

/// A checked cluster's values, in base units: what detail::place reads from it.
struct raw_cluster {
    std::int64_t gpus_per_node, nodes, total_gpus;
    double intra_latency, intra_efficiency, intra_per_direction;
    double inter_latency, inter_efficiency, node_network;
};

struct raw_placement {
    std::int64_t ranks, per_node, nodes;
    double intra_alpha, intra_bus, inter_alpha, inter_bus;
};

/// detail::place, transliterated.
GPUCALC_DETAIL_INLINE inline raw_placement raw_place(const raw_cluster& c, std::int64_t ranks,
                                                     std::int64_t ranks_per_node,
                                                     const char* function) {
    const std::int64_t node_gpus = c.gpus_per_node;
    if (ranks > c.total_gpus) {
        detail::throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                              "must not exceed the cluster's GPUs = ",
                              static_cast<double>(c.total_gpus), " (nodes x node.gpus_per_node)");
    }
    if (ranks_per_node < 0 || ranks_per_node > node_gpus) {
        detail::throw_invalid(function, "ranks_per_node", static_cast<double>(ranks_per_node), "",
                              "must be 0 (contiguous) or in [1, node.gpus_per_node = ",
                              static_cast<double>(node_gpus), "]");
    }
    raw_placement p{};
    p.ranks = ranks;
    if (ranks_per_node == 0) {
        p.per_node = ranks < node_gpus ? ranks : node_gpus;
        p.nodes = detail::ceil_div(ranks, p.per_node);
    } else {
        if (!detail::divides(ranks_per_node, ranks)) {
            detail::throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                                  "must be a multiple of ranks_per_node = ",
                                  static_cast<double>(ranks_per_node),
                                  " (the same ranks on each node)");
        }
        p.per_node = ranks_per_node;
        p.nodes = detail::exact_quotient(ranks, ranks_per_node);
        if (p.nodes > c.nodes) {
            detail::throw_invalid(function, "ranks_per_node", static_cast<double>(ranks_per_node),
                                  "", "places spec.ranks on more nodes than the cluster's nodes = ",
                                  static_cast<double>(c.nodes), " (spec.ranks / ranks_per_node)");
        }
    }
    p.intra_alpha = c.intra_latency;
    p.intra_bus = c.intra_efficiency * c.intra_per_direction;
    p.inter_alpha = c.inter_latency;
    if (p.nodes > 1) {
        p.inter_bus = (c.inter_efficiency * c.node_network) *
                      (static_cast<double>(p.per_node) / static_cast<double>(node_gpus));
    }
    return p;
}

/// detail::bind_larger, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_bind_larger(raw_estimate& e, double intra, double inter) {
    e.binding = intra > inter ? gpucalc::link_level::intra_node : gpucalc::link_level::inter_node;
}

/// detail::across_flat, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_across_flat(raw_estimate& e, collective op,
                                                  collective_algorithm a, const raw_placement& p,
                                                  double bytes) {
    const bool intra_used = p.per_node > 1;
    const bool network_binds = !intra_used || p.inter_bus <= p.intra_bus;
    const double alpha =
        intra_used && p.intra_alpha > p.inter_alpha ? p.intra_alpha : p.inter_alpha;
    const detail::alpha_beta_terms t = detail::flat_terms(op, a, p.ranks);
    e.latency_term = t.latency_steps * alpha;
    e.bandwidth_term = t.volume * (bytes / (network_binds ? p.inter_bus : p.intra_bus));
    e.binding = network_binds ? gpucalc::link_level::inter_node : gpucalc::link_level::intra_node;
}

/// detail::across_nodes, transliterated: every op and algorithm.
GPUCALC_DETAIL_INLINE inline raw_estimate raw_across_nodes(collective op, collective_algorithm a,
                                                           const raw_placement& p, double bytes) {
    const double g = static_cast<double>(p.per_node);
    const double n = static_cast<double>(p.ranks);
    const double node_steps = static_cast<double>(detail::ceil_log2(p.nodes));
    const bool intra_used = p.per_node > 1;
    raw_estimate e{};
    if (op == collective::all_reduce && a == collective_algorithm::tree) {
        const bool network_binds = !intra_used || p.inter_bus <= p.intra_bus;
        e.latency_term = 2.0 * ((g - 1.0) * p.intra_alpha + node_steps * p.inter_alpha);
        e.bandwidth_term = 2.0 * (bytes / (network_binds ? p.inter_bus : p.intra_bus));
        e.binding = network_binds ? gpucalc::link_level::inter_node
                                  : gpucalc::link_level::intra_node;
    } else if (op == collective::broadcast && a == collective_algorithm::tree) {
        const double inter_alpha = node_steps * p.inter_alpha;
        const double inter_beta = node_steps * (bytes / p.inter_bus);
        const double intra_alpha = (g - 1.0) * p.intra_alpha;
        const double intra_beta = intra_used ? bytes / p.intra_bus : 0.0;
        e.latency_term = inter_alpha + intra_alpha;
        e.bandwidth_term = inter_beta + intra_beta;
        raw_bind_larger(e, intra_alpha + intra_beta, inter_alpha + inter_beta);
    } else if (a == collective_algorithm::halving_doubling && op != collective::broadcast) {
        const raw_estimate intra =
            raw_flat_estimate(op, a, p.per_node, bytes, p.intra_alpha, p.intra_bus);
        const raw_estimate inter =
            raw_flat_estimate(op, a, p.nodes, bytes / g, p.inter_alpha, p.inter_bus / g);
        e.latency_term = intra.latency_term + inter.latency_term;
        e.bandwidth_term = intra.bandwidth_term + inter.bandwidth_term;
        raw_bind_larger(e, intra.time, inter.time);
    } else if (op == collective::all_to_all) {
        const double on_node = intra_used ? ((g - 1.0) / n) * (bytes / p.intra_bus) : 0.0;
        const double off_node = (g * (n - g) / n) * (bytes / p.inter_bus);
        e.latency_term = (n - 1.0) * p.inter_alpha;
        e.bandwidth_term = on_node > off_node ? on_node : off_node;
        raw_bind_larger(e, on_node, off_node);
    } else if (op == collective::point_to_point) {
        e.latency_term = p.inter_alpha;
        e.bandwidth_term = bytes / p.inter_bus;
        e.binding = gpucalc::link_level::inter_node;
    } else {
        raw_across_flat(e, op, a, p, bytes);
    }
    e.algorithm = a;
    raw_complete(e, op, p.ranks, bytes);
    return e;
}

/// collective_time(spec, checked_cluster, g), transliterated.
[[gnu::noinline]] raw_estimate raw_placed_time(const raw_spec& s, const raw_cluster& c,
                                               std::int64_t ranks_per_node) {
    constexpr const char* function = "collective_time";
    raw_check(s, function);
    const raw_placement p = raw_place(c, s.ranks, ranks_per_node, function);
    raw_estimate e{};
    if (p.nodes <= 1) {
        e = raw_flat_time(s, p.intra_alpha, p.intra_bus);
    } else if (s.algorithm != collective_algorithm::fastest) {
        e = raw_across_nodes(s.op, s.algorithm, p, s.bytes);
    } else {
        e = raw_across_nodes(s.op, detail::default_algorithm(s.op), p, s.bytes);
        if (detail::chooses_ring_or_tree(s.op)) {
            const raw_estimate tree =
                raw_across_nodes(s.op, collective_algorithm::tree, p, s.bytes);
            if (tree.time < e.time) e = tree;
        }
    }
    e.nodes = p.nodes;
    e.ranks_per_node = p.per_node;
    e.inter_node_bandwidth = p.inter_bus;
    return e;
}

// --- the library side ----------------------------------------------------------------------

[[gnu::noinline]] gpucalc::collective_time_estimate library_flat(const gpucalc::collective_spec& s,
                                                                  const gpucalc::link_spec& l) {
    return gpucalc::collective_time(s, l);
}

[[gnu::noinline]] gpucalc::placed_collective_estimate library_placed(
    const gpucalc::collective_spec& s, const gpucalc::checked_cluster& c, std::int64_t g) {
    return gpucalc::collective_time(s, c, g);
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

raw_cluster raw_of(const gpucalc::checked_cluster& c) {
    const gpucalc::link_spec& intra = gpucalc::intra_node_link(c);
    const gpucalc::cluster& s = c.spec();
    return {s.node.gpus_per_node,
            s.nodes,
            gpucalc::total_gpus(c),
            intra.latency.value(),
            intra.collective_efficiency,
            intra.per_direction.value(),
            s.inter_node.latency.value(),
            s.inter_node.collective_efficiency,
            gpucalc::node_network_bandwidth(c).value()};
}

raw_spec raw_of(const gpucalc::collective_spec& s) {
    return {s.op, s.bytes.value(), s.ranks, s.algorithm};
}

template <class Library>
void expect_same_estimate(const Library& lib, const raw_estimate& raw) {
    twin::expect_same("time", lib.time, raw.time);
    twin::expect_same("latency term", lib.latency_term, raw.latency_term);
    twin::expect_same("bandwidth term", lib.bandwidth_term, raw.bandwidth_term);
    twin::expect_same("algorithm", lib.algorithm, raw.algorithm);
    twin::expect_same("algorithm bandwidth", lib.algorithm_bandwidth, raw.algorithm_bandwidth);
    twin::expect_same("bus bandwidth", lib.bus_bandwidth, raw.bus_bandwidth);
}

// The twins must agree with the library before they are timed: every size the loops use, with
// ring, tree and fastest, within a node, across two nodes and one rank per node.
void check_twins() {
    const gpucalc::checked_cluster cluster = two_hgx_h100();
    const raw_cluster raw_cluster_values = raw_of(cluster);
    for (double size : varied_sizes()) {
        for (collective_algorithm a : {collective_algorithm::ring, collective_algorithm::tree,
                                       collective_algorithm::fastest}) {
            for (std::int64_t n : {1, 8, 16}) {
                const gpucalc::collective_spec s{collective::all_reduce,
                                                 gpucalc::make<gpucalc::bytes>(size), n, a};
                expect_same_estimate(library_flat(s, cat::nvlink4),
                                     raw_collective_time(raw_of(s), raw_of(cat::nvlink4)));
                const gpucalc::placed_collective_estimate lib = library_placed(s, cluster, 0);
                const raw_estimate raw = raw_placed_time(raw_of(s), raw_cluster_values, 0);
                expect_same_estimate(lib, raw);
                twin::expect_same("nodes", lib.nodes, raw.nodes);
                twin::expect_same("ranks per node", lib.ranks_per_node, raw.ranks_per_node);
                twin::expect_same("binding", lib.binding, raw.binding);
                twin::expect_same("inter-node bandwidth", lib.inter_node_bandwidth,
                                  raw.inter_node_bandwidth);
            }
            const gpucalc::collective_spec dp{collective::all_reduce,
                                              gpucalc::make<gpucalc::bytes>(size), 2, a};
            expect_same_estimate(library_placed(dp, cluster, 1),
                                 raw_placed_time(raw_of(dp), raw_cluster_values, 1));
        }
    }
}

// Both loops take their sizes already in their own representation.
void BM_flat_all_reduce_units(benchmark::State& state) {
    std::vector<gpucalc::collective_spec> specs;
    for (double size : varied_sizes()) {
        specs.push_back({collective::all_reduce, gpucalc::make<gpucalc::bytes>(size), 8,
                         collective_algorithm::fastest});
    }
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::collective_time_estimate e = library_flat(specs[i], cat::nvlink4);
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
    const raw_link link = raw_of(cat::nvlink4);
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_estimate e = raw_collective_time(specs[i], link);
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
    const gpucalc::checked_cluster cluster = two_hgx_h100();
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::placed_collective_estimate e = library_placed(specs[i], cluster, 0);
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
    const raw_cluster cluster = raw_of(two_hgx_h100());
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_estimate e = raw_placed_time(specs[i], cluster, 0);
        benchmark::DoNotOptimize(e.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_placed_all_reduce_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
