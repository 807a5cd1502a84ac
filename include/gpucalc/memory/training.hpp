// memory/training.hpp: how many bytes training or fine-tuning a model needs on each GPU:
// weights, gradients, optimizer states, activations and overhead, under TP/PP/DP/SP/EP, ZeRO,
// recompute, CPU offload and LoRA/QLoRA
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../detail/sharding.hpp"
#include "overhead.hpp"

namespace gpucalc {

/// Optimizers by the state they keep per trained parameter.
enum class optimizer {
    adamw,         ///< two fp32 moments: 8 bytes (ZeRO paper §3.1: K = 12 with the master copy)
    sgd_momentum,  ///< one fp32 momentum: 4 bytes
    adamw_8bit,    ///< two 8-bit moments, block-wise quantized (Dettmers et al. 2022): 2 bytes
    adafactor,     ///< factored second moment, no momentum (Shazeer & Stern 2018): ~0 bytes
};

constexpr std::string_view to_string(optimizer o) {
    switch (o) {
        case optimizer::adamw: return "adamw";
        case optimizer::sgd_momentum: return "sgd_momentum";
        case optimizer::adamw_8bit: return "adamw_8bit";
        case optimizer::adafactor: return "adafactor";
    }
    return "unknown";
}

/// Optimizer-state bytes per trained parameter, the fp32 master copy excluded.
/// 8-bit Adam adds one fp32 scale per 2,048-value block per moment (Dettmers et al. 2022 §2);
/// Adafactor keeps O(rows + columns) per matrix, taken as zero here.
constexpr double optimizer_state_bytes(optimizer o) {
    switch (o) {
        case optimizer::adamw: return 8.0;
        case optimizer::sgd_momentum: return 4.0;
        case optimizer::adamw_8bit: return 2.0 + 2.0 * 4.0 / 2048.0;
        case optimizer::adafactor: return 0.0;
    }
    return 0.0;
}

/// How a training job is split across GPUs.
struct parallelism {
    std::int64_t tensor = 1;
    std::int64_t pipeline = 1;
    std::int64_t data = 1;
    std::int64_t expert = 1;        ///< expert parallelism: experts split across this many GPUs
    std::int64_t zero_stage = 0;    ///< ZeRO 0–3 (FSDP: NO_SHARD 0, SHARD_GRAD_OP 2, FULL_SHARD 3)
    bool sequence_parallel = false; ///< Korthikanti et al. 2022 §4.2.2 (needs tensor > 1 to matter)
    std::int64_t interleave = 1;    ///< model chunks per pipeline stage (interleaved 1F1B)
    /// Micro-batches in flight on the first stage; 0 means `pipeline`, which 1F1B reaches
    /// (Korthikanti et al. 2022 §4.2.3).
    std::int64_t microbatches_in_flight = 0;
};

/// FSDP sharding strategies, as ZeRO stages (PyTorch FSDP documentation; Zhao et al. 2023).
enum class fsdp { no_shard = 0, shard_grad_op = 2, full_shard = 3 };
constexpr std::int64_t zero_stage_of(fsdp strategy) { return static_cast<std::int64_t>(strategy); }

/// Fine-tuning with LoRA/QLoRA: the base is frozen (no gradients or optimizer state) and
/// stored in `frozen_base`; only the adapter trains.
struct lora_finetune {
    bool enabled = false;
    lora_adapter adapter{};
    storage_format frozen_base = formats::bf16;  ///< QLoRA: formats::nf4_double_quant
};

/// One training configuration. Every assumption is a field with its default's source.
/// (A member shares its type's name where the domain has one word for both, e.g. `recompute`.)
struct training_setup {
    std::int64_t micro_batch = 1;
    std::int64_t sequence = 2048;
    gpucalc::recompute recompute = gpucalc::recompute::none;
    /// FlashAttention (Dao et al. 2022) keeps no s² score matrix, only fp32 softmax statistics.
    bool flash_attention = true;
    /// Dropout on attention and residuals: GPT-3-style training (Korthikanti's models) uses it,
    /// Llama-style training does not. It adds 1-byte masks and a second copy of the scores.
    bool dropout = false;
    parallelism parallel{};
    gpucalc::optimizer optimizer = gpucalc::optimizer::adamw;
    /// Mixed precision keeps an fp32 master copy of the weights (4 bytes; ZeRO paper §3.1).
    bool fp32_master_weights = true;
    storage_format parameters = formats::bf16;
    /// Megatron-LM accumulates gradients in fp32 ("main_grad"); set formats::fp32 for that.
    storage_format gradients = formats::bf16;
    storage_format activations = formats::bf16;
    /// ZeRO-Offload (Ren et al. 2021): optimizer states and the master copy live in CPU memory.
    bool offload_optimizer = false;
    /// ZeRO-Infinity (Rajbhandari et al. 2021): parameters live in CPU memory and are fetched
    /// one layer at a time, two layers resident (ZeRO stage 3 only).
    bool offload_parameters = false;
    lora_finetune lora{};
    runtime_overhead overhead{};
};

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

constexpr void check_zero_stage(std::int64_t stage, const char* function) {
    if (stage < 0 || stage > 3) {
        throw_invalid(function, "parallel.zero_stage", static_cast<double>(stage), "",
                      "must be 0, 1, 2 or 3");
    }
}

/// micro_batch × sequence × hidden, the largest count a training evaluation forms: it must stay
/// below 2^53, where counts stop being exact. The searches in fit.hpp ask this before they probe.
constexpr double tokens_by_width(const transformer& m, const training_setup& t) {
    return static_cast<double>(t.micro_batch) * static_cast<double>(t.sequence) *
           static_cast<double>(m.hidden);
}

/// The training setup's shape checks (counts, parallel degrees, ZeRO, offload, LoRA), which
/// involve no quantity; the overhead is checked on its own.
constexpr void check(const transformer& m, const training_setup& t, const char* function) {
    gpucalc::check(m, function);
    require_count(function, "micro_batch", t.micro_batch);
    require_count(function, "sequence", t.sequence);
    if (!(tokens_by_width(m, t) < largest_exact_count)) {
        throw_invalid(function, "micro_batch x sequence x hidden", tokens_by_width(m, t), "",
                      "must stay below 2^53, where counts stop being exact");
    }
    check_tensor_parallel(m, t.parallel.tensor, function);
    check_pipeline_parallel(m, t.parallel.pipeline, function);
    require_count(function, "parallel.data", t.parallel.data);
    require_count(function, "parallel.expert", t.parallel.expert);
    if (!divides(t.parallel.expert, experts_of(m))) {
        throw_invalid(function, "parallel.expert", static_cast<double>(t.parallel.expert), "",
                      "must divide experts = ", static_cast<double>(experts_of(m)), "");
    }
    if (!divides(t.parallel.expert, t.parallel.data)) {
        throw_invalid(function, "parallel.expert", static_cast<double>(t.parallel.expert), "",
                      "must divide parallel.data = ", static_cast<double>(t.parallel.data),
                      " (expert parallelism runs across data-parallel ranks)");
    }
    check_zero_stage(t.parallel.zero_stage, function);
    require_count(function, "parallel.interleave", t.parallel.interleave);
    if (t.parallel.interleave > 1 && t.parallel.pipeline == 1) {
        throw_invalid(function, "parallel.interleave", static_cast<double>(t.parallel.interleave),
                      "", "needs parallel.pipeline > 1");
    }
    if (t.parallel.interleave > ceil_div(m.layers, t.parallel.pipeline)) {
        throw_invalid(function, "parallel.interleave", static_cast<double>(t.parallel.interleave),
                      "", "must not exceed the layers per stage = ",
                      static_cast<double>(ceil_div(m.layers, t.parallel.pipeline)), "");
    }
    if (t.parallel.microbatches_in_flight < 0) {
        throw_invalid(function, "parallel.microbatches_in_flight",
                      static_cast<double>(t.parallel.microbatches_in_flight), "",
                      "must be >= 0 (0 means parallel.pipeline)");
    }
    if (t.offload_optimizer && t.parallel.zero_stage < 1) {
        throw_invalid(function, "parallel.zero_stage", static_cast<double>(t.parallel.zero_stage),
                      "", "must be 1, 2 or 3 to offload the optimizer (ZeRO-Offload)");
    }
    if (t.offload_parameters && t.parallel.zero_stage != 3) {
        throw_invalid(function, "parallel.zero_stage", static_cast<double>(t.parallel.zero_stage),
                      "", "must be 3 to offload parameters (ZeRO-Infinity shards them first)");
    }
    if (t.lora.enabled) require_count(function, "lora.adapter.rank", t.lora.adapter.rank);
}

/// Optimizer bytes per trained parameter: the optimizer's state plus the fp32 master copy.
constexpr double optimizer_bytes_per_parameter(const training_setup& setup) {
    return optimizer_state_bytes(setup.optimizer) + (setup.fp32_master_weights ? 4.0 : 0.0);
}

/// Activation bytes of one layer for one micro-batch on one GPU, for a checked setup.
constexpr double layer_activation_bytes(const transformer& m, const training_setup& t,
                                        gpucalc::recompute policy) {
    const double s = static_cast<double>(t.sequence);
    const double sb = s * static_cast<double>(t.micro_batch);
    const double h = static_cast<double>(m.hidden);
    const double tp = static_cast<double>(t.parallel.tensor);
    const double e = bytes_per_element({t.activations.element});
    const bool sp = t.parallel.sequence_parallel && t.parallel.tensor > 1;

    if (policy == recompute::full) return e * sb * h;  // the layer's input only

    // Replicated under TP (split only by SP): the attention and MLP inputs, the two norms'
    // inputs, and the two residual dropout masks (1 byte each).
    const double replicated = e * 4.0 * sb * h + (t.dropout ? 2.0 * sb * h : 0.0);
    // Per GPU under TP: Q and the output projection's input (split), K and V (split, or one
    // replicated head when TP exceeds the KV heads), the MLP's intermediates (split).
    const attention_widths w = attention_widths_per_gpu(m, t.parallel.tensor);
    const double f = static_cast<double>(m.ffn_hidden * active_experts_of(m));
    const double mlp = (m.mlp == mlp_kind::gated ? 3.0 : 2.0) * f / tp;
    double per_gpu = e * sb * (2.0 * w.q + 2.0 * w.kv + mlp);
    // The attention core: the softmax output over the attended keys (and with dropout, its
    // mask and output), heads/t · s · keys · b elements each.
    const double heads = static_cast<double>(m.heads) / tp;
    if (policy == recompute::none && !t.flash_attention) {
        const double keys = static_cast<double>(attended_tokens(m, t.sequence));
        per_gpu += (t.dropout ? 2.0 * e + 1.0 : e) * heads * keys * sb;
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
/// statistics, 4·a·s·b/t bytes. A sliding window caps the keys each query scores.
constexpr data_size activation_bytes_per_layer(const transformer& m, const training_setup& t) {
    detail::check(m, t, "activation_bytes_per_layer");
    return make<bytes>(detail::layer_activation_bytes(m, t, t.recompute));
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
/// model_states_per_gpu() for a setup already checked, sharded over `data_parallel` ranks.
constexpr model_states shard_model_states(double parameters, const training_setup& setup,
                                          std::int64_t data_parallel) {
    const std::int64_t stage = setup.parallel.zero_stage;
    const double dp = static_cast<double>(data_parallel);
    model_states r{};
    r.weights = storage_size(parameters / (stage >= 3 ? dp : 1.0), setup.parameters);
    r.gradients = storage_size(parameters / (stage >= 2 ? dp : 1.0), setup.gradients);
    r.optimizer_states =
        make<bytes>(parameters * optimizer_bytes_per_parameter(setup) / (stage >= 1 ? dp : 1.0));
    return r;
}
}  // namespace detail

constexpr model_states model_states_per_gpu(double parameters, const training_setup& setup) {
    detail::require_non_negative("model_states_per_gpu", "parameters", parameters);
    detail::check_zero_stage(setup.parallel.zero_stage, "model_states_per_gpu");
    detail::require_count("model_states_per_gpu", "parallel.data", setup.parallel.data);
    return detail::shard_model_states(parameters, setup, setup.parallel.data);
}

/// Per-GPU memory to train `m` with `setup`, on the first pipeline stage (it holds the most
/// activations). Model states follow ZeRO (model_states_per_gpu) for the parameters a GPU
/// holds after tensor, pipeline and expert parallelism; expert weights are sharded only over
/// the ranks that hold the same experts (data ÷ expert). Activations follow
/// Korthikanti et al. 2022 (activation_bytes_per_layer) times the layers of a stage and the
/// micro-batches in flight, times (1 + (p − 1)/(p·m)) for an interleaved schedule (§4.2.3),
/// plus the embedding-dropout masks and, without pipelining, the output layer's inputs and
/// fp32 logits (§4.3); with recompute, the layer being recomputed holds its full activations
/// once more at the peak (derived).
GPUCALC_DETAIL_HOT constexpr training_memory training_memory_per_gpu(const transformer& m,
                                                  const training_setup& setup) {
    constexpr const char* function = "training_memory";
    detail::check(m, setup, function);
    detail::check(setup.overhead, function);
    const parallelism& par = setup.parallel;
    const detail::stage_weights w =
        detail::weights_on_worst_stage(m, par.tensor, par.pipeline, par.expert);
    const double stage_parameters = w.linear + w.embedding_class;
    const std::int64_t expert_data = detail::exact_quotient(par.data, par.expert);

    training_memory r{};
    storage_format resident_format = setup.parameters;
    if (setup.lora.enabled) {
        // The base is frozen: stored in frozen_base (linear layers) and setup.parameters
        // (embedding, head, norms), with no gradients or optimizer state; ZeRO-3/FSDP shards it
        // like any parameters (experts over their own group). The adapter trains with full
        // state, split like its layers by TP and PP, and sharded by the ZeRO stage.
        resident_format = setup.lora.frozen_base;
        const double p3 = par.zero_stage >= 3 ? static_cast<double>(par.data) : 1.0;
        const double p3_experts = par.zero_stage >= 3 ? static_cast<double>(expert_data) : 1.0;
        r.weights = storage_size((w.linear - w.experts) / p3 + w.experts / p3_experts,
                                 setup.lora.frozen_base) +
                    storage_size(w.embedding_class / p3, setup.parameters);
        const double adapter = static_cast<double>(lora_parameter_count(m, setup.lora.adapter)) /
                               static_cast<double>(par.tensor * par.pipeline);
        const model_states trained = detail::shard_model_states(adapter, setup, par.data);
        r.weights += trained.weights;
        r.gradients = trained.gradients;
        r.optimizer_states = trained.optimizer_states;
    } else {
        const model_states dense =
            detail::shard_model_states(stage_parameters - w.experts, setup, par.data);
        r.weights = dense.weights;
        r.gradients = dense.gradients;
        r.optimizer_states = dense.optimizer_states;
        if (w.experts > 0.0) {
            const model_states experts = detail::shard_model_states(w.experts, setup, expert_data);
            r.weights += experts.weights;
            r.gradients += experts.gradients;
            r.optimizer_states += experts.optimizer_states;
        }
    }
    if (setup.offload_optimizer) {
        // ZeRO-Offload (Ren et al. 2021): optimizer states and the master copy live on the CPU,
        // and gradients are moved there for the CPU optimizer step.
        r.host_memory += r.optimizer_states + r.gradients;
        r.optimizer_states = data_size{};
        r.gradients = data_size{};
    }
    if (setup.offload_parameters) {
        // The ZeRO-3 shard moves to the host; the GPU holds two gathered units at a time, the
        // one computing and the one being fetched: a layer, or the embedding/head when that is
        // larger (derived from ZeRO-Infinity's layer-wise fetching).
        const double layer = w.linear / w.layers;
        const double unit = layer > w.embedding_class ? layer : w.embedding_class;
        r.host_memory += r.weights;
        r.weights = storage_size(2.0 * unit, resident_format);
    }

    // Activations on the first stage.
    const double per_layer = detail::layer_activation_bytes(m, setup, setup.recompute);
    r.activations_per_layer = make<bytes>(per_layer);
    const std::int64_t p = par.pipeline;
    const std::int64_t in_flight_wanted =
        par.microbatches_in_flight > 0 ? par.microbatches_in_flight : p;
    const double in_flight = static_cast<double>(in_flight_wanted < p ? in_flight_wanted : p);
    const double interleave_factor =
        par.interleave > 1
            ? 1.0 + static_cast<double>(p - 1) / static_cast<double>(p * par.interleave)
            : 1.0;
    double activations = w.layers * in_flight * interleave_factor * per_layer;
    if (setup.recompute != recompute::none) {
        // The layer being recomputed rebuilds what recompute dropped, for one micro-batch.
        activations += detail::layer_activation_bytes(m, setup, recompute::none) - per_layer;
    }
    const double sbh = static_cast<double>(setup.sequence * setup.micro_batch * m.hidden);
    const double t = static_cast<double>(par.tensor);
    const bool sp = par.sequence_parallel && par.tensor > 1;
    const double replicated_share = sp ? 1.0 / t : 1.0;  // split by TP only with SP (§4.3)
    if (setup.dropout) activations += sbh * in_flight * replicated_share;  // embedding dropout
    if (p == 1) {
        // Final norm input and output projection input (replicated without SP), and fp32
        // logits (vocab-parallel, split by TP): 4·s·b·h/t·(1 + v/h) at 16 bits with SP (§4.3).
        const double e = bytes_per_element({setup.activations.element});
        activations += 2.0 * e * sbh * replicated_share +
                       4.0 * sbh / static_cast<double>(m.hidden) * static_cast<double>(m.vocab) / t;
    }
    r.activations = make<bytes>(activations);

    const data_size tensors = r.weights + r.gradients + r.optimizer_states + r.activations;
    const bool parallel = par.tensor * par.pipeline * par.data > 1;
    r.overhead = detail::overhead_for(setup.overhead, tensors, parallel);
    r.total = tensors + r.overhead;
    return r;
}

}  // namespace gpucalc
