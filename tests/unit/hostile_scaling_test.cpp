// hostile_scaling_test.cpp: bad input to the collectives is invalid_input naming the function
// the caller called, the member path the caller wrote, the value and the rule: zero ranks, a
// negative size, a zero-bandwidth link a collective would use, a group larger than its
// cluster or its link's span, an enum value outside its enumerators, and the group_placement
// rules. Input inside the stated ranges gets a finite answer, at the edges too.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/scaling/cluster_collectives.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
using algo = collective_algorithm;
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;

cluster two_hgx_nodes() {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 2;
    c.inter_node = cat::infiniband_ndr;
    return c;
}
}  // namespace

TEST_CASE("collective_time on a link: each broken rule named") {
    const link_spec& nvlink = cat::nvlink4;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 0}, nvlink),
                         "collective_time: spec.ranks = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, -8}, nvlink),
                         "collective_time: spec.ranks = -8 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, two_to_40 + 1}, nvlink),
                         "collective_time: spec.ranks = 1099511627777 must be <= 2^40",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, -1.0_GiB, 8}, nvlink),
                         "collective_time: spec.bytes = -1 GiB must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        collective_time({collective::all_reduce, make<bytes>(std::nan("")), 8}, nvlink),
        "collective_time: spec.bytes = nan B must be finite and >= 0", invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, make<bytes>(1e31), 8}, nvlink),
                         "collective_time: spec.bytes = 8673617379884.04 EiB must be at most "
                         "1e30 B",
                         invalid_input);
    // A zero-bandwidth link used by a collective.
    link_spec none = cat::nvlink4;
    none.per_direction = 0.0_GB_per_s;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 8}, none),
                         "collective_time: link.per_direction = 0 B/s must be > 0 when "
                         "spec.ranks = 8 (the collective moves its data over the link)",
                         invalid_input);
    // The link's own ranges, named under "link.".
    link_spec negative = cat::nvlink4;
    negative.latency = -3.0_us;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 8}, negative),
                         "collective_time: link.latency = -3 \xC2\xB5s must be finite and >= 0",
                         invalid_input);
    link_spec no_base = cat::nvlink4;
    no_base.base_latency = -6.6_us;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 8}, no_base),
                         "collective_time: link.base_latency = -6.6 \xC2\xB5s must be finite "
                         "and >= 0",
                         invalid_input);
    link_spec over = cat::nvlink4;
    over.collective_efficiency = 1.2;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 8}, over),
                         "collective_time: link.collective_efficiency = 1.2 must be in (0, 1]",
                         invalid_input);
    // More ranks than the link joins: NVLink 4 spans the 8 GPUs of an HGX board.
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, nvlink),
                         "collective_time: spec.ranks = 16 must not exceed link.span = 8 (the "
                         "GPUs the link joins into one domain)",
                         invalid_input);
    CHECK(collective_time({collective::all_reduce, 1.0_GB, 8}, nvlink).time > 0.0_s);
    CHECK(collective_time({collective::all_reduce, 1.0_GB, 16}, cat::infiniband_ndr).time >
          0.0_s);  // span 0: not a GPU domain, any count
}

TEST_CASE("collective_time: enums outside their enumerators, and algorithms an op lacks") {
    const link_spec& nvlink = cat::nvlink4;
    CHECK_THROWS_WITH_AS(
        collective_time({static_cast<collective>(12), 1.0_GB, 8}, nvlink),
        "collective_time: spec.op = 12 must be a collective value", invalid_input);
    CHECK_THROWS_WITH_AS(
        collective_time({collective::all_reduce, 1.0_GB, 8, static_cast<algo>(-1)}, nvlink),
        "collective_time: spec.algorithm = -1 must be a collective_algorithm value",
        invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_gather, 1.0_GB, 8, algo::tree}, nvlink),
                         "collective_time: spec.algorithm = tree is not defined for spec.op = "
                         "all_gather (it takes ring, halving_doubling, or fastest)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 8, algo::direct}, nvlink),
                         "collective_time: spec.algorithm = direct is not defined for spec.op = "
                         "all_reduce (it takes ring, halving_doubling, or fastest)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_to_all, 1.0_GB, 8, algo::ring}, nvlink),
                         "collective_time: spec.algorithm = ring is not defined for spec.op = "
                         "all_to_all (it takes direct or fastest)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        collective_time({collective::point_to_point, 1.0_GB, 3, algo::direct}, nvlink),
        "collective_time: spec.ranks = 3 must be 2 for op = point_to_point (a message between "
        "two ranks)",
        invalid_input);
    CHECK_THROWS_WITH_AS(bus_bandwidth_factor(static_cast<collective>(99), 8),
                         "bus_bandwidth_factor: op = 99 must be a collective value",
                         invalid_input);
}

TEST_CASE("the conversions between algorithm and bus bandwidth") {
    CHECK_THROWS_WITH_AS(bus_bandwidth_factor(collective::all_reduce, 0),
                         "bus_bandwidth_factor: ranks = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(algorithm_bandwidth(1.0_GB, 0.0_s),
                         "algorithm_bandwidth: time = 0 s must be finite and > 0", invalid_input);
    CHECK_THROWS_WITH_AS(algorithm_bandwidth(-1.0_GiB, 1.0_s),
                         "algorithm_bandwidth: bytes = -1 GiB must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(bus_from_algorithm_bandwidth(collective::all_reduce, 8, -1.0_GB_per_s),
                         "bus_from_algorithm_bandwidth: algbw = -1 GB/s must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(algorithm_from_bus_bandwidth(collective::all_reduce, 1, 1.0_GB_per_s),
                         "algorithm_from_bus_bandwidth: ranks = 1 must be >= 2 (one rank moves "
                         "no data: its bus bandwidth factor is 0)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        algorithm_from_bus_bandwidth(static_cast<collective>(6), 8, 1.0_GB_per_s),
        "algorithm_from_bus_bandwidth: op = 6 must be a collective value", invalid_input);
}

TEST_CASE("collective_time on a cluster: the group and its placement") {
    const checked_cluster c = check(two_hgx_nodes());
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 17}, c),
                         "collective_time: spec.ranks = 17 must not exceed the cluster's GPUs "
                         "= 16 (nodes x node.gpus_per_node)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 0}, c),
                         "collective_time: spec.ranks = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, c, {9}),
                         "collective_time: placement.ranks_per_node = 9 must be 0 (contiguous) "
                         "or in [1, node.gpus_per_node = 8]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, c, {-1}),
                         "collective_time: placement.ranks_per_node = -1 must be 0 (contiguous) "
                         "or in [1, node.gpus_per_node = 8]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 12}, c, {8}),
                         "collective_time: spec.ranks = 12 must be a multiple of "
                         "placement.ranks_per_node = 8 (the same ranks on each node)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 4}, c, {1}),
                         "collective_time: placement.ranks_per_node = 1 places spec.ranks on "
                         "more nodes than the cluster's nodes = 2 (spec.ranks / "
                         "placement.ranks_per_node)",
                         invalid_input);
    // groups_per_node: groups on a node use distinct GPUs, so at most 8 / 2 groups of 2 ranks.
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 4}, c, {2, 5}),
                         "collective_time: placement.groups_per_node = 5 must be 0 (every GPU "
                         "busy) or in [1, node.gpus_per_node / the group's ranks on its fullest "
                         "node = 4] (groups on a node use distinct GPUs)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 12}, c, {0, 2}),
                         "collective_time: placement.groups_per_node = 2 must be 0 (every GPU "
                         "busy) or in [1, node.gpus_per_node / the group's ranks on its fullest "
                         "node = 1] (groups on a node use distinct GPUs)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, c, {0, -1}),
                         "collective_time: placement.groups_per_node = -1 must be 0 (every GPU "
                         "busy) or in [1, node.gpus_per_node / the group's ranks on its fullest "
                         "node = 1] (groups on a node use distinct GPUs)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        collective_time({collective::all_reduce, 1.0_GB, 16}, c, {0, std::int64_t{1} << 62}),
        "collective_time: placement.groups_per_node = 4.61168601842739e+18 must be 0 (every GPU "
        "busy) or in [1, node.gpus_per_node / the group's ranks on its fullest node = 1] "
        "(groups on a node use distinct GPUs)",
        invalid_input);
    CHECK(collective_time({collective::all_reduce, 1.0_GB, 4}, c, {2, 4}).time > 0.0_s);
    // tree_bandwidth_derate: a fraction of the bus bandwidth, in (0, 1].
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, c, {0, 0, 0.0}),
                         "collective_time: placement.tree_bandwidth_derate = 0 must be in (0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, c, {0, 0, 1.5}),
                         "collective_time: placement.tree_bandwidth_derate = 1.5 must be in "
                         "(0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        collective_time({collective::all_reduce, 1.0_GB, 16}, c, {0, 0, std::nan("")}),
        "collective_time: placement.tree_bandwidth_derate = nan must be in (0, 1]",
        invalid_input);
    // The validating overload checks the cluster under the function's name.
    cluster bad = two_hgx_nodes();
    bad.inter_node = link_spec{};
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, bad),
                         "collective_time: inter_node.per_direction = 0 B/s must be > 0 when "
                         "nodes = 2 (a scale-out link joins them)",
                         invalid_input);
    bad = two_hgx_nodes();
    bad.inter_node.base_latency = 1e30_s;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, bad),
                         "collective_time: inter_node.base_latency = 1e+30 s must be at most 1e6 "
                         "years",
                         invalid_input);
    bad = two_hgx_nodes();
    bad.nics_per_node = 0;
    CHECK_THROWS_WITH_AS(collective_time({collective::all_reduce, 1.0_GB, 16}, bad),
                         "collective_time: nics_per_node = 0 must be >= 1", invalid_input);
}

TEST_CASE("the edges of the ranges get finite answers") {
    // 2^40 ranks of 1e30 B over the slowest link allowed; one byte-sized message of 1e-30 B.
    // Both latencies at their largest, 1e6 years.
    const link_spec slow{"slow", make<bytes_per_second>(1e-30), make<seconds>(1e6 * 31536000.0),
                         0, 1e-30, make<seconds>(1e6 * 31536000.0)};
    for (collective op : {collective::all_reduce, collective::all_gather,
                          collective::reduce_scatter, collective::all_to_all,
                          collective::broadcast}) {
        for (algo a : {algo::ring, algo::halving_doubling, algo::fastest}) {
            if (op == collective::all_to_all && a != algo::fastest) continue;
            for (double size : {0.0, 1e-30, 1e30}) {
                CAPTURE(op);
                CAPTURE(a);
                CAPTURE(size);
                const collective_time_estimate e =
                    collective_time({op, make<bytes>(size), two_to_40, a}, slow);
                CHECK(std::isfinite(e.time.value()));
                CHECK(std::isfinite(e.bus_bandwidth.value()));
                CHECK(e.time.value() >= 0.0);
            }
        }
    }
    // The largest cluster: 2^28 nodes of 4,096 GPUs, 2^40 in all.
    cluster huge{};
    huge.node.gpu = cat::h100_sxm;
    huge.node.gpus_per_node = 4096;
    huge.node.intra_node = cat::nvlink4;
    huge.nodes = 1 << 28;
    huge.inter_node = cat::ethernet_100g;
    const checked_cluster c = check(huge);
    const placed_collective_estimate e =
        collective_time({collective::all_reduce, make<bytes>(1e30), two_to_40}, c);
    CHECK(std::isfinite(e.time.value()));
    CHECK(e.nodes == (std::int64_t{1} << 28));
    // One rank per node would need 2^40 nodes.
    CHECK_THROWS_AS(collective_time({collective::all_to_all, 1.0_GB, two_to_40}, c, {1}),
                    invalid_input);
    // The slowest host link caps every NIC share; the smallest derate slows the tree.
    huge.node.gpu.host = link_spec{"slow", make<bytes_per_second>(1e-30), 0.0_s, 0, 1e-30};
    group_placement lone{};
    lone.groups_per_node = 1;
    lone.tree_bandwidth_derate = 1e-30;
    for (algo a : {algo::ring, algo::tree, algo::halving_doubling, algo::fastest}) {
        const placed_collective_estimate slow_nics =
            collective_time({collective::all_reduce, make<bytes>(1e30), two_to_40, a}, huge, lone);
        CHECK(std::isfinite(slow_nics.time.value()));
        CHECK(std::isfinite(slow_nics.bus_bandwidth.value()));
    }
}
