// catalog/links.hpp: the links GPUs talk over, from their specifications
#pragma once

#include "../hardware.hpp"
#include "../literals.hpp"

namespace gpucalc {
namespace catalog {

// Bandwidths are per direction: datasheets print NVLink as the bidirectional sum, and network
// links in bits per second (400 Gb/s = 50 GB/s).
// Latency is the per-message start-up time of an α-β model. Datasheets do not print it for
// collectives, so every latency here is uncertain: it is an order-of-magnitude planning figure,
// with the range in the comment, and callers with measurements (nccl-tests) should pass their own.

/// NVLink 3 (A100): 12 links × 50 GB/s = 600 GB/s bidirectional (NVIDIA A100 datasheet).
/// Latency uncertain: ~2–5 µs for a small NCCL message within a node.
inline constexpr link_spec nvlink3 = [] {
    using namespace literals;
    return link_from_bidirectional("NVLink 3", 600.0_GB_per_s, 3.0_us);
}();

/// NVLink 4 (H100/H200 SXM): 18 links × 50 GB/s = 900 GB/s bidirectional (NVIDIA H100
/// datasheet; 450 GB/s each way). Latency uncertain: ~2–5 µs.
inline constexpr link_spec nvlink4 = [] {
    using namespace literals;
    return link_from_bidirectional("NVLink 4", 900.0_GB_per_s, 3.0_us);
}();

/// NVLink 5 (Blackwell): 1.8 TB/s bidirectional per GPU (NVIDIA HGX B200 and GB200 NVL72
/// datasheets). Latency uncertain: ~2–5 µs.
inline constexpr link_spec nvlink5 = [] {
    using namespace literals;
    return link_from_bidirectional("NVLink 5", 1.8_TB_per_s, 3.0_us);
}();

/// NVLink bridge for PCIe cards (A100 PCIe, H100 PCIe/NVL): 600 GB/s bidirectional between a
/// pair of GPUs (NVIDIA A100 and H100 datasheets). Latency uncertain: ~2–5 µs.
inline constexpr link_spec nvlink_bridge = [] {
    using namespace literals;
    return link_from_bidirectional("NVLink bridge", 600.0_GB_per_s, 3.0_us);
}();

/// AMD Infinity Fabric (MI300X/MI325X): 7 links × 128 GB/s = 896 GB/s bidirectional
/// (AMD Instinct MI300X datasheet). Latency uncertain: ~2–5 µs.
inline constexpr link_spec infinity_fabric = [] {
    using namespace literals;
    return link_from_bidirectional("Infinity Fabric", 896.0_GB_per_s, 3.0_us);
}();

/// PCIe Gen3 x16: 8 GT/s × 16 lanes, 128b/130b coding = 15.75 GB/s each way (PCI-SIG PCIe 3.0
/// specification; derived). Latency uncertain: ~1–10 µs for a small transfer.
inline constexpr link_spec pcie_gen3_x16 = [] {
    using namespace literals;
    return link_spec{"PCIe Gen3 x16", 15.75_GB_per_s, 5.0_us};
}();

/// PCIe Gen4 x16: 16 GT/s × 16 lanes = 31.5 GB/s each way, printed as 64 GB/s bidirectional
/// (PCI-SIG; NVIDIA A100 datasheet). Latency uncertain: ~1–10 µs.
inline constexpr link_spec pcie_gen4_x16 = [] {
    using namespace literals;
    return link_spec{"PCIe Gen4 x16", 31.5_GB_per_s, 5.0_us};
}();

/// PCIe Gen5 x16: 32 GT/s × 16 lanes = 63 GB/s each way, printed as 128 GB/s bidirectional
/// (PCI-SIG; NVIDIA H100 datasheet). Latency uncertain: ~1–10 µs.
inline constexpr link_spec pcie_gen5_x16 = [] {
    using namespace literals;
    return link_spec{"PCIe Gen5 x16", 63.0_GB_per_s, 5.0_us};
}();

/// NVLink-C2C between a Grace CPU and its GPU: 900 GB/s bidirectional (NVIDIA GB200 NVL72
/// datasheet). Latency uncertain: ~1–5 µs.
inline constexpr link_spec nvlink_c2c = [] {
    using namespace literals;
    return link_from_bidirectional("NVLink-C2C", 900.0_GB_per_s, 2.0_us);
}();

/// InfiniBand NDR, one 400 Gb/s port = 50 GB/s each way (NVIDIA ConnectX-7 datasheet); about
/// 46–48 GB/s is measured in practice. Latency uncertain: ~2–10 µs for a small NCCL message
/// across nodes (the switch hop alone is well under 1 µs).
inline constexpr link_spec infiniband_ndr = [] {
    using namespace literals;
    return link_spec{"InfiniBand NDR 400G", 400.0_Gb_per_s, 5.0_us};
}();

/// InfiniBand HDR, one 200 Gb/s port = 25 GB/s each way (NVIDIA ConnectX-6 datasheet).
/// Latency uncertain: ~2–10 µs.
inline constexpr link_spec infiniband_hdr = [] {
    using namespace literals;
    return link_spec{"InfiniBand HDR 200G", 200.0_Gb_per_s, 5.0_us};
}();

/// AWS EFA on p5.48xlarge: 3,200 Gb/s per instance over 32 interfaces of 100 Gb/s (AWS EC2
/// accelerated-computing instance documentation); grouped here as 8 links of 400 Gb/s, one per
/// GPU. Latency uncertain: ~10–30 µs for a small message.
inline constexpr link_spec efa_400g = [] {
    using namespace literals;
    return link_spec{"EFA 400G (per GPU)", 400.0_Gb_per_s, 15.0_us};
}();

/// 100 Gb Ethernet = 12.5 GB/s each way (IEEE 802.3). Latency uncertain: ~10–50 µs with TCP.
inline constexpr link_spec ethernet_100g = [] {
    using namespace literals;
    return link_spec{"Ethernet 100G", 100.0_Gb_per_s, 25.0_us};
}();

}  // namespace catalog
}  // namespace gpucalc
