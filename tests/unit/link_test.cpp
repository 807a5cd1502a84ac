// link_test.cpp: links hold one direction, record the GPUs they join, and carry the fraction
// of their bandwidth that published collective measurements reach.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
/// The catalog writes each efficiency to two decimal places, so it reproduces a published bus
/// bandwidth to within half a hundredth of the link's bandwidth.
void check_reproduces(const link_spec& link, bandwidth published_busbw) {
    CAPTURE(std::string(link.name));
    const double fraction = published_busbw / link.per_direction;
    CAPTURE(fraction);
    CHECK(std::abs(link.collective_efficiency - fraction) <= 0.005 + 1e-12);
}
}  // namespace

TEST_CASE("links: datasheet aggregates are halved, network bits become bytes") {
    // H100 datasheet: NVLink 900 GB/s (18 links x 50 GB/s, both directions).
    CHECK(cat::nvlink4.per_direction == 450.0_GB_per_s);
    CHECK(cat::nvlink3.per_direction == 300.0_GB_per_s);
    CHECK(cat::nvlink5.per_direction == 900.0_GB_per_s);
    CHECK(cat::nvlink5_nvl72.per_direction == cat::nvlink5.per_direction);
    // InfiniBand NDR 400 Gb/s per port (NVIDIA ConnectX-7 datasheet) = 50 GB/s; 100 Gb Ethernet
    // (IEEE 802.3) = 12.5 GB/s.
    CHECK(cat::infiniband_ndr.per_direction == 50.0_GB_per_s);
    CHECK(cat::ethernet_100g.per_direction == 12.5_GB_per_s);
    CHECK_THROWS_WITH_AS(link_from_bidirectional("bad", -5.0_GB_per_s, 1.0_us),
                         "link_from_bidirectional: both_directions = -5 GB/s must be "
                         "finite and >= 0",
                         invalid_input);
}

TEST_CASE("spans: how many GPUs each link joins, per the system datasheets") {
    CHECK(cat::nvlink3.span == 8);        // DGX A100: 8 GPUs, 6 NVSwitches
    CHECK(cat::nvlink4.span == 8);        // DGX H100: 8 GPUs, 4 NVSwitches
    CHECK(cat::nvlink5.span == 8);        // DGX B200: 8 GPUs, 2 NVSwitch chips
    CHECK(cat::nvlink5_nvl72.span == 72); // GB200 NVL72: one NVLink domain of 72 GPUs
    CHECK(cat::nvlink_bridge.span == 2);  // A100 datasheet: "NVLink Bridge for 2 GPUs"
    CHECK(cat::infinity_fabric.span == 8);  // MI300X platform: 8 GPUs, fully connected
    // Host links and NICs join no GPU domain; nor do the GPUs without a scale-up link.
    for (const link_spec* link : {&cat::pcie_gen3_x16, &cat::pcie_gen4_x16, &cat::pcie_gen5_x16,
                                  &cat::nvlink_c2c, &cat::infiniband_ndr, &cat::efa_400g}) {
        CAPTURE(std::string(link->name));
        CHECK(link->span == 0);
    }
    for (const gpu_spec* gpu : {&cat::t4, &cat::l4, &cat::a10}) {
        CAPTURE(std::string(gpu->name));
        CHECK(gpu->scale_up.per_direction == 0.0_GB_per_s);
    }
    CHECK(cat::gb200.scale_up == cat::nvlink5_nvl72);
    CHECK(cat::b200.scale_up == cat::nvlink5);
    CHECK(cat::a100_80gb_pcie.scale_up == cat::nvlink_bridge);
    CHECK(cat::h100_nvl.scale_up == cat::nvlink_bridge);
}

TEST_CASE("collective efficiency reproduces published bus bandwidths") {
    // 8 x A100 SXM 80GB, all-reduce busbw 231.58 GB/s at 8 GB (Azure AI benchmarking guide,
    // ND A100 v4 results).
    check_reproduces(cat::nvlink3, 231.58_GB_per_s);
    // 8 x H100, ~370 GB/s busbw with the ring algorithm (NCCL's maintainer, NVIDIA/nccl-tests#212).
    check_reproduces(cat::nvlink4, 370.0_GB_per_s);
    // 4 x GB200, ring all-reduce busbw 679.61 GB/s at 8 GB (Azure AI benchmarking guide, ND
    // GB200 v6 results).
    check_reproduces(cat::nvlink5, 679.61_GB_per_s);
    check_reproduces(cat::nvlink5_nvl72, 679.61_GB_per_s);
    // ConnectX-7 at NDR: "up to 48-49GB/s per NIC" (NVIDIA/nccl-tests#267).
    check_reproduces(cat::infiniband_ndr, 48.0_GB_per_s);
    // DGX A100, 8 x HDR: 192 GB/s of all-reduce busbw, 24 GB/s per NIC (NVIDIA/nccl#812).
    check_reproduces(cat::infiniband_hdr, 24.0_GB_per_s);
    // NCCL's model of PCIe Gen4 x16: 16 lanes x 120 (x100 Mb/s) / 80 = 24 GB/s (src/graph/topo.cc).
    check_reproduces(cat::pcie_gen4_x16, 24.0_GB_per_s);
    check_reproduces(cat::pcie_gen3_x16, 12.0_GB_per_s);
    check_reproduces(cat::pcie_gen5_x16, 48.0_GB_per_s);
}

TEST_CASE("latencies: NCCL's base once per collective, and its hardware latency per hop") {
    // src/graph/tuning.cc in github.com/NVIDIA/nccl: baseLat 6.6 µs (ring, LL); hwLat per hop
    // (LL) 0.6 µs over NVLink, 1.0 µs over PCIe, 2.7 µs over the network.
    CHECK(cat::nccl_base_latency == 6.6_us);
    CHECK(cat::nccl_nvlink_hop_latency == 0.6_us);
    CHECK(cat::nccl_pcie_hop_latency == 1.0_us);
    CHECK(cat::nccl_net_hop_latency == 2.7_us);
    for (const link_spec* link : {&cat::nvlink3, &cat::nvlink4, &cat::nvlink5,
                                  &cat::nvlink5_nvl72, &cat::nvlink_bridge,
                                  &cat::infinity_fabric, &cat::nvlink_c2c}) {
        CAPTURE(std::string(link->name));
        CHECK(link->latency == cat::nccl_nvlink_hop_latency);
        CHECK(link->base_latency == cat::nccl_base_latency);
    }
    for (const link_spec* link : {&cat::pcie_gen3_x16, &cat::pcie_gen4_x16, &cat::pcie_gen5_x16}) {
        CAPTURE(std::string(link->name));
        CHECK(link->latency == cat::nccl_pcie_hop_latency);
        CHECK(link->base_latency == cat::nccl_base_latency);
    }
    for (const link_spec* link :
         {&cat::infiniband_hdr, &cat::infiniband_ndr, &cat::infiniband_xdr, &cat::efa_400g,
          &cat::ethernet_100g, &cat::ethernet_200g_roce, &cat::ethernet_400g_roce}) {
        CAPTURE(std::string(link->name));
        CHECK(link->latency == cat::nccl_net_hop_latency);
        CHECK(link->base_latency == cat::nccl_base_latency);
    }
    // link_from_bidirectional takes both; the base defaults to 0, the pure α-β model.
    const link_spec l = link_from_bidirectional("x", 900.0_GB_per_s, 0.6_us, 6.6_us);
    CHECK(l.latency == 0.6_us);
    CHECK(l.base_latency == 6.6_us);
    CHECK(link_from_bidirectional("x", 900.0_GB_per_s, 0.6_us).base_latency == 0.0_s);
    CHECK(l != link_from_bidirectional("x", 900.0_GB_per_s, 0.6_us));  // the base compares
    CHECK_THROWS_WITH_AS(link_from_bidirectional("bad", 5.0_GB_per_s, 1.0_us, -2.0_us),
                         "link_from_bidirectional: base_latency = -2 \xC2\xB5s must be finite "
                         "and >= 0",
                         invalid_input);
    link_spec negative = cat::nvlink4;
    negative.base_latency = -1.0_us;
    CHECK_THROWS_WITH_AS(bus_bandwidth(negative),
                         "bus_bandwidth: base_latency = -1 \xC2\xB5s must be finite and >= 0",
                         invalid_input);
}

TEST_CASE("bus bandwidth: the link's bandwidth times its collective efficiency") {
    // 0.75 x 448 GB/s (7 x 64 GB/s each way, AMD MI300X datasheet) = 336 GB/s: AMD's "about
    // 48 GB/s" usable per xGMI link, times 7 links.
    CHECK(bus_bandwidth(cat::infinity_fabric) == approx(7.0 * 48.0_GB_per_s));
    link_spec ideal{"measured", 370.0_GB_per_s, 3.0_us};  // per_direction already a busbw
    CHECK(bus_bandwidth(ideal) == 370.0_GB_per_s);
    ideal.collective_efficiency = 1.5;
    CHECK_THROWS_WITH_AS(bus_bandwidth(ideal),
                         "bus_bandwidth: collective_efficiency = 1.5 must be in (0, 1]",
                         invalid_input);
    ideal.collective_efficiency = 1.0;
    ideal.span = 1;
    CHECK_THROWS_WITH_AS(bus_bandwidth(ideal),
                         "bus_bandwidth: span = 1 must be 0 (not a GPU domain) or >= 2 (a link "
                         "joins two GPUs or more)",
                         invalid_input);
    for (const gpu_spec* gpu : cat::all_gpus) {
        CAPTURE(std::string(gpu->name));
        CHECK(bus_bandwidth(gpu->scale_up) <= gpu->scale_up.per_direction);
    }
}
