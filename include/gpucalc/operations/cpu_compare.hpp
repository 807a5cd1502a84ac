// operations/cpu_compare.hpp: the same workload on a CPU and on a GPU: time, energy and cost
#pragma once

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../hardware.hpp"
#include "../hardware/cpu.hpp"
#include "../precision.hpp"
#include "../roofline/op.hpp"
#include "../units.hpp"

namespace gpucalc {

/// The best time of `op` on `cpu` at `precision`: roofline's op_time with the CPU's derived
/// peak (all sockets) and its DDR bandwidth as the ceilings (Williams, Waterman and Patterson
/// 2009), at the efficiency given: no default, since kernel_efficiency's defaults (0.80, 0.85)
/// are GPU measurements and the GPU overload's default would make a hand comparison of the two
/// overloads silently unequal; pass kernel_efficiency::ideal() for the ceilings themselves
/// ("roofline bound"), as compare_cpu_gpu does by default. Ranges: op as op_time
/// (flops in [1e-30 FLOP, 1e40 FLOP], bytes in [1e-30 B, 1e30 B]); the spec as check(cpu_spec);
/// precision fp32, or bf16 on a CPU with BF16 instructions; each efficiency in [1e-30, 1].
/// The answer is then finite and positive.
constexpr op_timing op_time(const op_cost& op, const cpu_spec& cpu, compute_precision precision,
                            const kernel_efficiency& eff) {
    constexpr const char* function = "op_time(cpu_spec)";
    detail::require_positive(function, "op.flops", op.flops);
    detail::require_positive(function, "op.bytes", op.bytes);
    detail::check(cpu, detail::field_path{function, "cpu."});
    const flop_rate rate = detail::cpu_peak_of(cpu, precision, function, "precision");
    detail::check(eff, function);
    return detail::op_time_unchecked(op, rate, detail::cpu_bandwidth_unchecked(cpu), eff);
}

/// The named assumptions of a CPU-against-GPU comparison. Every default is a stated choice:
/// - compute precision BF16 on both: what a practitioner trains in on an H100 (its dense BF16
///   peak) and what AMX or AVX-512 BF16 run on a CPU. Set cpu_compute to fp32 for a CPU without
///   BF16 instructions.
/// - efficiency 1 on both ("roofline bound"): the comparison is of ceilings, so a
///   compute-bound job's ratio is the ratio of peaks and a memory-bound one's the ratio of
///   bandwidths. kernel_efficiency's defaults (0.80, 0.85) are GPU measurements; a CPU's are
///   not in the library (uncertain: published AMX BF16 GEMMs and STREAM runs on DDR5 servers
///   report roughly 0.5–0.9 of these ceilings), so pass measured fractions for a forecast.
/// - power fraction 1: each device draws its TDP while the job runs (the figure the GPU
///   catalog plans with; for server CPUs the default package power limit, EPYC's TDP and
///   Xeon's PL1; a desktop part may draw more: the Ryzen 9 7950X's 230 W PPT against its
///   170 W TDP, catalog/cpus.hpp).
///   Each in [1e-30, 1].
struct cpu_gpu_assumptions {
    compute_precision cpu_compute = compute_precision::bf16;
    compute_precision gpu_compute = compute_precision::bf16;
    kernel_efficiency cpu_efficiency = kernel_efficiency::ideal();
    kernel_efficiency gpu_efficiency = kernel_efficiency::ideal();
    double cpu_power_fraction = 1.0;
    double gpu_power_fraction = 1.0;
};

/// What each side costs to rent: a CPU server by the hour (a cloud instance or an amortized
/// server; it is not billed per GPU), and one GPU by the GPU-hour. 0 means not priced: that
/// side's cost is then 0 and the comparison says `priced` is false.
struct cpu_gpu_prices {
    cost_rate cpu_server{};  ///< $/h for the whole CPU spec (all its sockets)
    gpu_price gpu{};         ///< $/GPU·h for the one GPU
};

/// One side of the comparison.
struct device_run {
    op_timing timing{};     ///< op_time's answer: time, bound, attained FLOP/s
    energy energy_used{};   ///< power × power fraction × time; 0 when the TDP is unknown
    money cost{};           ///< price × time; 0 when not priced
};

/// The same workload on both devices, and the GPU's lead.
struct cpu_gpu_comparison {
    device_run cpu{};
    device_run gpu{};
    /// cpu.timing.time ÷ gpu.timing.time: how many times faster the GPU is (< 1: the CPU is
    /// faster).
    double speedup = 0.0;
    /// True when both TDPs are known: energy_ratio is then cpu ÷ gpu energy; else 0.
    bool energy_known = false;
    double energy_ratio = 0.0;
    /// True when both prices are given: cost_ratio is then cpu ÷ gpu cost; else 0.
    bool priced = false;
    double cost_ratio = 0.0;
};

/// One workload, `work` (an op_cost: an op, a decode step, or a whole training run as its total
/// FLOPs and bytes), on `cpu` (all its sockets) and on one `gpu`: each side's roofline time
/// (op_time with that device's peak at its precision and its memory bandwidth as ceilings,
/// Williams et al. 2009), energy (TDP × power fraction × time, derived), cost (price × time,
/// derived), and the ratios. A compute-bound job's speedup is the ratio of the peaks (times the
/// efficiencies); a memory-bound job's the ratio of the memory bandwidths. Ranges: work as
/// op_time; cpu as check(cpu_spec); gpu as check(gpu_spec); each precision a peak its device
/// has (the CPU: fp32, or bf16 with BF16 instructions); each efficiency and power fraction in
/// [1e-30, 1]; prices 0 (not priced) or in [$1e-30/s, $1e9/h] and [$1e-30/GPU·s,
/// $1e9/GPU·h]. Every answer is then finite; an unknown TDP or a missing price shows as its
/// flag.
constexpr cpu_gpu_comparison compare_cpu_gpu(const op_cost& work, const cpu_spec& cpu,
                                             const gpu_spec& gpu,
                                             const cpu_gpu_prices& prices = {},
                                             const cpu_gpu_assumptions& assumptions = {}) {
    constexpr const char* function = "compare_cpu_gpu";
    detail::require_positive(function, "work.flops", work.flops);
    detail::require_positive(function, "work.bytes", work.bytes);
    detail::check(cpu, detail::field_path{function, "cpu."});
    detail::check(gpu, detail::field_path{function, "gpu."});
    const flop_rate cpu_rate =
        detail::cpu_peak_of(cpu, assumptions.cpu_compute, function, "assumptions.cpu_compute");
    const flop_rate gpu_rate =
        detail::peak_of(gpu, assumptions.gpu_compute, function, "assumptions.gpu_compute");
    detail::require_fraction_of_peak(function, "assumptions.cpu_efficiency.compute",
                                     assumptions.cpu_efficiency.compute);
    detail::require_fraction_of_peak(function, "assumptions.cpu_efficiency.memory",
                                     assumptions.cpu_efficiency.memory);
    detail::require_fraction_of_peak(function, "assumptions.gpu_efficiency.compute",
                                     assumptions.gpu_efficiency.compute);
    detail::require_fraction_of_peak(function, "assumptions.gpu_efficiency.memory",
                                     assumptions.gpu_efficiency.memory);
    detail::require_fraction_of_peak(function, "assumptions.cpu_power_fraction",
                                     assumptions.cpu_power_fraction);
    detail::require_fraction_of_peak(function, "assumptions.gpu_power_fraction",
                                     assumptions.gpu_power_fraction);
    detail::require_non_negative(function, "prices.cpu_server", prices.cpu_server);
    detail::require_non_negative(function, "prices.gpu", prices.gpu);

    cpu_gpu_comparison c{};
    c.cpu.timing = detail::op_time_unchecked(work, cpu_rate, detail::cpu_bandwidth_unchecked(cpu),
                                             assumptions.cpu_efficiency);
    c.gpu.timing = detail::op_time_unchecked(work, gpu_rate, gpu.memory_bandwidth,
                                             assumptions.gpu_efficiency);
    const duration cpu_time = c.cpu.timing.time;
    const duration gpu_time = c.gpu.timing.time;
    // Energy (derived): the power each device draws while running, times its time. The GPU's
    // board power, the CPU's sockets × package TDP; neither counts the rest of its server.
    c.cpu.energy_used = (assumptions.cpu_power_fraction * static_cast<double>(cpu.sockets) *
                         cpu.tdp) * cpu_time;
    c.gpu.energy_used = (assumptions.gpu_power_fraction * gpu.tdp) * gpu_time;
    // Cost (derived): the CPU server's hourly price for its time; one GPU's per-GPU-hour price
    // for its time.
    c.cpu.cost = prices.cpu_server * cpu_time;
    c.gpu.cost = prices.gpu * (make<gpus>(1.0) * gpu_time);
    c.speedup = cpu_time / gpu_time;
    c.energy_known = cpu.tdp.value() > 0.0 && gpu.tdp.value() > 0.0;
    if (c.energy_known) c.energy_ratio = c.cpu.energy_used / c.gpu.energy_used;
    c.priced = prices.cpu_server.value() > 0.0 && prices.gpu.value() > 0.0;
    if (c.priced) c.cost_ratio = c.cpu.cost / c.gpu.cost;
    return c;
}

}  // namespace gpucalc
