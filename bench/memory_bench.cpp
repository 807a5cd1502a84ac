// memory_bench.cpp: how fast a scheduler can ask "does it fit": inference and training memory
// evaluations per second, each beside its raw-double twin (twin_support.hpp says how a twin is
// written), so the ratio is the price of gpucalc's unit types.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/memory.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cstdint>
#include <vector>

namespace {

namespace cat = gpucalc::catalog;
namespace detail = gpucalc::detail;
using twin::input_mask;

// Varied batches, contexts and data-parallel degrees, so no call folds to a constant.
std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high) { return twin::varied(low, high, 20261121); }

// --- raw-double twins ---------------------------------------------------------------------------

/// workload.hpp's runtime_overhead, in bytes.
struct raw_overhead {
    double cuda_context, fragmentation, communication_buffers;
};

raw_overhead raw_of(const gpucalc::runtime_overhead& o) {
    return {gpucalc::in<gpucalc::bytes>(o.cuda_context), o.fragmentation,
            gpucalc::in<gpucalc::bytes>(o.communication_buffers)};
}

/// workload.hpp's detail::check(runtime_overhead), transliterated.
inline void raw_check(const raw_overhead& o, const char* function) {
    twin::require_non_negative<gpucalc::data_size>(function, "overhead.cuda_context", o.cuda_context);
    twin::require_non_negative<gpucalc::data_size>(function, "overhead.communication_buffers",
                                                   o.communication_buffers);
    if (!(o.fragmentation >= 0.0 && o.fragmentation < 1.0)) {
        detail::throw_invalid(function, "overhead.fragmentation", o.fragmentation, "", "must be in [0, 1)");
    }
}

/// memory/overhead.hpp's detail::overhead_for(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_overhead_for(const raw_overhead& o, double tensors, bool parallel) {
    return o.cuda_context + o.fragmentation * tensors + (parallel ? o.communication_buffers : 0.0);
}

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

/// memory/training.hpp's model_states, in bytes, and detail::shard_model_states() transliterated.
struct raw_model_states {
    double weights, gradients, optimizer_states;
};

inline raw_model_states raw_shard_model_states(double parameters, const gpucalc::training_job& job,
                                               std::int64_t zero_stage, double ranks) {
    raw_model_states r{};
    r.weights = twin::storage(parameters / (zero_stage >= 3 ? ranks : 1.0), job.parameters);
    r.gradients = twin::storage(parameters / (zero_stage >= 2 ? ranks : 1.0), job.gradients);
    r.optimizer_states =
        parameters * detail::optimizer_bytes_per_parameter(job) / (zero_stage >= 1 ? ranks : 1.0);
    return r;
}

/// memory/training.hpp's training_memory, in bytes.
struct raw_training_memory {
    double weights, gradients, optimizer_states, activations, overhead, total, host_memory,
        activations_per_layer;
};

/// detail::training_memory_of(), transliterated. `job` and `strategy` supply the counts, layout,
/// formats and flags; the job's overhead is `overhead`, in bytes.
GPUCALC_DETAIL_HOT GPUCALC_DETAIL_INLINE inline raw_training_memory raw_training_of(
    const gpucalc::checked_model& cm, const gpucalc::training_job& job,
    const gpucalc::training_strategy& strategy, const raw_overhead& overhead, const char* function) {
    const gpucalc::transformer& m = cm.spec();
    detail::check(cm, job, strategy, function);
    raw_check(overhead, function);
    const gpucalc::parallel_layout& par = strategy.parallel;
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, par.tensor, par.pipeline, par.expert);
    const double stage_parameters = w.linear + w.embedding_class;
    const double cp = static_cast<double>(par.context_parallel);
    const double dense_ranks = static_cast<double>(par.data) * cp;
    const double expert_ranks = static_cast<double>(detail::exact_quotient(par.data, par.expert)) * cp;
    const std::int64_t stage = par.zero_stage;

    raw_training_memory r{};
    gpucalc::storage_format resident_format = job.parameters;
    if (job.lora.enabled) {
        resident_format = job.lora.frozen_base;
        const double p3 = stage >= 3 ? dense_ranks : 1.0;
        const double p3_experts = stage >= 3 ? expert_ranks : 1.0;
        r.weights = twin::storage((w.linear - w.experts) / p3 + w.experts / p3_experts, job.lora.frozen_base) +
                    twin::storage(w.embedding_class / p3, job.parameters);
        const double adapter = static_cast<double>(detail::lora_parameters_unchecked(m, job.lora.adapter)) /
                               (static_cast<double>(par.tensor) * static_cast<double>(par.pipeline));
        const raw_model_states trained = raw_shard_model_states(adapter, job, stage, dense_ranks);
        r.weights += trained.weights;
        r.gradients = trained.gradients;
        r.optimizer_states = trained.optimizer_states;
    } else {
        const raw_model_states dense = raw_shard_model_states(stage_parameters - w.experts, job, stage, dense_ranks);
        r.weights = dense.weights;
        r.gradients = dense.gradients;
        r.optimizer_states = dense.optimizer_states;
        if (w.experts > 0.0) {
            const raw_model_states experts = raw_shard_model_states(w.experts, job, stage, expert_ranks);
            r.weights += experts.weights;
            r.gradients += experts.gradients;
            r.optimizer_states += experts.optimizer_states;
        }
    }
    if (strategy.offload_optimizer) {
        r.host_memory += r.optimizer_states + r.gradients;
        r.optimizer_states = 0.0;
        r.gradients = 0.0;
    }
    if (strategy.offload_parameters) {
        const double layer = w.linear / w.layers;
        const double unit = layer > w.embedding_class ? layer : w.embedding_class;
        r.host_memory += r.weights;
        r.weights = twin::storage(2.0 * unit, resident_format);
    }

    const double per_layer = detail::layer_activation_bytes(cm, job, strategy, strategy.recompute);
    r.activations_per_layer = per_layer;
    const std::int64_t p = par.pipeline;
    const std::int64_t per_step = detail::microbatches_per_step(job, strategy);
    const double in_flight = static_cast<double>(per_step > 0 && per_step < p ? per_step : p);
    const double interleave_factor =
        par.interleave > 1 ? 1.0 + static_cast<double>(p - 1) / static_cast<double>(p * par.interleave) : 1.0;
    double activations = w.layers * in_flight * interleave_factor * per_layer;
    if (strategy.recompute != gpucalc::recompute::none) {
        activations += detail::layer_activation_bytes(cm, job, strategy, gpucalc::recompute::none) - per_layer;
    }
    const double local_tokens = static_cast<double>(job.sequence) / cp * static_cast<double>(strategy.micro_batch);
    const double sbh = local_tokens * static_cast<double>(m.hidden);
    const double t = static_cast<double>(par.tensor);
    const bool sp = par.sequence_parallel && par.tensor > 1;
    const double replicated_share = sp ? 1.0 / t : 1.0;
    if (job.dropout) activations += sbh * in_flight * replicated_share;
    if (p == 1) {
        const double e = gpucalc::bytes_per_element({job.activations.element});
        activations += 2.0 * e * sbh * replicated_share + 4.0 * local_tokens * static_cast<double>(m.vocab) / t;
    }
    r.activations = activations;

    const double tensors = r.weights + r.gradients + r.optimizer_states + r.activations;
    const bool parallel = detail::gpus_unchecked(par) > 1;
    r.overhead = raw_overhead_for(overhead, tensors, parallel);
    r.total = tensors + r.overhead;
    return r;
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
