// roofline_bench.cpp: how fast a simulator can ask "how long is this step": op-time and decode
// evaluations per second, each beside a raw-double twin that repeats the computation step for
// step, checks included, on plain numbers. op_time is small and inlined on both sides (every
// input varies, so nothing can be hoisted); decode is called out of line on both sides, on
// local copies of the model and GPU, so neither can fold the catalog's constants. (Called out
// of line, a quantity goes by hidden pointer where a double goes in a register: keep hot
// functions inline, as ARCHITECTURE.md says.)
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

inline raw_op_timing raw_op_time(double flops, double bytes, double peak, double bandwidth,
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

inline gpucalc::op_timing library_op_time(const gpucalc::op_cost& op, gpucalc::flop_rate peak,
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

// --- decode: the same steps as roofline/llm.hpp, for a dense model, on plain numbers -------------

inline void raw_count(std::int64_t v) { twin::require_count(v); }
inline bool raw_divides(std::int64_t d, std::int64_t v) { return twin::divides(d, v); }

struct raw_model {
    std::int64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab, max_context, window, experts_per_token;
    bool gated, rms, learned_positions, biases, tied;
};

raw_model raw_of(const gpucalc::transformer& m) {
    return {m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn_hidden, m.vocab, m.max_context,
            m.sliding_window, m.experts_per_token, m.mlp == gpucalc::mlp_kind::gated,
            m.norm == gpucalc::norm_kind::rms_norm, m.positions == gpucalc::position_kind::learned,
            m.linear_biases, m.tied_embeddings};
}

struct raw_decode_setup {
    std::int64_t batch, context, tp;
    twin::format weights, embeddings, kv;
    double peak, bandwidth, compute_eff, memory_eff;
};

struct raw_decode {
    double time, tokens_per_second, aggregate, flops, bytes, weight_bytes, kv_bytes, compute_time, memory_time;
    bool compute_bound;
};

[[gnu::noinline]] raw_decode raw_decode_step(const raw_model& m, const raw_decode_setup& s) {
    // The model's checks.
    raw_count(m.layers); raw_count(m.hidden); raw_count(m.heads); raw_count(m.ffn); raw_count(m.vocab);
    if (m.kv_heads < 0 || (m.kv_heads > 0 && !raw_divides(m.kv_heads, m.heads))) raw_fail("kv");
    if (m.head_dim < 0 || (m.head_dim == 0 && !raw_divides(m.heads, m.hidden))) raw_fail("head_dim");
    if (m.max_context < 0 || (m.learned_positions && m.max_context < 1)) raw_fail("context");
    if (m.experts_per_token < 0 || m.experts_per_token > 1) raw_fail("top-k");
    if (m.window < 0) raw_fail("window");
    const double h = static_cast<double>(m.hidden);
    const std::int64_t kv_heads = m.kv_heads > 0 ? m.kv_heads : m.heads;
    const std::int64_t head_dim = m.head_dim > 0 ? m.head_dim : m.hidden / m.heads;
    const double widths = static_cast<double>(m.heads + 2 * kv_heads) * static_cast<double>(head_dim);
    const double bound = static_cast<double>(m.layers) * (2.0 * h * widths + 3.0 * h * static_cast<double>(m.ffn) + 8.0 * h) +
                         2.0 * h * static_cast<double>(m.vocab + m.max_context) + 2.0 * h;
    if (!(bound < 9007199254740992.0)) raw_fail("too large");
    // The setup's checks.
    raw_count(s.batch); raw_count(s.context); raw_count(s.tp);
    if (!raw_divides(s.tp, m.heads) || (!raw_divides(s.tp, kv_heads) && !raw_divides(kv_heads, s.tp))) raw_fail("tp");
    if (!(s.compute_eff > 0.0 && s.compute_eff <= 1.0) || !(s.memory_eff > 0.0 && s.memory_eff <= 1.0)) raw_fail("efficiency");

    // Weights read: every linear layer, the norms and the head.
    const double t = static_cast<double>(s.tp), b = static_cast<double>(s.batch);
    const double q = static_cast<double>(m.heads * head_dim);
    const double q_here = q / t;
    const double kv_here = static_cast<double>((kv_heads >= s.tp ? (s.tp == 1 ? kv_heads : static_cast<std::int64_t>(
                                                    static_cast<double>(kv_heads) / t)) : 1) * head_dim);
    const double matrices = m.gated ? 3.0 : 2.0, bias = m.biases ? 1.0 : 0.0;
    const double f = static_cast<double>(m.ffn), norm = m.rms ? h : 2.0 * h;
    const double layers = static_cast<double>(m.layers);
    const double linear = layers * (2.0 * h * q_here + 2.0 * h * kv_here + bias * (q_here + 2.0 * kv_here + h) +
                                    (matrices * h * f + bias * ((matrices - 1.0) * f + h)) / t);
    const double head = static_cast<double>(m.vocab) * h / t;
    raw_decode d{};
    d.weight_bytes = twin::storage(linear, s.weights) + twin::storage(head + layers * 2.0 * norm + norm, s.embeddings);
    // KV read and written.
    const double cached = static_cast<double>(m.window > 0 && s.context > m.window ? m.window : s.context);
    d.kv_bytes = twin::storage(b * (cached + 1.0) * 2.0 * layers * kv_here, s.kv);
    d.bytes = d.weight_bytes + d.kv_bytes;
    // Forward FLOPs per token: weight matmuls, attention over the context, the head.
    const double full_kv = static_cast<double>(kv_heads * head_dim);
    const double per_token = 2.0 * layers * (2.0 * h * q + 2.0 * h * full_kv + matrices * h * f) +
                             4.0 * cached * q * layers + 2.0 * static_cast<double>(m.vocab) * h;
    d.flops = b / t * per_token;
    if (!(s.bandwidth > 0.0 && s.bandwidth <= std::numeric_limits<double>::max())) raw_fail("bandwidth");
    if (!(s.peak > 0.0 && s.peak <= std::numeric_limits<double>::max())) raw_fail("peak");
    d.compute_time = d.flops / (s.compute_eff * s.peak);
    d.memory_time = d.bytes / (s.memory_eff * s.bandwidth);
    d.compute_bound = d.compute_time >= d.memory_time;
    d.time = d.compute_bound ? d.compute_time : d.memory_time;
    d.tokens_per_second = 1.0 / d.time;
    d.aggregate = b * d.tokens_per_second;
    return d;
}

[[gnu::noinline]] gpucalc::decode_estimate library_decode(const gpucalc::transformer& m, const gpucalc::gpu_spec& gpu,
                                                          const gpucalc::decode_setup& s) {
    return gpucalc::decode(m, gpu, s);
}

raw_decode_setup raw_of(const gpucalc::decode_setup& s, const gpucalc::gpu_spec& gpu) {
    return {s.batch, s.context, s.tensor_parallel, twin::format_of(s.weights), twin::format_of(s.embeddings), twin::format_of(s.kv_cache),
            gpucalc::in<gpucalc::flops_per_second>(gpucalc::peak(gpu, s.compute)),
            gpucalc::in<gpucalc::bytes_per_second>(gpu.memory_bandwidth), s.efficiency.compute, s.efficiency.memory};
}

void check_twins() {
    gpucalc::decode_setup s{};
    s.batch = 13;
    s.context = 3000;
    s.tensor_parallel = 2;
    const gpucalc::decode_estimate lib = library_decode(cat::llama_3_8b, cat::h100_sxm, s);
    const raw_decode r = raw_decode_step(raw_of(cat::llama_3_8b), raw_of(s, cat::h100_sxm));
    if (!gpucalc::approx_equal(gpucalc::in<gpucalc::seconds>(lib.time_per_token), r.time, 1e-12) ||
        !gpucalc::approx_equal(gpucalc::in<gpucalc::bytes>(lib.bytes), r.bytes, 1e-12) ||
        !gpucalc::approx_equal(gpucalc::in<gpucalc::flops>(lib.flops), r.flops, 1e-12)) {
        std::fprintf(stderr, "decode twins disagree: %.17g vs %.17g\n",
                     gpucalc::in<gpucalc::seconds>(lib.time_per_token), r.time);
        std::abort();
    }
}

// Both loops work on local copies of the model, the GPU and the setup, so neither side can
// fold the catalog's constants.
void BM_decode_units(benchmark::State& state) {
    check_twins();
    const auto batch = varied(1, 256), context = varied(1, 32768);
    const gpucalc::transformer model = cat::llama_3_8b;
    const gpucalc::gpu_spec gpu = cat::h100_sxm;
    gpucalc::decode_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const gpucalc::decode_estimate d = library_decode(model, gpu, s);
        benchmark::DoNotOptimize(d.time_per_token.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_units);

void BM_decode_raw(benchmark::State& state) {
    const auto batch = varied(1, 256), context = varied(1, 32768);
    const raw_model model = raw_of(cat::llama_3_8b);
    raw_decode_setup s = raw_of(gpucalc::decode_setup{}, cat::h100_sxm);
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const raw_decode d = raw_decode_step(model, s);
        benchmark::DoNotOptimize(d.time);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_raw);

}  // namespace

BENCHMARK_MAIN();
