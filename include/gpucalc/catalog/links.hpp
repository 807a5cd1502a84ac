// catalog/links.hpp: the links GPUs talk over, from their specifications, with the GPUs each
// joins and the fraction of its bandwidth collectives reach
#pragma once

#include "../hardware.hpp"
#include "../literals.hpp"

namespace gpucalc {
namespace catalog {

// Bandwidths are per direction: datasheets print NVLink as the bidirectional sum, and network
// links in bits per second (400 Gb/s = 50 GB/s).
// Latency has two parts, as in NCCL's own model (src/graph/tuning.cc in github.com/NVIDIA/nccl,
// read at commit b6475625; an older revision, 01afd20a, is cited as "older"): `base_latency`, paid once per collective (its
// baseLat table, per algorithm and protocol), and `latency`, paid per hop, a ring step or a
// tree level (its hwLat table, per kind of hardware: NVLink, PCI, network). The catalog takes
// the low-latency (LL) protocol's figures, the ones NCCL's model charges small messages, where
// latency matters; docs/scaling.md says why no protocol is chosen by message size. Datasheets
// do not print these, so every latency is uncertain, with its range in the comment; callers
// with measurements (nccl-tests at 8 B) should pass their own.
// Span is how many GPUs the link joins into one domain (0: not a GPU-to-GPU domain).
// Collective efficiency is nccl-tests' bus bandwidth at large messages (8 GB) over the link's
// per-direction bandwidth; doc/PERFORMANCE.md in github.com/NVIDIA/nccl-tests defines busbw so
// that it compares with the hardware's peak whatever the number of ranks. Sources are vendors'
// published runs, NVIDIA's NCCL maintainers' answers in the nccl and nccl-tests issue trackers
// (cited by number), and NCCL's own model of each link (src/graph/topo.h and topo.cc in
// github.com/NVIDIA/nccl). Measurements without NVLink SHARP: its in-switch reduction reaches a
// busbw above the line rate (480 GB/s on 8 H100/H200, 450 GB/s each way), which is a
// property of the algorithm, not of the link.

/// NCCL's base latency of a collective, 6.6 µs: baseLat for the ring with the LL protocol
/// (src/graph/tuning.cc; 6.8 µs for the tree with LL; 3.6 µs for the ring with LL in the
/// older revision). The same for every link: it is the launch and synchronisation of NCCL's
/// kernel, not a property of the wire. Uncertain: 3.6–14 µs (8.4: ring with Simple; 14: LL128).
inline constexpr duration nccl_base_latency = [] {
    using namespace literals;
    return 6.6_us;
}();

/// NCCL's per-hop latency over NVLink, 0.6 µs: hwLat[NVLINK] for the ring and the tree with
/// LL (src/graph/tuning.cc; 0.47 µs for the ring in the older revision). Uncertain: 0.47–1.9 µs (1.9:
/// LL128; Simple charges 3.4 µs a ring step).
inline constexpr duration nccl_nvlink_hop_latency = [] {
    using namespace literals;
    return 0.6_us;
}();

/// NCCL's per-hop latency over PCIe, 1.0 µs: hwLat[PCI] for the ring and the tree with LL
/// (src/graph/tuning.cc, both revisions). Uncertain: 1.0–2.5 µs (LL128; Simple: 5.7 µs).
inline constexpr duration nccl_pcie_hop_latency = [] {
    using namespace literals;
    return 1.0_us;
}();

/// NCCL's per-hop latency over the network, 2.7 µs: hwLat[NET] for the ring with LL
/// (src/graph/tuning.cc, both revisions; the newer adds the latency the network plugin reports). Uncertain: 2.7–5 µs (5.0: a tree level with LL;
/// Simple charges 14 µs a ring step). NCCL's model does not tell transports apart; TCP sockets
/// and EFA are slower per hop (see efa_400g and ethernet_100g).
inline constexpr duration nccl_net_hop_latency = [] {
    using namespace literals;
    return 2.7_us;
}();

/// NVLink 3 (A100): 12 links × 50 GB/s = 600 GB/s bidirectional (NVIDIA A100 datasheet).
/// Latency: NCCL's NVLink hop and base (nccl_nvlink_hop_latency, nccl_base_latency).
inline constexpr link_spec nvlink3 = [] {
    using namespace literals;
    link_spec l = link_from_bidirectional("NVLink 3", 600.0_GB_per_s, nccl_nvlink_hop_latency,
                                          nccl_base_latency);
    l.span = 8;  // NVIDIA DGX A100 datasheet: 8 A100s joined by 6 NVSwitches
    // All-reduce busbw 231.6 GB/s on 8 A100 SXM 80GB (Azure AI benchmarking guide,
    // Azure_Results/ND_A100_v4_results.md); ~230 GB/s expected by NCCL's maintainer (NVIDIA/
    // nccl-tests#149). Uncertain: 0.77–0.80 (NCCL's model: 20 of 25 GB/s per NVLink 3 link).
    l.collective_efficiency = 0.77;
    return l;
}();

/// NVLink 4 (H100/H200 SXM): 18 links × 50 GB/s = 900 GB/s bidirectional (NVIDIA H100
/// datasheet; 450 GB/s each way). Latency: NCCL's NVLink hop and base.
inline constexpr link_spec nvlink4 = [] {
    using namespace literals;
    link_spec l = link_from_bidirectional("NVLink 4", 900.0_GB_per_s, nccl_nvlink_hop_latency,
                                          nccl_base_latency);
    l.span = 8;  // NVIDIA DGX H100 datasheet: 8 H100s joined by 4 NVSwitches
    // ~370 GB/s of busbw on 8 H100 with the ring algorithm, "~20%" protocol overhead (NCCL's
    // maintainer, NVIDIA/nccl-tests#212); NCCL's model: 20.6 of 25 GB/s per NVLink 4 link, 0.824.
    l.collective_efficiency = 0.82;
    return l;
}();

/// NVLink 5 in an HGX B200 board: 1.8 TB/s bidirectional per GPU (NVIDIA HGX B200 datasheet).
/// Latency: NCCL's NVLink hop and base.
inline constexpr link_spec nvlink5 = [] {
    using namespace literals;
    link_spec l = link_from_bidirectional("NVLink 5", 1.8_TB_per_s, nccl_nvlink_hop_latency,
                                          nccl_base_latency);
    l.span = 8;  // NVIDIA DGX B200 datasheet: 8 B200s joined by 2 NVSwitch chips
    // Ring all-reduce busbw 679.6 GB/s on 4 GB200 GPUs (Azure AI benchmarking guide,
    // Azure_Results/ND_GB200_v6_results.md), 0.755 of 900. Uncertain: 0.76–0.80 (NCCL's
    // model: 40.1 of 50 GB/s per NVLink 5 link).
    l.collective_efficiency = 0.76;
    return l;
}();

/// NVLink 5 across a GB200 NVL72 rack: the same 1.8 TB/s per GPU, with NVLink Switch trays
/// joining all 72 GPUs (NVIDIA GB200 NVL72 datasheet: 72 GPUs, 130 TB/s). Latency: nvlink5's;
/// uncertain: a hop through the NVLink Switch trays may cost more than one on a board.
inline constexpr link_spec nvlink5_nvl72 = [] {
    link_spec l = nvlink5;
    l.name = "NVLink 5 (NVL72)";
    l.span = 72;  // GB200 NVL72 datasheet: one NVLink domain of 72 GPUs
    return l;     // efficiency: nvlink5's, itself measured on an NVL72 rack's 4-GPU VM
}();

/// NVLink bridge for PCIe cards (A100 PCIe, H100 PCIe/NVL): 600 GB/s bidirectional between a
/// pair of GPUs (NVIDIA A100 and H100 datasheets). Latency: NCCL's NVLink hop and base.
inline constexpr link_spec nvlink_bridge = [] {
    using namespace literals;
    link_spec l = link_from_bidirectional("NVLink bridge", 600.0_GB_per_s, nccl_nvlink_hop_latency,
                                          nccl_base_latency);
    l.span = 2;  // A100 datasheet: "NVLink Bridge for 2 GPUs"; H100 NVL: a bridged pair
    // Uncertain: NVLink 3's measured fraction (see nvlink3). 0.69 on a bridged A100 PCIe pair
    // (208 GB/s, a user's run in NVIDIA/nccl-tests#178) to 0.82 (NVLink 4, H100 bridges).
    l.collective_efficiency = 0.77;
    return l;
}();

/// AMD Infinity Fabric (MI300X/MI325X): 7 links × 128 GB/s = 896 GB/s bidirectional
/// (AMD Instinct MI300X datasheet). Latency uncertain: NCCL's NVLink hop and base are
/// taken (RCCL, AMD's port of NCCL, keeps NCCL's tuning model); no AMD figure was found.
inline constexpr link_spec infinity_fabric = [] {
    using namespace literals;
    link_spec l = link_from_bidirectional("Infinity Fabric", 896.0_GB_per_s, nccl_nvlink_hop_latency,
                                          nccl_base_latency);
    l.span = 8;  // AMD Instinct MI300X platform datasheet: 8 GPUs, each linked to the other 7
    // Uncertain: ~48 of each xGMI link's 64 GB/s is usable after CRC and protocol overhead (AMD
    // ROCm blog, "Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X",
    // 2025-03-02). A per-link figure, not an all-reduce busbw; no AMD busbw was found.
    l.collective_efficiency = 0.75;
    return l;
}();

// PCIe, for every generation: NCCL rates a PCIe link at lanes × GT/s × 0.75 / 8 (12, 24 and
// 48 GB/s for Gen3, Gen4 and Gen5 x16; kvDictPciGen in src/graph/topo.cc), 0.76 of the coded
// rate. Uncertain: 0.44 (28 GB/s of busbw on 8 Gen5 GPUs behind PCIe switches, "determined by
// the bandwidth your CPU and memory can deliver", NCCL's maintainer in NVIDIA/nccl#1639) to
// 0.83 (a host-to-device copy: 26.3 of 31.5 GB/s on Gen4, 52 of 63 GB/s on Gen5, Azure AI
// benchmarking guide, ND A100 v4 and ND H200 v5 nvbandwidth).
inline constexpr double pcie_collective_efficiency = 0.76;

/// PCIe Gen3 x16: 8 GT/s × 16 lanes, 128b/130b coding = 15.75 GB/s each way (PCI-SIG PCIe 3.0
/// specification; derived). Latency: NCCL's PCIe hop and base (nccl_pcie_hop_latency).
inline constexpr link_spec pcie_gen3_x16 = [] {
    using namespace literals;
    return link_spec{"PCIe Gen3 x16", 15.75_GB_per_s, nccl_pcie_hop_latency, 0,
                     pcie_collective_efficiency, nccl_base_latency};
}();

/// PCIe Gen4 x16: 16 GT/s × 16 lanes = 31.5 GB/s each way, printed as 64 GB/s bidirectional
/// (PCI-SIG; NVIDIA A100 datasheet). Latency: NCCL's PCIe hop and base.
inline constexpr link_spec pcie_gen4_x16 = [] {
    using namespace literals;
    return link_spec{"PCIe Gen4 x16", 31.5_GB_per_s, nccl_pcie_hop_latency, 0,
                     pcie_collective_efficiency, nccl_base_latency};
}();

/// PCIe Gen5 x16: 32 GT/s × 16 lanes = 63 GB/s each way, printed as 128 GB/s bidirectional
/// (PCI-SIG; NVIDIA H100 datasheet). Latency: NCCL's PCIe hop and base.
inline constexpr link_spec pcie_gen5_x16 = [] {
    using namespace literals;
    return link_spec{"PCIe Gen5 x16", 63.0_GB_per_s, nccl_pcie_hop_latency, 0,
                     pcie_collective_efficiency, nccl_base_latency};
}();

/// NVLink-C2C between a Grace CPU and its GPU: 900 GB/s bidirectional (NVIDIA GB200 NVL72
/// datasheet). Latency uncertain: NCCL's NVLink hop and base are taken; NCCL runs no collective
/// over this link.
inline constexpr link_spec nvlink_c2c = [] {
    using namespace literals;
    link_spec l = link_from_bidirectional("NVLink-C2C", 900.0_GB_per_s, nccl_nvlink_hop_latency,
                                          nccl_base_latency);
    // Uncertain: collectives run over NVLink 5, not this link; the one figure found is a copy,
    // host to device 201 GB/s of 450 (Azure AI benchmarking guide, ND GB200 v6 nvbandwidth).
    l.collective_efficiency = 0.45;
    return l;
}();

// Networks: a ConnectX-7 NIC at NDR rate "should achieve up to 48-49GB/s per NIC" (NCCL's
// maintainers, NVIDIA/nccl-tests#267), 0.96–0.98 of 50 GB/s; a DGX A100 with 8 HDR NICs
// measures 192 GB/s of all-reduce busbw, 0.96 of 200 (NVIDIA/nccl#812, quoted in #1576); NCCL's
// model of a 100 Gb/s NIC is 12 of 12.5 GB/s, 0.96 (NET_BW in src/graph/topo.h).
inline constexpr double nic_collective_efficiency = 0.96;

/// InfiniBand NDR, one 400 Gb/s port = 50 GB/s each way (NVIDIA ConnectX-7 datasheet).
/// Latency: NCCL's network hop and base (nccl_net_hop_latency); an InfiniBand switch hop alone
/// is well under 1 µs, the rest is the NIC and NCCL's proxy.
inline constexpr link_spec infiniband_ndr = [] {
    using namespace literals;
    return link_spec{"InfiniBand NDR 400G", 400.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

/// InfiniBand HDR, one 200 Gb/s port = 25 GB/s each way (NVIDIA ConnectX-6 datasheet).
/// Latency: NCCL's network hop and base.
inline constexpr link_spec infiniband_hdr = [] {
    using namespace literals;
    return link_spec{"InfiniBand HDR 200G", 200.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

/// InfiniBand XDR, one 800 Gb/s port = 100 GB/s each way (NVIDIA ConnectX-8 SuperNIC datasheet:
/// "up to 800Gb/s"). Latency: NCCL's network hop and base, as NDR.
inline constexpr link_spec infiniband_xdr = [] {
    using namespace literals;
    // Uncertain: no published XDR busbw was found; NDR's measured fraction is taken.
    return link_spec{"InfiniBand XDR 800G", 800.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

/// AWS EFA on p5.48xlarge: 3,200 Gb/s per instance over 32 interfaces of 100 Gb/s (AWS EC2
/// accelerated-computing instance documentation); grouped here as 8 links of 400 Gb/s, one per
/// GPU. Latency uncertain: NCCL's network hop and base (its model does not tell transports
/// apart); EFA's per-hop latency through the aws-ofi-nccl plugin is likely higher, up to ~15 µs.
inline constexpr link_spec efa_400g = [] {
    using namespace literals;
    // Uncertain: AWS publishes no nccl-tests busbw for p5; InfiniBand's figure is taken. 0.59
    // was measured on first-generation EFA (4 × p4dn.24xlarge, 29.6 of 50 GB/s, NVIDIA/nccl#527).
    return link_spec{"EFA 400G (per GPU)", 400.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

/// 100 Gb Ethernet = 12.5 GB/s each way (IEEE 802.3). Latency uncertain: NCCL's network hop and
/// base (its model does not tell transports apart); a hop over TCP sockets is likely higher,
/// up to ~25 µs.
inline constexpr link_spec ethernet_100g = [] {
    using namespace literals;
    // Uncertain: NCCL's model of a 100 Gb/s NIC (0.96; 12.2 GB/s "is as good as you can get"
    // on one, NVIDIA/nccl-tests#29, over InfiniBand). TCP sockets may reach less; no published
    // busbw was found.
    return link_spec{"Ethernet 100G", 100.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

// RDMA over Converged Ethernet (RoCE v2) on ConnectX-7 NICs or Spectrum-X switches, at IEEE
// 802.3 rates. Latency: NCCL's network hop and base (RDMA, no TCP stack); uncertain: a hop may
// cost more than InfiniBand's with lossless-Ethernet congestion control. Efficiency uncertain: NCCL's model of a
// NIC (nic_collective_efficiency) is taken; 0.75 was measured on 8 × 100 Gb/s RoCE per A100 node
// (600 Gb/s of busbw on 2 nodes, "a bit low" to NCCL's maintainers, NVIDIA/nccl#495).

/// Ethernet 200 Gb/s with RoCE = 25 GB/s each way (IEEE 802.3cd/bs; ConnectX-7 datasheet).
inline constexpr link_spec ethernet_200g_roce = [] {
    using namespace literals;
    return link_spec{"Ethernet 200G (RoCE)", 200.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

/// Ethernet 400 Gb/s with RoCE = 50 GB/s each way (IEEE 802.3bs/ck; ConnectX-7 datasheet).
inline constexpr link_spec ethernet_400g_roce = [] {
    using namespace literals;
    return link_spec{"Ethernet 400G (RoCE)", 400.0_Gb_per_s, nccl_net_hop_latency, 0,
                     nic_collective_efficiency, nccl_base_latency};
}();

/// Where a new serving replica reads its weights from (serving/cold_start.hpp): a bandwidth, and
/// whether each GPU has its own path at it (host memory over each GPU's PCIe link) or the
/// replica's GPUs share one (a drive, a volume, a NIC). Sequential reads of large files. Host
/// memory assumes the weights are already there (page cache, a warm node) and a PCIe link per
/// GPU: on boards where two GPUs share a PCIe switch's uplink, each gets about half.
namespace load_paths {

/// Host memory to one GPU over PCIe Gen4 x16: 25 GB/s, measured host-to-device copies on an
/// A100 SXM4 at 0.5–1 GiB buffers (nvbandwidth host_to_device_memcpy_sm,
/// github.com/NVIDIA/nvbandwidth/issues/42, July 2025); the link's line rate is 16 GT/s × 16 × 128/130 ÷ 8 = 31.5 GB/s each
/// way (PCI Express Base Specification 4.0). Uncertain: 16.5–25 GB/s by buffer size.
inline constexpr load_path host_memory_pcie_gen4{make<gigabytes_per_second>(25.0), true};
/// Host memory to one GPU over PCIe Gen5 x16: 50 GB/s. Uncertain: measured copies on H100 span
/// 35 GB/s (SM copies) to 55.6 GB/s (copy engine) (github.com/NVIDIA/nvbandwidth/issues/24,
/// September 2024); the line rate is 63.0 GB/s each way (PCI Express Base Specification 5.0).
inline constexpr load_path host_memory_pcie_gen5{make<gigabytes_per_second>(50.0), true};
/// One data-center NVMe drive on PCIe 4.0 x4: 6.5 GB/s sequential read (Samsung PM9A3 U.2,
/// Samsung's launch announcement, May 2020), shared by the replica's GPUs.
inline constexpr load_path nvme_pcie_gen4{make<gigabytes_per_second>(6.5), false};
/// One data-center NVMe drive on PCIe 5.0 x4: 13 GB/s sequential read (Samsung PM1743,
/// Samsung's announcement, December 2021), shared by the replica's GPUs.
inline constexpr load_path nvme_pcie_gen5{make<gigabytes_per_second>(13.0), false};
/// Network block storage: one Amazon EBS io2 Block Express volume, 4,000 MiB/s (AWS, "Amazon
/// EBS volume types", the volume's maximum throughput), shared by the replica's GPUs.
inline constexpr load_path ebs_io2_block_express{make<mebibytes_per_second>(4000.0), false};
/// A 100 Gb/s NIC to network or object storage at line rate: 12.5 GB/s (IEEE 802.3ba), shared
/// by the replica's GPUs. An upper bound: a single stream to object storage gets far less (EC2
/// limits one flow to 5–10 Gb/s; EC2 User Guide, "Amazon EC2 instance network bandwidth").
inline constexpr load_path nic_100g{make<gigabits_per_second>(100.0), false};

}  // namespace load_paths

}  // namespace catalog
}  // namespace gpucalc
