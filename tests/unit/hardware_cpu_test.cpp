// hardware_cpu_test.cpp: a CPU's peaks and memory bandwidth, derived from its datasheet inputs
// (sockets × cores × clock × FLOPs per cycle; sockets × channels × MT/s × 8 B), checked by hand
// and against the vendor figures the catalog cites.
#include <gpucalc/catalog/cpus.hpp>
#include <gpucalc/hardware.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

TEST_CASE("cpu peaks are sockets × cores × clock × FLOPs per cycle (hand-computed)") {
    // EPYC 9654: 96 × 3.55e9 × 32 = 10.9056e12 FLOP/s FP32; × 64 = 21.8112e12 BF16.
    CHECK(in<flops_per_second>(peak(cat::epyc_9654, compute_precision::fp32)) ==
          approx(96.0 * 3.55e9 * 32.0));
    CHECK(in<teraflops_per_second>(peak(cat::epyc_9654, compute_precision::fp32)) ==
          approx(10.9056));
    CHECK(in<teraflops_per_second>(peak(cat::epyc_9654, compute_precision::bf16)) ==
          approx(21.8112));
    // Xeon 8480+: 56 × 2.0e9 × 64 = 7.168e12 FP32; AMX 56 × 2.0e9 × 1024 = 1.14688e14 BF16.
    CHECK(in<teraflops_per_second>(peak(cat::xeon_8480_plus, compute_precision::fp32)) ==
          approx(7.168));
    CHECK(in<teraflops_per_second>(peak(cat::xeon_8480_plus, compute_precision::bf16)) ==
          approx(114.688));
    // Ryzen 9 7950X: 16 × 4.5e9 × 32 = 2.304e12; × 64 = 4.608e12.
    CHECK(in<teraflops_per_second>(peak(cat::ryzen_9_7950x, compute_precision::fp32)) ==
          approx(2.304));
    CHECK(in<teraflops_per_second>(peak(cat::ryzen_9_7950x, compute_precision::bf16)) ==
          approx(4.608));
    // Two sockets double every peak and the bandwidth and the power.
    cpu_spec two = cat::epyc_9654;
    two.sockets = 2;
    CHECK(peak(two, compute_precision::bf16) ==
          approx(2.0 * peak(cat::epyc_9654, compute_precision::bf16)));
    CHECK(memory_bandwidth(two) == approx(2.0 * memory_bandwidth(cat::epyc_9654)));
    CHECK(in<watts>(package_power(two)) == approx(720.0));
}

TEST_CASE("cpu memory bandwidth is channels × MT/s × 8 B, as the vendors print it") {
    // AMD's EPYC 9654 page prints 460.8 GB/s per socket: 12 × 4,800 MT/s × 8 B.
    CHECK(in<gigabytes_per_second>(memory_bandwidth(cat::epyc_9654)) == approx(460.8));
    // Xeon 8480+: 8 × 4,800 × 8 = 307.2 GB/s. Ryzen 9 7950X: 2 × 5,200 × 8 = 83.2 GB/s.
    CHECK(in<gigabytes_per_second>(memory_bandwidth(cat::xeon_8480_plus)) == approx(307.2));
    CHECK(in<gigabytes_per_second>(memory_bandwidth(cat::ryzen_9_7950x)) == approx(83.2));
}

TEST_CASE("the catalog's inputs are the vendor pages' figures") {
    // AMD EPYC 9654 product page: 96 cores, all-core boost 3.55 GHz (base 2.4), 12 × DDR5-4800,
    // default TDP 360 W.
    CHECK(cat::epyc_9654.cores == 96);
    CHECK(cat::epyc_9654.vector_clock_ghz == approx(3.55));
    CHECK(cat::epyc_9654.memory_channels == 12);
    CHECK(cat::epyc_9654.memory_megatransfers == approx(4800.0));
    CHECK(in<watts>(cat::epyc_9654.tdp) == approx(360.0));
    // Intel ARK, Xeon Platinum 8480+: 56 cores, base 2.0 GHz, 8 × DDR5-4800, 350 W; AMX BF16
    // 1,024 operations per cycle per core (Intel's AMX brief).
    CHECK(cat::xeon_8480_plus.cores == 56);
    CHECK(cat::xeon_8480_plus.vector_clock_ghz == approx(2.0));
    CHECK(cat::xeon_8480_plus.bf16_flops_per_cycle == approx(1024.0));
    CHECK(cat::xeon_8480_plus.memory_channels == 8);
    CHECK(in<watts>(cat::xeon_8480_plus.tdp) == approx(350.0));
    // AMD Ryzen 9 7950X product page: 16 cores, base 4.5 GHz, 2 × DDR5-5200, 170 W.
    CHECK(cat::ryzen_9_7950x.cores == 16);
    CHECK(cat::ryzen_9_7950x.vector_clock_ghz == approx(4.5));
    CHECK(cat::ryzen_9_7950x.memory_megatransfers == approx(5200.0));
    CHECK(in<watts>(cat::ryzen_9_7950x.tdp) == approx(170.0));
    for (const cpu_spec* c : cat::all_cpus) {
        CHECK_NOTHROW(check(*c));
        CHECK(c->sockets == 1);
        CHECK(supports(*c, compute_precision::fp32));
        CHECK(supports(*c, compute_precision::bf16));
        CHECK_FALSE(supports(*c, compute_precision::fp64));
        CHECK_FALSE(supports(*c, compute_precision::fp8));
    }
}

TEST_CASE("cpu_spec is a value: copies compare equal, an edit does not") {
    constexpr cpu_spec copy = cat::epyc_9654;
    static_assert(copy == cat::epyc_9654, "a copy equals its original");
    static_assert(cat::epyc_9654 != cat::ryzen_9_7950x, "different parts differ");
    cpu_spec edited = copy;
    edited.memory_megatransfers = 6000.0;  // the same part on faster DIMMs
    CHECK(edited != cat::epyc_9654);
    static_assert(peak(cat::xeon_8480_plus, compute_precision::bf16).value() > 1e14,
                  "peaks are constexpr");
}

TEST_CASE("a CPU without BF16 instructions has an fp32 peak only") {
    cpu_spec old = cat::epyc_9654;
    old.name = "no-BF16 part";
    old.bf16_flops_per_cycle = 0.0;
    CHECK_NOTHROW(check(old));
    CHECK_FALSE(supports(old, compute_precision::bf16));
    CHECK_THROWS_WITH_AS(peak(old, compute_precision::bf16),
                         doctest::Contains("peak(cpu_spec): precision = bf16 is not supported by "
                                           "no-BF16 part"),
                         invalid_input);
}
