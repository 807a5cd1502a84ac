// units_static.cpp: compile-time proofs that quantities have the right type AND value, and that
// size and cost expressions work inside static_assert (C++17 and C++20).
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

#include <cstdint>
#include <type_traits>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;

template <class Expected, class Actual>
constexpr bool is(const Actual&) {
    return std::is_same<Expected, Actual>::value;
}

// Literals land in the right type, in base units. Powers of two and integers below 2^53 are
// exact, so these compare with ==; decimal fractions (0.02 $/s, 10.2 kW, $2/GPU·h in $/GPU·s)
// are not, so they compare with approx_equal.
static_assert(is<data_size>(80.0_GiB) && 80.0_GiB == make<bytes>(85899345920.0), "GiB");
static_assert(is<data_size>(1_GB) && in<bytes>(1_GB) == 1e9, "GB is decimal");
static_assert(is<data_size>(1.0_KiB) && in<bytes>(1.0_KiB) == 1024.0, "KiB");
static_assert(is<flop_count>(1.0_PFLOP) && in<flops>(1.0_PFLOP) == 1e15, "PFLOP");
static_assert(is<flop_rate>(989.0_TFLOPS) && in<flops_per_second>(1.0_TFLOPS) == 1e12, "TFLOPS");
static_assert(is<bandwidth>(3.0_TB_per_s) && in<bytes_per_second>(3.0_TB_per_s) == 3e12, "TB/s");
static_assert(is<bandwidth>(400.0_Gb_per_s) && 400.0_Gb_per_s == 50.0_GB_per_s, "Gb/s is bits");
static_assert(is<duration>(1.0_h) && 1.0_h == 3600.0_s && 1.0_days == 24.0_h, "hours, days");
static_assert(1.0_years == 365.0_days && 12.0_months == 1.0_years, "year = 365 days");
static_assert(is<money>(1.0_usd) && in<usd>(1.0_usd) == 1.0, "usd");
static_assert(is<cost_rate>(72.0_usd_per_h) && approx_equal(in<usd_per_second>(72.0_usd_per_h), 0.02),
              "instance price is $/h");
static_assert(is<gpu_price>(36.0_usd_per_gpu_hour) &&
                  approx_equal(in<usd_per_gpu_second>(36.0_usd_per_gpu_hour), 0.01),
              "per-GPU price is $/GPU-h");
static_assert(is<gpu_count>(8_gpu) && in<gpus>(8_gpu) == 8.0, "GPUs");
static_assert(is<gpu_time>(1.0_gpu_hours) && in<gpu_seconds>(1.0_gpu_hours) == 3600.0, "GPU-h");
static_assert(is<power>(10.2_kW) && approx_equal(in<watts>(10.2_kW), 10200.0), "kW");
static_assert(is<energy>(1.0_kWh) && in<joules>(1.0_kWh) == 3.6e6, "kWh is 3.6 MJ");
static_assert(is<energy_price>(0.08_usd_per_kWh) &&
                  approx_equal(in<usd_per_kilowatt_hour>(0.08_usd_per_kWh), 0.08),
              "$/kWh");
static_assert(is<data_price>(0.09_usd_per_GB) && approx_equal(in<usd>(0.09_usd_per_GB * 1.0_TB), 90.0),
              "$/GB");
static_assert(is<co2_mass>(1.0_t) && 1.0_t == 1000.0_kg, "tonne");
static_assert(is<grid_intensity>(400.0_g_per_kWh) &&
                  approx_equal(in<kilograms>(400.0_g_per_kWh * 1000.0_kWh), 400.0),
              "g/kWh");

// Arithmetic yields the dimension a reader expects, with the value it should have.
static_assert(is<duration>(2.0_TFLOP / 1.0_TFLOPS) && 2.0_TFLOP / 1.0_TFLOPS == 2.0_s,
              "FLOP / FLOP/s = s");
static_assert(is<duration>(4.0_GB / 2.0_GB_per_s) && 4.0_GB / 2.0_GB_per_s == 2.0_s,
              "B / B/s = s");
static_assert(is<arithmetic_intensity>(1.0_TFLOPS / 1.0_TB_per_s) &&
                  1.0_TFLOPS / 1.0_TB_per_s == 1.0_FLOP_per_B,
              "ridge point is FLOP/B");
static_assert(is<gpu_time>(8.0_gpu * 10.0_h) && 8.0_gpu * 10.0_h == 80.0_gpu_hours,
              "GPUs x hours = GPU-h");
static_assert(is<money>(2.0_usd_per_gpu_hour * 8.0_gpu * 10.0_h) &&
                  approx_equal(2.0_usd_per_gpu_hour * 8.0_gpu * 10.0_h, 160.0_usd),
              "price x GPUs x hours = $");
static_assert(is<money>(96.0_usd_per_h * 10.0_h) && approx_equal(96.0_usd_per_h * 10.0_h, 960.0_usd),
              "$/h x h = $");
static_assert(is<gpu_price>(96.0_usd_per_h / 8.0_gpu) &&
                  approx_equal(96.0_usd_per_h / 8.0_gpu, 12.0_usd_per_gpu_hour),
              "instance $/h / GPUs = $/GPU-h");
static_assert(is<energy>(10.0_kW * 2.0_h) && 10.0_kW * 2.0_h == 20.0_kWh, "kW x h = energy");
static_assert(is<money>(0.5_usd_per_kWh * 4.0_kWh) && approx_equal(0.5_usd_per_kWh * 4.0_kWh, 2.0_usd),
              "$/kWh x kWh = $");
static_assert(is<co2_mass>(500.0_g_per_kWh * 4.0_kWh) &&
                  approx_equal(500.0_g_per_kWh * 4.0_kWh, 2.0_kg),
              "g/kWh x kWh = mass");

// Values, exactly where every operand is exact.
static_assert(in<gpu_hours>(8.0_gpu * 10.0_h) == 80.0, "80 GPU-h");
static_assert(in<gibibytes>(64.0_GiB + 16.0_GiB) == 80.0, "sum of sizes");
static_assert(in<seconds>(2.0_TFLOP / 1.0_TFLOPS) == 2.0, "2 s of work");

// Cost budgets, as users write them, at compile time.
static_assert(2.99_usd_per_gpu_hour * 1000.0_gpu_hours < 5000.0_usd, "within budget");
static_assert(approx_equal(2.99_usd_per_gpu_hour * 1000.0_gpu_hours, 2990.0_usd), "$2,990");
static_assert(approx_equal(in<usd_per_gpu_hour>(98.32_usd_per_h / 8.0_gpu), 12.29),
              "AWS p5.48xlarge: $98.32/h over 8 GPUs is $12.29/GPU-h");
static_assert(!approx_equal(1.0_usd, 1.01_usd), "1% apart is not equal at 1e-9");
static_assert(approx_equal(1.0_usd, 1.01_usd, 0.01), "but is at 1%");

// A plain number of any arithmetic type scales a quantity and keeps its dimension; only a
// typed GPU count turns a per-GPU price into $/h.
static_assert(is<data_size>(80.0_GiB * 2) && 80.0_GiB * 2 == 160.0_GiB, "GiB x int");
static_assert(is<data_size>(2 * 80.0_GiB) && 2 * 80.0_GiB == 160.0_GiB, "int x GiB");
static_assert(is<data_size>(80.0_GiB / 4) && 80.0_GiB / 4 == 20.0_GiB, "GiB / int");
static_assert(80.0_GiB * std::int64_t{2} == 160.0_GiB && 80.0_GiB * 2u == 160.0_GiB &&
                  80.0_GiB * 2.0f == 160.0_GiB, "64-bit, unsigned and float counts too");
static_assert(is<gpu_price>(2.99_usd_per_gpu_hour * 3), "still per GPU");
static_assert(is<duration>(1 / 1.0_TFLOPS * 1.0_TFLOP), "n / q is the reciprocal dimension");
static_assert(is<cost_rate>(2.99_usd_per_gpu_hour * as_gpus(8)) &&
                  2.99_usd_per_gpu_hour * as_gpus(std::int64_t{8}) ==
                      2.99_usd_per_gpu_hour * 8.0_gpu,
              "a GPU count makes $/h");

// Dimensionless ratios convert to double implicitly; nothing else does.
static_assert(std::is_convertible<decltype(1.0_GB / 1.0_GB), double>::value, "ratio");
constexpr double efficiency = 312.0_TFLOPS / 989.4_TFLOPS;
static_assert(efficiency > 0.31 && efficiency < 0.32, "a fraction of peak");
}  // namespace
