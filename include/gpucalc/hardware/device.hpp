// hardware/device.hpp: what one accelerator can do: capacity, bandwidth, dense peaks by
// precision, power, its links, and its Multi-Instance GPU profiles
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "link.hpp"

namespace gpucalc {

/// Dense peak throughput for each compute precision. Zero means the device has no such
/// pipeline; asking for that peak is invalid_input. Sparse (2:4) figures are never peaks.
/// Per device: a peak is FLOP/s, not FLOP/(s·GPU). Integer peaks are OP/s held as flop_rate.
struct peak_rates {
    flop_rate fp64{};
    flop_rate fp64_tensor{};
    flop_rate fp32{};
    flop_rate tf32{};
    flop_rate bf16{};
    flop_rate fp16{};
    flop_rate fp8{};
    flop_rate int8{};
    flop_rate int4{};
    flop_rate fp4{};
};

/// One Multi-Instance GPU profile, e.g. 3g.40gb: 3 of 7 compute slices and its memory.
struct mig_profile {
    std::string_view name;
    std::int32_t compute_slices = 0;  ///< of the GPU's 7
    data_size memory;                 ///< the memory the profile's name gives (zero by default)
    std::int32_t max_instances = 0;   ///< how many fit on one GPU
};

inline constexpr std::size_t max_mig_profiles = 6;

/// One accelerator's datasheet facts.
struct gpu_spec {
    std::string_view name{};
    data_size memory{};            ///< device memory capacity
    bandwidth memory_bandwidth{};  ///< peak device-memory bandwidth
    peak_rates dense_peak{};
    power tdp{};                   ///< the maximum board power a user plans with
    link_spec scale_up{};          ///< NVLink / Infinity Fabric / ICI; zero if none
    link_spec host{};              ///< PCIe (or chip-to-chip) link to the host
    // No `{}` here nor on mig_profile's name and memory: with them GCC 12 in C++20 rejects the catalog
    // entries as constant expressions. Both are still zero-filled: mig_profile's members have
    // initializers and a quantity's default constructor zeroes its value.
    std::array<mig_profile, max_mig_profiles> mig;
    std::int32_t mig_count = 0;    ///< how many entries of `mig` are used
};

namespace detail {
/// The table entry for `precision`; zero where the device has no such pipeline.
GPUCALC_DETAIL_INLINE constexpr flop_rate peak_entry(const peak_rates& peaks,
                                                 compute_precision precision) {
    switch (precision) {
        case compute_precision::fp64: return peaks.fp64;
        case compute_precision::fp64_tensor: return peaks.fp64_tensor;
        case compute_precision::fp32: return peaks.fp32;
        case compute_precision::tf32: return peaks.tf32;
        case compute_precision::bf16: return peaks.bf16;
        case compute_precision::fp16: return peaks.fp16;
        case compute_precision::fp8: return peaks.fp8;
        case compute_precision::int8: return peaks.int8;
        case compute_precision::int4: return peaks.int4;
        case compute_precision::fp4: return peaks.fp4;
    }
    return flop_rate{};
}
}  // namespace detail

namespace detail {
/// Throws "function: dense_peak.<precision> = value FLOP/s must be finite and >= 0".
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_peak(const char* function,
                                                            compute_precision p, double value) {
    const std::string field = "dense_peak." + std::string(to_string(p));
    throw_invalid(function, field.c_str(), value, "FLOP/s", "must be finite and >= 0");
}
}  // namespace detail

/// True when `gpu` has a dense peak at `precision`.
constexpr bool supports(const gpu_spec& gpu, compute_precision precision) {
    return detail::peak_entry(gpu.dense_peak, precision).value() > 0.0;
}

/// The dense peak of `gpu` at `precision`; invalid_input if the device cannot compute it
/// (for example fp8 on an A100).
GPUCALC_DETAIL_INLINE constexpr flop_rate peak(const gpu_spec& gpu, compute_precision precision) {
    const flop_rate rate = detail::peak_entry(gpu.dense_peak, precision);  // looked up once
    if (!(rate.value() > 0.0)) {
        detail::throw_invalid_name("peak", "precision", to_string(precision),
                                   "is not supported by ", gpu.name,
                                   " (it has no dense peak at that precision)");
    }
    if (!(rate.value() <= detail::largest_finite)) detail::throw_bad_peak("peak", precision, rate.value());
    return rate;
}

/// The fraction of each datasheet peak real kernels reach: the roofline's ceilings are the
/// peaks times these. Both defaults are public measurements (docs/roofline.md has the table):
/// - compute 0.80: the best dense BF16 GEMM over a shape sweep reaches 80.1% of peak on H100
///   SXM and 85.9% on A100 SXM (S. Bekman, "Machine Learning Engineering", Maximum Achievable
///   Matmul FLOPS table); cuBLASLt FP16 at 8192³ reaches 81% on A100 (Azure AI benchmarking
///   guide). Uncertain: 0.70–0.86 by GPU, shape and precision.
/// - memory 0.85: STREAM-style triad reaches 83% of HBM peak on A100 80GB and 89% on H100
///   (Azure AI benchmarking guide); a tuned read kernel 88% on A100 (NVIDIA forum, confirmed by
///   Nsight Compute). Uncertain: 0.79–0.90.
/// (Not to be confused with a scaling efficiency, which compares many GPUs with one.)
struct kernel_efficiency {
    double compute = 0.80;
    double memory = 0.85;

    /// Every datasheet peak reached: the yardstick for measurements and claims.
    static constexpr kernel_efficiency ideal() { return {1.0, 1.0}; }
};

namespace detail {
constexpr void check(const kernel_efficiency& e, const char* function) {
    require_fraction(function, "efficiency.compute", e.compute);
    require_fraction(function, "efficiency.memory", e.memory);
}
}  // namespace detail

/// Rejects a hand-written spec that no real device could have: a non-positive capacity or
/// bandwidth; a negative peak, TDP, link figure or latency; more MIG profiles than the array
/// holds; a MIG profile with more memory than the device or slices outside 1–7.
constexpr void check(const gpu_spec& gpu) {
    constexpr const char* function = "check(gpu_spec)";
    detail::require_positive(function, "memory", gpu.memory);
    detail::require_positive(function, "memory_bandwidth", gpu.memory_bandwidth);
    detail::require_non_negative(function, "tdp", gpu.tdp);
    for (compute_precision p : all_compute_precisions) {
        const flop_rate rate = detail::peak_entry(gpu.dense_peak, p);
        if (!(rate.value() >= 0.0 && rate.value() <= detail::largest_finite)) {
            detail::throw_bad_peak(function, p, rate.value());
        }
    }
    detail::check(gpu.scale_up, function, "scale_up.per_direction", "scale_up.latency");
    detail::check(gpu.host, function, "host.per_direction", "host.latency");
    if (gpu.mig_count < 0 || gpu.mig_count > static_cast<std::int32_t>(max_mig_profiles)) {
        detail::throw_invalid(function, "mig_count", static_cast<double>(gpu.mig_count), "",
                              "must be in [0, ", static_cast<double>(max_mig_profiles), "]");
    }
    for (std::int32_t i = 0; i < gpu.mig_count; ++i) {
        const mig_profile& profile = gpu.mig[static_cast<std::size_t>(i)];
        detail::require_positive(function, "mig.memory", profile.memory);
        if (profile.memory > gpu.memory) {
            detail::throw_invalid(function, "mig.memory", profile.memory.value(), "B",
                                  "must not exceed the device memory");
        }
        if (profile.compute_slices < 1 || profile.compute_slices > 7) {
            detail::throw_invalid(function, "mig.compute_slices",
                                  static_cast<double>(profile.compute_slices), "",
                                  "must be in [1, 7]");
        }
        detail::require_count(function, "mig.max_instances", profile.max_instances);
    }
}

}  // namespace gpucalc
