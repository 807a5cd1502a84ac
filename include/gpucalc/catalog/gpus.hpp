// catalog/gpus.hpp: datasheet facts for common accelerators, each field with its source
#pragma once

#include <array>

#include "../hardware.hpp"
#include "../literals.hpp"
#include "links.hpp"

namespace gpucalc {
namespace catalog {

// Conventions (see docs/hardware.md):
// - Peaks are DENSE. NVIDIA prints tensor figures "with sparsity" (2:4), twice the dense value;
//   those are never used here. AMD prints both; the dense one is taken.
// - Memory capacity: DRAM is built in binary sizes, so a datasheet's "80GB" of HBM is 80 GiB
//   (an A100 80GB reports 81,920 MiB in nvidia-smi). Capacities are stored in GiB; usable
//   memory is a little lower, which the memory module's overhead parameters account for.
// - Memory bandwidth is decimal (3.35 TB/s = 3.35e12 B/s), as datasheets print it.
// - Where a datasheet gives a range (H100 PCIe TDP 300–350 W) the figure a user would plan
//   with is taken (the maximum), and the comment says so.
// - "uncertain" marks values that sources disagree on, with the range; tests never assert them.
// - A zero peak means the device has no such pipeline (fp8 on A100, bf16 on T4).

namespace detail_mig {
using namespace literals;
// Profiles and instances per GPU: NVIDIA Multi-Instance GPU User Guide, "Supported MIG
// Profiles". The guide gives memory only as a fraction (1/8, 2/8, 4/8, full) and names profiles
// with rounded labels; the memory an instance really gets is what `nvidia-smi mig -lgip` reports,
// in GiB, as quoted in public transcripts (a secondary source). Those sizes are used where they
// were found for every profile (A100 40GB, A100 80GB, H100 80GB); elsewhere the name's figure
// is used and marked uncertain.
// Each table is static storage that gpu_spec::mig points to, so copying a spec copies a pointer.
inline constexpr std::array<mig_profile, 6> a100_40gb{{
    {"1g.5gb", 1, 4.75_GiB, 7},   {"1g.10gb", 1, 9.75_GiB, 4},  {"2g.10gb", 2, 9.75_GiB, 3},
    {"3g.20gb", 3, 19.625_GiB, 2}, {"4g.20gb", 4, 19.625_GiB, 1}, {"7g.40gb", 7, 39.375_GiB, 1}}};
inline constexpr std::array<mig_profile, 6> a100_80gb{{
    {"1g.10gb", 1, 9.5_GiB, 7},   {"1g.20gb", 1, 19.5_GiB, 4},  {"2g.20gb", 2, 19.5_GiB, 3},
    {"3g.40gb", 3, 39.25_GiB, 2}, {"4g.40gb", 4, 39.25_GiB, 1}, {"7g.80gb", 7, 79.0_GiB, 1}}};
inline constexpr std::array<mig_profile, 6> h100_80gb{{
    {"1g.10gb", 1, 9.75_GiB, 7},  {"1g.20gb", 1, 19.625_GiB, 4}, {"2g.20gb", 2, 19.625_GiB, 3},
    {"3g.40gb", 3, 39.5_GiB, 2},  {"4g.40gb", 4, 39.5_GiB, 1},  {"7g.80gb", 7, 79.25_GiB, 1}}};
// Uncertain: only 1g.12gb (10.62 GiB) was found measured; the rest are the names' figures,
// read as GiB like the device's own memory (so at most the 94 GiB the GPU has).
inline constexpr std::array<mig_profile, 6> h100_94gb{{
    {"1g.12gb", 1, 12.0_GiB, 7}, {"1g.24gb", 1, 24.0_GiB, 4}, {"2g.24gb", 2, 24.0_GiB, 3},
    {"3g.47gb", 3, 47.0_GiB, 2}, {"4g.47gb", 4, 47.0_GiB, 1}, {"7g.94gb", 7, 94.0_GiB, 1}}};
// Uncertain: the names' figures as GiB (one transcript shows 1g.18gb at 16 GiB, 7g.141gb at
// 140 GiB).
inline constexpr std::array<mig_profile, 6> h200_141gb{{
    {"1g.18gb", 1, 18.0_GiB, 7}, {"1g.35gb", 1, 35.0_GiB, 4}, {"2g.35gb", 2, 35.0_GiB, 3},
    {"3g.71gb", 3, 71.0_GiB, 2}, {"4g.71gb", 4, 71.0_GiB, 1}, {"7g.141gb", 7, 141.0_GiB, 1}}};
// Uncertain: seen in a cloud vendor's tooling; the names' figures as GiB.
inline constexpr std::array<mig_profile, 6> b200_180gb{{
    {"1g.23gb", 1, 23.0_GiB, 7}, {"1g.45gb", 1, 45.0_GiB, 4}, {"2g.45gb", 2, 45.0_GiB, 3},
    {"3g.90gb", 3, 90.0_GiB, 2}, {"4g.90gb", 4, 90.0_GiB, 1}, {"7g.180gb", 7, 180.0_GiB, 1}}};
}  // namespace detail_mig

/// NVIDIA T4 (Turing, PCIe). Source: NVIDIA T4 Tensor Core GPU datasheet.
/// No BF16, TF32 or structured sparsity on Turing.
inline constexpr gpu_spec t4 = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "T4";
    g.memory = 16.0_GiB;                      // datasheet: 16 GB GDDR6
    g.memory_bandwidth = 300.0_GB_per_s;      // datasheet: 300 GB/s (TechPowerUp: 320 theoretical)
    g.dense_peak.fp64 = 0.25_TFLOPS;          // uncertain: TechPowerUp (1/32 rate), not NVIDIA
    g.dense_peak.fp32 = 8.1_TFLOPS;           // datasheet
    g.dense_peak.fp16 = 65.0_TFLOPS;          // datasheet: FP16/FP32 mixed precision
    g.dense_peak.int8 = 130.0_TFLOPS;         // datasheet: 130 INT8 TOPS
    g.dense_peak.int4 = 260.0_TFLOPS;         // datasheet: 260 INT4 TOPS
    g.tdp = 70.0_W;                           // datasheet
    g.host = pcie_gen3_x16;                   // datasheet: PCIe Gen3 x16
    return g;
}();

/// NVIDIA L4 (Ada, PCIe). Source: NVIDIA L4 datasheet (prints sparse tensor figures; the dense
/// ones are half, as Epoch AI's hardware database lists).
inline constexpr gpu_spec l4 = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "L4";
    g.memory = 24.0_GiB;                      // datasheet: 24 GB GDDR6
    g.memory_bandwidth = 300.0_GB_per_s;      // datasheet
    g.dense_peak.fp64 = 0.49_TFLOPS;          // uncertain: TechPowerUp via Epoch, not NVIDIA
    g.dense_peak.fp32 = 30.3_TFLOPS;          // datasheet
    g.dense_peak.tf32 = 60.0_TFLOPS;          // datasheet 120* sparse
    g.dense_peak.bf16 = 121.0_TFLOPS;         // datasheet 242* sparse
    g.dense_peak.fp16 = 121.0_TFLOPS;         // datasheet 242* sparse
    g.dense_peak.fp8 = 242.5_TFLOPS;          // datasheet 485* sparse
    g.dense_peak.int8 = 242.5_TFLOPS;         // datasheet 485* TOPS sparse
    g.tdp = 72.0_W;                           // datasheet
    g.host = pcie_gen4_x16;                   // datasheet: PCIe Gen4 x16, 64 GB/s
    return g;
}();

/// NVIDIA A10 (Ampere, PCIe). Source: NVIDIA A10 datasheet.
inline constexpr gpu_spec a10 = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "A10";
    g.memory = 24.0_GiB;                      // datasheet: 24 GB GDDR6
    g.memory_bandwidth = 600.0_GB_per_s;      // datasheet
    g.dense_peak.fp64 = 0.98_TFLOPS;          // uncertain: TechPowerUp via Epoch, not NVIDIA
    g.dense_peak.fp32 = 31.2_TFLOPS;          // datasheet
    g.dense_peak.tf32 = 62.5_TFLOPS;          // datasheet 125* sparse
    g.dense_peak.bf16 = 125.0_TFLOPS;         // datasheet 250* sparse
    g.dense_peak.fp16 = 125.0_TFLOPS;         // datasheet 250* sparse
    g.dense_peak.int8 = 250.0_TFLOPS;         // datasheet 500* TOPS sparse
    g.dense_peak.int4 = 500.0_TFLOPS;         // datasheet 1,000* TOPS sparse
    g.tdp = 150.0_W;                          // datasheet
    g.host = pcie_gen4_x16;                   // datasheet
    return g;
}();

/// NVIDIA A10G (AWS-only A10 variant, in g5 instances). NVIDIA publishes no datasheet, so every
/// compute figure is uncertain; see the comments for the ranges.
inline constexpr gpu_spec a10g = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "A10G";
    g.memory = 24.0_GiB;                      // AWS g5: 24 GB GDDR6 (AWS lists 22 GiB usable)
    g.memory_bandwidth = 600.0_GB_per_s;      // uncertain: TechPowerUp lists 600 GB/s like A10
    g.dense_peak.fp32 = 31.2_TFLOPS;          // uncertain: 31.2–31.5 (TechPowerUp; A10 is 31.2)
    g.dense_peak.tf32 = 35.0_TFLOPS;          // uncertain: 35 (NVIDIA via Baseten) to 62.5 (A10)
    g.dense_peak.bf16 = 70.0_TFLOPS;          // uncertain: 70 (NVIDIA via Baseten) to 125 (A10)
    g.dense_peak.fp16 = 70.0_TFLOPS;          // uncertain: as bf16
    g.dense_peak.int8 = 140.0_TFLOPS;         // uncertain: 140–250 TOPS, by the same ratio
    g.tdp = 300.0_W;                          // uncertain: 150–300 W; A10 is 150 W, but g5
                                              // nvidia-smi logs show a 300 W cap; maximum taken
    g.host = pcie_gen4_x16;                   // AWS g5: PCIe Gen4
    return g;
}();

/// NVIDIA A100 40GB SXM. Source: NVIDIA A100 Tensor Core GPU datasheet.
inline constexpr gpu_spec a100_40gb_sxm = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "A100 40GB SXM";
    g.memory = 40.0_GiB;                      // datasheet: 40 GB HBM2
    g.memory_bandwidth = 1555.0_GB_per_s;     // datasheet: 1,555 GB/s
    g.dense_peak.fp64 = 9.7_TFLOPS;           // datasheet
    g.dense_peak.fp64_tensor = 19.5_TFLOPS;   // datasheet
    g.dense_peak.fp32 = 19.5_TFLOPS;          // datasheet
    g.dense_peak.tf32 = 156.0_TFLOPS;         // datasheet 312* sparse
    g.dense_peak.bf16 = 312.0_TFLOPS;         // datasheet 624* sparse
    g.dense_peak.fp16 = 312.0_TFLOPS;         // datasheet 624* sparse
    g.dense_peak.int8 = 624.0_TFLOPS;         // datasheet 1,248* TOPS sparse
    g.dense_peak.int4 = 1248.0_TFLOPS;        // datasheet 2,496* TOPS sparse
    g.tdp = 400.0_W;                          // datasheet
    g.scale_up = nvlink3;                     // datasheet: NVLink 600 GB/s
    g.host = pcie_gen4_x16;                   // datasheet: PCIe Gen4 64 GB/s
    g.mig = detail_mig::a100_40gb.data();     // MIG user guide: up to 7 instances @ 5 GB
    g.mig_count = 6;
    g.multiprocessors = 108;                  // A100 whitepaper: 108 SMs (of GA100's 128)
    return g;
}();

/// NVIDIA A100 80GB SXM. Source: NVIDIA A100 Tensor Core GPU datasheet.
inline constexpr gpu_spec a100_80gb_sxm = [] {
    using namespace literals;
    gpu_spec g = a100_40gb_sxm;
    g.name = "A100 80GB SXM";
    g.memory = 80.0_GiB;                      // datasheet: 80 GB HBM2e
    g.memory_bandwidth = 2039.0_GB_per_s;     // datasheet: 2,039 GB/s
    g.mig = detail_mig::a100_80gb.data();     // MIG user guide: up to 7 instances @ 10 GB
    return g;
}();

/// NVIDIA A100 80GB PCIe. Source: NVIDIA A100 Tensor Core GPU datasheet.
inline constexpr gpu_spec a100_80gb_pcie = [] {
    using namespace literals;
    gpu_spec g = a100_80gb_sxm;
    g.name = "A100 80GB PCIe";
    g.memory_bandwidth = 1935.0_GB_per_s;     // datasheet: 1,935 GB/s
    g.tdp = 300.0_W;                          // datasheet
    g.scale_up = nvlink_bridge;               // datasheet: NVLink bridge for 2 GPUs, 600 GB/s
    return g;
}();

/// NVIDIA H100 SXM5 80GB. Source: NVIDIA H100 Tensor Core GPU datasheet (sparse tensor
/// figures; dense = half, per the NVIDIA Hopper architecture whitepaper).
inline constexpr gpu_spec h100_sxm = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "H100 SXM";
    g.memory = 80.0_GiB;                      // datasheet: 80 GB HBM3
    g.memory_bandwidth = 3350.0_GB_per_s;     // datasheet: 3.35 TB/s
    g.dense_peak.fp64 = 34.0_TFLOPS;          // datasheet
    g.dense_peak.fp64_tensor = 67.0_TFLOPS;   // datasheet
    g.dense_peak.fp32 = 67.0_TFLOPS;          // datasheet
    g.dense_peak.tf32 = 494.7_TFLOPS;         // datasheet 989* sparse
    g.dense_peak.bf16 = 989.4_TFLOPS;         // datasheet 1,979* sparse
    g.dense_peak.fp16 = 989.4_TFLOPS;         // datasheet 1,979* sparse
    g.dense_peak.fp8 = 1978.9_TFLOPS;         // datasheet 3,958* sparse
    g.dense_peak.int8 = 1978.9_TFLOPS;        // datasheet 3,958* TOPS sparse
    g.tdp = 700.0_W;                          // datasheet: up to 700 W
    g.scale_up = nvlink4;                     // datasheet: NVLink 900 GB/s
    g.host = pcie_gen5_x16;                   // datasheet: PCIe Gen5 128 GB/s
    g.mig = detail_mig::h100_80gb.data();     // MIG user guide: up to 7 instances @ 10 GB
    g.mig_count = 6;
    g.multiprocessors = 132;                  // Hopper whitepaper: H100 SXM5 132 SMs
    return g;
}();

/// NVIDIA H100 PCIe 80GB. Source: NVIDIA H100 Tensor Core GPU datasheet.
inline constexpr gpu_spec h100_pcie = [] {
    using namespace literals;
    gpu_spec g = h100_sxm;
    g.name = "H100 PCIe";
    g.memory_bandwidth = 2000.0_GB_per_s;     // datasheet: 2 TB/s (HBM2e)
    g.dense_peak.fp64 = 26.0_TFLOPS;          // datasheet
    g.dense_peak.fp64_tensor = 51.0_TFLOPS;   // datasheet
    g.dense_peak.fp32 = 51.0_TFLOPS;          // datasheet
    g.dense_peak.tf32 = 378.0_TFLOPS;         // datasheet 756* sparse
    g.dense_peak.bf16 = 756.0_TFLOPS;         // datasheet 1,513* sparse
    g.dense_peak.fp16 = 756.0_TFLOPS;         // datasheet 1,513* sparse
    g.dense_peak.fp8 = 1513.0_TFLOPS;         // datasheet 3,026* sparse
    g.dense_peak.int8 = 1513.0_TFLOPS;        // datasheet 3,026* TOPS sparse
    g.tdp = 350.0_W;                          // datasheet: 300–350 W; the maximum is taken
    g.scale_up = nvlink_bridge;               // datasheet: NVLink bridge 600 GB/s
    g.multiprocessors = 114;                  // Hopper whitepaper: H100 PCIe 114 SMs
    return g;
}();

/// NVIDIA H100 NVL (94 GB, one card of the pair). Every figure is uncertain: the 2023 launch
/// sheet printed a PAIR (188 GB, 7.8 TB/s, 2× FLOPS); these are per card, from the 2024
/// datasheet as Epoch AI lists it.
inline constexpr gpu_spec h100_nvl = [] {
    using namespace literals;
    gpu_spec g = h100_sxm;
    g.name = "H100 NVL";
    g.memory = 94.0_GiB;                      // uncertain: 94 GB HBM3 per card
    g.memory_bandwidth = 3900.0_GB_per_s;     // uncertain: 3.9 TB/s (Epoch: 3.938)
    g.dense_peak.fp64 = 30.0_TFLOPS;          // uncertain
    g.dense_peak.fp64_tensor = 60.0_TFLOPS;   // uncertain
    g.dense_peak.fp32 = 60.0_TFLOPS;          // uncertain
    g.dense_peak.tf32 = 417.5_TFLOPS;         // uncertain: 835* sparse
    g.dense_peak.bf16 = 835.5_TFLOPS;         // uncertain: 1,671* sparse
    g.dense_peak.fp16 = 835.5_TFLOPS;         // uncertain: 1,671* sparse
    g.dense_peak.fp8 = 1670.5_TFLOPS;         // uncertain: 3,341* sparse
    g.dense_peak.int8 = 1670.5_TFLOPS;        // uncertain: 3,341* TOPS sparse
    g.tdp = 400.0_W;                          // uncertain: 350–400 W; the maximum is taken
    g.scale_up = nvlink_bridge;               // datasheet: NVLink bridge 600 GB/s
    g.mig = detail_mig::h100_94gb.data();     // MIG user guide: 7 instances @ 12 GB
    return g;
}();

/// NVIDIA H200 SXM 141GB: H100's compute with HBM3e. Source: NVIDIA H200 datasheet.
inline constexpr gpu_spec h200 = [] {
    using namespace literals;
    gpu_spec g = h100_sxm;
    g.name = "H200";
    g.memory = 141.0_GiB;                     // datasheet: 141 GB HBM3e
    g.memory_bandwidth = 4800.0_GB_per_s;     // datasheet: 4.8 TB/s
    g.tdp = 700.0_W;                          // datasheet: up to 700 W (configurable)
    g.mig = detail_mig::h200_141gb.data();    // MIG user guide: 7 instances @ 18 GB
    return g;
}();

/// NVIDIA B200 (HGX). Uncertain throughout: HGX/DGX B200 sheets, Epoch AI and cloud vendors
/// disagree in places; ranges in the comments.
inline constexpr gpu_spec b200 = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "B200";
    g.memory = 180.0_GiB;                     // uncertain: 180 GB (192 GB at launch; nvidia-smi ~179 GiB)
    g.memory_bandwidth = 8000.0_GB_per_s;     // uncertain: 7.7–8 TB/s
    g.dense_peak.fp64 = 37.0_TFLOPS;          // uncertain: 37–40
    g.dense_peak.fp64_tensor = 37.0_TFLOPS;   // uncertain: 37–40
    g.dense_peak.fp32 = 75.0_TFLOPS;          // uncertain: ~75
    g.dense_peak.tf32 = 1125.0_TFLOPS;        // uncertain: 2,250* sparse
    g.dense_peak.bf16 = 2250.0_TFLOPS;        // uncertain: 4,500* sparse
    g.dense_peak.fp16 = 2250.0_TFLOPS;        // uncertain: 4,500* sparse
    g.dense_peak.fp8 = 4500.0_TFLOPS;         // uncertain: 9,000* sparse
    g.dense_peak.int8 = 4500.0_TFLOPS;        // uncertain: 9,000* TOPS sparse
    g.dense_peak.fp4 = 9000.0_TFLOPS;         // uncertain: 18,000* sparse
    g.tdp = 1000.0_W;                         // uncertain: 1,000 W (HGX B200)
    g.scale_up = nvlink5;                     // HGX B200 datasheet: NVLink 5, 1.8 TB/s
    g.host = pcie_gen5_x16;                   // HGX B200: PCIe Gen5
    g.mig = detail_mig::b200_180gb.data();    // uncertain (see detail_mig)
    g.mig_count = 6;
    return g;
}();

/// NVIDIA GB200, one Blackwell GPU of the superchip. Uncertain throughout: the GB200 NVL72
/// datasheet (revisions differ) divided by 72.
inline constexpr gpu_spec gb200 = [] {
    using namespace literals;
    gpu_spec g = b200;
    g.name = "GB200 (per GPU)";
    g.memory = 186.0_GiB;                     // uncertain: 372–384 GB per 2-GPU superchip
    g.memory_bandwidth = 8000.0_GB_per_s;     // uncertain: NVL72 576 TB/s ÷ 72
    g.dense_peak.fp64 = 45.0_TFLOPS;          // uncertain: NVL72 2,880–3,240 TF ÷ 72 = 40–45
    g.dense_peak.fp64_tensor = 45.0_TFLOPS;   // uncertain: as fp64
    g.dense_peak.fp32 = 80.0_TFLOPS;          // uncertain: third-party tables
    g.dense_peak.tf32 = 1250.0_TFLOPS;        // uncertain: NVL72 180 PF* sparse ÷ 72 ÷ 2
    g.dense_peak.bf16 = 2500.0_TFLOPS;        // uncertain: NVL72 360 PF* sparse ÷ 72 ÷ 2
    g.dense_peak.fp16 = 2500.0_TFLOPS;        // uncertain: as bf16
    g.dense_peak.fp8 = 5000.0_TFLOPS;         // uncertain: NVL72 720 PF* sparse ÷ 72 ÷ 2
    g.dense_peak.int8 = 5000.0_TFLOPS;        // uncertain: NVL72 720 POPS* sparse ÷ 72 ÷ 2
    g.dense_peak.fp4 = 10000.0_TFLOPS;        // uncertain: NVL72 1,440 PF* sparse ÷ 72 ÷ 2
    g.tdp = 1200.0_W;                         // uncertain: up to 1,200 W per GPU (superchip ~2,700 W)
    g.scale_up = nvlink5_nvl72;               // NVL72 datasheet: NVLink 5, 1.8 TB/s, 72 GPUs
    g.host = nvlink_c2c;                      // NVL72 datasheet: NVLink-C2C to Grace
    g.mig = nullptr;                          // not catalogued
    g.mig_count = 0;
    return g;
}();

/// AMD Instinct MI300X. Source: AMD Instinct MI300X datasheet (prints dense and sparse).
inline constexpr gpu_spec mi300x = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "MI300X";
    g.memory = 192.0_GiB;                     // datasheet: 192 GB HBM3
    g.memory_bandwidth = 5300.0_GB_per_s;     // datasheet: 5.3 TB/s
    g.dense_peak.fp64 = 81.7_TFLOPS;          // datasheet: FP64 vector
    g.dense_peak.fp64_tensor = 163.4_TFLOPS;  // datasheet: FP64 matrix
    g.dense_peak.fp32 = 163.4_TFLOPS;         // datasheet: FP32 matrix (vector 163.4 too)
    g.dense_peak.tf32 = 653.7_TFLOPS;         // datasheet: TF32 dense
    g.dense_peak.bf16 = 1307.4_TFLOPS;        // datasheet: BF16 dense (2,614.9 with sparsity)
    g.dense_peak.fp16 = 1307.4_TFLOPS;        // datasheet: FP16 dense
    g.dense_peak.fp8 = 2614.9_TFLOPS;         // datasheet: FP8 dense
    g.dense_peak.int8 = 2614.9_TFLOPS;        // datasheet: INT8 dense TOPS
    g.tdp = 750.0_W;                          // datasheet
    g.scale_up = infinity_fabric;             // datasheet: 7 links × 128 GB/s
    g.host = pcie_gen5_x16;                   // datasheet: PCIe Gen5 x16
    return g;
}();

/// AMD Instinct MI325X: MI300X's compute with 256 GB HBM3E. Source: AMD product page.
inline constexpr gpu_spec mi325x = [] {
    using namespace literals;
    gpu_spec g = mi300x;
    g.name = "MI325X";
    g.memory = 256.0_GiB;                     // AMD: 256 GB HBM3E
    g.memory_bandwidth = 6000.0_GB_per_s;     // AMD: 6 TB/s
    g.tdp = 1000.0_W;                         // AMD: 1,000 W
    return g;
}();

/// Google Cloud TPU v5e (one chip). Source: cloud.google.com/tpu/docs/v5e. Google does not
/// publish a TDP, so tdp is zero (unknown). No FP32/FP64 peak is published.
inline constexpr gpu_spec tpu_v5e = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "TPU v5e";
    g.memory = 16.0_GiB;                      // Google: 16 GB HBM2
    g.memory_bandwidth = 819.0_GB_per_s;      // Google: 819 GB/s (one doc revision: "800 GiBps")
    g.dense_peak.bf16 = 197.0_TFLOPS;         // Google
    g.dense_peak.int8 = 394.0_TFLOPS;         // Google: 393–394 TOPS by revision
    // Inter-chip interconnect: 1,600 Gbps (older doc) and 400 GB/s bidirectional (newer doc)
    // agree if the former is per direction: 200 GB/s each way. Latency uncertain: ~1–5 µs.
    // Span: a v5e pod is 256 chips in a 2D torus (Google). Collective efficiency uncertain: no
    // published bus-bandwidth measurement was found, so it is left at the ideal, 1.
    g.scale_up = link_spec{"ICI (v5e)", 1600.0_Gb_per_s, 3.0_us, 256, 1.0};
    return g;
}();

/// Google Cloud TPU v5p (one chip). Source: cloud.google.com/tpu/docs/v5p.
inline constexpr gpu_spec tpu_v5p = [] {
    using namespace literals;
    gpu_spec g{};
    g.name = "TPU v5p";
    g.memory = 95.0_GiB;                      // Google: 95 GB HBM2e
    g.memory_bandwidth = 2765.0_GB_per_s;     // Google: 2,765 GB/s
    g.dense_peak.bf16 = 459.0_TFLOPS;         // Google
    g.dense_peak.fp8 = 459.0_TFLOPS;          // uncertain: listed in a newer doc revision only
    g.dense_peak.int8 = 918.0_TFLOPS;         // Google: 918 TOPS
    // ICI: 4,800 Gbps (older doc) and 1,200 GB/s bidirectional (newer doc) agree if the former
    // is per direction: 600 GB/s each way. Latency uncertain: ~1–5 µs.
    // Span: a v5p pod is 8,960 chips in a 3D torus (Google). Collective efficiency uncertain, as
    // for v5e: left at 1.
    g.scale_up = link_spec{"ICI (v5p)", 4800.0_Gb_per_s, 3.0_us, 8960, 1.0};
    return g;
}();

/// Every GPU above, for iteration (the sizing report, the plan search).
inline constexpr std::array<const gpu_spec*, 17> all_gpus{
    &t4,       &l4,        &a10,      &a10g,    &a100_40gb_sxm, &a100_80gb_sxm,
    &a100_80gb_pcie, &h100_sxm, &h100_pcie, &h100_nvl, &h200, &b200,
    &gb200,    &mi300x,    &mi325x,   &tpu_v5e, &tpu_v5p};

}  // namespace catalog
}  // namespace gpucalc
