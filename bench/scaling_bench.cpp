// scaling_bench.cpp: how fast a simulator or planner can time collectives: all-reduce
// evaluations per second, on one link and placed on a checked 2-node H100 cluster, at varied
// message sizes, each beside its raw-double twin (twin_support.hpp says how a twin is written),
// so the ratio is the price of gpucalc's unit types. Both sides are called out of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/scaling/cluster_collectives.hpp>

#include <benchmark/benchmark.h>

#include "twin_collectives.hpp"
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
using twin::raw_cluster;
using twin::raw_complete;
using twin::raw_estimate;
using twin::raw_fields;
using twin::raw_flat_estimate;
using twin::raw_flat_result;
using twin::raw_group_placement;
using twin::raw_link_fields;
using twin::raw_of;
using twin::raw_place;
using twin::raw_placed_estimate;
using twin::raw_placement;

/// Message sizes from 1 KiB to 4 GiB (log-uniform), in bytes.
std::vector<double> varied_sizes() {
    std::vector<double> v;
    for (double e : twin::varied_real(10.0, 32.0, 20261123)) v.push_back(std::exp2(e));
    return v;
}

// --- the twin, in bytes, seconds and bytes per second -------------------------------------------

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

/// detail::flat_collective_time, transliterated.
GPUCALC_DETAIL_INLINE inline raw_flat_result raw_flat_time(const raw_spec& s, double base,
                                                        double alpha, double bus) {
    const collective op = s.op;
    const collective_algorithm algorithm = s.algorithm;
    const std::int64_t n = s.ranks;
    const double bytes = s.bytes;
    if (algorithm != collective_algorithm::fastest) {
        return raw_flat_estimate(op, algorithm, n, bytes, base, alpha, bus);
    }
    const raw_flat_result first =
        raw_flat_estimate(op, detail::default_algorithm(op), n, bytes, base, alpha, bus);
    if (!detail::chooses_ring_or_tree(op) || n <= 1) return first;
    const raw_flat_result tree =
        raw_flat_estimate(op, collective_algorithm::tree, n, bytes, base, alpha, bus);
    const raw_flat_result* const pair[2] = {&first, &tree};
    return *pair[tree.time < first.time ? 1 : 0];
}

/// A link in base units, with its bus bandwidth.
struct raw_link {
    double per_direction, latency, collective_efficiency;
    std::int64_t span;
    double base_latency;
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
    twin::require_non_negative<gpucalc::duration>(function, "link.base_latency", l.base_latency);
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
    return raw_flat_time(s, l.base_latency, l.latency, l.collective_efficiency * l.per_direction);
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
    return {l.per_direction.value(), l.latency.value(), l.collective_efficiency, l.span,
            l.base_latency.value()};
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
    // Levels with different base latencies, so that the larger-of-the-two rule is compared.
    gpucalc::cluster based_spec = pcie_spec;
    based_spec.inter_node.base_latency = gpucalc::make<gpucalc::seconds>(9e-6);
    const gpucalc::checked_cluster based = gpucalc::check(based_spec);
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
                    for (const gpucalc::checked_cluster* c : {&cluster, &pcie, &based}) {
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
