// memory_bench.cpp: how fast a scheduler can ask "does it fit": inference and training memory
// evaluations per second, each beside a raw-double twin that computes the same breakdown with
// no types and no input checks, so the ratio is the price of gpucalc's safety.
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/memory.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

namespace cat = gpucalc::catalog;
using twin::input_mask;

// Varied batches, contexts and data-parallel degrees, so no call folds to a constant.
std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high) { return twin::varied(low, high, 20261121); }

// --- raw-double twins -------------------------------------------------------------------------
// The same computation as memory/inference.hpp and memory/training.hpp, step for step, checks
// included, on plain doubles and integers: what a careful hand-written version would do. Both
// sides are called out of line (the compiler does not inline the library's functions at this
// size), so neither gets to hoist the model-only terms out of the timing loop.

using twin::fail;
inline void raw_fail(const char* what) { fail(what); }
inline void raw_require_count(std::int64_t v) { twin::require_count(v); }

inline bool raw_divides(std::int64_t d, std::int64_t v) { return twin::divides(d, v); }

struct raw_model {
    std::int64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab, max_context, window,
        experts_per_token;
    bool gated, rms, learned_positions, biases, tied;
};

raw_model raw_of(const gpucalc::transformer& m) {
    return {m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn_hidden, m.vocab,
            m.max_context, m.sliding_window, m.experts_per_token, m.mlp == gpucalc::mlp_kind::gated,
            m.norm == gpucalc::norm_kind::rms_norm, m.positions == gpucalc::position_kind::learned,
            m.linear_biases, m.tied_embeddings};
}

inline void raw_check(const raw_model& m) {
    raw_require_count(m.layers); raw_require_count(m.hidden); raw_require_count(m.heads);
    raw_require_count(m.ffn); raw_require_count(m.vocab);
    if (m.kv_heads < 0 || (m.kv_heads > 0 && !raw_divides(m.kv_heads, m.heads))) raw_fail("kv");
    if (m.head_dim < 0 || (m.head_dim == 0 && !raw_divides(m.heads, m.hidden))) raw_fail("head_dim");
    if (m.max_context < 0 || (m.learned_positions && m.max_context < 1)) raw_fail("context");
    if (m.window < 0) raw_fail("window");
    if (m.experts_per_token < 0 || m.experts_per_token > 1) raw_fail("top-k");  // dense twin
    const double h = static_cast<double>(m.hidden);
    const double widths = static_cast<double>(m.heads + 2 * (m.kv_heads > 0 ? m.kv_heads : m.heads)) *
                          static_cast<double>(m.head_dim > 0 ? m.head_dim : m.hidden / m.heads);
    const double bound = static_cast<double>(m.layers) * (2.0 * h * widths + 3.0 * h * static_cast<double>(m.ffn) + 8.0 * h) +
                         2.0 * h * static_cast<double>(m.vocab + m.max_context) + 2.0 * h;
    if (!(bound < 9007199254740992.0)) raw_fail("too large");
}

/// The most loaded stage's weights, as detail/sharding.hpp computes them (shared by both twins).
struct raw_stage {
    double h, t, q_here, kv_here, matrices, f, stage_layers, linear, embedding_class;
    std::int64_t head_dim, kv_heads;
};

inline raw_stage raw_stage_of(const raw_model& m, std::int64_t tp, std::int64_t pp) {
    raw_stage r{};
    r.h = static_cast<double>(m.hidden);
    r.t = static_cast<double>(tp);
    r.kv_heads = m.kv_heads > 0 ? m.kv_heads : m.heads;
    r.head_dim = m.head_dim > 0 ? m.head_dim : m.hidden / m.heads;
    const double q = static_cast<double>(m.heads * r.head_dim);
    r.matrices = m.gated ? 3.0 : 2.0;
    const double bias = m.biases ? 1.0 : 0.0;
    r.f = static_cast<double>(m.ffn);
    const double norm = m.rms ? r.h : 2.0 * r.h;
    r.stage_layers = static_cast<double>(pp == 1 ? m.layers : (m.layers + pp - 1) / pp);
    const std::int64_t kv_here = r.kv_heads >= tp ? (tp == 1 ? r.kv_heads : static_cast<std::int64_t>(
                                                        static_cast<double>(r.kv_heads) / r.t)) : 1;
    r.q_here = q / r.t;
    r.kv_here = static_cast<double>(kv_here * r.head_dim);
    r.linear = r.stage_layers * (2.0 * r.h * r.q_here + 2.0 * r.h * r.kv_here + bias * (r.q_here + 2.0 * r.kv_here + r.h) +
                                 (r.matrices * r.h * r.f + bias * ((r.matrices - 1.0) * r.f + r.h)) / r.t);
    const double head = static_cast<double>(m.vocab) * r.h / r.t;
    const double embedding = head + (m.learned_positions ? static_cast<double>(m.max_context) * r.h : 0.0);
    const double ends = pp == 1 ? embedding + (m.tied ? 0.0 : head) + norm : std::max(embedding, head + norm);
    r.embedding_class = r.stage_layers * 2.0 * norm + ends;
    return r;
}

struct raw_inference_setup {
    std::int64_t batch, context, tp, pp, block, step_tokens;
    twin::format weights, embeddings, kv, activations;
    double cuda_context, fragmentation, communication;
};

struct raw_inference_memory {  // the library's breakdown, as doubles
    double weights, kv_cache, activations, overhead, total, kv_cache_per_token;
    std::int64_t cached_tokens_per_sequence;
};

[[gnu::noinline]] raw_inference_memory raw_inference(const raw_model& m, const raw_inference_setup& s) {
    raw_check(m);
    raw_require_count(s.batch); raw_require_count(s.context); raw_require_count(s.step_tokens);
    if (!(static_cast<double>(s.batch) * static_cast<double>(s.context) * static_cast<double>(m.vocab) < 9007199254740992.0)) raw_fail("size");
    if (s.block < 0) raw_fail("block");
    raw_require_count(s.tp);
    const std::int64_t kv_heads = m.kv_heads > 0 ? m.kv_heads : m.heads;
    if (!raw_divides(s.tp, m.heads) || (!raw_divides(s.tp, kv_heads) && !raw_divides(kv_heads, s.tp))) raw_fail("tp");
    raw_require_count(s.pp);
    if (s.pp > m.layers) raw_fail("pp");
    if (s.cuda_context < 0.0 || s.communication < 0.0 || !(s.fragmentation >= 0.0 && s.fragmentation < 1.0)) raw_fail("overhead");

    const raw_stage st = raw_stage_of(m, s.tp, s.pp);
    const double h = st.h, t = st.t, q_here = st.q_here, kv_here = st.kv_here, matrices = st.matrices, f = st.f;
    const double stage_layers = st.stage_layers, linear = st.linear;
    const double weights = twin::storage(linear, s.weights) + twin::storage(st.embedding_class, s.embeddings);

    std::int64_t cached = m.window > 0 && s.context > m.window ? m.window : s.context;
    if (s.block > 0) cached = (cached + s.block - 1) / s.block * s.block;
    const double kv_per_token = twin::storage(2.0 * stage_layers * kv_here, s.kv);
    const double kv_cache = static_cast<double>(s.batch * cached) * kv_per_token;

    const std::int64_t all_tokens = s.batch * s.context;
    const std::int64_t step = all_tokens < s.step_tokens ? all_tokens : s.step_tokens;
    const double attention = 2.0 * q_here + 2.0 * kv_here, mlp = matrices * f / t;
    const double activations = twin::storage(static_cast<double>(step) * (2.0 * h + std::max(attention, mlp)), s.activations) +
                               4.0 * static_cast<double>(s.batch * m.vocab) / t;
    const double tensors = weights + kv_cache + activations;
    const double overhead = s.cuda_context + s.fragmentation * tensors + (s.tp * s.pp > 1 ? s.communication : 0.0);
    return {weights, kv_cache, activations, overhead, tensors + overhead, kv_per_token, cached};
}

struct raw_training_setup {
    std::int64_t micro_batch, sequence, tp, pp, dp, ep, zero_stage, interleave, in_flight;
    int recompute;  // 0 none, 1 selective, 2 full
    bool flash, dropout, sequence_parallel, offload_optimizer, offload_parameters, lora;
    twin::format parameters, gradients, activations;
    double optimizer_bytes;  // state bytes + master copy
    double cuda_context, fragmentation, communication;
};

inline std::int64_t stage_layers_check(const raw_model& m, const raw_training_setup& s) {
    return s.pp == 1 ? m.layers : (m.layers + s.pp - 1) / s.pp;
}

struct raw_training_memory {  // the library's breakdown, as doubles
    double weights, gradients, optimizer_states, activations, overhead, total, host_memory,
        activations_per_layer;
};

[[gnu::noinline]] raw_training_memory raw_training(const raw_model& m, const raw_training_setup& s) {
    raw_check(m);
    raw_require_count(s.micro_batch); raw_require_count(s.sequence); raw_require_count(s.tp);
    if (!(static_cast<double>(s.micro_batch) * static_cast<double>(s.sequence) * static_cast<double>(m.hidden) < 9007199254740992.0)) raw_fail("size");
    const std::int64_t kv_heads = m.kv_heads > 0 ? m.kv_heads : m.heads;
    if (!raw_divides(s.tp, m.heads) || (!raw_divides(s.tp, kv_heads) && !raw_divides(kv_heads, s.tp))) raw_fail("tp");
    raw_require_count(s.pp);
    if (s.pp > m.layers) raw_fail("pp");
    raw_require_count(s.dp); raw_require_count(s.ep);
    if (!raw_divides(s.ep, 1) || !raw_divides(s.ep, s.dp)) raw_fail("ep");  // dense: 1 expert
    if (s.zero_stage < 0 || s.zero_stage > 3) raw_fail("zero");
    raw_require_count(s.interleave);
    if (s.interleave > 1 && s.pp == 1) raw_fail("interleave");
    if (s.in_flight < 0) raw_fail("in_flight");
    if (s.interleave > stage_layers_check(m, s)) raw_fail("interleave");
    if (s.offload_optimizer && s.zero_stage < 1) raw_fail("offload");
    if (s.offload_parameters && s.zero_stage != 3) raw_fail("offload");
    if (s.cuda_context < 0.0 || s.communication < 0.0 || !(s.fragmentation >= 0.0 && s.fragmentation < 1.0)) raw_fail("overhead");

    const raw_stage st = raw_stage_of(m, s.tp, s.pp);
    const double h = st.h, t = st.t, q_here = st.q_here, kv_here = st.kv_here, matrices = st.matrices, f = st.f;
    const double stage_layers = st.stage_layers, linear = st.linear;
    const double params = linear + st.embedding_class;
    const double dp = static_cast<double>(s.dp);
    double weights = 0.0, gradients = 0.0, optimizer = 0.0, host = 0.0;
    if (s.lora) {
        raw_fail("lora is not part of this twin");
    } else {
        weights = twin::storage(params / (s.zero_stage >= 3 ? dp : 1.0), s.parameters);
        gradients = twin::storage(params / (s.zero_stage >= 2 ? dp : 1.0), s.gradients);
        optimizer = params * s.optimizer_bytes / (s.zero_stage >= 1 ? dp : 1.0);
    }
    if (s.offload_optimizer) { host += optimizer + gradients; optimizer = 0.0; gradients = 0.0; }
    if (s.offload_parameters) {
        const double layer = linear / stage_layers, rest = params - linear;
        host += weights;
        weights = twin::storage(2.0 * (layer > rest ? layer : rest), s.parameters);
    }

    const double e = twin::bits({s.activations.element_bits, 0, 0, 0, 0}) / 8.0;
    const double sb = static_cast<double>(s.sequence) * static_cast<double>(s.micro_batch);
    const bool sp = s.sequence_parallel && s.tp > 1;
    auto layer_bytes = [&](int policy) {
        if (policy == 2) return e * sb * h;
        const double replicated = e * 4.0 * sb * h + (s.dropout ? 2.0 * sb * h : 0.0);
        double per_gpu = e * sb * (2.0 * q_here + 2.0 * kv_here + matrices * f / t);
        const double heads_here = static_cast<double>(m.heads) / t;
        if (policy == 0 && !s.flash) {
            const double keys = static_cast<double>(m.window > 0 && s.sequence > m.window ? m.window : s.sequence);
            per_gpu += (s.dropout ? 2.0 * e + 1.0 : e) * heads_here * keys * sb;
        } else if (policy == 0) {
            per_gpu += 4.0 * heads_here * sb;
        }
        return (sp ? replicated / t : replicated) + per_gpu;
    };
    const double per_layer = layer_bytes(s.recompute);
    const std::int64_t wanted = s.in_flight > 0 ? s.in_flight : s.pp;
    const double in_flight = static_cast<double>(wanted < s.pp ? wanted : s.pp);
    const double factor = s.interleave > 1 ? 1.0 + static_cast<double>(s.pp - 1) / static_cast<double>(s.pp * s.interleave) : 1.0;
    double activations = stage_layers * in_flight * factor * per_layer;
    if (s.recompute != 0) activations += layer_bytes(0) - per_layer;
    const double sbh = static_cast<double>(s.sequence * s.micro_batch * m.hidden);
    const double share = sp ? 1.0 / t : 1.0;
    if (s.dropout) activations += sbh * in_flight * share;
    if (s.pp == 1) activations += 2.0 * e * sbh * share + 4.0 * sbh / h * static_cast<double>(m.vocab) / t;
    const double tensors = weights + gradients + optimizer + activations;
    const double overhead = s.cuda_context + s.fragmentation * tensors + (s.tp * s.pp * s.dp > 1 ? s.communication : 0.0);
    return {weights, gradients, optimizer, activations, overhead, tensors + overhead, host, per_layer};
}

raw_inference_setup raw_of(const gpucalc::inference_setup& s) {
    return {s.batch, s.context, s.tensor_parallel, s.pipeline_parallel, s.kv_block_tokens, s.max_tokens_per_step,
            twin::format_of(s.weights), twin::format_of(s.embeddings), twin::format_of(s.kv_cache), twin::format_of(s.activations),
            gpucalc::in<gpucalc::bytes>(s.overhead.cuda_context), s.overhead.fragmentation,
            gpucalc::in<gpucalc::bytes>(s.overhead.communication_buffers)};
}

raw_training_setup raw_of(const gpucalc::training_setup& s) {
    return {s.micro_batch, s.sequence, s.parallel.tensor, s.parallel.pipeline, s.parallel.data,
            s.parallel.expert, s.parallel.zero_stage, s.parallel.interleave, s.parallel.microbatches_in_flight,
            static_cast<int>(s.recompute), s.flash_attention, s.dropout, s.parallel.sequence_parallel,
            s.offload_optimizer, s.offload_parameters, s.lora.enabled,
            twin::format_of(s.parameters), twin::format_of(s.gradients), twin::format_of(s.activations),
            gpucalc::optimizer_state_bytes(s.optimizer) + (s.fp32_master_weights ? 4.0 : 0.0),
            gpucalc::in<gpucalc::bytes>(s.overhead.cuda_context), s.overhead.fragmentation,
            gpucalc::in<gpucalc::bytes>(s.overhead.communication_buffers)};
}

// The twins must agree with the library before they are timed against it.
void check_twins() {
    const raw_model raw = raw_of(cat::llama_3_8b);
    gpucalc::inference_setup s{};
    s.batch = 7;
    s.context = 3000;
    s.tensor_parallel = 2;
    const double lib_inf = gpucalc::in<gpucalc::bytes>(gpucalc::inference_memory_per_gpu(cat::llama_3_8b, s).total);
    gpucalc::training_setup t{};
    t.micro_batch = 2;
    t.parallel.data = 16;
    t.parallel.zero_stage = 3;
    const double lib_train = gpucalc::in<gpucalc::bytes>(gpucalc::training_memory_per_gpu(cat::llama_3_8b, t).total);
    const double raw_inf = raw_inference(raw, raw_of(s)).total;
    const double raw_train = raw_training(raw, raw_of(t)).total;
    if (!gpucalc::approx_equal(lib_inf, raw_inf, 1e-12) || !gpucalc::approx_equal(lib_train, raw_train, 1e-12)) {
        std::fprintf(stderr, "raw twins disagree: inference %.17g vs %.17g, training %.17g vs %.17g\n",
                     lib_inf, raw_inf, lib_train, raw_train);
        std::abort();
    }
}

void BM_inference_memory_units(benchmark::State& state) {
    check_twins();
    const auto batch = varied(1, 64), context = varied(128, 8192);
    gpucalc::inference_setup s{};
    s.tensor_parallel = 2;
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const gpucalc::inference_memory r = gpucalc::inference_memory_per_gpu(cat::llama_3_8b, s);
        benchmark::DoNotOptimize(r.total.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_inference_memory_units);

void BM_inference_memory_raw(benchmark::State& state) {
    const auto batch = varied(1, 64), context = varied(128, 8192);
    const raw_model m = raw_of(cat::llama_3_8b);
    gpucalc::inference_setup library_setup{};
    library_setup.tensor_parallel = 2;
    raw_inference_setup s = raw_of(library_setup);
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const double total = raw_inference(m, s).total;
        benchmark::DoNotOptimize(total);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_inference_memory_raw);

void BM_training_memory_units(benchmark::State& state) {
    const auto micro_batch = varied(1, 16), data = varied(1, 512);
    gpucalc::training_setup t{};
    t.parallel.zero_stage = 3;
    std::size_t i = 0;
    for (auto _ : state) {
        t.micro_batch = micro_batch[i];
        t.parallel.data = data[i];
        const gpucalc::training_memory r = gpucalc::training_memory_per_gpu(cat::llama_3_8b, t);
        benchmark::DoNotOptimize(r.total.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_training_memory_units);

void BM_training_memory_raw(benchmark::State& state) {
    const auto micro_batch = varied(1, 16), data = varied(1, 512);
    const raw_model m = raw_of(cat::llama_3_8b);
    gpucalc::training_setup library_setup{};
    library_setup.parallel.zero_stage = 3;
    raw_training_setup s = raw_of(library_setup);
    std::size_t i = 0;
    for (auto _ : state) {
        s.micro_batch = micro_batch[i];
        s.dp = data[i];
        const double total = raw_training(m, s).total;
        benchmark::DoNotOptimize(total);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_training_memory_raw);

}  // namespace

BENCHMARK_MAIN();
