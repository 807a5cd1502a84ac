// hostile_operations_cpu_test.cpp: bad input to check(cpu_spec), peak, memory_bandwidth,
// supports, package_power, op_time on a CPU and compare_cpu_gpu is invalid_input naming the
// function, the field, the value and the rule: zero or negative cores, sockets, clock, FLOPs
// per cycle, channels or transfer rate, a negative TDP, NaN, a precision the CPU lacks, an
// enumerator cast from another integer, a zero bandwidth, negative prices, fractions out of
// (0, 1]. The largest inputs give finite answers.
#include <gpucalc/catalog/cpus.hpp>
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/operations.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
const double nan_value = std::numeric_limits<double>::quiet_NaN();
const op_cost work{make<flops>(1e12), make<bytes>(1e9)};
}  // namespace

TEST_CASE("check(cpu_spec): zero or negative counts, clocks and rates") {
    cpu_spec c = cat::epyc_9654;
    c.cores = 0;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("check(cpu_spec): cores = 0 must be in [1, 2^20]"),
                         invalid_input);
    c.cores = -4;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("cores = -4"), invalid_input);
    c = cat::epyc_9654;
    c.sockets = 0;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("sockets = 0 must be in [1, 64]"),
                         invalid_input);
    c.sockets = 65;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("sockets = 65"), invalid_input);
    c = cat::epyc_9654;
    c.vector_clock_ghz = 0.0;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("vector_clock_ghz = 0"), invalid_input);
    c.vector_clock_ghz = -2.4;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("vector_clock_ghz = -2.4"), invalid_input);
    c.vector_clock_ghz = nan_value;
    CHECK_THROWS_AS(check(c), invalid_input);
    c.vector_clock_ghz = 1e9;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("must be in [0.1, 10] GHz"), invalid_input);
    c.vector_clock_ghz = 2400.0;  // a clock written in MHz
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("vector_clock_ghz = 2400"), invalid_input);
    c = cat::epyc_9654;
    c.fp32_flops_per_cycle = 0.0;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("fp32_flops_per_cycle = 0"), invalid_input);
    c = cat::epyc_9654;
    c.bf16_flops_per_cycle = -64.0;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("bf16_flops_per_cycle = -64"), invalid_input);
    c.bf16_flops_per_cycle = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(check(c), invalid_input);
    c = cat::epyc_9654;
    c.memory_channels = 0;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("memory_channels = 0"), invalid_input);
    c = cat::epyc_9654;
    c.memory_megatransfers = 0.0;  // a bandwidth of zero
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("memory_megatransfers = 0"), invalid_input);
    c.memory_megatransfers = nan_value;
    CHECK_THROWS_AS(check(c), invalid_input);
    c.memory_megatransfers = 4.8;  // DDR5-4800 written in GT/s
    CHECK_THROWS_WITH_AS(check(c),
                         doctest::Contains("memory_megatransfers = 4.8 MT/s must be in [100, 20000]"),
                         invalid_input);
    c = cat::epyc_9654;
    c.tdp = -1.0_W;
    CHECK_THROWS_WITH_AS(check(c), doctest::Contains("tdp = -1"), invalid_input);
    c.tdp = make<watts>(nan_value);
    CHECK_THROWS_AS(check(c), invalid_input);
}

TEST_CASE("peak, memory_bandwidth, supports and package_power name the CPU's fields") {
    cpu_spec c = cat::epyc_9654;
    c.cores = 0;
    CHECK_THROWS_WITH_AS(peak(c, compute_precision::fp32),
                         doctest::Contains("peak(cpu_spec): cpu.cores = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(memory_bandwidth(c),
                         doctest::Contains("memory_bandwidth(cpu_spec): cpu.cores = 0"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(supports(c, compute_precision::fp32),
                         doctest::Contains("supports(cpu_spec): cpu.cores = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(package_power(c),
                         doctest::Contains("package_power(cpu_spec): cpu.cores = 0"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(peak(cat::epyc_9654, compute_precision::fp64),
                         doctest::Contains("peak(cpu_spec): precision = fp64 is not supported by "
                                           "EPYC 9654"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(peak(cat::epyc_9654, static_cast<compute_precision>(99)),
                         doctest::Contains("precision = 99 must be a compute_precision value"),
                         invalid_input);
    CHECK_THROWS_AS(supports(cat::epyc_9654, static_cast<compute_precision>(-1)), invalid_input);
}

TEST_CASE("op_time on a CPU: zero work, a bad spec, a precision the CPU lacks") {
    const kernel_efficiency ideal = kernel_efficiency::ideal();
    CHECK_THROWS_WITH_AS(op_time(op_cost{make<flops>(0.0), make<bytes>(1.0)}, cat::epyc_9654,
                                 compute_precision::fp32, ideal),
                         doctest::Contains("op_time(cpu_spec): op.flops = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(op_time(op_cost{make<flops>(1.0), make<bytes>(-1.0)}, cat::epyc_9654,
                                 compute_precision::fp32, ideal),
                         doctest::Contains("op_time(cpu_spec): op.bytes = -1"), invalid_input);
    cpu_spec c = cat::epyc_9654;
    c.memory_channels = -1;
    CHECK_THROWS_WITH_AS(op_time(work, c, compute_precision::fp32, ideal),
                         doctest::Contains("op_time(cpu_spec): cpu.memory_channels = -1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(op_time(work, cat::epyc_9654, compute_precision::fp8, ideal),
                         doctest::Contains("precision = fp8 is not supported"), invalid_input);
    CHECK_THROWS_WITH_AS(op_time(work, cat::epyc_9654, compute_precision::fp32, {0.0, 1.0}),
                         doctest::Contains("efficiency.compute = 0"), invalid_input);
}

TEST_CASE("compare_cpu_gpu: each side's spec, precision, assumption and price") {
    cpu_spec c = cat::epyc_9654;
    c.vector_clock_ghz = -1.0;
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, c, cat::h100_sxm),
                         doctest::Contains("compare_cpu_gpu: cpu.vector_clock_ghz = -1"),
                         invalid_input);
    gpu_spec g = cat::h100_sxm;
    g.memory_bandwidth = 0.0_TB_per_s;  // a bandwidth of zero
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, cat::epyc_9654, g),
                         doctest::Contains("compare_cpu_gpu: gpu.memory_bandwidth = 0"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(op_cost{make<flops>(-1.0), make<bytes>(1.0)},
                                         cat::epyc_9654, cat::h100_sxm),
                         doctest::Contains("compare_cpu_gpu: work.flops = -1"), invalid_input);
    cpu_gpu_assumptions a{};
    a.cpu_compute = compute_precision::fp64;
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, {}, a),
                         doctest::Contains("assumptions.cpu_compute = fp64 is not supported"),
                         invalid_input);
    a = {};
    a.gpu_compute = compute_precision::fp4;  // H100 has no FP4
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, {}, a),
                         doctest::Contains("assumptions.gpu_compute = fp4 is not supported"),
                         invalid_input);
    a = {};
    a.gpu_efficiency.memory = 1.5;
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, {}, a),
                         doctest::Contains("assumptions.gpu_efficiency.memory = 1.5"),
                         invalid_input);
    a = {};
    a.cpu_power_fraction = 0.0;
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, {}, a),
                         doctest::Contains("assumptions.cpu_power_fraction = 0"), invalid_input);
    a = {};
    a.gpu_power_fraction = nan_value;
    CHECK_THROWS_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, {}, a), invalid_input);
    cpu_gpu_prices p{};
    p.cpu_server = -1.0_usd_per_h;
    CHECK_THROWS_WITH_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, p),
                         doctest::Contains("compare_cpu_gpu: prices.cpu_server = -$1"),
                         invalid_input);
    p = {};
    p.gpu = make<usd_per_gpu_hour>(nan_value);
    CHECK_THROWS_AS(compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm, p), invalid_input);
}

TEST_CASE("the extremes of every range give finite answers") {
    cpu_spec slow{};
    slow.name = "slowest";
    slow.cores = 1;
    slow.vector_clock_ghz = min_clock_ghz;
    slow.fp32_flops_per_cycle = min_flops_per_cycle;
    slow.memory_channels = 1;
    slow.memory_megatransfers = min_megatransfers;
    slow.tdp = make<watts>(1e15);
    cpu_spec fast{};
    fast.name = "fastest";
    fast.sockets = max_cpu_sockets;
    fast.cores = 1 << 20;
    fast.vector_clock_ghz = max_clock_ghz;
    fast.fp32_flops_per_cycle = max_flops_per_cycle;
    fast.bf16_flops_per_cycle = max_flops_per_cycle;
    fast.memory_channels = max_memory_channels;
    fast.memory_megatransfers = max_megatransfers;
    fast.tdp = make<watts>(1e-30);
    gpu_spec tiny = cat::h100_sxm;
    tiny.dense_peak.bf16 = make<flops_per_second>(1e30);
    tiny.memory_bandwidth = make<bytes_per_second>(1e30);
    tiny.tdp = make<watts>(1e-30);
    cpu_gpu_prices p{};
    p.cpu_server = make<usd_per_hour>(1e9);
    p.gpu = make<usd_per_gpu_second>(1e-30);  // the least a price may be
    cpu_gpu_assumptions a{};
    a.cpu_compute = compute_precision::fp32;
    a.cpu_efficiency = {1e-30, 1e-30};
    a.gpu_power_fraction = 1e-30;
    const op_cost big{make<flops>(1e40), make<bytes>(1e30)};
    const op_cost small{make<flops>(1e-30), make<bytes>(1e-30)};
    for (const op_cost& op : {big, small}) {
        for (const cpu_spec* c : {&slow, &fast}) {
            const cpu_gpu_comparison r = compare_cpu_gpu(op, *c, tiny, p, a);
            CHECK(std::isfinite(r.speedup));
            CHECK(std::isfinite(r.energy_ratio));
            CHECK(std::isfinite(r.cost_ratio));
            CHECK(std::isfinite(r.cpu.energy_used.value()));
            CHECK(std::isfinite(r.cpu.cost.value()));
            CHECK(r.speedup > 0.0);
            CHECK(r.energy_known);
            CHECK(r.priced);
            CHECK(r.energy_ratio > 0.0);
            CHECK(r.cost_ratio > 0.0);
        }
    }
    CHECK(std::isfinite(peak(fast, compute_precision::bf16).value()));
    CHECK(memory_bandwidth(slow).value() > 0.0);
}
