// hardware/cpu.hpp: what a CPU can do: cores, memory bandwidth, TDP, and FP32 and BF16 peaks
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "link.hpp"

namespace gpucalc {

/// Bytes one DDR channel moves per transfer: a DDR4 channel is 64 data bits wide, and a DDR5
/// channel is two independent 32-bit subchannels, 64 bits in all (JEDEC JESD79-5, DDR5 SDRAM
/// standard; ECC bits carry no data). So a channel's peak is MT/s × 8 B: DDR5-4800 is
/// 38.4 GB/s.
inline constexpr double ddr_bytes_per_transfer = 8.0;

/// Transfers per second in one MT/s, and cycles per second in one GHz: the unit conversions of
/// the spec's two plain-number fields.
inline constexpr double transfers_per_megatransfer = 1e6;
inline constexpr double hertz_per_gigahertz = 1e9;

/// The most sockets, channels per socket and FLOPs per cycle a spec may state: bounds that keep
/// every derived peak finite, far above any shipping part (8-socket Xeon servers, 12 DDR5
/// channels a socket, 1,024 BF16 FLOPs a cycle from an AMX tile unit).
inline constexpr std::int64_t max_cpu_sockets = 64;
inline constexpr std::int64_t max_memory_channels = 1024;
inline constexpr double max_flops_per_cycle = 1e6;
/// The clock and data-rate ranges a spec may state: [0.1, 10] GHz and [100, 20,000] MT/s, wide
/// around every shipping part (server cores at 1.5–4 GHz, desktop at up to 6; DDR4-1600 to
/// DDR5-8800 and MRDIMMs) but narrow enough that a unit slip, DDR5-4800 written as 4.8 (GT/s)
/// or a clock written in MHz or Hz, is invalid_input rather than an answer 1,000× off.
inline constexpr double max_clock_ghz = 10.0;
inline constexpr double max_megatransfers = 20000.0;
inline constexpr double min_clock_ghz = 0.1;
inline constexpr double min_megatransfers = 100.0;
/// The least FLOPs per cycle a spec may state: far below any real part, and with the other
/// bounds it keeps every derived peak inside op_time's ranges.
inline constexpr double min_flops_per_cycle = 1e-6;

/// One CPU's datasheet facts, from which its peaks and its memory bandwidth are derived. CPU
/// vendors rarely print a peak in FLOP/s, so the spec holds the inputs: peak = sockets × cores ×
/// all-core vector clock × FLOPs per cycle per core (derived: every core retires its vector or
/// matrix units' full width every cycle), and memory bandwidth = sockets × channels × MT/s × 8 B
/// (derived from the memory spec, ddr_bytes_per_transfer). Both are ceilings, as a GPU
/// datasheet's peaks are: real kernels reach a fraction of them (kernel_efficiency).
/// A value type: a user's own CPU is a few designated initializers.
struct cpu_spec {
    std::string_view name{};
    std::int64_t sockets = 1;            ///< sockets the spec describes (a 2-socket server: 2)
    std::int64_t cores = 0;              ///< physical cores per socket (threads do not add FLOPs)
    /// The clock every core sustains while all run vector or matrix code, in GHz. Vendors print
    /// a base and a boost clock, and some an all-core boost. The catalog takes the all-core
    /// boost where the vendor prints one and the core keeps its clock under AVX-512 (Zen 4),
    /// else the base clock (the one guaranteed within the TDP; Intel's cores may drop below it
    /// under AMX, and each catalog entry states its range).
    double vector_clock_ghz = 0.0;
    /// FP32 FLOPs one core retires per cycle from its vector units: FMA pipes × lanes × 2
    /// (a fused multiply-add is two FLOPs). Two 512-bit FMA pipes: 2 × 16 × 2 = 64.
    double fp32_flops_per_cycle = 0.0;
    /// BF16 FLOPs one core retires per cycle (AVX-512 BF16 dot products, or AMX tiles); 0 when
    /// the core has no BF16 instructions (BF16 data then computes at the FP32 rate after a
    /// conversion; ask for the fp32 peak).
    double bf16_flops_per_cycle = 0.0;
    std::int64_t memory_channels = 0;    ///< DDR channels per socket
    double memory_megatransfers = 0.0;   ///< each channel's data rate, MT/s (DDR5-4800: 4,800)
    power tdp{};                         ///< per socket; 0 when unknown
};

/// Two specs are equal when every field is.
constexpr bool operator==(const cpu_spec& a, const cpu_spec& b) {
    return a.name == b.name && a.sockets == b.sockets && a.cores == b.cores &&
           detail::exactly_equal(a.vector_clock_ghz, b.vector_clock_ghz) &&
           detail::exactly_equal(a.fp32_flops_per_cycle, b.fp32_flops_per_cycle) &&
           detail::exactly_equal(a.bf16_flops_per_cycle, b.bf16_flops_per_cycle) &&
           a.memory_channels == b.memory_channels &&
           detail::exactly_equal(a.memory_megatransfers, b.memory_megatransfers) && a.tdp == b.tdp;
}
constexpr bool operator!=(const cpu_spec& a, const cpu_spec& b) { return !(a == b); }

namespace detail {
/// check(cpu_spec)'s rules, reporting fields under `at` ("cpu.").
constexpr void check(const cpu_spec& cpu, const field_path& at) {
    require_count_at(at, "sockets", cpu.sockets, max_cpu_sockets, "must be in [1, 64]");
    require_count_at(at, "cores", cpu.cores, std::int64_t{1} << 20, "must be in [1, 2^20]");
    require_in_range_at(at, "vector_clock_ghz", cpu.vector_clock_ghz, min_clock_ghz,
                        max_clock_ghz, false, "GHz", "must be in [0.1, 10] GHz");
    require_in_range_at(at, "fp32_flops_per_cycle", cpu.fp32_flops_per_cycle,
                        min_flops_per_cycle, max_flops_per_cycle, false, "",
                        "must be in [1e-6, 1e6]");
    require_in_range_at(at, "bf16_flops_per_cycle", cpu.bf16_flops_per_cycle,
                        min_flops_per_cycle, max_flops_per_cycle, true, "",
                        "must be 0 (no BF16 instructions) or in [1e-6, 1e6]");
    require_count_at(at, "memory_channels", cpu.memory_channels, max_memory_channels,
                     "must be in [1, 1024]");
    require_in_range_at(at, "memory_megatransfers", cpu.memory_megatransfers,
                        min_megatransfers, max_megatransfers, false, "MT/s",
                        "must be in [100, 20000] MT/s");
    require_non_negative_at(at, "tdp", cpu.tdp);
}

/// FLOPs per cycle per core at `precision` for a checked spec: 0 where the CPU has no such
/// pipeline (every precision but fp32 and bf16).
constexpr double flops_per_cycle(const cpu_spec& cpu, compute_precision precision) {
    switch (precision) {
        case compute_precision::fp32: return cpu.fp32_flops_per_cycle;
        case compute_precision::bf16: return cpu.bf16_flops_per_cycle;
        default: return 0.0;
    }
}

/// The peak of a checked spec at `precision` (derived: sockets × cores × clock × FLOPs per
/// cycle per core), named for `function`'s field `field` when the CPU has no such pipeline.
constexpr flop_rate cpu_peak_of(const cpu_spec& cpu, compute_precision precision,
                                const char* function, const char* field) {
    require_enumerator(function, field, precision, compute_precision_count, "compute_precision");
    const double per_cycle = flops_per_cycle(cpu, precision);
    if (!(per_cycle > 0.0)) {
        const bool named = !cpu.name.empty();
        throw_invalid_name(function, field, to_string(precision),
                           named ? "is not supported by " : "is not supported", cpu.name,
                           precision == compute_precision::bf16
                               ? ": its bf16_flops_per_cycle is 0 (no BF16 instructions; ask "
                                 "for fp32)"
                               : ": a cpu_spec has FP32 and BF16 peaks only");
    }
    return make<flops_per_second>(static_cast<double>(cpu.sockets) *
                                  static_cast<double>(cpu.cores) *
                                  (cpu.vector_clock_ghz * hertz_per_gigahertz) * per_cycle);
}

/// The memory bandwidth of a checked spec (derived: sockets × channels × MT/s × 8 B).
constexpr bandwidth cpu_bandwidth_unchecked(const cpu_spec& cpu) {
    return make<bytes_per_second>(static_cast<double>(cpu.sockets) *
                                  static_cast<double>(cpu.memory_channels) *
                                  (cpu.memory_megatransfers * transfers_per_megatransfer) *
                                  ddr_bytes_per_transfer);
}
}  // namespace detail

/// Rejects a hand-written spec that no real CPU could have. Ranges: sockets in [1, 64]; cores
/// in [1, 2^20]; vector_clock_ghz in [0.1, 10]; fp32_flops_per_cycle in [1e-6, 1e6];
/// bf16_flops_per_cycle 0 (none) or in [1e-6, 1e6]; memory_channels in [1, 1024];
/// memory_megatransfers in [100, 20000]; tdp 0 (unknown) or in [1e-30 W, 1e15 W]. Every derived
/// peak and bandwidth is then finite and positive.
constexpr void check(const cpu_spec& cpu) {
    detail::check(cpu, detail::field_path{"check(cpu_spec)"});
}

/// True when `cpu` has a peak at `precision` (fp32 always; bf16 when it has BF16 instructions;
/// never another precision), which must be one of the enumerators. Ranges: as check(cpu_spec).
constexpr bool supports(const cpu_spec& cpu, compute_precision precision) {
    constexpr const char* function = "supports(cpu_spec)";
    detail::check(cpu, detail::field_path{function, "cpu."});
    detail::require_enumerator(function, "precision", precision, detail::compute_precision_count,
                               "compute_precision");
    return detail::flops_per_cycle(cpu, precision) > 0.0;
}

/// The peak of `cpu` at `precision`, all sockets (derived: sockets × cores × vector_clock_ghz ×
/// FLOPs per cycle per core). invalid_input for a precision the CPU has no FLOPs per cycle for
/// (anything but fp32 and bf16, or bf16 on a CPU without it). Ranges: the spec as
/// check(cpu_spec); precision one of the enumerators. The answer is then in
/// (0, 6.8e23 FLOP/s] (64 × 2^20 × 10 GHz × 1e6).
constexpr flop_rate peak(const cpu_spec& cpu, compute_precision precision) {
    constexpr const char* function = "peak(cpu_spec)";
    detail::check(cpu, detail::field_path{function, "cpu."});
    return detail::cpu_peak_of(cpu, precision, function, "precision");
}

/// The memory bandwidth of `cpu`, all sockets (derived: sockets × channels × MT/s × 8 B, the
/// DDR peak; STREAM-style kernels reach a fraction of it). Ranges: as check(cpu_spec); the
/// answer is then in (0, 1.1e16 B/s] (64 × 1,024 × 20,000 MT/s × 8 B).
constexpr bandwidth memory_bandwidth(const cpu_spec& cpu) {
    detail::check(cpu, detail::field_path{"memory_bandwidth(cpu_spec)", "cpu."});
    return detail::cpu_bandwidth_unchecked(cpu);
}

/// The power the CPU's sockets may draw together: sockets × TDP (0 when the TDP is unknown).
/// Ranges: as check(cpu_spec).
constexpr power package_power(const cpu_spec& cpu) {
    detail::check(cpu, detail::field_path{"package_power(cpu_spec)", "cpu."});
    return static_cast<double>(cpu.sockets) * cpu.tdp;
}

}  // namespace gpucalc
