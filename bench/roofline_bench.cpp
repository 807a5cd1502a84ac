// roofline_bench.cpp: how fast a simulator can ask "how long is this step": op-time and decode
// evaluations per second, each beside its raw-double twin (twin_support.hpp says how a twin is
// written), so the ratio is the price of gpucalc's unit types. op_time is small and inlined on
// both sides (the GEMM's m and n vary every iteration; the peak, bandwidth and efficiency are
// loop-invariant on both sides alike); decode is called out of line on both sides, on local
// copies of the model and GPU, so neither can fold the catalog's constants.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/roofline.hpp>

#include <benchmark/benchmark.h>

#include "twin_roofline.hpp"
#include "twin_support.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

namespace cat = gpucalc::catalog;
namespace detail = gpucalc::detail;
using twin::input_mask;
using twin::raw_decode;
using twin::raw_decode_step;
using twin::raw_gpu;
using twin::raw_of;
using twin::raw_op_cost;
using twin::raw_op_time_unchecked;
using twin::raw_op_timing;

std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high) { return twin::varied(low, high, 20261122); }

// --- op time -------------------------------------------------------------------------------------

/// op_time(), transliterated.
GPUCALC_DETAIL_HOT GPUCALC_DETAIL_INLINE inline raw_op_timing raw_op_time(const raw_op_cost& op, double peak_rate,
                                                                        double data_bandwidth,
                                                                        const gpucalc::kernel_efficiency& eff = {}) {
    constexpr const char* function = "op_time";
    twin::require_positive<gpucalc::flop_count>(function, "op.flops", op.flops);
    twin::require_positive<gpucalc::data_size>(function, "op.bytes", op.bytes);
    twin::require_positive<gpucalc::flop_rate>(function, "peak", peak_rate);
    twin::require_positive<gpucalc::bandwidth>(function, "data_bandwidth", data_bandwidth);
    detail::check(eff, function);
    return raw_op_time_unchecked(op, peak_rate, data_bandwidth, eff);
}

void BM_op_time_units(benchmark::State& state) {
    const auto m = varied(1, 8192), n = varied(1, 8192);
    const gpucalc::flop_rate peak = gpucalc::peak(cat::h100_sxm, gpucalc::compute_precision::bf16);
    const gpucalc::bandwidth bw = cat::h100_sxm.memory_bandwidth;
    std::size_t i = 0;
    for (auto _ : state) {
        const double mm = static_cast<double>(m[i]), nn = static_cast<double>(n[i]);
        const gpucalc::op_cost op{gpucalc::make<gpucalc::flops>(2.0 * mm * nn * 4096.0),
                                  gpucalc::make<gpucalc::bytes>(2.0 * (mm * 4096.0 + 4096.0 * nn + mm * nn))};
        const gpucalc::op_timing t = gpucalc::op_time(op, peak, bw);
        benchmark::DoNotOptimize(t.time.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_op_time_units);

void BM_op_time_raw(benchmark::State& state) {
    const auto m = varied(1, 8192), n = varied(1, 8192);
    const double peak = gpucalc::in<gpucalc::flops_per_second>(
        gpucalc::peak(cat::h100_sxm, gpucalc::compute_precision::bf16));
    const double bw = gpucalc::in<gpucalc::bytes_per_second>(cat::h100_sxm.memory_bandwidth);
    std::size_t i = 0;
    for (auto _ : state) {
        const double mm = static_cast<double>(m[i]), nn = static_cast<double>(n[i]);
        const raw_op_cost op{2.0 * mm * nn * 4096.0, 2.0 * (mm * 4096.0 + 4096.0 * nn + mm * nn)};
        const raw_op_timing t = raw_op_time(op, peak, bw);
        benchmark::DoNotOptimize(t.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_op_time_raw);

// --- decode ---------------------------------------------------------------------------------------

/// decode(), transliterated: check the model, then the step.
[[gnu::flatten, gnu::noinline]] raw_decode raw_decode_of(const gpucalc::transformer& m, const raw_gpu& gpu,
                                                         const gpucalc::serving_setup& s) {
    return raw_decode_step(gpucalc::check(m, "decode"), gpu, s, "decode");
}

void check_decode(const gpucalc::transformer& m, const gpucalc::gpu_spec& gpu, const gpucalc::serving_setup& s) {
    const gpucalc::decode_estimate lib = gpucalc::decode(m, gpu, s);
    const raw_decode raw = raw_decode_of(m, raw_of(gpu), s);
    twin::expect_same("decode time", lib.time_per_token, raw.time_per_token);
    twin::expect_same("decode tokens/s per stream", lib.stream_rate, raw.stream_rate);
    twin::expect_same("decode aggregate tokens/s", lib.aggregate_rate, raw.aggregate_rate);
    twin::expect_same("decode bound", lib.bound, raw.bound);
    twin::expect_same("decode flops", lib.flops, raw.flops);
    twin::expect_same("decode bytes", lib.bytes, raw.bytes);
    twin::expect_same("decode weight bytes", lib.weight_bytes, raw.weight_bytes);
    twin::expect_same("decode kv bytes", lib.kv_bytes, raw.kv_bytes);
    twin::expect_same("decode compute time", lib.compute_time, raw.compute_time);
    twin::expect_same("decode memory time", lib.memory_time, raw.memory_time);
}

void check_op_time(double flops, double bytes, const gpucalc::gpu_spec& gpu) {
    const gpucalc::op_cost op{gpucalc::make<gpucalc::flops>(flops), gpucalc::make<gpucalc::bytes>(bytes)};
    const gpucalc::flop_rate peak = gpucalc::peak(gpu, gpucalc::compute_precision::bf16);
    const gpucalc::op_timing lib = gpucalc::op_time(op, peak, gpu.memory_bandwidth);
    const raw_op_timing raw = raw_op_time({flops, bytes}, peak.value(), gpu.memory_bandwidth.value());
    twin::expect_same("op time", lib.time, raw.time);
    twin::expect_same("op compute time", lib.compute_time, raw.compute_time);
    twin::expect_same("op memory time", lib.memory_time, raw.memory_time);
    twin::expect_same("op bound", lib.bound, raw.bound);
    twin::expect_same("op intensity", lib.intensity, raw.intensity);
    twin::expect_same("op attained", lib.attained, raw.attained);
}

// The twins must agree with the library before anything is timed: a GEMM each side of the
// ridge; decode of a dense model memory-bound, and of an MoE with quantized weights
// compute-bound at a large batch, without and with a pipeline.
void check_twins() {
    check_op_time(2.0 * 16 * 4096 * 4096, 2.0 * (16 * 4096 + 4096 * 4096 + 16 * 4096), cat::h100_sxm);
    check_op_time(2.0 * 8192.0 * 8192 * 4096, 2.0 * (8192.0 * 4096 + 4096 * 8192 + 8192.0 * 8192), cat::h100_sxm);
    gpucalc::serving_setup s{};
    s.batch = 13;
    s.context = 3000;
    s.parallel.tensor = 2;
    check_decode(cat::llama_3_8b, cat::h100_sxm, s);
    s.batch = 4096;
    s.weights = gpucalc::formats::int4_g128;
    check_decode(cat::mixtral_8x7b, cat::a100_80gb_sxm, s);
    s.parallel.pipeline = 4;  // a token passes through every stage: the same formula, checked too
    check_decode(cat::mixtral_8x7b, cat::a100_80gb_sxm, s);
}

// Both loops work on local copies of the model, the GPU and the setup, so neither side can
// fold the catalog's constants. The library's decode is called directly: at this size the
// compiler keeps it out of line, as the twin is (noinline).
/// BM_decode_units and _checked: the same loop over a model given as a transformer (checked on
/// every call) or as a checked_model (checked once).
template <class Model>
void time_decode(benchmark::State& state, const Model& model) {
    const auto batch = varied(1, 256), context = varied(1, 32768);
    const gpucalc::gpu_spec gpu = cat::h100_sxm;
    gpucalc::serving_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const gpucalc::decode_estimate d = gpucalc::decode(model, gpu, s);
        benchmark::DoNotOptimize(d.time_per_token.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_decode_units(benchmark::State& state) {
    const gpucalc::transformer model = cat::llama_3_8b;
    time_decode(state, model);
}
BENCHMARK(BM_decode_units);

void BM_decode_raw(benchmark::State& state) {
    const auto batch = varied(1, 256), context = varied(1, 32768);
    const gpucalc::transformer model = cat::llama_3_8b;
    const raw_gpu gpu = raw_of(cat::h100_sxm);
    gpucalc::serving_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const raw_decode d = raw_decode_of(model, gpu, s);
        benchmark::DoNotOptimize(d.time_per_token);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_raw);

// The checked path: the model checked once outside the loop (bench/ratios.sh: checked ÷ units).
void BM_decode_checked(benchmark::State& state) {
    const gpucalc::checked_model model = gpucalc::check(cat::llama_3_8b);
    time_decode(state, model);
}
BENCHMARK(BM_decode_checked);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
