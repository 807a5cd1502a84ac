// memory_bench.cpp: how fast a scheduler can ask "does it fit": inference and training memory
// evaluations per second, each beside its raw-double twin (twin_support.hpp says how a twin is
// written), so the ratio is the price of gpucalc's unit types.
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

/// memory/overhead.hpp's runtime_overhead, in bytes.
struct raw_overhead {
    double cuda_context, fragmentation, communication_buffers;
};

raw_overhead raw_of(const gpucalc::runtime_overhead& o) {
    return {gpucalc::in<gpucalc::bytes>(o.cuda_context), o.fragmentation,
            gpucalc::in<gpucalc::bytes>(o.communication_buffers)};
}

inline void raw_check(const raw_overhead& o, const char* function) {
    detail::require_non_negative(function, "overhead.cuda_context", o.cuda_context, "B");
    detail::require_non_negative(function, "overhead.communication_buffers", o.communication_buffers, "B");
    if (!(o.fragmentation >= 0.0 && o.fragmentation < 1.0)) {
        detail::throw_invalid(function, "overhead.fragmentation", o.fragmentation, "", "must be in [0, 1)");
    }
}

GPUCALC_DETAIL_INLINE inline double raw_overhead_for(const raw_overhead& o, double tensors, bool parallel) {
    return o.cuda_context + o.fragmentation * tensors + (parallel ? o.communication_buffers : 0.0);
}

/// memory/inference.hpp's inference_memory, in bytes.
struct raw_inference_memory {
    double weights, kv_cache, activations, overhead, total, kv_cache_per_token;
    std::int64_t cached_tokens_per_sequence;
};

/// inference_memory_per_gpu(), transliterated. `shape` supplies the counts and formats; its
/// overhead is `overhead`, in bytes.
[[gnu::flatten, gnu::noinline]] raw_inference_memory raw_inference(const gpucalc::transformer& m,
                                                                   const gpucalc::inference_setup& shape,
                                                                   const raw_overhead& overhead) {
    constexpr const char* function = "inference_memory";
    detail::check(m, shape, function);
    raw_check(overhead, function);
    const std::int64_t tp = shape.tensor_parallel;
    const std::int64_t pp = shape.pipeline_parallel;

    raw_inference_memory r{};
    const detail::stage_weights w = detail::weights_on_worst_stage(m, tp, pp, 1);
    r.weights = twin::storage(w.linear, shape.weights) + twin::storage(w.embedding_class, shape.embeddings);

    std::int64_t cached = gpucalc::attended_tokens(m, shape.context);
    if (shape.kv_block_tokens > 0) cached = detail::ceil_div(cached, shape.kv_block_tokens) * shape.kv_block_tokens;
    r.cached_tokens_per_sequence = cached;
    r.kv_cache_per_token = twin::storage(detail::kv_elements_per_token(m, tp, w.layers), shape.kv_cache);
    r.kv_cache = static_cast<double>(shape.batch * cached) * r.kv_cache_per_token;

    const std::int64_t all_tokens = shape.batch * shape.context;
    const std::int64_t step_tokens = all_tokens < shape.max_tokens_per_step ? all_tokens : shape.max_tokens_per_step;
    const double logits_bytes = 4.0 * static_cast<double>(shape.batch * m.vocab) / static_cast<double>(tp);
    r.activations = twin::storage(static_cast<double>(step_tokens) * detail::workspace_elements_per_token(m, tp),
                                  shape.activations) +
                    logits_bytes;

    const double tensors = r.weights + r.kv_cache + r.activations;
    r.overhead = raw_overhead_for(overhead, tensors, tp * pp > 1);
    r.total = tensors + r.overhead;
    return r;
}

/// memory/training.hpp's model_states, in bytes, and shard_model_states() transliterated.
struct raw_model_states {
    double weights, gradients, optimizer_states;
};

inline raw_model_states raw_shard_model_states(double parameters, const gpucalc::training_setup& setup,
                                               std::int64_t data_parallel) {
    const std::int64_t stage = setup.parallel.zero_stage;
    const double dp = static_cast<double>(data_parallel);
    raw_model_states r{};
    r.weights = twin::storage(parameters / (stage >= 3 ? dp : 1.0), setup.parameters);
    r.gradients = twin::storage(parameters / (stage >= 2 ? dp : 1.0), setup.gradients);
    r.optimizer_states = parameters * detail::optimizer_bytes_per_parameter(setup) / (stage >= 1 ? dp : 1.0);
    return r;
}

/// memory/training.hpp's training_memory, in bytes.
struct raw_training_memory {
    double weights, gradients, optimizer_states, activations, overhead, total, host_memory,
        activations_per_layer;
};

/// training_memory_per_gpu(), transliterated. `shape` supplies the counts, formats and flags;
/// its overhead is `overhead`, in bytes.
[[gnu::flatten, gnu::noinline]] raw_training_memory raw_training(const gpucalc::transformer& m,
                                                                 const gpucalc::training_setup& shape,
                                                                 const raw_overhead& overhead) {
    constexpr const char* function = "training_memory";
    detail::check(m, shape, function);
    raw_check(overhead, function);
    const gpucalc::parallelism& par = shape.parallel;
    const detail::stage_weights w = detail::weights_on_worst_stage(m, par.tensor, par.pipeline, par.expert);
    const double stage_parameters = w.linear + w.embedding_class;
    const std::int64_t expert_data = detail::exact_quotient(par.data, par.expert);

    raw_training_memory r{};
    gpucalc::storage_format resident_format = shape.parameters;
    if (shape.lora.enabled) {
        resident_format = shape.lora.frozen_base;
        const double p3 = par.zero_stage >= 3 ? static_cast<double>(par.data) : 1.0;
        const double p3_experts = par.zero_stage >= 3 ? static_cast<double>(expert_data) : 1.0;
        r.weights = twin::storage((w.linear - w.experts) / p3 + w.experts / p3_experts, shape.lora.frozen_base) +
                    twin::storage(w.embedding_class / p3, shape.parameters);
        const double adapter = static_cast<double>(gpucalc::lora_parameter_count(m, shape.lora.adapter)) /
                               static_cast<double>(par.tensor * par.pipeline);
        const raw_model_states trained = raw_shard_model_states(adapter, shape, par.data);
        r.weights += trained.weights;
        r.gradients = trained.gradients;
        r.optimizer_states = trained.optimizer_states;
    } else {
        const raw_model_states dense = raw_shard_model_states(stage_parameters - w.experts, shape, par.data);
        r.weights = dense.weights;
        r.gradients = dense.gradients;
        r.optimizer_states = dense.optimizer_states;
        if (w.experts > 0.0) {
            const raw_model_states experts = raw_shard_model_states(w.experts, shape, expert_data);
            r.weights += experts.weights;
            r.gradients += experts.gradients;
            r.optimizer_states += experts.optimizer_states;
        }
    }
    if (shape.offload_optimizer) {
        r.host_memory += r.optimizer_states + r.gradients;
        r.optimizer_states = 0.0;
        r.gradients = 0.0;
    }
    if (shape.offload_parameters) {
        const double layer = w.linear / w.layers;
        const double unit = layer > w.embedding_class ? layer : w.embedding_class;
        r.host_memory += r.weights;
        r.weights = twin::storage(2.0 * unit, resident_format);
    }

    const double per_layer = detail::layer_activation_bytes(m, shape, shape.recompute);
    r.activations_per_layer = per_layer;
    const std::int64_t p = par.pipeline;
    const std::int64_t in_flight_wanted = par.microbatches_in_flight > 0 ? par.microbatches_in_flight : p;
    const double in_flight = static_cast<double>(in_flight_wanted < p ? in_flight_wanted : p);
    const double interleave_factor =
        par.interleave > 1 ? 1.0 + static_cast<double>(p - 1) / static_cast<double>(p * par.interleave) : 1.0;
    double activations = w.layers * in_flight * interleave_factor * per_layer;
    if (shape.recompute != gpucalc::recompute::none) {
        activations += detail::layer_activation_bytes(m, shape, gpucalc::recompute::none) - per_layer;
    }
    const double sbh = static_cast<double>(shape.sequence * shape.micro_batch * m.hidden);
    const double t = static_cast<double>(par.tensor);
    const bool sp = par.sequence_parallel && par.tensor > 1;
    const double replicated_share = sp ? 1.0 / t : 1.0;
    if (shape.dropout) activations += sbh * in_flight * replicated_share;
    if (p == 1) {
        const double e = gpucalc::bytes_per_element({shape.activations.element});
        activations += 2.0 * e * sbh * replicated_share +
                       4.0 * sbh / static_cast<double>(m.hidden) * static_cast<double>(m.vocab) / t;
    }
    r.activations = activations;

    const double tensors = r.weights + r.gradients + r.optimizer_states + r.activations;
    const bool parallel = par.tensor * par.pipeline * par.data > 1;
    r.overhead = raw_overhead_for(overhead, tensors, parallel);
    r.total = tensors + r.overhead;
    return r;
}

// The twins must agree with the library, field by field, before they are timed against it: on a
// dense model with GQA, and on an MoE with paging, pipelining, offload, recompute and LoRA.
void check_inference(const gpucalc::transformer& m, const gpucalc::inference_setup& s) {
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

void check_training(const gpucalc::transformer& m, const gpucalc::training_setup& s) {
    const gpucalc::training_memory lib = gpucalc::training_memory_per_gpu(m, s);
    const raw_training_memory raw = raw_training(m, s, raw_of(s.overhead));
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
    gpucalc::inference_setup s{};
    s.batch = 7;
    s.context = 3000;
    s.tensor_parallel = 2;
    check_inference(cat::llama_3_8b, s);
    s.pipeline_parallel = 4;
    s.kv_block_tokens = 16;
    s.weights = gpucalc::formats::int4_g128;
    check_inference(cat::mixtral_8x7b, s);

    gpucalc::training_setup t{};
    t.micro_batch = 2;
    t.parallel.data = 16;
    t.parallel.zero_stage = 3;
    check_training(cat::llama_3_8b, t);
    t.parallel.pipeline = 4;
    t.parallel.interleave = 2;
    t.parallel.expert = 8;
    t.recompute = gpucalc::recompute::selective;
    t.dropout = true;
    t.offload_optimizer = true;
    t.offload_parameters = true;
    check_training(cat::mixtral_8x7b, t);
    t.lora.enabled = true;
    t.lora.frozen_base = gpucalc::formats::nf4_double_quant;
    t.offload_parameters = false;
    check_training(cat::mixtral_8x7b, t);
}

// --- the timed loops ------------------------------------------------------------------------------
// Both sides work on local copies of the model and setup, so neither folds the catalog's
// constants, and both are called out of line: the twins are noinline, and the compiler keeps the
// library's flattened functions out of line at this size (callgrind shows the calls). A noinline
// wrapper around the library call would add a call and a copy the twin does not pay.

void BM_inference_memory_units(benchmark::State& state) {
    const auto batch = varied(1, 64), context = varied(128, 8192);
    const gpucalc::transformer model = cat::llama_3_8b;
    gpucalc::inference_setup s{};
    s.tensor_parallel = 2;
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
BENCHMARK(BM_inference_memory_units);

void BM_inference_memory_raw(benchmark::State& state) {
    const auto batch = varied(1, 64), context = varied(128, 8192);
    const gpucalc::transformer model = cat::llama_3_8b;
    gpucalc::inference_setup s{};
    s.tensor_parallel = 2;
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

void BM_training_memory_units(benchmark::State& state) {
    const auto micro_batch = varied(1, 16), data = varied(1, 512);
    const gpucalc::transformer model = cat::llama_3_8b;
    gpucalc::training_setup t{};
    t.parallel.zero_stage = 3;
    std::size_t i = 0;
    for (auto _ : state) {
        t.micro_batch = micro_batch[i];
        t.parallel.data = data[i];
        const gpucalc::training_memory r = gpucalc::training_memory_per_gpu(model, t);
        benchmark::DoNotOptimize(r.total.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_training_memory_units);

void BM_training_memory_raw(benchmark::State& state) {
    const auto micro_batch = varied(1, 16), data = varied(1, 512);
    const gpucalc::transformer model = cat::llama_3_8b;
    gpucalc::training_setup t{};
    t.parallel.zero_stage = 3;
    const raw_overhead overhead = raw_of(t.overhead);
    std::size_t i = 0;
    for (auto _ : state) {
        t.micro_batch = micro_batch[i];
        t.parallel.data = data[i];
        const raw_training_memory r = raw_training(model, t, overhead);
        benchmark::DoNotOptimize(r.total);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_training_memory_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
