// operations_cpu_compare_test.cpp: one workload on a CPU and on a GPU. Compute-bound work's
// speedup is the ratio of the peaks, memory-bound work's the ratio of the memory bandwidths
// (Williams, Waterman and Patterson 2009: time = max(FLOPs ÷ peak, bytes ÷ bandwidth)); energy
// is TDP × time and cost price × time (derived). Figures hand-computed from the catalog's
// datasheet inputs.
#include <gpucalc/catalog/cpus.hpp>
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/operations.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

TEST_CASE("op_time on a CPU uses its derived peak and DDR bandwidth as the ceilings") {
    // 1e15 FLOP over 1e9 B (1e6 FLOP/B): compute-bound on an EPYC 9654 (ridge 21.8112e12 ÷
    // 460.8e9 = 47.3 FLOP/B): 1e15 ÷ 21.8112e12 = 45.848 s.
    const op_cost op{make<flops>(1e15), make<bytes>(1e9)};
    const op_timing t = op_time(op, cat::epyc_9654, compute_precision::bf16,
                                kernel_efficiency::ideal());
    CHECK(t.bound == bound::compute);
    CHECK(in<seconds>(t.time) == approx(1e15 / 21.8112e12));
    CHECK(in<seconds>(t.memory_time) == approx(1e9 / 460.8e9));
    // 1e9 FLOP over 1e9 B (1 FLOP/B): memory-bound: 1e9 ÷ 460.8e9 = 2.170 ms.
    const op_timing m = op_time(op_cost{make<flops>(1e9), make<bytes>(1e9)}, cat::epyc_9654,
                                compute_precision::fp32, kernel_efficiency::ideal());
    CHECK(m.bound == bound::memory);
    CHECK(in<milliseconds>(m.time) == approx(1e3 / 460.8));
    // An efficiency scales its ceiling, as on a GPU.
    const op_timing half = op_time(op, cat::epyc_9654, compute_precision::bf16, {0.5, 1.0});
    CHECK(half.time == approx(2.0 * t.time));
}

TEST_CASE("compute-bound training: the GPU's lead is the ratio of the peaks") {
    // A small LM training run as its total work: 6 · N · D (Kaplan et al. 2020) for N = 1.7e9
    // parameters and D = 1e9 tokens, 1.02e19 FLOP; bytes 32 per parameter per step of 0.5 M
    // tokens (reading and writing 16 B of mixed-precision Adam state, Rajbhandari et al. 2020
    // §3): 2,000 steps × 32 × 1.7e9 = 1.088e14 B. Intensity ~9.4e4 FLOP/B: far past both ridges
    // (EPYC 47, H100 295 FLOP/B).
    const op_cost run{make<flops>(6.0 * 1.7e9 * 1e9), make<bytes>(2000.0 * 32.0 * 1.7e9)};
    cpu_gpu_prices prices{};
    prices.cpu_server = 4.0_usd_per_h;        // stated assumption, not a quote
    prices.gpu = 3.0_usd_per_gpu_hour;        // stated assumption, not a quote
    const cpu_gpu_comparison c = compare_cpu_gpu(run, cat::epyc_9654, cat::h100_sxm, prices);
    CHECK(c.cpu.timing.bound == bound::compute);
    CHECK(c.gpu.timing.bound == bound::compute);
    // H100 dense BF16 989.4 TFLOP/s ÷ EPYC 9654 BF16 21.8112 TFLOP/s = 45.36.
    CHECK(c.speedup == approx(989.4 / 21.8112));
    CHECK(c.speedup == approx(45.362, 1e-4));
    // Hand check: CPU 1.02e19 ÷ 21.8112e12 = 467,650 s = 5.41 days; H100 1.02e19 ÷ 989.4e12 =
    // 10,309 s = 2.86 h: "a week on a CPU, hours on a GPU".
    CHECK(in<days>(c.cpu.timing.time) == approx(1.02e19 / 21.8112e12 / 86400.0));
    CHECK(in<hours>(c.gpu.timing.time) == approx(1.02e19 / 989.4e12 / 3600.0));
    // Energy: 360 W × 467,650 s against 700 W × 10,309 s: ratio 45.36 × 360 ÷ 700 = 23.33.
    CHECK(c.energy_known);
    CHECK(in<kilowatt_hours>(c.cpu.energy_used) == approx(0.360 * 1.02e19 / 21.8112e12 / 3600.0));
    CHECK(c.energy_ratio == approx(c.speedup * 360.0 / 700.0));
    // Cost: $4/h × 129.9 h = $519.6 against $3/GPU·h × 2.864 h = $8.59: ratio 45.36 × 4 ÷ 3.
    CHECK(c.priced);
    CHECK(in<usd>(c.cpu.cost) == approx(4.0 * 1.02e19 / 21.8112e12 / 3600.0));
    CHECK(c.cost_ratio == approx(c.speedup * 4.0 / 3.0));
    // The same job at FP32 on the CPU: EPYC FP32 10.9056 TFLOP/s, so twice as slow again.
    cpu_gpu_assumptions fp32{};
    fp32.cpu_compute = compute_precision::fp32;
    CHECK(compare_cpu_gpu(run, cat::epyc_9654, cat::h100_sxm, prices, fp32).speedup ==
          approx(989.4 / 10.9056));
    // AMX narrows the gap: Xeon 8480+ BF16 114.688 TFLOP/s, so 989.4 ÷ 114.688 = 8.63.
    CHECK(compare_cpu_gpu(run, cat::xeon_8480_plus, cat::h100_sxm).speedup ==
          approx(989.4 / 114.688));
}

TEST_CASE("memory-bound decode: the gap narrows to the ratio of memory bandwidths") {
    // One decode step of Llama 2 7B, batch 1, 4,096 cached tokens, BF16: the library's decode
    // work (weights read once, the KV cache read): 15.36 GB for 15.36 GFLOP (13.21 GB of weights and 2.15 GB of KV cache), about 1 FLOP/B.
    const decode_estimate d = decode(cat::llama_2_7b, cat::h100_sxm, serving_setup{});
    const op_cost step{d.flops, d.bytes};
    const cpu_gpu_comparison c = compare_cpu_gpu(step, cat::epyc_9654, cat::h100_sxm);
    CHECK(c.cpu.timing.bound == bound::memory);
    CHECK(c.gpu.timing.bound == bound::memory);
    // H100 3.35 TB/s ÷ a 12-channel DDR5-4800 socket's 460.8 GB/s = 7.27.
    CHECK(c.speedup == approx(3350.0 / 460.8));
    CHECK(c.speedup == approx(7.2700, 1e-4));
    CHECK(c.cpu.timing.time == approx(d.bytes / make<gigabytes_per_second>(460.8)));
    // A desktop's two channels: 3,350 ÷ 83.2 = 40.3.
    CHECK(compare_cpu_gpu(step, cat::ryzen_9_7950x, cat::h100_sxm).speedup ==
          approx(3350.0 / 83.2));
    // A two-socket EPYC server doubles the bandwidth: 3,350 ÷ 921.6 = 3.63.
    cpu_spec two = cat::epyc_9654;
    two.sockets = 2;
    CHECK(compare_cpu_gpu(step, two, cat::h100_sxm).speedup == approx(3350.0 / 921.6));
}

TEST_CASE("unknown TDP and missing prices are flags, not infinities") {
    const op_cost op{make<flops>(1e12), make<bytes>(1e9)};
    gpu_spec no_power = cat::h100_sxm;
    no_power.tdp = 0.0_W;
    const cpu_gpu_comparison c = compare_cpu_gpu(op, cat::epyc_9654, no_power);
    CHECK_FALSE(c.energy_known);
    CHECK(c.energy_ratio == approx(0.0));
    CHECK(in<joules>(c.gpu.energy_used) == approx(0.0));
    CHECK_FALSE(c.priced);
    CHECK(c.cost_ratio == approx(0.0));
    // One price only: that side is costed, the ratio is not.
    cpu_gpu_prices only_cpu{};
    only_cpu.cpu_server = 2.0_usd_per_h;
    const cpu_gpu_comparison p = compare_cpu_gpu(op, cat::epyc_9654, cat::h100_sxm, only_cpu);
    CHECK_FALSE(p.priced);
    CHECK(in<usd>(p.cpu.cost) > 0.0);
    // A power fraction scales the energy.
    cpu_gpu_assumptions a{};
    a.cpu_power_fraction = 0.5;
    const cpu_gpu_comparison h = compare_cpu_gpu(op, cat::epyc_9654, cat::h100_sxm, {}, a);
    CHECK(h.cpu.energy_used ==
          approx(0.5 * compare_cpu_gpu(op, cat::epyc_9654, cat::h100_sxm).cpu.energy_used));
}

TEST_CASE("compare_cpu_gpu is constexpr") {
    constexpr cpu_gpu_comparison c = compare_cpu_gpu(
        op_cost{make<flops>(1e12), make<bytes>(1e6)}, cat::epyc_9654, cat::h100_sxm);
    static_assert(c.speedup > 1.0, "the GPU leads on compute-bound work");
    CHECK(c.speedup == approx(989.4 / 21.8112));
}
