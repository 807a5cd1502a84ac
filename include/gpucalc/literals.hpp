// literals.hpp: unit literals such as 80.0_GiB, 3.35_TB_per_s, 989.0_TFLOPS, 2.99_usd_per_gpu_hour
// and 15_T_tokens
#pragma once

#include "units.hpp"

namespace gpucalc {

/// Each literal takes a floating or an integer value: 80_GiB and 80.0_GiB are the same quantity.
/// Decimal (GB = 1e9 B) and binary (GiB = 2^30 B) byte prefixes are distinct; network links are
/// given in bits per second (400_Gb_per_s is 50 GB/s). Suffixes are ASCII (_us, not _µs).
/// FLOP counts end in FLOP (_TFLOP); FLOP rates end in FLOPS (_TFLOPS). Token counts spell
/// their scale before the word (15_T_tokens); a per-stream rate says so (_tokens_per_s_per_stream).
namespace literals {

// The return type is spelled with the quantity's alias, so diagnostics say "gpucalc::data_size".
#define GPUCALC_DETAIL_LITERAL(suffix, unit_name, quantity_name)                              \
    constexpr quantity_name operator""_##suffix(long double value) {                          \
        return make<unit_name>(static_cast<double>(value));                                   \
    }                                                                                         \
    constexpr quantity_name operator""_##suffix(unsigned long long value) {                   \
        return make<unit_name>(static_cast<double>(value));                                   \
    }

GPUCALC_DETAIL_LITERAL(B, bytes, data_size)
GPUCALC_DETAIL_LITERAL(kB, kilobytes, data_size)
GPUCALC_DETAIL_LITERAL(MB, megabytes, data_size)
GPUCALC_DETAIL_LITERAL(GB, gigabytes, data_size)
GPUCALC_DETAIL_LITERAL(TB, terabytes, data_size)
GPUCALC_DETAIL_LITERAL(PB, petabytes, data_size)
GPUCALC_DETAIL_LITERAL(KiB, kibibytes, data_size)
GPUCALC_DETAIL_LITERAL(MiB, mebibytes, data_size)
GPUCALC_DETAIL_LITERAL(GiB, gibibytes, data_size)
GPUCALC_DETAIL_LITERAL(TiB, tebibytes, data_size)
GPUCALC_DETAIL_LITERAL(PiB, pebibytes, data_size)
GPUCALC_DETAIL_LITERAL(FLOP, flops, flop_count)
GPUCALC_DETAIL_LITERAL(GFLOP, gigaflops, flop_count)
GPUCALC_DETAIL_LITERAL(TFLOP, teraflops, flop_count)
GPUCALC_DETAIL_LITERAL(PFLOP, petaflops, flop_count)
GPUCALC_DETAIL_LITERAL(EFLOP, exaflops, flop_count)
GPUCALC_DETAIL_LITERAL(GFLOPS, gigaflops_per_second, flop_rate)
GPUCALC_DETAIL_LITERAL(TFLOPS, teraflops_per_second, flop_rate)
GPUCALC_DETAIL_LITERAL(PFLOPS, petaflops_per_second, flop_rate)
GPUCALC_DETAIL_LITERAL(B_per_s, bytes_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(MB_per_s, megabytes_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(GB_per_s, gigabytes_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(TB_per_s, terabytes_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(Mb_per_s, megabits_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(Gb_per_s, gigabits_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(Tb_per_s, terabits_per_second, bandwidth)
GPUCALC_DETAIL_LITERAL(ns, nanoseconds, duration)
GPUCALC_DETAIL_LITERAL(us, microseconds, duration)
GPUCALC_DETAIL_LITERAL(ms, milliseconds, duration)
GPUCALC_DETAIL_LITERAL(s, seconds, duration)
GPUCALC_DETAIL_LITERAL(min, minutes, duration)
GPUCALC_DETAIL_LITERAL(h, hours, duration)
GPUCALC_DETAIL_LITERAL(days, days, duration)
GPUCALC_DETAIL_LITERAL(months, months, duration)
GPUCALC_DETAIL_LITERAL(years, years, duration)
GPUCALC_DETAIL_LITERAL(usd, usd, money)
GPUCALC_DETAIL_LITERAL(usd_per_h, usd_per_hour, cost_rate)
GPUCALC_DETAIL_LITERAL(usd_per_gpu_hour, usd_per_gpu_hour, gpu_price)
GPUCALC_DETAIL_LITERAL(usd_per_kWh, usd_per_kilowatt_hour, energy_price)
GPUCALC_DETAIL_LITERAL(usd_per_GB, usd_per_gigabyte, data_price)
GPUCALC_DETAIL_LITERAL(gpu, gpus, gpu_count)
GPUCALC_DETAIL_LITERAL(gpu_hours, gpu_hours, gpu_time)
GPUCALC_DETAIL_LITERAL(W, watts, power)
GPUCALC_DETAIL_LITERAL(kW, kilowatts, power)
GPUCALC_DETAIL_LITERAL(MW, megawatts, power)
GPUCALC_DETAIL_LITERAL(J, joules, energy)
GPUCALC_DETAIL_LITERAL(kWh, kilowatt_hours, energy)
GPUCALC_DETAIL_LITERAL(MWh, megawatt_hours, energy)
GPUCALC_DETAIL_LITERAL(g, grams, mass)
GPUCALC_DETAIL_LITERAL(kg, kilograms, mass)
GPUCALC_DETAIL_LITERAL(t, tonnes, mass)
GPUCALC_DETAIL_LITERAL(g_per_kWh, grams_per_kilowatt_hour, grid_intensity)
GPUCALC_DETAIL_LITERAL(FLOP_per_B, flops_per_byte, arithmetic_intensity)
GPUCALC_DETAIL_LITERAL(tokens, tokens, token_count)
GPUCALC_DETAIL_LITERAL(M_tokens, million_tokens, token_count)
GPUCALC_DETAIL_LITERAL(B_tokens, billion_tokens, token_count)
GPUCALC_DETAIL_LITERAL(T_tokens, trillion_tokens, token_count)
GPUCALC_DETAIL_LITERAL(sequences, sequences, sequence_count)
GPUCALC_DETAIL_LITERAL(requests, requests, sequence_count)
GPUCALC_DETAIL_LITERAL(tokens_per_s, tokens_per_second, token_rate)
GPUCALC_DETAIL_LITERAL(tokens_per_s_per_stream, tokens_per_second_per_stream, stream_token_rate)
GPUCALC_DETAIL_LITERAL(requests_per_s, requests_per_second, request_rate)
GPUCALC_DETAIL_LITERAL(usd_per_M_tokens, usd_per_million_tokens, token_price)

#undef GPUCALC_DETAIL_LITERAL

}  // namespace literals
}  // namespace gpucalc
