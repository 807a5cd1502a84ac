// memory_bench.cpp: how fast a scheduler can ask "does it fit": inference and training memory
// evaluations per second, each beside its raw-double twin (twin_support.hpp says how a twin is
// written), so the ratio is the price of gpucalc's unit types.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/memory.hpp>

#include <benchmark/benchmark.h>

#include "twin_memory.hpp"
#include "twin_support.hpp"

#include <cstdint>
#include <vector>

namespace {

namespace cat = gpucalc::catalog;
namespace detail = gpucalc::detail;
using twin::input_mask;
using twin::raw_check;
using twin::raw_model_states;
using twin::raw_of;
using twin::raw_overhead;
using twin::raw_overhead_for;
using twin::raw_shard_model_states;
using twin::raw_training_memory;
using twin::raw_training_of;

// Varied batches, contexts and data-parallel degrees, so no call folds to a constant.
std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high) { return twin::varied(low, high, 20261121); }

// --- raw-double twins ---------------------------------------------------------------------------

/// memory/inference.hpp's inference_memory, in bytes.
struct raw_inference_memory {
    double weights, kv_cache, activations, overhead, total, kv_cache_per_token;
    std::int64_t cached_tokens_per_sequence;
};

/// detail::inference_memory_unchecked(), transliterated: a checked model, `setup` with the
/// counts, layout and formats, and its overhead as `overhead`, in bytes.
GPUCALC_DETAIL_INLINE inline raw_inference_memory raw_inference_unchecked(const gpucalc::checked_model& cm,
                                                                          const gpucalc::serving_setup& setup,
                                                                          const raw_overhead& overhead) {
    const gpucalc::transformer& m = cm.spec();
    const std::int64_t tp = setup.parallel.tensor;
    const std::int64_t pp = setup.parallel.pipeline;

    raw_inference_memory r{};
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, tp, pp, 1);
    r.weights = twin::storage(w.linear, setup.weights) + twin::storage(w.embedding_class, setup.embeddings);

    std::int64_t cached = detail::attended_unchecked(m, setup.context);
    if (setup.kv_block_tokens > 0) cached = detail::ceil_div(cached, setup.kv_block_tokens) * setup.kv_block_tokens;
    r.cached_tokens_per_sequence = cached;
    r.kv_cache_per_token = twin::storage(detail::kv_elements_per_token(cm, tp, w.layers), setup.kv_cache);
    r.kv_cache = static_cast<double>(setup.batch) * static_cast<double>(cached) * r.kv_cache_per_token;

    const std::int64_t all_tokens = setup.batch * setup.context;
    const std::int64_t step_tokens = all_tokens < setup.max_tokens_per_step ? all_tokens : setup.max_tokens_per_step;
    const double logits_bytes = 4.0 * static_cast<double>(setup.batch * m.vocab) / static_cast<double>(tp);
    r.activations = twin::storage(static_cast<double>(step_tokens) * detail::workspace_elements_per_token(cm, tp),
                                  setup.activations) +
                    logits_bytes;

    const double tensors = r.weights + r.kv_cache + r.activations;
    r.overhead = raw_overhead_for(overhead, tensors, tp * pp > 1);
    r.total = tensors + r.overhead;
    return r;
}

/// detail::inference_memory_of(), transliterated: check the setup and its overhead, then evaluate.
GPUCALC_DETAIL_INLINE inline raw_inference_memory raw_inference_of(const gpucalc::checked_model& cm,
                                                                   const gpucalc::serving_setup& setup,
                                                                   const raw_overhead& overhead,
                                                                   const char* function) {
    detail::check(cm, setup, function);
    raw_check(overhead, function);
    return raw_inference_unchecked(cm, setup, overhead);
}

/// inference_memory_per_gpu(), transliterated: check the model, then evaluate.
[[gnu::flatten, gnu::noinline]] raw_inference_memory raw_inference(const gpucalc::transformer& m,
                                                                   const gpucalc::serving_setup& setup,
                                                                   const raw_overhead& overhead) {
    constexpr const char* function = "inference_memory_per_gpu";
    return raw_inference_of(gpucalc::check(m, function), setup, overhead, function);
}

/// memory/fit.hpp's detail::largest_serving_count() for the batch, transliterated: the limit,
/// the capacity and the headroom checked, the setup checked at a batch of 1, then the same
/// search (largest_that_fits) over unchecked raw probes in bytes, with fits()' rule:
/// required <= (1 - headroom) x capacity.
inline std::int64_t raw_largest_batch(const char* function, const gpucalc::checked_model& cm,
                                      gpucalc::serving_setup setup, double capacity, double headroom,
                                      std::int64_t limit) {
    const raw_overhead overhead = raw_of(setup.overhead);
    detail::require_count(function, "limit", limit);
    twin::require_positive<gpucalc::data_size>(function, "gpu.memory", capacity);
    if (!(headroom >= 0.0 && headroom < 1.0)) {
        detail::throw_invalid(function, "headroom", headroom, "", "must be in [0, 1)");
    }
    setup.batch = 1;
    detail::check(cm, setup, function);
    raw_check(overhead, function);
    return gpucalc::largest_that_fits(
        function, limit,
        [&](std::int64_t b) {
            setup.batch = b;
            return detail::tokens_by_vocab(cm, setup) < detail::largest_exact_count;
        },
        [&](std::int64_t b) {
            setup.batch = b;
            const double required = raw_inference_unchecked(cm, setup, overhead).total;
            return (1.0 - headroom) * capacity - required >= 0.0;
        });
}

/// max_batch_for_inference() on a checked model, transliterated.
GPUCALC_DETAIL_HOT inline std::int64_t raw_max_batch_checked(const gpucalc::checked_model& cm,
                                                             const gpucalc::serving_setup& setup,
                                                             double capacity, double headroom,
                                                             std::int64_t limit) {
    return raw_largest_batch("max_batch_for_inference", cm, setup, capacity, headroom, limit);
}

/// max_batch_for_inference() on a transformer, transliterated: check the model once, then search.
[[gnu::noinline]] std::int64_t raw_max_batch(const gpucalc::transformer& m, const gpucalc::serving_setup& setup,
                                             double capacity, double headroom, std::int64_t limit) {
    return raw_max_batch_checked(gpucalc::check(m, "max_batch_for_inference"), setup, capacity, headroom,
                                 limit);
}

/// training_memory_per_gpu(), transliterated: check the model, then evaluate.
[[gnu::flatten, gnu::noinline]] raw_training_memory raw_training(const gpucalc::transformer& m,
                                                                 const gpucalc::training_job& job,
                                                                 const gpucalc::training_strategy& strategy,
                                                                 const raw_overhead& overhead) {
    constexpr const char* function = "training_memory_per_gpu";
    return raw_training_of(gpucalc::check(m, function), job, strategy, overhead, function);
}

// The twins must agree with the library, field by field, before they are timed against it: on a
// dense model with GQA, and on an MoE with paging, pipelining, offload, recompute and LoRA; in
// training also with context parallelism (model states sharded over data x CP ranks), tensor
// and sequence parallelism, and a global batch that leaves fewer micro-batches in flight than
// pipeline stages.
void check_inference(const gpucalc::transformer& m, const gpucalc::serving_setup& s) {
    const gpucalc::inference_memory lib = gpucalc::inference_memory_per_gpu(m, s);
    const raw_inference_memory raw = raw_inference(m, s, raw_of(s.overhead));
    twin::expect_same("inference weights", lib.weights, raw.weights);
    twin::expect_same("inference kv_cache", lib.kv_cache, raw.kv_cache);
    twin::expect_same("inference activations", lib.activations, raw.activations);
    twin::expect_same("inference overhead", lib.overhead, raw.overhead);
    twin::expect_same("inference total", lib.total, raw.total);
    twin::expect_same("inference kv per token", lib.kv_cache_per_token, raw.kv_cache_per_token);
    twin::expect_same("inference cached tokens", lib.cached_tokens_per_sequence, raw.cached_tokens_per_sequence);
}

void check_max_batch(const gpucalc::transformer& m, const gpucalc::serving_setup& s,
                     const gpucalc::gpu_spec& gpu) {
    twin::expect_same("max batch", gpucalc::max_batch_for_inference(m, s, gpu, 0.1),
                      raw_max_batch(m, s, gpu.memory.value(), 0.1, 1 << 20));
    twin::expect_same("max batch (checked)", gpucalc::max_batch_for_inference(gpucalc::check(m), s, gpu, 0.1),
                      raw_max_batch(m, s, gpu.memory.value(), 0.1, 1 << 20));
}

void check_training(const gpucalc::transformer& m, const gpucalc::training_job& job,
                    const gpucalc::training_strategy& strategy) {
    const gpucalc::training_memory lib = gpucalc::training_memory_per_gpu(m, job, strategy);
    const raw_training_memory raw = raw_training(m, job, strategy, raw_of(job.overhead));
    twin::expect_same("training weights", lib.weights, raw.weights);
    twin::expect_same("training gradients", lib.gradients, raw.gradients);
    twin::expect_same("training optimizer states", lib.optimizer_states, raw.optimizer_states);
    twin::expect_same("training activations", lib.activations, raw.activations);
    twin::expect_same("training overhead", lib.overhead, raw.overhead);
    twin::expect_same("training total", lib.total, raw.total);
    twin::expect_same("training host memory", lib.host_memory, raw.host_memory);
    twin::expect_same("training activations per layer", lib.activations_per_layer, raw.activations_per_layer);
}

void check_twins() {
    gpucalc::serving_setup s{};
    s.batch = 7;
    s.context = 3000;
    s.parallel.tensor = 2;
    check_inference(cat::llama_3_8b, s);
    s.parallel.pipeline = 4;
    s.kv_block_tokens = 16;
    s.weights = gpucalc::formats::int4_g128;
    check_inference(cat::mixtral_8x7b, s);
    gpucalc::serving_setup search{};
    search.context = 4096;
    check_max_batch(cat::llama_3_8b, search, cat::h100_sxm);
    search.parallel.tensor = 2;
    check_max_batch(cat::llama_3_70b, search, cat::h100_sxm);

    gpucalc::training_job job{};
    gpucalc::training_strategy t{};
    t.micro_batch = 2;
    t.parallel.data = 16;
    t.parallel.zero_stage = 3;
    check_training(cat::llama_3_8b, job, t);
    // Without pipelining (the output layer's terms), with CP, TP and sequence parallelism.
    t.parallel.context_parallel = 4;
    t.parallel.tensor = 2;
    t.parallel.sequence_parallel = true;
    job.dropout = true;
    check_training(cat::llama_3_8b, job, t);
    job.dropout = false;
    t.parallel.context_parallel = 1;
    t.parallel.tensor = 1;
    t.parallel.sequence_parallel = false;
    t.parallel.pipeline = 4;
    t.parallel.interleave = 2;
    t.parallel.expert = 8;
    t.recompute = gpucalc::recompute::selective;
    job.dropout = true;
    t.offload_optimizer = true;
    t.offload_parameters = true;
    check_training(cat::mixtral_8x7b, job, t);
    // CP shards the model states (experts over data x CP / expert); a global batch of two
    // micro-batches per rank leaves two of the four stages' micro-batches in flight.
    t.parallel.context_parallel = 2;
    job.global_batch = 2 * t.micro_batch * t.parallel.data;
    check_training(cat::mixtral_8x7b, job, t);
    job.global_batch = 0;
    t.parallel.context_parallel = 1;
    job.lora.enabled = true;
    job.lora.frozen_base = gpucalc::formats::nf4_double_quant;
    t.offload_parameters = false;
    check_training(cat::mixtral_8x7b, job, t);
    t.parallel.context_parallel = 2;
    t.parallel.zero_stage = 2;
    check_training(cat::mixtral_8x7b, job, t);
}

// --- the timed loops ------------------------------------------------------------------------------
// Both sides work on local copies of the model and the setup (or job and strategy), so neither
// folds the catalog's constants, and both are called out of line: the twins are noinline, and
// the compiler keeps the library's flattened functions out of line at this size (callgrind shows
// the calls). A noinline wrapper around the library call would add a call and a copy the twin
// does not pay.

/// BM_inference_memory_units and _checked: the same loop over a model given as a transformer (checked
/// on every call) or as a checked_model (checked once).
template <class Model>
void time_inference_memory(benchmark::State& state, const Model& model) {
    const auto batch = varied(1, 64), context = varied(128, 8192);
    gpucalc::serving_setup s{};
    s.parallel.tensor = 2;
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const gpucalc::inference_memory r = gpucalc::inference_memory_per_gpu(model, s);
        benchmark::DoNotOptimize(r.total.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_inference_memory_units(benchmark::State& state) {
    const gpucalc::transformer model = cat::llama_3_8b;
    time_inference_memory(state, model);
}
BENCHMARK(BM_inference_memory_units);

void BM_inference_memory_raw(benchmark::State& state) {
    const auto batch = varied(1, 64), context = varied(128, 8192);
    const gpucalc::transformer model = cat::llama_3_8b;
    gpucalc::serving_setup s{};
    s.parallel.tensor = 2;
    const raw_overhead overhead = raw_of(s.overhead);
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        const raw_inference_memory r = raw_inference(model, s, overhead);
        benchmark::DoNotOptimize(r.total);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_inference_memory_raw);

/// BM_training_memory_units and _checked: the same loop over a model given as a transformer (checked
/// on every call) or as a checked_model (checked once).
template <class Model>
void time_training_memory(benchmark::State& state, const Model& model) {
    const auto micro_batch = varied(1, 16), data = varied(1, 512);
    const gpucalc::training_job job{};
    gpucalc::training_strategy t{};
    t.parallel.zero_stage = 3;
    std::size_t i = 0;
    for (auto _ : state) {
        t.micro_batch = micro_batch[i];
        t.parallel.data = data[i];
        const gpucalc::training_memory r = gpucalc::training_memory_per_gpu(model, job, t);
        benchmark::DoNotOptimize(r.total.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_training_memory_units(benchmark::State& state) {
    const gpucalc::transformer model = cat::llama_3_8b;
    time_training_memory(state, model);
}
BENCHMARK(BM_training_memory_units);

void BM_training_memory_raw(benchmark::State& state) {
    const auto micro_batch = varied(1, 16), data = varied(1, 512);
    const gpucalc::transformer model = cat::llama_3_8b;
    const gpucalc::training_job job{};
    gpucalc::training_strategy t{};
    t.parallel.zero_stage = 3;
    const raw_overhead overhead = raw_of(job.overhead);
    std::size_t i = 0;
    for (auto _ : state) {
        t.micro_batch = micro_batch[i];
        t.parallel.data = data[i];
        const raw_training_memory r = raw_training(model, job, t, overhead);
        benchmark::DoNotOptimize(r.total);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_training_memory_raw);

// The checked path: the model checked once outside the loop (checked_model), against the
// validating path above (_units), which checks it on every call. bench/ratios.sh prints
// checked ÷ validating.
void BM_inference_memory_checked(benchmark::State& state) {
    const gpucalc::checked_model model = gpucalc::check(cat::llama_3_8b);
    time_inference_memory(state, model);
}
BENCHMARK(BM_inference_memory_checked);

void BM_training_memory_checked(benchmark::State& state) {
    const gpucalc::checked_model model = gpucalc::check(cat::llama_3_8b);
    time_training_memory(state, model);
}
BENCHMARK(BM_training_memory_checked);

// The largest batch of Llama-3-8B on an H100 at varied contexts: a bisection of about 20
// probes. The validating entry point checks the model once per search; a scheduler that asks
// for many contexts checks it once in all with checked_model.
/// BM_max_batch_units and _checked: the same loop over a model given as a transformer (checked
/// on every call) or as a checked_model (checked once).
template <class Model>
void time_max_batch(benchmark::State& state, const Model& model) {
    const auto context = varied(512, 32768);
    gpucalc::serving_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.context = context[i];
        benchmark::DoNotOptimize(gpucalc::max_batch_for_inference(model, s, cat::h100_sxm, 0.1));
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_max_batch_units(benchmark::State& state) {
    const gpucalc::transformer model = cat::llama_3_8b;
    time_max_batch(state, model);
}
BENCHMARK(BM_max_batch_units);

void BM_max_batch_checked(benchmark::State& state) {
    const gpucalc::checked_model model = gpucalc::check(cat::llama_3_8b);
    time_max_batch(state, model);
}
BENCHMARK(BM_max_batch_checked);

void BM_max_batch_raw(benchmark::State& state) {
    const auto context = varied(512, 32768);
    const gpucalc::transformer model = cat::llama_3_8b;
    const double capacity = cat::h100_sxm.memory.value();
    gpucalc::serving_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.context = context[i];
        benchmark::DoNotOptimize(raw_max_batch(model, s, capacity, 0.1, 1 << 20));
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_max_batch_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
