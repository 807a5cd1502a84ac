// hardware/device.hpp: what one accelerator can do: capacity, bandwidth, dense peaks by
// precision, power, its links, and its Multi-Instance GPU profiles
#pragma once

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
    std::int64_t compute_slices = 0;  ///< of the GPU's 7
    data_size memory;                 ///< the memory the profile's name gives (zero by default)
    std::int64_t max_instances = 0;   ///< how many fit on one GPU
};

/// Two profiles are equal when every field is.
constexpr bool operator==(const mig_profile& a, const mig_profile& b) {
    return a.name == b.name && a.compute_slices == b.compute_slices && a.memory == b.memory &&
           a.max_instances == b.max_instances;
}
constexpr bool operator!=(const mig_profile& a, const mig_profile& b) { return !(a == b); }

/// The most MIG profiles a spec may list: a bound on `mig_count`, well above the 6–7 GPU
/// instance profiles the NVIDIA MIG user guide lists for any one GPU.
inline constexpr std::int64_t max_mig_profiles = 16;

/// One accelerator's datasheet facts. A value type, cheap to copy (no profile table inside):
/// a user's own device is a few designated initializers, and copies of it compare equal.
struct gpu_spec {
    std::string_view name{};
    data_size memory{};            ///< device memory capacity
    bandwidth memory_bandwidth{};  ///< peak device-memory bandwidth
    peak_rates dense_peak{};
    power tdp{};                   ///< the maximum board power a user plans with
    link_spec scale_up{};          ///< NVLink / Infinity Fabric / ICI; zero if none
    link_spec host{};              ///< PCIe (or chip-to-chip) link to the host
    /// The MIG profiles: a view onto `mig_count` profiles stored elsewhere, as the catalog's
    /// static tables are. The storage must outlive the spec, as a name's characters must.
    /// Null (the default) when the device has no MIG.
    const mig_profile* mig = nullptr;
    std::int64_t mig_count = 0;    ///< how many profiles `mig` points to
    /// Streaming multiprocessors (compute units): a GEMM's tiles run in waves of this many
    /// (NVIDIA, Matrix Multiplication Background User's Guide, §3.2 wave quantization). 0 when
    /// unknown: the step-time model then leaves wave quantization out. In [0, 2^20].
    std::int64_t multiprocessors = 0;
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

/// Two peak tables are equal when every precision's peak is.
constexpr bool operator==(const peak_rates& a, const peak_rates& b) {
    for (compute_precision p : all_compute_precisions) {
        if (detail::peak_entry(a, p) != detail::peak_entry(b, p)) return false;
    }
    return true;
}
constexpr bool operator!=(const peak_rates& a, const peak_rates& b) { return !(a == b); }

/// Two specs are equal when every datasheet field is, MIG profiles compared by content (not
/// by where they are stored): a copy equals its original, and a spec edited after copying a
/// catalog entry no longer equals that entry, whatever its name.
constexpr bool operator==(const gpu_spec& a, const gpu_spec& b) {
    if (!(a.name == b.name && a.memory == b.memory && a.memory_bandwidth == b.memory_bandwidth &&
          a.dense_peak == b.dense_peak && a.tdp == b.tdp && a.scale_up == b.scale_up &&
          a.host == b.host && a.mig_count == b.mig_count &&
          a.multiprocessors == b.multiprocessors)) {
        return false;
    }
    if (a.mig == b.mig) return true;
    // A count check(gpu_spec) would reject is not trusted with a read: such specs are equal
    // only when they point to the same profiles. (The null test runs at run time only, as in
    // check(gpu_spec); in a constant expression a read through null is itself an error.)
    if (a.mig_count < 0 || a.mig_count > max_mig_profiles ||
        (!detail::is_constant_evaluated() && (a.mig == nullptr || b.mig == nullptr))) {
        return false;
    }
    for (std::int64_t i = 0; i < a.mig_count; ++i) {
        if (a.mig[i] != b.mig[i]) return false;
    }
    return true;
}
constexpr bool operator!=(const gpu_spec& a, const gpu_spec& b) { return !(a == b); }

namespace detail {
/// Throws for a device's peak at precision `p` outside its range (0, or in [1e-30 FLOP/s,
/// 1e30 FLOP/s]), named "<path>dense_peak.<precision>".
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_peak(const field_path& at,
                                                            compute_precision p, flop_rate rate) {
    const std::string field = path_text(at, "dense_peak.") + std::string(to_string(p));
    throw_out_of_range(at.function, field.c_str(), rate, true);
}

/// Throws for a peak `function` cannot use: `precision` (the caller's field `field`) not a
/// compute_precision, a precision the device has no pipeline for, or a peak outside its range.
/// Unit-free, so that the benchmarks' raw-double twins call it too.
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_unusable_peak(const char* function,
                                                                 const char* field,
                                                                 const char* gpu_prefix,
                                                                 std::string_view gpu_name,
                                                                 compute_precision precision,
                                                                 double rate) {
    require_enumerator(function, field, precision, compute_precision_count, "compute_precision");
    if (detail::exactly_equal(rate, 0.0)) {
        throw_invalid_name(function, field, to_string(precision), "is not supported by ",
                           gpu_name, " (it has no dense peak at that precision)");
    }
    throw_bad_peak(field_path{function, gpu_prefix}, precision, make<flops_per_second>(rate));
}

/// peak() naming the function the caller called, the field its precision came from ("compute"
/// in a serving setup, "job.compute" in a training job) and the path to the GPU ("gpu.").
GPUCALC_DETAIL_INLINE constexpr flop_rate peak_of(const gpu_spec& gpu, compute_precision precision,
                                                  const char* function, const char* field,
                                                  const char* gpu_prefix = "gpu.") {
    const flop_rate rate = peak_entry(gpu.dense_peak, precision);  // looked up once
    if (!(rate.value() >= smallest_input && rate.value() <= input_range<flop_rate>::largest)) {
        throw_unusable_peak(function, field, gpu_prefix, gpu.name, precision, rate.value());
    }
    return rate;
}
}  // namespace detail

/// True when `gpu` has a dense peak at `precision`, which must be one of the enumerators.
constexpr bool supports(const gpu_spec& gpu, compute_precision precision) {
    detail::require_enumerator("supports", "precision", precision,
                               detail::compute_precision_count, "compute_precision");
    return detail::peak_entry(gpu.dense_peak, precision).value() > 0.0;
}

/// The dense peak of `gpu` at `precision`; invalid_input if the device cannot compute it
/// (for example fp8 on an A100), if `precision` is not one of the enumerators, or if the
/// peak is outside its range (0 or [1e-30 FLOP/s, 1e30 FLOP/s]).
GPUCALC_DETAIL_INLINE constexpr flop_rate peak(const gpu_spec& gpu, compute_precision precision) {
    return detail::peak_of(gpu, precision, "peak", "precision");
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
/// Each is in [1e-30, 1]: a fraction of a peak, at least 1e-30 so a time divided by it stays
/// finite.
struct kernel_efficiency {
    double compute = 0.80;
    double memory = 0.85;

    /// Every datasheet peak reached: the yardstick for measurements and claims.
    static constexpr kernel_efficiency ideal() { return {1.0, 1.0}; }
};

namespace detail {
/// Each efficiency in [1e-30, 1] (require_fraction_of_peak).
constexpr void check(const kernel_efficiency& e, const char* function) {
    require_fraction_of_peak(function, "efficiency.compute", e.compute);
    require_fraction_of_peak(function, "efficiency.memory", e.memory);
}

/// Throws for MIG profile `i` of `gpu` breaking a rule, named "mig[i].member".
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_mig_profile(const gpu_spec& gpu,
                                                                   const field_path& at,
                                                                   std::int64_t i) {
    const mig_profile& profile = gpu.mig[i];
    const auto field = [&](const char* member) {
        return path_text(at, "mig[") + std::to_string(i) + "]." + member;
    };
    require_positive(at.function, field("memory").c_str(), profile.memory);
    if (profile.memory > gpu.memory) {
        throw_invalid_name(at.function, field("memory").c_str(), to_string(profile.memory),
                           "must not exceed ", path_text(at, "memory = ") +
                               to_string(gpu.memory));
    }
    if (profile.compute_slices < 1 || profile.compute_slices > 7) {
        throw_invalid(at.function, field("compute_slices").c_str(),
                      static_cast<double>(profile.compute_slices), "", "must be in [1, 7]");
    }
    require_count(at.function, field("max_instances").c_str(), profile.max_instances);
    throw invalid_input(at.function);  // not reached: the caller found a rule broken
}

/// check(gpu_spec)'s rules, reporting fields under `at` (a cluster's GPU is "node.gpu.").
constexpr void check(const gpu_spec& gpu, const field_path& at) {
    require_positive_at(at, "memory", gpu.memory);
    require_positive_at(at, "memory_bandwidth", gpu.memory_bandwidth);
    require_non_negative_at(at, "tdp", gpu.tdp);
    for (compute_precision p : all_compute_precisions) {
        const flop_rate rate = peak_entry(gpu.dense_peak, p);
        if (!((rate.value() >= smallest_input &&
               rate.value() <= input_range<flop_rate>::largest) ||
              detail::exactly_equal(rate.value(), 0.0))) {
            throw_bad_peak(at, p, rate);
        }
    }
    if (gpu.multiprocessors < 0 || gpu.multiprocessors > (1 << 20)) {
        throw_invalid(at.function, path_text(at, "multiprocessors").c_str(),
                      static_cast<double>(gpu.multiprocessors), "",
                      "must be in [0, 2^20] (0: unknown)");
    }
    check(gpu.scale_up, field_path{at.function, at.prefix, "scale_up."});
    check(gpu.host, field_path{at.function, at.prefix, "host."});
    if (gpu.mig_count < 0 || gpu.mig_count > max_mig_profiles) {
        throw_invalid(at.function, path_text(at, "mig_count").c_str(),
                      static_cast<double>(gpu.mig_count), "", "must be in [0, ",
                      static_cast<double>(max_mig_profiles), "]");
    }
    // In a constant expression, reading through a null `mig` below is itself a compile error,
    // so the comparison runs only at run time: GCC with UBSan cannot compare a static table's
    // address with nullptr in a constant expression.
    if (gpu.mig_count > 0 && !is_constant_evaluated() && gpu.mig == nullptr) {
        throw_invalid(at.function, path_text(at, "mig_count").c_str(),
                      static_cast<double>(gpu.mig_count), "",
                      "must be 0 when mig points to no profiles");
    }
    for (std::int64_t i = 0; i < gpu.mig_count; ++i) {
        const mig_profile& profile = gpu.mig[i];
        if (!(profile.memory.value() >= smallest_input && profile.memory <= gpu.memory &&
              profile.compute_slices >= 1 && profile.compute_slices <= 7 &&
              profile.max_instances >= 1)) {
            throw_bad_mig_profile(gpu, at, i);
        }
    }
}
}  // namespace detail

/// Rejects a hand-written spec that no real device could have. Ranges (quantities as in
/// docs/units.md, "Input ranges"): memory in [1e-30 B, 1e30 B]; memory_bandwidth in
/// [1e-30 B/s, 1e30 B/s]; each dense peak 0 (no such pipeline) or in [1e-30 FLOP/s,
/// 1e30 FLOP/s]; tdp 0 or in [1e-30 W, 1e15 W]; each link as link_spec states; mig_count in
/// [0, max_mig_profiles], and 0 when mig is null; multiprocessors in [0, 2^20]; each MIG
/// profile's memory in [1e-30 B, the device's memory], compute_slices in [1, 7],
/// max_instances in [1, 2^40].
constexpr void check(const gpu_spec& gpu) {
    detail::check(gpu, detail::field_path{"check(gpu_spec)"});
}

}  // namespace gpucalc
