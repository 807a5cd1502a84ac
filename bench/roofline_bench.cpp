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

#include "twin_support.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

namespace cat = gpucalc::catalog;
namespace detail = gpucalc::detail;
using twin::input_mask;

std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high) { return twin::varied(low, high, 20261122); }

// --- op time -------------------------------------------------------------------------------------

/// roofline/op.hpp's op_cost, in FLOPs and bytes.
struct raw_op_cost {
    double flops, bytes;
};

/// roofline/op.hpp's op_timing, in seconds and FLOPs.
struct raw_op_timing {
    double time, compute_time, memory_time;
    gpucalc::bound bound;
    double intensity, attained;
};

/// detail::op_time_unchecked(), transliterated.
GPUCALC_DETAIL_INLINE inline raw_op_timing raw_op_time_unchecked(const raw_op_cost& op, double peak_rate,
                                                                  double data_bandwidth,
                                                                  const gpucalc::kernel_efficiency& eff) {
    raw_op_timing t{};
    t.compute_time = op.flops / (eff.compute * peak_rate);
    t.memory_time = op.bytes / (eff.memory * data_bandwidth);
    t.bound = t.compute_time >= t.memory_time ? gpucalc::bound::compute : gpucalc::bound::memory;
    t.time = t.bound == gpucalc::bound::compute ? t.compute_time : t.memory_time;
    t.intensity = op.flops / op.bytes;
    t.attained = op.flops / t.time;
    return t;
}

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

/// hardware.hpp's peak_rates, in FLOP/s.
struct raw_peak_rates {
    double fp64, fp64_tensor, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4;
};

/// The part of hardware.hpp's gpu_spec decode reads, in FLOP/s and bytes/s.
struct raw_gpu {
    std::string_view name;
    raw_peak_rates dense_peak;
    double memory_bandwidth;
};

raw_gpu raw_of(const gpucalc::gpu_spec& g) {
    const gpucalc::peak_rates& p = g.dense_peak;
    using gpucalc::in;
    using gpucalc::flops_per_second;
    return {g.name,
            {in<flops_per_second>(p.fp64), in<flops_per_second>(p.fp64_tensor), in<flops_per_second>(p.fp32),
             in<flops_per_second>(p.tf32), in<flops_per_second>(p.bf16), in<flops_per_second>(p.fp16),
             in<flops_per_second>(p.fp8), in<flops_per_second>(p.int8), in<flops_per_second>(p.int4),
             in<flops_per_second>(p.fp4)},
            in<gpucalc::bytes_per_second>(g.memory_bandwidth)};
}

/// detail::peak_entry(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_peak_entry(const raw_peak_rates& peaks, gpucalc::compute_precision precision) {
    using p = gpucalc::compute_precision;
    switch (precision) {
        case p::fp64: return peaks.fp64;
        case p::fp64_tensor: return peaks.fp64_tensor;
        case p::fp32: return peaks.fp32;
        case p::tf32: return peaks.tf32;
        case p::bf16: return peaks.bf16;
        case p::fp16: return peaks.fp16;
        case p::fp8: return peaks.fp8;
        case p::int8: return peaks.int8;
        case p::int4: return peaks.int4;
        case p::fp4: return peaks.fp4;
    }
    return 0.0;
}

/// detail::peak_of(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_peak_of(const raw_gpu& gpu, gpucalc::compute_precision precision,
                                                const char* function, const char* field) {
    const double rate = raw_peak_entry(gpu.dense_peak, precision);
    if (!(rate >= detail::smallest_input && rate <= detail::input_range<gpucalc::flop_rate>::largest)) {
        detail::throw_unusable_peak(function, field, "gpu.", gpu.name, precision, rate);
    }
    return rate;
}

/// roofline/inference.hpp's detail::weight_bytes_read(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_weight_bytes_read(const gpucalc::checked_model& cm, std::int64_t tp, std::int64_t tokens,
                                    const gpucalc::storage_format& linear, const gpucalc::storage_format& rest,
                                    bool fewest_experts) {
    const gpucalc::transformer& m = cm.spec();
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, tp, 1, 1);
    double unread_experts = 0.0;
    if (w.experts > 0.0) {
        const double touched = fewest_experts ? static_cast<double>(m.experts_per_token)
                                              : detail::experts_touched(m, tokens);
        unread_experts = w.experts * (1.0 - touched / static_cast<double>(m.experts));
    }
    return twin::storage_unchecked(w.linear - unread_experts, linear) +
           twin::storage_unchecked(w.embedding_class - w.lookup, rest);
}

/// parallelism/costs.hpp's detail::pass_forward_flops() for a decode step (one query per
/// sequence over `context` keys, one output), with model/flops.hpp's layer formula, in FLOPs.
GPUCALC_DETAIL_INLINE inline double raw_decode_flops(const gpucalc::checked_model& cm, std::int64_t tp,
                                                     std::int64_t batch, std::int64_t context) {
    const gpucalc::transformer& m = cm.spec();
    const gpucalc::layer_parameters& p = cm.layer();
    const detail::attention_widths w = detail::attention_widths_per_gpu(cm, tp);
    const double t = static_cast<double>(tp);
    const double h = static_cast<double>(m.hidden);
    const double tokens = static_cast<double>(batch) * 1.0;
    const double weights = 2.0 * h * w.q + 2.0 * h * w.kv +
                           static_cast<double>(detail::active_experts_unchecked(m) * p.expert_weights) * (1.0 / t) +
                           static_cast<double>(p.router);
    const double pairs = detail::attention_pairs_unchecked(m, 1, context, gpucalc::pair_count::causal);
    const double gemm = 2.0 * tokens * weights;
    const double attention = 4.0 * static_cast<double>(batch) * pairs * w.q;
    const double table = static_cast<double>(m.vocab) * h / t;
    return static_cast<double>(m.layers) * (gemm + attention) + 2.0 * (static_cast<double>(batch) * 1.0) * table;
}

/// roofline/inference.hpp's decode_estimate, in seconds, FLOPs and bytes.
struct raw_decode {
    double time_per_token, stream_rate, aggregate_rate;
    gpucalc::bound bound;
    double flops, bytes, weight_bytes, kv_bytes, compute_time, memory_time;
};

/// roofline/inference.hpp's detail::check_pass(), transliterated: the serving setup's shape
/// checks (workload.hpp's detail::check, unit-free, so shared; its storage formats included), the
/// efficiencies, the bandwidth and the peak, which it returns.
GPUCALC_DETAIL_INLINE inline double raw_check_pass(const gpucalc::checked_model& cm, const raw_gpu& gpu,
                                                   const gpucalc::serving_setup& s, const char* function) {
    detail::check(cm, s, function);
    detail::check(s.efficiency, function);
    twin::require_positive<gpucalc::bandwidth>(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    return raw_peak_of(gpu, s.compute, function, "compute");
}

/// detail::decode_step() (expected experts touched), transliterated.
inline raw_decode raw_decode_step(const gpucalc::checked_model& cm, const raw_gpu& gpu,
                                  const gpucalc::serving_setup& s, const char* function) {
    const gpucalc::transformer& m = cm.spec();
    const double peak_rate = raw_check_pass(cm, gpu, s, function);
    const std::int64_t tp = s.parallel.tensor;
    const double b = static_cast<double>(s.batch);
    raw_decode d{};
    d.weight_bytes = raw_weight_bytes_read(cm, tp, s.batch, s.weights, s.embeddings, false);
    const double cached = static_cast<double>(detail::attended_unchecked(m, s.context));
    d.kv_bytes = twin::storage_unchecked(
        b * (cached + 1.0) * detail::kv_elements_per_token(cm, tp, static_cast<double>(m.layers)),
        s.kv_cache);
    d.bytes = d.weight_bytes + d.kv_bytes;
    d.flops = raw_decode_flops(cm, tp, s.batch, s.context);
    const raw_op_timing o =
        raw_op_time_unchecked({d.flops, d.bytes}, peak_rate, gpu.memory_bandwidth, s.efficiency);
    d.compute_time = o.compute_time;
    d.memory_time = o.memory_time;
    d.bound = o.bound;
    d.time_per_token = o.time;
    d.stream_rate = 1.0 / o.time;
    d.aggregate_rate = d.stream_rate * b;
    return d;
}

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
