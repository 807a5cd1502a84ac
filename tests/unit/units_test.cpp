// units_test.cpp: quantities enter and leave in named units, combine into the right dimension,
// and compare with a relative tolerance.
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <type_traits>

using namespace gpucalc;
using namespace gpucalc::literals;

TEST_CASE("decimal and binary byte prefixes are distinct") {
    // IEC 80000-13: GiB = 2^30 B; SI: GB = 1e9 B.
    CHECK(in<bytes>(1.0_GiB) == 1073741824.0);
    CHECK(in<bytes>(1.0_GB) == 1e9);
    CHECK(in<gigabytes>(80.0_GiB) == doctest::Approx(85.899345920).epsilon(1e-12));
    CHECK(80_GiB == 80.0_GiB);
}

TEST_CASE("network bits convert to bytes: 400 Gb/s is 50 GB/s") {
    // InfiniBand NDR's 400 Gb/s per port (NVIDIA ConnectX-7 datasheet) is 50 GB/s.
    CHECK(in<gigabytes_per_second>(400.0_Gb_per_s) == 50.0);
    CHECK(in<gigabytes_per_second>(100.0_Gb_per_s) == 12.5);
}

TEST_CASE("an instance price divided by its GPUs is a per-GPU price") {
    // AWS p5.48xlarge (8 x H100) at $98.32/h on demand, 2023-2025, is $12.29 per GPU-hour.
    const gpu_price per_gpu = 98.32_usd_per_h / 8.0_gpu;
    static_assert(std::is_same<decltype(98.32_usd_per_h / 8.0_gpu), gpu_price>::value, "");
    CHECK(in<usd_per_gpu_hour>(per_gpu) == approx(12.29));
}

TEST_CASE("job cost is price x GPU-hours") {
    const money cost = 2.99_usd_per_gpu_hour * 1000.0_gpu_hours;
    CHECK(cost == approx(2990.0_usd));
    CHECK(cost < 5000.0_usd);
}

TEST_CASE("dimensions combine: bytes / bandwidth is a duration, FLOP / FLOP is a number") {
    const duration t = 13.48_GB / 2.039_TB_per_s;  // 7B fp16 weights streamed once on A100 80GB
    CHECK(in<milliseconds>(t) == approx(13.48 / 2.039));
    const double ratio = 989.4_TFLOPS / 312.0_TFLOPS;
    CHECK(ratio == approx(989.4 / 312.0));
    const arithmetic_intensity ridge = 989.4_TFLOPS / 3.35_TB_per_s;
    // H100 SXM ridge: 295 FLOP/B to 3 figures (derived from the NVIDIA H100 datasheet: BF16
    // 1,979 TFLOPS with sparsity, so 989.4 dense, over 3.35 TB/s).
    CHECK(in<flops_per_byte>(ridge) == approx(295.0, 5e-3));
}

TEST_CASE("a per-stream rate times the sequences sharing the step is the aggregate rate") {
    // 64 streams at 45.5 tokens/s each produce 2,912 tokens/s; an hour of it is 10.5 M tokens.
    const token_rate aggregate = 45.5_tokens_per_s_per_stream * 64.0_sequences;
    CHECK(in<tokens_per_second>(aggregate) == approx(45.5 * 64.0));
    CHECK(in<million_tokens>(aggregate * 1.0_h) == approx(45.5 * 64.0 * 3600.0 / 1e6));
    // 8 GPUs at $2/GPU·h over that output: $16/h over 10.48 M tokens/h.
    const token_price per_token = 2.0_usd_per_gpu_hour * 8.0_gpu / aggregate;
    CHECK(in<usd_per_million_tokens>(per_token) == approx(16.0 / (45.5 * 64.0 * 3600.0 / 1e6)));
    // Little's law: 12 requests/s, each in flight 20 s, keep 240 sequences in flight.
    const sequence_count in_flight = 12.0_requests_per_s * 20.0_s;
    CHECK(in<sequences>(in_flight) == approx(240.0));
    CHECK(in<requests>(in_flight) == in<sequences>(in_flight));  // one request is one sequence
    CHECK(in<requests_per_second>(make<requests_per_minute>(60.0)) == approx(1.0));
}

TEST_CASE("energy is the SI joule: 1 kW for 1 h is 3.6 MJ") {
    CHECK(in<joules>(1.0_kW * 1.0_h) == 3.6e6);
    CHECK(in<kilowatt_hours>(10.2_kW * 24.0_h) == approx(244.8));
    const money bill = 0.0806_usd_per_kWh * (10.2_kW * 1.25 * 1.0_h);
    CHECK(in<usd>(bill) == approx(0.0806 * 10.2 * 1.25));
    const co2_mass emitted = 400.0_g_per_kWh * 1000.0_kWh;
    CHECK(in<tonnes>(emitted) == approx(0.4));
}

TEST_CASE("time units: a year is 365 days, a month a twelfth of it") {
    CHECK(in<hours>(1.0_years) == 8760.0);
    CHECK(in<hours>(1.0_months) == 730.0);
    CHECK(in<seconds>(1.0_us) == doctest::Approx(1e-6).epsilon(1e-15));
    CHECK(in<minutes>(90.0_s) == 1.5);
}

TEST_CASE("approx_equal is relative and symmetric") {
    CHECK(approx_equal(1.0, 1.0 + 1e-10));
    CHECK_FALSE(approx_equal(1.0, 1.0 + 1e-8));
    CHECK(approx_equal(1e-20, 1.000000000001e-20));
    CHECK(approx_equal(0.0, 0.0));
    CHECK_FALSE(approx_equal(0.0, 1e-300));
    CHECK(approx_equal(100.0_GB, 101.0_GB, 0.01));
    CHECK_FALSE(approx_equal(100.0_GB, 102.0_GB, 0.01));
}

TEST_CASE("approx_equal rejects a tolerance outside [0, 1)") {
    CHECK_THROWS_AS(approx_equal(1.0, 1.0, -0.1), invalid_input);
    CHECK_THROWS_WITH(approx_equal(1.0, 1.0, 1.5),
                      "approx_equal: relative_tolerance = 1.5 must be in [0, 1)");
}
