// memory/training.hpp: how many bytes training or fine-tuning a model needs on each GPU:
// weights, gradients, optimizer states, activations and overhead, under TP/PP/DP/SP/EP, ZeRO,
// recompute, CPU offload and LoRA/QLoRA
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "overhead.hpp"

namespace gpucalc {

namespace detail {
/// optimizer_state_bytes() for an optimizer already checked.
constexpr double optimizer_state_bytes_unchecked(optimizer o) {
    switch (o) {
        case optimizer::adamw: return 8.0;
        case optimizer::sgd_momentum: return 4.0;
        case optimizer::adamw_8bit: return 2.0 + 2.0 * 4.0 / 2048.0;
        case optimizer::adafactor: return 0.0;
    }
    return 0.0;
}
}  // namespace detail

/// Optimizer-state bytes per trained parameter, the fp32 master copy excluded.
/// 8-bit Adam adds one fp32 scale per 2,048-value block per moment (Dettmers et al. 2022 §2);
/// Adafactor keeps O(rows + columns) per matrix, taken as zero here. `o` must be one of the
/// enumerators (a value cast from another integer is invalid_input, not 0 bytes).
constexpr double optimizer_state_bytes(optimizer o) {
    detail::require_enumerator("optimizer_state_bytes", "o", o, 4, "gpucalc::optimizer");
    return detail::optimizer_state_bytes_unchecked(o);
}

/// Bytes on the most loaded GPU (the first pipeline stage), by kind; offloaded bytes are
/// reported as host memory per GPU.
struct training_memory {
    data_size weights{};
    data_size gradients{};
    data_size optimizer_states{};
    data_size activations{};
    data_size overhead{};
    data_size total{};
    data_size host_memory{};          ///< CPU memory offload needs, per GPU
    data_size activations_per_layer{};  ///< one micro-batch, one layer (Korthikanti Table 2)
};

namespace detail {

/// Optimizer bytes per trained parameter of a checked job: the optimizer's state plus the fp32
/// master copy.
constexpr double optimizer_bytes_per_parameter(const training_job& job) {
    return optimizer_state_bytes_unchecked(job.optimizer) + (job.fp32_master_weights ? 4.0 : 0.0);
}

/// Activation bytes of one layer for one micro-batch on one GPU, for a checked job and
/// strategy. Context parallelism leaves each GPU sequence ÷ CP of every sequence's tokens.
constexpr double layer_activation_bytes(const checked_model& cm, const training_job& job,
                                        const training_strategy& st, gpucalc::recompute policy) {
    const transformer& m = cm.spec();
    const parallel_layout& par = st.parallel;
    const double s = static_cast<double>(job.sequence) / static_cast<double>(par.context_parallel);
    const double sb = s * static_cast<double>(st.micro_batch);
    const double h = static_cast<double>(m.hidden);
    const double tp = static_cast<double>(par.tensor);
    const double e = bytes_per_element({job.activations.element});
    const bool sp = par.sequence_parallel && par.tensor > 1;

    if (policy == recompute::full) return e * sb * h;  // the layer's input only

    // Replicated under TP (split only by SP): the attention and MLP inputs, the two norms'
    // inputs, and the two residual dropout masks (1 byte each).
    const double replicated = e * 4.0 * sb * h + (job.dropout ? 2.0 * sb * h : 0.0);
    // Per GPU under TP: Q and the output projection's input (split), K and V (split, or one
    // replicated head when TP exceeds the KV heads), the MLP's intermediates (split).
    const attention_widths w = attention_widths_per_gpu(cm, par.tensor);
    const double f = static_cast<double>(m.ffn_hidden * detail::active_experts_unchecked(m));
    const double mlp = (m.mlp == mlp_kind::gated ? 3.0 : 2.0) * f / tp;
    double per_gpu = e * sb * (2.0 * w.q + 2.0 * w.kv + mlp);
    // The attention core: the softmax output over the attended keys (and with dropout, its
    // mask and output), heads/t · (local queries) · keys · b elements each.
    const double heads = static_cast<double>(m.heads) / tp;
    if (policy == recompute::none && !job.flash_attention) {
        const double keys = static_cast<double>(detail::attended_unchecked(m, job.sequence));
        per_gpu += (job.dropout ? 2.0 * e + 1.0 : e) * heads * keys * sb;
    } else if (policy == recompute::none) {
        per_gpu += 4.0 * heads * sb;  // FlashAttention: fp32 log-sum-exp per query and head
    }
    return (sp ? replicated / tp : replicated) + per_gpu;
}

}  // namespace detail

/// Activation bytes of one transformer layer for one micro-batch on one GPU (Korthikanti et
/// al. 2022, Table 2, generalized from their 4h-MLP multi-head layer to GQA and gated MLPs;
/// derived). With their GPT layer, dropout on and 16-bit activations it is exactly:
///   no recompute, TP t:       s·b·h·(10 + 24/t + 5·a·s/(h·t))
///   + sequence parallel:      s·b·h·(34 + 5·a·s/h)/t
///   selective recompute:      s·b·h·(10 + 24/t), or 34·s·b·h/t with SP
///   full recompute:           2·s·b·h (each layer's input; not split by TP, §5)
/// FlashAttention drops the s² terms as selective recompute does, and keeps fp32 softmax
/// statistics, 4·a·s·b/t bytes. A sliding window caps the keys each query scores. Context
/// parallelism divides s by its degree, except for the keys each local query scores (derived).
/// Ranges: the model's (check()), the job's and the strategy's (see training_job and
/// training_strategy).
constexpr data_size activation_bytes_per_layer(const transformer& m, const training_job& job,
                                               const training_strategy& strategy) {
    constexpr const char* function = "activation_bytes_per_layer";
    const checked_model cm = check(m, function);
    detail::check(cm, job, strategy, function);
    return make<bytes>(detail::layer_activation_bytes(cm, job, strategy, strategy.recompute));
}

/// Parameters, gradients and optimizer states of `parameters` trained parameters on one GPU
/// under ZeRO (Rajbhandari et al. 2020, §5): stage 1 shards the optimizer states (K bytes per
/// parameter: the fp32 master copy and the optimizer's state), stage 2 also the gradients,
/// stage 3 also the parameters, each over the data-parallel degree. Mixed-precision Adam is
/// 2 + 2 + 12 = 16 bytes per parameter before sharding (§3.1).
struct model_states {
    data_size weights{};
    data_size gradients{};
    data_size optimizer_states{};
};

namespace detail {
/// model_states_per_gpu() for a checked job, sharded over `ranks` ranks at `zero_stage`.
constexpr model_states shard_model_states(double parameters, const training_job& job,
                                          std::int64_t zero_stage, double ranks) {
    model_states r{};
    r.weights = storage_size(parameters / (zero_stage >= 3 ? ranks : 1.0), job.parameters);
    r.gradients = storage_size(parameters / (zero_stage >= 2 ? ranks : 1.0), job.gradients);
    r.optimizer_states =
        make<bytes>(parameters * optimizer_bytes_per_parameter(job) / (zero_stage >= 1 ? ranks : 1.0));
    return r;
}
}  // namespace detail

/// The model states of `parameters` trained parameters on one GPU of `layout`, sharded by its
/// ZeRO stage over its data-parallel ranks times its context-parallel ones, as
/// training_memory_per_gpu shards the dense weights (see model_states). Ranges: `parameters`
/// 0 or in [1e-30, 2^53] (not necessarily whole: a GPU's share); of `job`, the optimizer and
/// the parameter and gradient formats (see training_job); of `layout`, zero_stage 0–3, data
/// and context_parallel in [1, 2^40] with their product at most 2^40 (the other degrees are
/// not read). Errors name "layout.<degree>".
constexpr model_states model_states_per_gpu(double parameters, const training_job& job,
                                            const parallel_layout& layout) {
    constexpr const char* function = "model_states_per_gpu";
    if (!((parameters >= detail::smallest_input && parameters <= detail::largest_exact_count) ||
          detail::exactly_equal(parameters, 0.0))) {
        detail::throw_invalid(function, "parameters", parameters, "",
                              "must be 0 or in [1e-30, 2^53]");
    }
    detail::check_model_state_fields(job, function);
    const detail::layout_path at{function, "layout."};
    detail::check_zero_stage(layout.zero_stage, at);
    detail::require_degree(at, "@data", layout.data);
    detail::require_degree(at, "@context_parallel", layout.context_parallel);
    const double ranks =
        static_cast<double>(layout.data) * static_cast<double>(layout.context_parallel);
    if (!(ranks <= static_cast<double>(detail::largest_count))) {
        detail::throw_layout(at, "@data x @context_parallel", ranks, "must be <= 2^40");
    }
    return detail::shard_model_states(parameters, job, layout.zero_stage, ranks);
}

namespace detail {
/// training_memory_per_gpu, naming `function` in its errors (the searches name themselves).
/// Flattened as well as inlined: Clang 14's flatten reaches one level only, so flattening the
/// entry points alone left this body's helpers (shard_model_states, which returns quantities
/// through memory, weights_on_worst_stage, layer_activation_bytes) out of line under Clang, at
/// 1.25-1.29x the raw-double twin, whose flattened body calls them directly.
GPUCALC_DETAIL_HOT GPUCALC_DETAIL_INLINE constexpr training_memory training_memory_of(const checked_model& cm,
                                                                   const training_job& job,
                                                                   const training_strategy& strategy,
                                                                   const char* function) {
    const transformer& m = cm.spec();
    detail::check(cm, job, strategy, function);
    detail::check(job.overhead, function);
    const parallel_layout& par = strategy.parallel;
    const detail::stage_weights w =
        detail::weights_on_worst_stage(cm, par.tensor, par.pipeline, par.expert);
    const double stage_parameters = w.linear + w.embedding_class;
    const double cp = static_cast<double>(par.context_parallel);
    const double dense_ranks = static_cast<double>(par.data) * cp;
    const double expert_ranks =
        static_cast<double>(detail::exact_quotient(par.data, par.expert)) * cp;
    const std::int64_t stage = par.zero_stage;

    training_memory r{};
    storage_format resident_format = job.parameters;
    if (job.lora.enabled) {
        // The base is frozen: stored in frozen_base (linear layers) and job.parameters
        // (embedding, head, norms), with no gradients or optimizer state; ZeRO-3/FSDP shards it
        // like any parameters (experts over their own group). The adapter trains with full
        // state, split like its layers by TP and PP, and sharded by the ZeRO stage.
        resident_format = job.lora.frozen_base;
        const double p3 = stage >= 3 ? dense_ranks : 1.0;
        const double p3_experts = stage >= 3 ? expert_ranks : 1.0;
        r.weights = storage_size((w.linear - w.experts) / p3 + w.experts / p3_experts,
                                 job.lora.frozen_base) +
                    storage_size(w.embedding_class / p3, job.parameters);
        const double adapter =
            static_cast<double>(detail::lora_parameters_unchecked(m, job.lora.adapter)) /
            (static_cast<double>(par.tensor) * static_cast<double>(par.pipeline));
        const model_states trained = detail::shard_model_states(adapter, job, stage, dense_ranks);
        r.weights += trained.weights;
        r.gradients = trained.gradients;
        r.optimizer_states = trained.optimizer_states;
    } else {
        const model_states dense =
            detail::shard_model_states(stage_parameters - w.experts, job, stage, dense_ranks);
        r.weights = dense.weights;
        r.gradients = dense.gradients;
        r.optimizer_states = dense.optimizer_states;
        if (w.experts > 0.0) {
            const model_states experts = detail::shard_model_states(w.experts, job, stage, expert_ranks);
            r.weights += experts.weights;
            r.gradients += experts.gradients;
            r.optimizer_states += experts.optimizer_states;
        }
    }
    if (strategy.offload_optimizer) {
        // ZeRO-Offload (Ren et al. 2021): optimizer states and the master copy live on the CPU,
        // and gradients are moved there for the CPU optimizer step.
        r.host_memory += r.optimizer_states + r.gradients;
        r.optimizer_states = data_size{};
        r.gradients = data_size{};
    }
    if (strategy.offload_parameters) {
        // The ZeRO-3 shard moves to the host; the GPU holds two gathered units at a time, the
        // one computing and the one being fetched: a layer, or the embedding/head when that is
        // larger (derived from ZeRO-Infinity's layer-wise fetching).
        const double layer = w.linear / w.layers;
        const double unit = layer > w.embedding_class ? layer : w.embedding_class;
        r.host_memory += r.weights;
        r.weights = storage_size(2.0 * unit, resident_format);
    }

    // Activations on the first stage.
    const double per_layer = detail::layer_activation_bytes(cm, job, strategy, strategy.recompute);
    r.activations_per_layer = make<bytes>(per_layer);
    const std::int64_t p = par.pipeline;
    const std::int64_t per_step = detail::microbatches_per_step(job, strategy);
    const double in_flight = static_cast<double>(per_step > 0 && per_step < p ? per_step : p);
    const double interleave_factor =
        par.interleave > 1
            ? 1.0 + static_cast<double>(p - 1) / static_cast<double>(p * par.interleave)
            : 1.0;
    double activations = w.layers * in_flight * interleave_factor * per_layer;
    if (strategy.recompute != recompute::none) {
        // The layer being recomputed rebuilds what recompute dropped, for one micro-batch.
        activations += detail::layer_activation_bytes(cm, job, strategy, recompute::none) - per_layer;
    }
    const double local_tokens = static_cast<double>(job.sequence) / cp *
                                static_cast<double>(strategy.micro_batch);
    const double sbh = local_tokens * static_cast<double>(m.hidden);
    const double t = static_cast<double>(par.tensor);
    const bool sp = par.sequence_parallel && par.tensor > 1;
    const double replicated_share = sp ? 1.0 / t : 1.0;  // split by TP only with SP (§4.3)
    if (job.dropout) activations += sbh * in_flight * replicated_share;  // embedding dropout
    if (p == 1) {
        // Final norm input and output projection input (replicated without SP), and fp32
        // logits (vocab-parallel, split by TP): 4·s·b·h/t·(1 + v/h) at 16 bits with SP (§4.3).
        const double e = bytes_per_element({job.activations.element});
        activations += 2.0 * e * sbh * replicated_share +
                       4.0 * local_tokens * static_cast<double>(m.vocab) / t;
    }
    r.activations = make<bytes>(activations);

    const data_size tensors = r.weights + r.gradients + r.optimizer_states + r.activations;
    const bool parallel = detail::gpus_unchecked(par) > 1;
    r.overhead = detail::overhead_for(job.overhead, tensors, parallel);
    r.total = tensors + r.overhead;
    return r;
}
}  // namespace detail

/// Per-GPU memory to train `m` as `job` with `strategy`, on the first pipeline stage (it holds
/// the most activations). Model states follow ZeRO (model_states_per_gpu) for the parameters
/// a GPU holds after tensor, pipeline and expert parallelism, sharded over the data-parallel
/// ranks times the context-parallel ones (CP ranks hold the same weights; Megatron-LM's
/// distributed optimizer shards over both); expert weights are sharded only over the ranks
/// that hold the same experts (data × CP ÷ expert). Activations follow Korthikanti et al. 2022
/// (activation_bytes_per_layer) times the layers of a stage and the micro-batches in flight
/// (the pipeline depth p in 1F1B, §4.2.3, or fewer when a step has fewer micro-batches), times
/// (1 + (p − 1)/(p·m)) for an interleaved schedule of m chunks, plus the embedding-dropout
/// masks and, without pipelining, the output layer's inputs and fp32 logits (§4.3); with
/// recompute, the layer being recomputed holds its full activations once more at the peak
/// (derived). A checked model skips the model's checks; the job's and strategy's are still
/// made. Ranges: the model's (check()), the job's and the strategy's (see training_job,
/// training_strategy and runtime_overhead); every field of the result is finite and >= 0.
GPUCALC_DETAIL_HOT constexpr training_memory training_memory_per_gpu(const checked_model& m,
                                                                     const training_job& job,
                                                                     const training_strategy& strategy) {
    return detail::training_memory_of(m, job, strategy, "training_memory_per_gpu");
}
GPUCALC_DETAIL_HOT constexpr training_memory training_memory_per_gpu(const transformer& m,
                                                                     const training_job& job,
                                                                     const training_strategy& strategy) {
    constexpr const char* function = "training_memory_per_gpu";
    return detail::training_memory_of(check(m, function), job, strategy, function);
}

}  // namespace gpucalc
