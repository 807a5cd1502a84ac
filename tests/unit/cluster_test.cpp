// cluster_test.cpp: a node's intra-node link follows from the GPU's links and their spans, and a
// cluster checked once gives the same answers as the validating functions, bit for bit.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/format.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
node node_of(const gpu_spec& gpu, std::int64_t gpus) {
    node n{};
    n.gpu = gpu;
    n.gpus_per_node = gpus;
    return n;
}

cluster cluster_of(const gpu_spec& gpu, std::int64_t gpus_per_node, std::int64_t nodes) {
    cluster c{};
    c.node = node_of(gpu, gpus_per_node);
    c.nodes = nodes;
    c.inter_node = cat::infiniband_ndr;
    return c;
}

/// The checked path and the validating one give identical answers: same bits, not "close".
void check_paths_agree(const cluster& c) {
    const checked_cluster checked = check(c);
    CHECK(total_gpus(checked) == total_gpus(c));
    CHECK(node_network_bandwidth(checked).value() == node_network_bandwidth(c).value());
    CHECK(intra_node_link(checked) == intra_node_link(c.node));
    CHECK(checked.spec().node.gpu == c.node.gpu);
    CHECK(checked.spec().nodes == c.nodes);
}
}  // namespace

TEST_CASE("intra-node link: the scale-up link only where its span covers the node") {
    SUBCASE("an HGX board's NVSwitch joins its 8 GPUs") {
        // DGX A100 / DGX H100 / DGX B200 datasheets: 8 GPUs on NVSwitch.
        CHECK(intra_node_link(node_of(cat::a100_80gb_sxm, 8)) == cat::nvlink3);
        CHECK(intra_node_link(node_of(cat::h100_sxm, 8)) == cat::nvlink4);
        CHECK(intra_node_link(node_of(cat::h200, 8)) == cat::nvlink4);
        CHECK(intra_node_link(node_of(cat::b200, 8)) == cat::nvlink5);
        CHECK(intra_node_link(node_of(cat::mi300x, 8)) == cat::infinity_fabric);
    }
    SUBCASE("8 PCIe cards get PCIe, not 300 GB/s between every pair") {
        // A100 PCIe: NVLink bridges join pairs, so a ring over 8 crosses PCIe Gen4.
        const link_spec a100_pcie = intra_node_link(node_of(cat::a100_80gb_pcie, 8));
        CHECK(a100_pcie == cat::pcie_gen4_x16);
        CHECK(a100_pcie.per_direction == 31.5_GB_per_s);
        CHECK(intra_node_link(node_of(cat::h100_nvl, 8)) == cat::pcie_gen5_x16);
        CHECK(intra_node_link(node_of(cat::l4, 8)) == cat::pcie_gen4_x16);
        CHECK(intra_node_link(node_of(cat::t4, 4)) == cat::pcie_gen3_x16);
        CHECK(intra_node_link(node_of(cat::a10, 8)) == cat::pcie_gen4_x16);
    }
    SUBCASE("a bridged pair is joined by its bridge") {
        CHECK(intra_node_link(node_of(cat::a100_80gb_pcie, 2)) == cat::nvlink_bridge);
        CHECK(intra_node_link(node_of(cat::h100_nvl, 2)) == cat::nvlink_bridge);
    }
    SUBCASE("a GB200 NVL72 rack's NVLink spans up to 72 GPUs") {
        // Azure ND GB200 v6: a VM holds 4 GPUs of the rack.
        CHECK(intra_node_link(node_of(cat::gb200, 4)) == cat::nvlink5_nvl72);
        CHECK(intra_node_link(node_of(cat::gb200, 72)) == cat::nvlink5_nvl72);
        CHECK(intra_node_link(node_of(cat::gb200, 144)) == cat::nvlink_c2c);  // past the rack
    }
    SUBCASE("more GPUs than the switch joins fall back to the host link") {
        CHECK(intra_node_link(node_of(cat::b200, 16)) == cat::pcie_gen5_x16);
    }
    SUBCASE("an explicit link overrides the derived one") {
        node n = node_of(cat::l4, 8);
        n.intra_node = cat::ethernet_100g;  // e.g. a server whose GPUs talk through a NIC
        CHECK(intra_node_link(n) == cat::ethernet_100g);
        n = node_of(cat::h100_sxm, 8);
        n.intra_node = cat::pcie_gen5_x16;  // NVLink present but not used
        CHECK(intra_node_link(n) == cat::pcie_gen5_x16);
    }
    SUBCASE("cloud shapes: every 8-GPU SXM instance gets its NVLink") {
        for (const instance_spec* i : cat::all_instances) {
            CAPTURE(std::string(i->name));
            const link_spec link = intra_node_link(node_of(i->gpu, i->gpus));
            if (i->gpus > 1) CHECK(link == i->gpu.scale_up);
        }
    }
}

TEST_CASE("checked cluster: the two paths agree bit for bit") {
    SUBCASE("every catalog GPU, node size and node count") {
        const std::int64_t node_sizes[] = {1, 2, 4, 8, 72};
        const std::int64_t node_counts[] = {1, 2, 16, 1024};
        for (const gpu_spec* gpu : cat::all_gpus) {
            for (std::int64_t gpus : node_sizes) {
                for (std::int64_t nodes : node_counts) {
                    CAPTURE(std::string(gpu->name));
                    CAPTURE(gpus);
                    CAPTURE(nodes);
                    cluster c = cluster_of(*gpu, gpus, nodes);
                    // A TPU has no host link: its nodes of more chips than ICI spans are invalid.
                    if (gpus > 1 && !(intra_node_link(c.node).per_direction > 0.0_B_per_s)) {
                        CHECK_THROWS_AS(check(c), invalid_input);
                        continue;
                    }
                    check_paths_agree(c);
                }
            }
        }
    }
    SUBCASE("random shapes, links and NIC counts") {
        std::mt19937 rng(20261122u);  // fixed seed: the same shapes on every run
        std::uniform_int_distribution<std::int64_t> count(1, 512);
        std::uniform_int_distribution<std::size_t> pick(0, cat::all_gpus.size() - 1);
        std::uniform_real_distribution<double> gbps(1.0, 3200.0);
        for (int trial = 0; trial < 500; ++trial) {
            cluster c = cluster_of(*cat::all_gpus[pick(rng)], count(rng) % 16 + 1, count(rng));
            c.nics_per_node = count(rng) % 32 + 1;
            c.inter_node = link_spec{"random NIC", make<gigabits_per_second>(gbps(rng)), 5.0_us};
            if (trial % 3 == 0) c.node.intra_node = cat::pcie_gen5_x16;
            if (c.node.gpus_per_node > 1 && !(intra_node_link(c.node).per_direction > 0.0_B_per_s)) {
                continue;  // a TPU node past its ICI span: invalid, as above
            }
            check_paths_agree(c);
        }
    }
    SUBCASE("a single node needs no scale-out link") {
        cluster server = cluster_of(cat::h100_sxm, 8, 1);
        server.inter_node = link_spec{};
        CHECK(total_gpus(check(server)) == 8);
        CHECK(node_network_bandwidth(server) == 0.0_B_per_s);
        check_paths_agree(server);
    }
}

TEST_CASE("checked cluster: bad input names the function, the field, the value and the rule") {
    cluster c = cluster_of(cat::h100_sxm, 8, 4);
    CHECK(total_gpus(c) == 32);
    CHECK(node_network_bandwidth(c) == 400.0_GB_per_s);  // 8 NICs x 400 Gb/s
    SUBCASE("counts") {
        c.nodes = 0;
        CHECK_THROWS_WITH_AS(total_gpus(c), "total_gpus: nodes = 0 must be >= 1", invalid_input);
        CHECK_THROWS_WITH_AS(check(c), "check(cluster): nodes = 0 must be >= 1", invalid_input);
        c.nodes = 4;
        c.node.gpus_per_node = -8;
        CHECK_THROWS_WITH_AS(check(c), "check(cluster): node.gpus_per_node = -8 must be >= 1",
                             invalid_input);
        c.node.gpus_per_node = 8;
        c.nics_per_node = 0;
        CHECK_THROWS_WITH_AS(node_network_bandwidth(c),
                             "node_network_bandwidth: nics_per_node = 0 must be >= 1", invalid_input);
    }
    SUBCASE("the GPU, named under node.gpu") {
        c.node.gpu.memory = 0.0_GiB;
        CHECK_THROWS_WITH_AS(check(c), "check(cluster): node.gpu.memory = 0 B must be finite and > 0",
                             invalid_input);
        c.node.gpu = cat::h100_sxm;
        c.node.gpu.dense_peak.bf16 = -1.0_TFLOPS;
        CHECK_THROWS_WITH_AS(total_gpus(c),
                             "total_gpus: node.gpu.dense_peak.bf16 = -1 TFLOP/s must be finite "
                             "and >= 0",
                             invalid_input);
        c.node.gpu = cat::h100_sxm;
        c.node.gpu.scale_up.span = 1;
        CHECK_THROWS_WITH_AS(check(c),
                             "check(cluster): node.gpu.scale_up.span = 1 must be 0 (not a GPU "
                             "domain) or >= 2 (a link joins two GPUs or more)",
                             invalid_input);
    }
    SUBCASE("the links") {
        c.node.intra_node = cat::nvlink4;
        c.node.intra_node.collective_efficiency = 1.5;
        CHECK_THROWS_WITH_AS(check(c),
                             "check(cluster): node.intra_node.collective_efficiency = 1.5 must be "
                             "in (0, 1]",
                             invalid_input);
        c.node.intra_node = link_spec{};
        c.inter_node.latency = -1.0_us;
        CHECK_THROWS_WITH_AS(check(c),
                             "check(cluster): inter_node.latency = -1 \xC2\xB5s must be finite and >= 0",
                             invalid_input);
        c.inter_node = link_spec{};
        CHECK_THROWS_WITH_AS(check(c),
                             "check(cluster): inter_node.per_direction = 0 B/s must be > 0 when "
                             "nodes = 4 (a scale-out link joins them)",
                             invalid_input);
    }
    SUBCASE("GPUs in a node with nothing between them") {
        gpu_spec lone = cat::h100_sxm;  // a hand-written spec that names no link
        lone.scale_up = link_spec{};
        lone.host = link_spec{};
        c.node.gpu = lone;
        CHECK_THROWS_WITH_AS(check(c),
                             "check(cluster): node.intra_node.per_direction = 0 B/s must be > 0 "
                             "when node.gpus_per_node = 8 (node.gpu has no scale_up link spanning "
                             "them and no host link)",
                             invalid_input);
        c.node.intra_node = cat::pcie_gen5_x16;  // saying what joins them fixes it
        CHECK(intra_node_link(check(c)) == cat::pcie_gen5_x16);
        c.node.gpus_per_node = 1;                // as does a node of one GPU
        c.node.intra_node = link_spec{};
        CHECK(total_gpus(check(c)) == 4);
    }
}
