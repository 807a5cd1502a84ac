// roofline/op.hpp: how fast an op can run on a GPU, and which bound holds (Williams, Waterman and
// Patterson 2009): attainable FLOP/s = min(peak, intensity × bandwidth)
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../hardware.hpp"
#include "../precision.hpp"
#include "../units.hpp"

namespace gpucalc {

/// Which ceiling limits an op.
enum class bound { compute, memory };

/// The bound's name; "unknown" for a value outside the enumerators (printing never throws).
constexpr std::string_view to_string(bound b) {
    switch (b) {
        case bound::compute: return "compute";
        case bound::memory: return "memory";
    }
    return "unknown";
}

/// The work of one op: the FLOPs it performs and the bytes it moves to and from memory.
struct op_cost {
    flop_count flops{};
    data_size bytes{};
};

/// An op's place on the roofline and its best time.
struct op_timing {
    duration time{};                    ///< max(compute_time, memory_time)
    duration compute_time{};            ///< flops / (peak × efficiency.compute)
    duration memory_time{};             ///< bytes / (bandwidth × efficiency.memory)
    gpucalc::bound bound = gpucalc::bound::compute;  ///< which of the two is larger
    arithmetic_intensity intensity{};   ///< flops / bytes
    flop_rate attained{};               ///< flops / time
};

/// The ridge point: the arithmetic intensity at which compute and memory take equally long,
/// peak ÷ bandwidth (Williams et al. 2009), for the dense peak at `precision`. By default the
/// datasheet ridge (efficiency 1); pass the efficiency given to attainable() or op_time() to
/// get the knee of that roof. Ranges: `precision` a peak the device has (peak()); the GPU's
/// memory_bandwidth in [1e-30 B/s, 1e30 B/s]; each efficiency in [1e-30, 1].
constexpr arithmetic_intensity ridge_point(
    const gpu_spec& gpu, compute_precision precision,
    const kernel_efficiency& eff = kernel_efficiency::ideal()) {
    constexpr const char* function = "ridge_point";
    detail::check(eff, function);
    const flop_rate rate = detail::peak_of(gpu, precision, function, "precision");
    detail::require_positive(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    return (eff.compute * rate) / (eff.memory * gpu.memory_bandwidth);
}

/// Attainable FLOP/s at `intensity`: min(peak, intensity × bandwidth) (Williams et al. 2009),
/// each ceiling scaled by its efficiency. Ranges: intensity in [1e-30 FLOP/B, 1e30 FLOP/B];
/// the rest as ridge_point.
constexpr flop_rate attainable(const gpu_spec& gpu, compute_precision precision,
                               arithmetic_intensity intensity, const kernel_efficiency& eff = {}) {
    constexpr const char* function = "attainable";
    detail::check(eff, function);
    detail::require_positive(function, "intensity", intensity);
    detail::require_positive(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    const flop_rate compute = eff.compute * detail::peak_of(gpu, precision, function, "precision");
    const flop_rate memory = intensity * (eff.memory * gpu.memory_bandwidth);
    return compute < memory ? compute : memory;
}

namespace detail {
/// op_time() for inputs already checked: positive, finite FLOPs, bytes, peak and bandwidth.
GPUCALC_DETAIL_INLINE constexpr op_timing op_time_unchecked(const op_cost& op, flop_rate peak_rate,
                                                            bandwidth data_bandwidth,
                                                            const kernel_efficiency& eff) {
    // The two times are divided on values, term for term the expressions whose dimensions the
    // static_assert proves: written on quantities, GCC's SLP vectorizer packs both divisions
    // into one vector divide in decode's inlined body, which lengthens its critical path
    // (measured on GCC 12 -O3: decode 1.08-1.14x its raw-double twin that way, 0.87-1.01x this
    // way, depending on the build). The results are bit-identical.
    static_assert(std::is_same<decltype(op.flops / (eff.compute * peak_rate)), duration>::value &&
                      std::is_same<decltype(op.bytes / (eff.memory * data_bandwidth)), duration>::value,
                  "roofline times must be durations");
    op_timing t{};
    t.compute_time = make<seconds>(op.flops.value() / (eff.compute * peak_rate.value()));
    t.memory_time = make<seconds>(op.bytes.value() / (eff.memory * data_bandwidth.value()));
    t.bound = t.compute_time >= t.memory_time ? bound::compute : bound::memory;
    t.time = t.bound == bound::compute ? t.compute_time : t.memory_time;
    t.intensity = op.flops / op.bytes;
    t.attained = op.flops / t.time;
    return t;
}
}  // namespace detail

/// The best time of an op whose data streams at `data_bandwidth` (a GPU's HBM; a PCIe or
/// NVLink bandwidth for data held elsewhere; a CPU's memory bandwidth), and which bound holds.
/// Ranges: op.flops in [1e-30 FLOP, 1e40 FLOP]; op.bytes in [1e-30 B, 1e30 B]; peak in
/// [1e-30 FLOP/s, 1e30 FLOP/s]; data_bandwidth in [1e-30 B/s, 1e30 B/s]; each efficiency in
/// [1e-30, 1]. Every answer is then finite and positive.
GPUCALC_DETAIL_HOT GPUCALC_DETAIL_INLINE constexpr op_timing op_time(
    const op_cost& op, flop_rate peak_rate, bandwidth data_bandwidth,
    const kernel_efficiency& eff = {}) {
    constexpr const char* function = "op_time";
    detail::require_positive(function, "op.flops", op.flops);
    detail::require_positive(function, "op.bytes", op.bytes);
    detail::require_positive(function, "peak", peak_rate);
    detail::require_positive(function, "data_bandwidth", data_bandwidth);
    detail::check(eff, function);
    return detail::op_time_unchecked(op, peak_rate, data_bandwidth, eff);
}

/// The same on `gpu`'s device memory at `precision` (ranges: op and efficiency as above; the
/// peak and bandwidth as ridge_point).
GPUCALC_DETAIL_HOT GPUCALC_DETAIL_INLINE constexpr op_timing op_time(
    const op_cost& op, const gpu_spec& gpu, compute_precision precision,
    const kernel_efficiency& eff = {}) {
    constexpr const char* function = "op_time";
    detail::require_positive(function, "op.flops", op.flops);
    detail::require_positive(function, "op.bytes", op.bytes);
    const flop_rate rate = detail::peak_of(gpu, precision, function, "precision");
    detail::require_positive(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    detail::check(eff, function);
    return detail::op_time_unchecked(op, rate, gpu.memory_bandwidth, eff);
}

/// A GEMM C[m×n] = A[m×k]·B[k×n]: 2·m·n·k FLOPs (one multiply and one add per term), and at
/// least the bytes of reading A and B once and writing C once (derived: the minimum traffic of
/// a kernel that tiles well enough to reuse every operand from on-chip memory). Ranges: m, n
/// and k in [1, 2^40]; each format as bits_per_element states. (At the largest sizes the
/// answer exceeds what op_time takes, which then says so.)
constexpr op_cost gemm(std::int64_t m, std::int64_t n, std::int64_t k,
                       const storage_format& inputs = formats::bf16,
                       const storage_format& output = formats::bf16) {
    constexpr const char* function = "gemm";
    detail::require_count(function, "m", m);
    detail::require_count(function, "n", n);
    detail::require_count(function, "k", k);
    detail::check_format(inputs, function, "inputs.");
    detail::check_format(output, function, "output.");
    const double md = static_cast<double>(m), nd = static_cast<double>(n),
                 kd = static_cast<double>(k);
    return {make<flops>(2.0 * md * nd * kd),
            detail::storage_size_unchecked(md * kd + kd * nd, inputs) +
                detail::storage_size_unchecked(md * nd, output)};
}

}  // namespace gpucalc
