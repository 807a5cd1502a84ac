// hardware.hpp: what a GPU, a link, a node and a cluster can do: capacity, bandwidth, dense
// peaks by precision, power, and the links between devices
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "detail/checks.hpp"
#include "error.hpp"
#include "precision.hpp"
#include "units.hpp"

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

/// A point-to-point link. Datasheets print the bidirectional sum (NVLink 4: 900 GB/s); this
/// holds one direction (450 GB/s), the figure a ring collective or a copy actually sees.
struct link_spec {
    std::string_view name{};
    bandwidth per_direction{};  ///< zero means no such link
    duration latency{};         ///< per-message start-up time (the α of an α-β model)
};

/// A link from the bidirectional aggregate a datasheet prints.
constexpr link_spec link_from_bidirectional(std::string_view name, bandwidth both_directions,
                                            duration latency) {
    detail::require_non_negative("link_from_bidirectional", "both_directions", both_directions);
    detail::require_non_negative("link_from_bidirectional", "latency", latency);
    return {name, 0.5 * both_directions, latency};
}

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

/// Rejects a link no hardware could have: a negative or non-finite bandwidth or latency.
constexpr void check(const link_spec& link, const char* function, const char* field_bandwidth,
                     const char* field_latency) {
    require_non_negative(function, field_bandwidth, link.per_direction);
    require_non_negative(function, field_latency, link.latency);
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

/// GPUs in one server and the link between them.
struct node {
    gpu_spec gpu{};
    std::int32_t gpus_per_node = 8;
    /// The link between GPUs of the node. It starts empty (no bandwidth): set it, usually to
    /// the GPU's scale_up link (NVLink), or to its host link for PCIe-only servers.
    link_spec intra_node{};
};

/// Identical nodes joined by a scale-out network.
struct cluster {
    gpucalc::node node{};
    std::int32_t nodes = 1;
    link_spec inter_node{};         ///< one network interface, e.g. InfiniBand NDR 400 Gb/s
    std::int32_t nics_per_node = 8; ///< rail-optimized fabrics give each GPU its own NIC
};

/// All GPUs in the cluster.
constexpr std::int64_t total_gpus(const cluster& c) {
    detail::require_count("total_gpus", "nodes", c.nodes);
    detail::require_count("total_gpus", "node.gpus_per_node", c.node.gpus_per_node);
    return static_cast<std::int64_t>(c.nodes) * c.node.gpus_per_node;
}

/// A node's scale-out bandwidth in one direction: NICs × per-NIC bandwidth.
constexpr bandwidth node_network_bandwidth(const cluster& c) {
    detail::require_count("node_network_bandwidth", "nics_per_node", c.nics_per_node);
    detail::require_positive("node_network_bandwidth", "inter_node.per_direction",
                             c.inter_node.per_direction);
    return static_cast<double>(c.nics_per_node) * c.inter_node.per_direction;
}

/// A cloud instance shape: which GPUs, how many, and the host around them.
/// Its price is a cost_rate for the whole instance ($/h), never a per-GPU price.
struct instance_spec {
    std::string_view provider{};  ///< "AWS", "Google Cloud", "Azure"
    std::string_view name{};      ///< the provider's name for the shape, e.g. "p5.48xlarge"
    gpu_spec gpu{};
    std::int32_t gpus = 1;
    std::int32_t vcpus = 0;
    data_size host_memory{};
    bandwidth network{};          ///< the instance's total scale-out bandwidth, one direction
};

}  // namespace gpucalc
