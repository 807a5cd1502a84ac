// workload.hpp: how a model is run: a serving replica's setup, a training job's fixed terms and
// the choices that split it across GPUs; memory, roofline and cost all take these
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "detail/checks.hpp"
#include "hardware.hpp"
#include "model.hpp"
#include "parallelism.hpp"
#include "precision.hpp"
#include "units.hpp"
#include "workload/item.hpp"

namespace gpucalc {

/// What the runtime costs on each GPU on top of weights, optimizer state, activations and KV
/// cache. Every figure is a planning assumption, uncertain, with its range and source here and
/// in docs/memory.md; measure your own stack and pass the numbers.
///
/// Valid ranges: cuda_context and communication_buffers 0 or in [1e-30 B, 1e30 B] (data_size's
/// input range, docs/units.md); fragmentation in [0, 1).
struct runtime_overhead {
    /// The CUDA context and the framework's kernels: PyTorch reports ~300 MB with CUDA lazy
    /// loading (the default on Linux since CUDA 12.2) and over 1 GB without it
    /// (pytorch/pytorch#107667, PR #86509). Uncertain: 0.3–1 GiB; 0.5 GiB planned.
    data_size cuda_context = make<gibibytes>(0.5);
    /// Memory the caching allocator holds but cannot use, as a fraction of the tensors'
    /// bytes. Uncertain: no authoritative figure is published (the ZeRO paper, §3.2, saw
    /// out-of-memory with over 30% free in extreme cases); 5% planned.
    double fragmentation = 0.05;
    /// Collective-communication buffers (NCCL), counted only when any parallel degree is > 1.
    /// Uncertain: NCCL's buffers are 4 MiB per channel and peer by default; 0.25–1 GiB is
    /// typical of 8-GPU nodes; 0.5 GiB planned.
    data_size communication_buffers = make<gibibytes>(0.5);
};

/// One serving replica: the batch it holds, the formats it stores and computes in, how it is
/// split, and the engine's assumptions. inference_memory_per_gpu, decode, prefill and the
/// serving cost all take it, so each is said once.
///
/// Valid ranges: batch, context, prompt and max_tokens_per_step in [1, 2^40], and batch ×
/// context × vocab below 2^53; kv_block_tokens in [0, 2^40]; parallel as check_serving says
/// (tensor and pipeline only); every storage format as bits_per_element says (each
/// number_format an enumerator, block sizes in [0, 2^40]); the overhead as runtime_overhead
/// says.
struct serving_setup {
    std::int64_t batch = 1;       ///< sequences held (and decoded) at once
    /// Tokens per sequence in the KV cache: memory sizes the cache for this many (prompt +
    /// output), and a decode step attends over this many cached tokens.
    std::int64_t context = 4096;
    std::int64_t prompt = 2048;   ///< tokens per prompt, for prefill
    /// Tensor and pipeline parallelism within the replica; the other degrees stay 1.
    parallel_layout parallel{};
    /// Linear-layer weights. Quantized formats carry their block scales (formats::int4_g128).
    storage_format weights = formats::bf16;
    /// Embedding, output head and norms: weight-only quantizers (GPTQ, AWQ, bitsandbytes) leave
    /// them in 16 bits, so they have their own format.
    storage_format embeddings = formats::bf16;
    storage_format kv_cache = formats::bf16;
    storage_format activations = formats::bf16;
    /// The precision the matmuls run in, which selects the peak: int4 weights usually run in
    /// bf16 (weight-only quantization dequantizes on the fly).
    compute_precision compute = compute_precision::bf16;
    kernel_efficiency efficiency{};  ///< fraction of the peaks the kernels reach
    /// Causal prefill kernels skip the masked half of the score matrix: token i attends to i
    /// keys (Dao et al. 2022 §3.1). Off, every prompt token attends to the whole prompt.
    bool causal = true;
    /// Paged KV cache: each sequence holds whole blocks of this many tokens; 0 = no paging.
    /// vLLM's default block is 16 tokens (Kwon et al. 2023, §7.2). At most 2^40.
    std::int64_t kv_block_tokens = 0;
    /// Tokens one forward pass processes at most (the chunked-prefill budget); it sizes the
    /// activation workspace. 2,048 is vLLM's max_num_batched_tokens floor (uncertain: engines
    /// and versions differ, 512–16,384).
    std::int64_t max_tokens_per_step = 2048;
    runtime_overhead overhead{};
};

/// GPUs one serving replica occupies: tensor × pipeline (× the other degrees, which a valid
/// serving setup leaves at 1). Ranges as gpus_of(parallel_layout), reported as
/// "parallel.<degree>".
constexpr std::int64_t gpus_of(const serving_setup& s) {
    return detail::checked_gpus(s.parallel, {"gpus_of", "parallel."});
}

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

/// Fine-tuning with LoRA/QLoRA: the base is frozen (no gradients or optimizer state) and
/// stored in `frozen_base`; only the adapter trains.
struct lora_finetune {
    bool enabled = false;
    lora_adapter adapter{};
    storage_format frozen_base = formats::bf16;  ///< QLoRA: formats::nf4_double_quant
};

/// What is fixed for a training job, whatever the GPUs: the data's shape, the optimizer, the
/// formats and the model-side techniques. Every assumption is a field with its default's source.
/// (A member shares its type's name where the domain has one word for both, e.g. `optimizer`.)
///
/// Valid ranges: sequence in [1, 2^40]; global_batch 0 (unstated) or in [1, 2^40], a multiple
/// of micro_batch × parallel.data; optimizer an enumerator; every storage format as
/// bits_per_element says; with lora.enabled, the adapter as lora_parameter_count says; the
/// overhead as runtime_overhead says.
struct training_job {
    std::int64_t sequence = 2048;  ///< tokens per training sequence
    /// Sequences per optimizer step (the global batch). With it, each data-parallel rank runs
    /// global_batch ÷ (micro_batch × data) micro-batches per step, which bounds how many are in
    /// flight in a pipeline. 0 leaves it unstated: the pipeline is taken to be full.
    std::int64_t global_batch = 0;
    gpucalc::optimizer optimizer = gpucalc::optimizer::adamw;
    /// Mixed precision keeps an fp32 master copy of the weights (4 bytes; ZeRO paper §3.1).
    bool fp32_master_weights = true;
    storage_format parameters = formats::bf16;
    /// Megatron-LM accumulates gradients in fp32 ("main_grad"); set formats::fp32 for that.
    storage_format gradients = formats::bf16;
    storage_format activations = formats::bf16;
    compute_precision compute = compute_precision::bf16;  ///< selects the peak for time
    /// FlashAttention (Dao et al. 2022) keeps no s² score matrix, only fp32 softmax statistics.
    bool flash_attention = true;
    /// Dropout on attention and residuals: GPT-3-style training (Korthikanti's models) uses it,
    /// Llama-style training does not. It adds 1-byte masks and a second copy of the scores.
    bool dropout = false;
    lora_finetune lora{};
    runtime_overhead overhead{};
};

/// What a plan chooses for a training job: how it is split, the micro-batch, and what is
/// recomputed or offloaded to trade time for memory.
///
/// Valid ranges: parallel as parallel_layout says, with the model's rules (detail::check in
/// parallelism.hpp); micro_batch in [1, 2^40], and micro_batch × sequence × hidden below 2^53;
/// recompute an enumerator; offload_optimizer needs ZeRO 1–3, offload_parameters ZeRO 3.
struct training_strategy {
    parallel_layout parallel{};
    std::int64_t micro_batch = 1;  ///< sequences per micro-batch on each data-parallel rank
    gpucalc::recompute recompute = gpucalc::recompute::none;
    /// ZeRO-Offload (Ren et al. 2021): optimizer states and the master copy live in CPU memory.
    bool offload_optimizer = false;
    /// ZeRO-Infinity (Rajbhandari et al. 2021): parameters live in CPU memory and are fetched
    /// one layer at a time, two layers resident (ZeRO stage 3 only).
    bool offload_parameters = false;
};

/// GPUs a training strategy occupies: tensor × pipeline × context_parallel × data. Ranges as
/// gpus_of(parallel_layout), reported as "parallel.<degree>".
constexpr std::int64_t gpus_of(const training_strategy& s) {
    return detail::checked_gpus(s.parallel, {"gpus_of", "parallel."});
}

namespace detail {

constexpr void check(const runtime_overhead& o, const char* function) {
    require_non_negative(function, "overhead.cuda_context", o.cuda_context);
    require_non_negative(function, "overhead.communication_buffers", o.communication_buffers);
    if (!(o.fragmentation >= 0.0 && o.fragmentation < 1.0)) {
        throw_invalid(function, "overhead.fragmentation", o.fragmentation, "",
                      "must be in [0, 1)");
    }
}

/// batch × context × vocab, the largest count a serving evaluation forms: it must stay below
/// 2^53, where counts stop being exact. The searches in memory/fit.hpp ask this before they
/// probe.
constexpr double tokens_by_vocab(const transformer& m, const serving_setup& s) {
    return static_cast<double>(s.batch) * static_cast<double>(s.context) *
           static_cast<double>(m.vocab);
}

/// The serving setup's shape checks (model, counts, layout, paging, storage formats), which
/// involve no quantity; the overhead and the efficiency are checked by the functions that read
/// them.
constexpr void check(const checked_model& cm, const serving_setup& s, const char* function) {
    const transformer& m = cm.spec();
    require_count(function, "batch", s.batch);
    require_count(function, "context", s.context);
    require_count(function, "max_tokens_per_step", s.max_tokens_per_step);
    if (!(tokens_by_vocab(m, s) < largest_exact_count)) {
        throw_invalid(function, "batch x context x vocab", tokens_by_vocab(m, s), "",
                      "must stay below 2^53, where counts stop being exact");
    }
    require_count_or_zero(function, "kv_block_tokens", s.kv_block_tokens,
                          "must be >= 0 (0 means no paging)");
    check_serving(cm, s.parallel, function);
    check_format(s.weights, function, "weights.");
    check_format(s.embeddings, function, "embeddings.");
    check_format(s.kv_cache, function, "kv_cache.");
    check_format(s.activations, function, "activations.");
}

/// micro_batch × sequence × hidden, the largest count a training evaluation forms: it must
/// stay below 2^53, where counts stop being exact. The searches in memory/fit.hpp ask this
/// before they probe.
constexpr double tokens_by_width(const transformer& m, const training_job& job,
                                 const training_strategy& s) {
    return static_cast<double>(s.micro_batch) * static_cast<double>(job.sequence) *
           static_cast<double>(m.hidden);
}

/// What model states need of a training job: an optimizer from the enum and in-range formats
/// for the parameters and gradients (model_states_per_gpu reads only these).
constexpr void check_model_state_fields(const training_job& job, const char* function) {
    require_enumerator(function, "optimizer", job.optimizer, 4, "gpucalc::optimizer");
    check_format(job.parameters, function, "parameters.");
    check_format(job.gradients, function, "gradients.");
}

/// A training job and strategy's shape checks (counts, layout, global batch, ZeRO with
/// offload, enums, storage formats, LoRA), which involve no quantity; the overhead is checked
/// on its own.
constexpr void check(const checked_model& cm, const training_job& job, const training_strategy& s,
                     const char* function) {
    const transformer& m = cm.spec();
    require_count(function, "micro_batch", s.micro_batch);
    require_count(function, "sequence", job.sequence);
    if (!(tokens_by_width(m, job, s) < largest_exact_count)) {
        throw_invalid(function, "micro_batch x sequence x hidden", tokens_by_width(m, job, s),
                      "", "must stay below 2^53, where counts stop being exact");
    }
    check(cm, s.parallel, job.sequence, function);
    if (job.global_batch != 0) {
        require_count(function, "global_batch", job.global_batch);
        // Each data-parallel rank takes whole micro-batches (Megatron-LM and DeepSpeed both
        // require it). micro_batch × data < 2^80 cannot overflow a double.
        const double per_round =
            static_cast<double>(s.micro_batch) * static_cast<double>(s.parallel.data);
        const double rounds = static_cast<double>(job.global_batch) / per_round;
        if (!(rounds >= 1.0 && is_whole(rounds))) {
            throw_invalid(function, "global_batch", static_cast<double>(job.global_batch), "",
                          "must be a multiple of micro_batch x parallel.data = ", per_round,
                          " (0 leaves it unstated)");
        }
    }
    if (s.offload_optimizer && s.parallel.zero_stage < 1) {
        throw_invalid(function, "parallel.zero_stage", static_cast<double>(s.parallel.zero_stage),
                      "", "must be 1, 2 or 3 to offload the optimizer (ZeRO-Offload)");
    }
    if (s.offload_parameters && s.parallel.zero_stage != 3) {
        throw_invalid(function, "parallel.zero_stage", static_cast<double>(s.parallel.zero_stage),
                      "", "must be 3 to offload parameters (ZeRO-Infinity shards them first)");
    }
    require_enumerator(function, "recompute", s.recompute, 3, "recompute");
    check_model_state_fields(job, function);
    check_format(job.activations, function, "activations.");
    if (job.lora.enabled) {
        check_lora(m, job.lora.adapter, function, {"lora.adapter.rank", "lora.adapter.targets"});
        check_format(job.lora.frozen_base, function, "lora.frozen_base.");
    }
}

/// Micro-batches each data-parallel rank runs per step for a checked job and strategy; 0 when
/// the global batch is unstated.
constexpr std::int64_t microbatches_per_step(const training_job& job, const training_strategy& s) {
    return job.global_batch == 0
               ? 0
               : static_cast<std::int64_t>(static_cast<double>(job.global_batch) /
                                           (static_cast<double>(s.micro_batch) *
                                            static_cast<double>(s.parallel.data)));
}

}  // namespace detail
}  // namespace gpucalc
