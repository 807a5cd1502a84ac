// roofline_bench.cpp: how fast a simulator can ask "how long is this step": op-time and decode
// evaluations per second, each beside a raw-double twin that repeats the computation step for
// step, checks included, on plain numbers. Both sides are called out of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/roofline.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

namespace cat = gpucalc::catalog;
using twin::input_mask;

std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high) { return twin::varied(low, high, 20261122); }
inline void raw_fail(const char* what) { twin::fail(what); }

// --- op time -------------------------------------------------------------------------------------

struct raw_op_timing {
    double time, compute_time, memory_time, intensity, attained;
    bool compute_bound;
};

[[gnu::noinline]] raw_op_timing raw_op_time(double flops, double bytes, double peak, double bandwidth,
                                            double compute_eff, double memory_eff) {
    const double top = std::numeric_limits<double>::max();
    if (!(flops > 0.0 && flops <= top) || !(bytes > 0.0 && bytes <= top) ||
        !(peak > 0.0 && peak <= top) || !(bandwidth > 0.0 && bandwidth <= top))
        raw_fail("op_time");
    if (!(compute_eff > 0.0 && compute_eff <= 1.0) || !(memory_eff > 0.0 && memory_eff <= 1.0))
        raw_fail("efficiency");
    raw_op_timing t{};
    t.compute_time = flops / (compute_eff * peak);
    t.memory_time = bytes / (memory_eff * bandwidth);
    t.compute_bound = t.compute_time >= t.memory_time;
    t.time = t.compute_bound ? t.compute_time : t.memory_time;
    t.intensity = flops / bytes;
    t.attained = flops / t.time;
    return t;
}

[[gnu::noinline]] gpucalc::op_timing library_op_time(const gpucalc::op_cost& op, gpucalc::flop_rate peak,
                                                     gpucalc::bandwidth bw) {
    return gpucalc::op_time(op, peak, bw);
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
        const gpucalc::op_timing t = library_op_time(op, peak, bw);
        benchmark::DoNotOptimize(t.time.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_op_time_units);

void BM_op_time_raw(benchmark::State& state) {
    const auto m = varied(1, 8192), n = varied(1, 8192);
    const double peak = 989.4e12, bw = 3.35e12;
    std::size_t i = 0;
    for (auto _ : state) {
        const double mm = static_cast<double>(m[i]), nn = static_cast<double>(n[i]);
        const raw_op_timing t = raw_op_time(2.0 * mm * nn * 4096.0, 2.0 * (mm * 4096.0 + 4096.0 * nn + mm * nn),
                                            peak, bw, 0.80, 0.85);
        benchmark::DoNotOptimize(t.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_op_time_raw);

// --- decode: the same steps as roofline/llm.hpp for a dense, rotary, untied model -----------------

struct raw_model {
    std::int64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab, max_context;
    bool gated, rms;
};

struct raw_decode {
    double time, tokens_per_second, aggregate, flops, bytes, weight_bytes, kv_bytes, compute_time, memory_time;
    bool compute_bound;
};

inline void raw_count(std::int64_t v) { twin::require_count(v); }
inline bool raw_divides(std::int64_t d, std::int64_t v) { return twin::divides(d, v); }

[[gnu::noinline]] raw_decode raw_decode_step(const raw_model& m, std::int64_t batch, std::int64_t context,
                                             std::int64_t tp, double peak, double bw, double ce, double me) {
    raw_count(m.layers); raw_count(m.hidden); raw_count(m.heads); raw_count(m.ffn); raw_count(m.vocab);
    if (m.kv_heads < 0 || (m.kv_heads > 0 && !raw_divides(m.kv_heads, m.heads))) raw_fail("kv");
    const double h = static_cast<double>(m.hidden);
    const std::int64_t kv_heads = m.kv_heads > 0 ? m.kv_heads : m.heads;
    const std::int64_t head_dim = m.head_dim > 0 ? m.head_dim : m.hidden / m.heads;
    const double widths = static_cast<double>(m.heads + 2 * kv_heads) * static_cast<double>(head_dim);
    const double bound = static_cast<double>(m.layers) * (2.0 * h * widths + 3.0 * h * static_cast<double>(m.ffn) + 8.0 * h) +
                         2.0 * h * static_cast<double>(m.vocab + m.max_context) + 2.0 * h;
    if (!(bound < 9007199254740992.0)) raw_fail("too large");
    raw_count(batch); raw_count(context); raw_count(tp);
    if (!raw_divides(tp, m.heads) || (!raw_divides(tp, kv_heads) && !raw_divides(kv_heads, tp))) raw_fail("tp");
    if (!(ce > 0.0 && ce <= 1.0) || !(me > 0.0 && me <= 1.0)) raw_fail("efficiency");

    const double t = static_cast<double>(tp), b = static_cast<double>(batch);
    const double q = static_cast<double>(m.heads * head_dim) / t;
    const double kv = static_cast<double>((kv_heads >= tp ? kv_heads / tp : 1) * head_dim);
    const double matrices = m.gated ? 3.0 : 2.0, norm = m.rms ? h : 2.0 * h;
    const double layers = static_cast<double>(m.layers);
    const double linear = layers * (2.0 * h * q + 2.0 * h * kv + matrices * h * static_cast<double>(m.ffn) / t);
    const double head = static_cast<double>(m.vocab) * h / t;
    raw_decode d{};
    d.weight_bytes = 2.0 * (linear + layers * 2.0 * norm + head + norm);
    d.kv_bytes = 2.0 * b * (static_cast<double>(context) + 1.0) * 2.0 * layers * kv;
    d.bytes = d.weight_bytes + d.kv_bytes;
    const double full_q = static_cast<double>(m.heads * head_dim);
    const double full_kv = static_cast<double>(kv_heads * head_dim);
    const double per_token = 2.0 * layers * (2.0 * h * full_q + 2.0 * h * full_kv + matrices * h * static_cast<double>(m.ffn)) +
                             4.0 * static_cast<double>(context) * full_q * layers + 2.0 * static_cast<double>(m.vocab) * h;
    d.flops = b / t * per_token;
    d.compute_time = d.flops / (ce * peak);
    d.memory_time = d.bytes / (me * bw);
    d.compute_bound = d.compute_time >= d.memory_time;
    d.time = d.compute_bound ? d.compute_time : d.memory_time;
    d.tokens_per_second = 1.0 / d.time;
    d.aggregate = b * d.tokens_per_second;
    return d;
}

[[gnu::noinline]] gpucalc::decode_estimate library_decode(const gpucalc::decode_setup& s) {
    return gpucalc::decode(cat::llama_3_8b, cat::h100_sxm, s);
}

void check_twins() {
    gpucalc::decode_setup s{};
    s.batch = 13;
    s.context = 3000;
    s.tensor_parallel = 2;
    const gpucalc::decode_estimate lib = library_decode(s);
    const gpucalc::transformer& m = cat::llama_3_8b;
    const raw_model raw{m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn_hidden, m.vocab, m.max_context, true, true};
    const raw_decode r = raw_decode_step(raw, 13, 3000, 2, 989.4e12, 3.35e12, 0.80, 0.85);
    if (!gpucalc::approx_equal(gpucalc::in<gpucalc::seconds>(lib.time_per_token), r.time, 1e-12)) {
        std::fprintf(stderr, "decode twins disagree: %.17g vs %.17g\n",
                     gpucalc::in<gpucalc::seconds>(lib.time_per_token), r.time);
        std::abort();
    }
}

void BM_decode_units(benchmark::State& state) {
    check_twins();
    const auto batch = varied(1, 256), context = varied(1, 32768);
    gpucalc::decode_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const gpucalc::decode_estimate d = library_decode(s);
        benchmark::DoNotOptimize(d.time_per_token.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_units);

void BM_decode_raw(benchmark::State& state) {
    const auto batch = varied(1, 256), context = varied(1, 32768);
    const gpucalc::transformer& m = cat::llama_3_8b;
    const raw_model raw{m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn_hidden, m.vocab, m.max_context, true, true};
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_decode d = raw_decode_step(raw, batch[i], context[i], 1, 989.4e12, 3.35e12, 0.80, 0.85);
        benchmark::DoNotOptimize(d.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_raw);

}  // namespace

BENCHMARK_MAIN();
