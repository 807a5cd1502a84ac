// literals.hpp: unit literals such as 80.0_GiB, 3.35_TB_per_s, 989.0_TFLOPS and 2.99_usd_per_gpu_hour
#pragma once

#include "units.hpp"

namespace gpucalc {

/// Each literal takes a floating or an integer value: 80_GiB and 80.0_GiB are the same quantity.
/// Decimal (GB = 1e9 B) and binary (GiB = 2^30 B) byte prefixes are distinct; network links are
/// given in bits per second (400_Gb_per_s is 50 GB/s). Suffixes are ASCII (_us, not _µs).
/// FLOP counts end in FLOP (_TFLOP); FLOP rates end in FLOPS (_TFLOPS).
namespace literals {

#define GPUCALC_DETAIL_LITERAL(suffix, unit_name)                                             \
    constexpr typename unit_name::quantity operator""_##suffix(long double value) {          \
        return make<unit_name>(static_cast<double>(value));                                   \
    }                                                                                         \
    constexpr typename unit_name::quantity operator""_##suffix(unsigned long long value) {   \
        return make<unit_name>(static_cast<double>(value));                                   \
    }

GPUCALC_DETAIL_LITERAL(B, bytes)
GPUCALC_DETAIL_LITERAL(kB, kilobytes)
GPUCALC_DETAIL_LITERAL(MB, megabytes)
GPUCALC_DETAIL_LITERAL(GB, gigabytes)
GPUCALC_DETAIL_LITERAL(TB, terabytes)
GPUCALC_DETAIL_LITERAL(PB, petabytes)
GPUCALC_DETAIL_LITERAL(KiB, kibibytes)
GPUCALC_DETAIL_LITERAL(MiB, mebibytes)
GPUCALC_DETAIL_LITERAL(GiB, gibibytes)
GPUCALC_DETAIL_LITERAL(TiB, tebibytes)
GPUCALC_DETAIL_LITERAL(PiB, pebibytes)
GPUCALC_DETAIL_LITERAL(FLOP, flops)
GPUCALC_DETAIL_LITERAL(GFLOP, gigaflops)
GPUCALC_DETAIL_LITERAL(TFLOP, teraflops)
GPUCALC_DETAIL_LITERAL(PFLOP, petaflops)
GPUCALC_DETAIL_LITERAL(EFLOP, exaflops)
GPUCALC_DETAIL_LITERAL(GFLOPS, gigaflops_per_second)
GPUCALC_DETAIL_LITERAL(TFLOPS, teraflops_per_second)
GPUCALC_DETAIL_LITERAL(PFLOPS, petaflops_per_second)
GPUCALC_DETAIL_LITERAL(B_per_s, bytes_per_second)
GPUCALC_DETAIL_LITERAL(MB_per_s, megabytes_per_second)
GPUCALC_DETAIL_LITERAL(GB_per_s, gigabytes_per_second)
GPUCALC_DETAIL_LITERAL(TB_per_s, terabytes_per_second)
GPUCALC_DETAIL_LITERAL(Mb_per_s, megabits_per_second)
GPUCALC_DETAIL_LITERAL(Gb_per_s, gigabits_per_second)
GPUCALC_DETAIL_LITERAL(Tb_per_s, terabits_per_second)
GPUCALC_DETAIL_LITERAL(ns, nanoseconds)
GPUCALC_DETAIL_LITERAL(us, microseconds)
GPUCALC_DETAIL_LITERAL(ms, milliseconds)
GPUCALC_DETAIL_LITERAL(s, seconds)
GPUCALC_DETAIL_LITERAL(min, minutes)
GPUCALC_DETAIL_LITERAL(h, hours)
GPUCALC_DETAIL_LITERAL(days, days)
GPUCALC_DETAIL_LITERAL(months, months)
GPUCALC_DETAIL_LITERAL(years, years)
GPUCALC_DETAIL_LITERAL(usd, usd)
GPUCALC_DETAIL_LITERAL(usd_per_h, usd_per_hour)
GPUCALC_DETAIL_LITERAL(usd_per_hour, usd_per_hour)
GPUCALC_DETAIL_LITERAL(usd_per_gpu_hour, usd_per_gpu_hour)
GPUCALC_DETAIL_LITERAL(usd_per_kWh, usd_per_kilowatt_hour)
GPUCALC_DETAIL_LITERAL(usd_per_GB, usd_per_gigabyte)
GPUCALC_DETAIL_LITERAL(gpu, gpus)
GPUCALC_DETAIL_LITERAL(gpu_hours, gpu_hours)
GPUCALC_DETAIL_LITERAL(W, watts)
GPUCALC_DETAIL_LITERAL(kW, kilowatts)
GPUCALC_DETAIL_LITERAL(MW, megawatts)
GPUCALC_DETAIL_LITERAL(J, joules)
GPUCALC_DETAIL_LITERAL(kWh, kilowatt_hours)
GPUCALC_DETAIL_LITERAL(MWh, megawatt_hours)
GPUCALC_DETAIL_LITERAL(g, grams)
GPUCALC_DETAIL_LITERAL(kg, kilograms)
GPUCALC_DETAIL_LITERAL(t, tonnes)
GPUCALC_DETAIL_LITERAL(g_per_kWh, grams_per_kilowatt_hour)
GPUCALC_DETAIL_LITERAL(FLOP_per_B, flops_per_byte)

#undef GPUCALC_DETAIL_LITERAL

}  // namespace literals
}  // namespace gpucalc
