// catalog/cpus.hpp: server and desktop CPUs, each figure with its source
#pragma once

#include <array>

#include "../hardware/cpu.hpp"
#include "../literals.hpp"

namespace gpucalc {
namespace catalog {

// Conventions (see docs/hardware.md, "CPUs"):
// - Cores, clocks, memory channels and speeds, and TDP are the vendor's product page for the
//   part. Peaks and bandwidths are DERIVED from them (hardware/cpu.hpp): no vendor page prints
//   a FLOP/s figure for these parts.
// - The vector clock is the all-core boost where the vendor prints one and the core does not
//   lower its clock for wide vector code (Zen 4 runs AVX-512 as two 256-bit halves at its
//   normal clock), else the base clock, the one the vendor guarantees on all cores within the
//   TDP (Intel lowers the clock under heavy AVX-512 and AMX load by an amount ARK does not
//   print). Each entry's comment gives the resulting range.
// - FLOPs per cycle per core come from the vendor's architecture documents, counted as
//   FMA pipes × lanes × 2. Where the vendor does not say how many BF16 FLOPs a core retires
//   a cycle, the figure is derived from the datapath width and marked uncertain.
// - One socket per spec: a 2-socket server is `cpu_spec s = epyc_9654; s.sockets = 2;`.

/// AMD EPYC 9654 (4th Gen EPYC "Genoa", Zen 4, 96 cores), one socket.
/// - 96 cores, base 2.4 GHz, all-core boost 3.55 GHz, 12 channels of DDR5-4800, default TDP
///   360 W (configurable 320–400 W): AMD product page "AMD EPYC 9654" (amd.com, 4th Gen EPYC
///   processors), whose per-socket memory bandwidth, 460.8 GB/s, is the derived 12 × 4,800 MT/s
///   × 8 B.
/// - FP32: 32 FLOPs/cycle/core. Zen 4 has two 256-bit FMA pipes and executes a 512-bit AVX-512
///   instruction as two 256-bit halves (AMD, "Software Optimization Guide for the AMD Zen4
///   Microarchitecture", its floating-point unit section): 2 × 8 lanes × 2 = 32.
/// - BF16: 64 FLOPs/cycle/core, derived: VDPBF16PS on the same pipes computes two BF16 products
///   per FP32 lane (AVX512_BF16), so twice the FP32 rate. Uncertain: 32–64 (AMD does not print a
///   BF16 throughput; a one-pipe implementation would give 32).
/// Derived peaks at the 3.55 GHz all-core boost: FP32 10.9 TFLOP/s (uncertain: 7.4–10.9, down
/// to the 2.4 GHz base if the part is held at its TDP under all-core AVX-512), BF16
/// 21.8 TFLOP/s (uncertain: 7.4–21.8 with the BF16 rate's range).
inline constexpr cpu_spec epyc_9654 = [] {
    using namespace literals;
    cpu_spec c{};
    c.name = "EPYC 9654";
    c.cores = 96;                       // AMD product page
    c.vector_clock_ghz = 3.55;          // AMD product page: all-core boost 3.55 GHz (base 2.4)
    c.fp32_flops_per_cycle = 32.0;      // Zen 4 optimization guide: 2 × 256-bit FMA
    c.bf16_flops_per_cycle = 64.0;      // derived; uncertain 32–64
    c.memory_channels = 12;             // AMD product page: 12 channels
    c.memory_megatransfers = 4800.0;    // AMD product page: DDR5-4800
    c.tdp = 360.0_W;                    // AMD product page: default TDP 360 W
    return c;
}();

/// Intel Xeon Platinum 8480+ (4th Gen Xeon Scalable "Sapphire Rapids", 56 cores), one socket.
/// - 56 cores, base 2.0 GHz, all-core turbo 3.0 GHz, 8 channels of DDR5-4800 (1 DIMM per
///   channel), TDP 350 W: Intel ARK, "Intel Xeon Platinum 8480+ Processor" (intel.com). 8 ×
///   4,800 MT/s × 8 B = 307.2 GB/s (derived).
/// - FP32: 64 FLOPs/cycle/core: two 512-bit FMA units per core on Xeon Platinum (Intel 64 and
///   IA-32 Architectures Optimization Reference Manual, the Golden Cove/Sapphire Rapids server
///   core's ports 0 and 5): 2 × 16 lanes × 2 = 64.
/// - BF16: 1,024 FLOPs/cycle/core from AMX: the TMUL unit performs 1,024 BF16 operations (512
///   multiply-adds) per cycle per core, and 2,048 INT8 (Intel's AMX material for 4th Gen Xeon
///   Scalable, intel.com; the Optimization Reference Manual's AMX chapter: a 16 × 32 BF16 tile
///   times a 32 × 16 tile, 8,192 multiply-adds, every 16 cycles). Peaks at AMX rates
///   need AMX-tiled kernels (oneDNN); AVX-512 BF16 alone gives 128.
/// Derived peaks at 2.0 GHz: FP32 7.17 TFLOP/s, BF16 114.7 TFLOP/s. Uncertain: about 0.9× to
/// 1.5× these. Intel lowers the clock under heavy AMX and AVX-512 load by an amount ARK does
/// not print, possibly a little below base, and the all-core turbo is 3.0 GHz.
inline constexpr cpu_spec xeon_8480_plus = [] {
    using namespace literals;
    cpu_spec c{};
    c.name = "Xeon Platinum 8480+";
    c.cores = 56;                       // Intel ARK
    c.vector_clock_ghz = 2.0;           // Intel ARK: base 2.0 GHz (all-core turbo 3.0)
    c.fp32_flops_per_cycle = 64.0;      // optimization manual: 2 × 512-bit FMA
    c.bf16_flops_per_cycle = 1024.0;    // Intel AMX: 1,024 BF16 ops/cycle/core
    c.memory_channels = 8;              // Intel ARK: 8 channels
    c.memory_megatransfers = 4800.0;    // Intel ARK: DDR5-4800
    c.tdp = 350.0_W;                    // Intel ARK
    return c;
}();

/// AMD Ryzen 9 7950X (Zen 4 desktop, 16 cores).
/// - 16 cores, base 4.5 GHz, boost up to 5.7 GHz, 2 channels of DDR5-5200 (the fastest the
///   product page lists), default TDP 170 W: AMD product page "AMD Ryzen 9 7950X" (amd.com).
///   2 × 5,200 MT/s × 8 B = 83.2 GB/s (derived).
/// - FLOPs per cycle: as the EPYC 9654 (the same Zen 4 core): FP32 32, BF16 64 (uncertain
///   32–64).
/// Derived peaks at the 4.5 GHz base (AMD prints no all-core boost for desktop parts): FP32
/// 2.30 TFLOP/s, BF16 4.61 TFLOP/s (uncertain: 2.3–5.8 for BF16; a desktop part's all-core
/// clock under load varies with cooling).
/// - Power: the 170 W TDP is AMD's thermal rating; the socket's package power limit (PPT) is
///   230 W on AM5 at that TDP (AMD's AM5 platform figures, uncertain), and an all-core vector
///   load draws up to it, so energy from the TDP reads up to 1.35× low for this part.
inline constexpr cpu_spec ryzen_9_7950x = [] {
    using namespace literals;
    cpu_spec c{};
    c.name = "Ryzen 9 7950X";
    c.cores = 16;                       // AMD product page
    c.vector_clock_ghz = 4.5;           // AMD product page: base 4.5 GHz
    c.fp32_flops_per_cycle = 32.0;      // Zen 4 optimization guide: 2 × 256-bit FMA
    c.bf16_flops_per_cycle = 64.0;      // derived; uncertain 32–64
    c.memory_channels = 2;              // AMD product page: 2 channels
    c.memory_megatransfers = 5200.0;    // AMD product page: up to DDR5-5200
    c.tdp = 170.0_W;                    // AMD product page: default TDP 170 W
    return c;
}();

/// Every catalogued CPU.
inline constexpr std::array<const cpu_spec*, 3> all_cpus{&epyc_9654, &xeon_8480_plus,
                                                         &ryzen_9_7950x};

}  // namespace catalog
}  // namespace gpucalc
