// twin_memory.hpp: the raw-double twins of the memory pieces a training step reads (workload.hpp's
// runtime_overhead and its check, memory/overhead.hpp's overhead_for, memory/training.hpp's
// training_memory_of), in bytes, shared by memory_bench.cpp and scaling_step_bench.cpp so the two
// cannot drift apart (twin_support.hpp says how a twin is written). twin_support.hpp's
// `#pragma clang fp contract(off)` holds to the end of the translation unit; it is repeated here
// so this code has it whatever is included first.
#pragma once

#include <gpucalc/memory.hpp>

#include "twin_support.hpp"

#include <cstdint>

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace twin {

namespace detail = gpucalc::detail;

/// workload.hpp's runtime_overhead, in bytes.
struct raw_overhead {
    double cuda_context, fragmentation, communication_buffers;
};

inline raw_overhead raw_of(const gpucalc::runtime_overhead& o) {
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

}  // namespace twin
