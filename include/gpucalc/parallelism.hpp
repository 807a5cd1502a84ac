// parallelism.hpp: how a job is split across GPUs (tensor, pipeline, data, expert and context
// parallelism, sequence parallelism, ZeRO, interleaving), the rules a split must obey, and how
// it divides a model's weights and live tensors
#pragma once

#include <cstdint>
#include <string>

#include "detail/checks.hpp"
#include "model.hpp"

namespace gpucalc {

/// How a job is split across GPUs: one type for serving, training, scaling and the plan search.
/// Every degree is a plain count (a degree carries no GPU dimension; GPU·h is for billing). A
/// job runs on tensor × pipeline × context_parallel × data GPUs (gpus_of); expert parallelism
/// is carved out of the data-parallel ranks, as in Megatron-LM and DeepSpeed-MoE.
///
/// Valid ranges: every degree in [1, 2^40], and the GPUs they occupy, tensor × pipeline ×
/// context_parallel × data, at most 2^40; zero_stage 0–3. With a model, the rules of
/// detail::check below apply too (TP splits the heads, PP leaves each stage a layer, ...).
struct parallel_layout {
    std::int64_t tensor = 1;    ///< TP: splits each layer's matrices (Shoeybi et al. 2019)
    std::int64_t pipeline = 1;  ///< PP: splits the layers into stages (Narayanan et al. 2021)
    std::int64_t data = 1;      ///< DP: replicas, each on a different slice of the batch
    std::int64_t expert = 1;    ///< EP: an MoE layer's experts split across this many DP ranks
    /// CP: each sequence split across this many GPUs, attention exchanging K and V between them
    /// (ring attention, Liu et al. 2023; Megatron-LM's --context-parallel-size).
    std::int64_t context_parallel = 1;
    /// Sequence parallelism (Korthikanti et al. 2022 §4.2.2): the norm and dropout regions split
    /// along the sequence across the TP group; it matters only with tensor > 1.
    bool sequence_parallel = false;
    /// ZeRO 0–3 (Rajbhandari et al. 2020): 1 shards optimizer states, 2 also gradients, 3 also
    /// parameters, over the data-parallel ranks. FSDP's strategies map onto it (zero_stage_of).
    std::int64_t zero_stage = 0;
    /// Model chunks per pipeline stage (interleaved 1F1B, Narayanan et al. 2021 §2.2.2).
    std::int64_t interleave = 1;
};

namespace detail {

/// Where a layout's fields are reported: the function the user called, and the path to the
/// layout in what the user passed ("parallel." in a serving setup or training strategy,
/// "layout." for a parallel_layout passed on its own).
struct layout_path {
    const char* function;
    const char* prefix = "parallel.";
};

/// `text` with each '@' replaced by `prefix`, built only on the way to an error.
GPUCALC_DETAIL_COLD inline std::string with_prefix(const char* prefix, const char* text) {
    std::string out;
    for (const char* c = text; *c != '\0'; ++c) {
        if (*c == '@') out += prefix; else out += *c;
    }
    return out;
}

/// throw_invalid for a layout field: '@' in `field`, `rule_head` and `rule_tail` reads as the
/// layout's path ("@data" is "parallel.data" or "layout.data").
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_layout(const layout_path& at, const char* field,
                                                          double value, const char* rule_head,
                                                          double number = 0.0,
                                                          const char* rule_tail = nullptr) {
    const std::string tail = rule_tail != nullptr ? with_prefix(at.prefix, rule_tail) : "";
    throw_invalid(at.function, with_prefix(at.prefix, field).c_str(), value, "",
                  with_prefix(at.prefix, rule_head).c_str(), number,
                  rule_tail != nullptr ? tail.c_str() : nullptr);
}

/// A degree: a count in [1, 2^40].
constexpr void require_degree(const layout_path& at, const char* field, std::int64_t value) {
    if (value < 1) throw_layout(at, field, static_cast<double>(value), "must be >= 1");
    if (value > largest_count) {
        throw_layout(at, field, static_cast<double>(value), "must be <= 2^40");
    }
}

/// GPUs a layout whose degrees are checked occupies (at most 2^40).
constexpr std::int64_t gpus_unchecked(const parallel_layout& p) {
    return p.tensor * p.pipeline * p.context_parallel * p.data;
}

/// The GPUs of a layout whose four GPU-occupying degrees are each checked to be in [1, 2^40]:
/// at most 2^40, a product formed in double, which cannot overflow from such factors.
constexpr void check_gpu_product(const parallel_layout& p, const layout_path& at) {
    const double gpus = static_cast<double>(p.tensor) * static_cast<double>(p.pipeline) *
                        static_cast<double>(p.context_parallel) * static_cast<double>(p.data);
    if (!(gpus <= static_cast<double>(largest_count))) {
        throw_layout(at, "@tensor x @pipeline x @context_parallel x @data", gpus,
                     "must be <= 2^40");
    }
}

/// The degrees gpus_of reads, each in [1, 2^40], and their product at most 2^40. Returns the
/// product.
constexpr std::int64_t checked_gpus(const parallel_layout& p, const layout_path& at) {
    require_degree(at, "@tensor", p.tensor);
    require_degree(at, "@pipeline", p.pipeline);
    require_degree(at, "@context_parallel", p.context_parallel);
    require_degree(at, "@data", p.data);
    check_gpu_product(p, at);
    return gpus_unchecked(p);
}

}  // namespace detail

/// GPUs a layout occupies: tensor × pipeline × context_parallel × data. Ranges: each of the
/// four in [1, 2^40] and the product at most 2^40 (invalid_input otherwise, naming
/// "layout.<degree>").
constexpr std::int64_t gpus_of(const parallel_layout& p) {
    return detail::checked_gpus(p, {"gpus_of", "layout."});
}

/// FSDP sharding strategies, as ZeRO stages (PyTorch FSDP documentation; Zhao et al. 2023).
enum class fsdp { no_shard = 0, shard_grad_op = 2, full_shard = 3 };

/// The ZeRO stage an FSDP strategy is: 0, 2 or 3. A value that is none of fsdp's enumerators
/// is invalid_input.
constexpr std::int64_t zero_stage_of(fsdp strategy) {
    const auto stage = static_cast<std::int64_t>(strategy);
    if (!(stage == 0 || stage == 2 || stage == 3)) {
        detail::throw_invalid("zero_stage_of", "strategy", static_cast<double>(stage), "",
                              "must be a fsdp value: no_shard (0), shard_grad_op (2) or "
                              "full_shard (3)");
    }
    return stage;
}

/// Whether TP degree `tp` can split `m`: it must divide the attention heads, and divide the KV
/// heads or be a multiple of them (the KV heads are then replicated, one per GPU, as vLLM and
/// Megatron-LM do for GQA). Any `tp` may be asked: one outside [1, heads] is false. The model
/// must be valid (check()); a checked_model skips that check.
constexpr bool tensor_parallel_allowed(const checked_model& m, std::int64_t tp) {
    const std::int64_t kv = kv_heads_of(m);
    return tp >= 1 && tp <= m.spec().heads && detail::divides(tp, m.spec().heads) &&
           (detail::divides(tp, kv) || detail::divides(kv, tp));
}
constexpr bool tensor_parallel_allowed(const transformer& m, std::int64_t tp) {
    return tensor_parallel_allowed(check(m, "tensor_parallel_allowed"), tp);
}

namespace detail {

constexpr void check_tensor_parallel(const checked_model& cm, std::int64_t tp,
                                     const layout_path& at) {
    const transformer& m = cm.spec();
    require_degree(at, "@tensor", tp);
    if (!divides(tp, m.heads)) {
        throw_layout(at, "@tensor", static_cast<double>(tp), "must divide attention heads = ",
                     static_cast<double>(m.heads), "");
    }
    const std::int64_t kv = kv_heads_of(cm);
    if (!divides(tp, kv) && !divides(kv, tp)) {
        throw_layout(at, "@tensor", static_cast<double>(tp), "must divide KV heads = ",
                     static_cast<double>(kv),
                     " or be a multiple of it (KV heads are then replicated)");
    }
}
constexpr void check_tensor_parallel(const checked_model& cm, std::int64_t tp,
                                     const char* function) {
    check_tensor_parallel(cm, tp, layout_path{function});
}

constexpr void check_pipeline_parallel(const checked_model& cm, std::int64_t pp,
                                       const layout_path& at) {
    const transformer& m = cm.spec();
    require_degree(at, "@pipeline", pp);
    if (pp > m.layers) {
        throw_layout(at, "@pipeline", static_cast<double>(pp), "must not exceed layers = ",
                     static_cast<double>(m.layers), "");
    }
}
constexpr void check_pipeline_parallel(const checked_model& cm, std::int64_t pp,
                                       const char* function) {
    check_pipeline_parallel(cm, pp, layout_path{function});
}

constexpr void check_zero_stage(std::int64_t stage, const layout_path& at) {
    if (stage < 0 || stage > 3) {
        throw_layout(at, "@zero_stage", static_cast<double>(stage), "must be 0, 1, 2 or 3");
    }
}
constexpr void check_zero_stage(std::int64_t stage, const char* function) {
    check_zero_stage(stage, layout_path{function});
}

/// The rules every layout obeys for `m`, whatever the job: TP splits the heads (and the KV
/// heads, or replicates them); PP leaves each stage a layer; EP divides the experts and the
/// data-parallel degree it is carved from; ZeRO is a stage 0–3; interleaving needs a pipeline
/// and a layer per chunk; every degree is a count of at most 2^40, and so is the product of
/// the four that occupy GPUs. Each factor is checked before any product is formed.
constexpr void check(const checked_model& cm, const parallel_layout& p, const layout_path& at) {
    const transformer& m = cm.spec();
    check_tensor_parallel(cm, p.tensor, at);
    check_pipeline_parallel(cm, p.pipeline, at);
    require_degree(at, "@data", p.data);
    require_degree(at, "@expert", p.expert);
    require_degree(at, "@context_parallel", p.context_parallel);
    require_degree(at, "@interleave", p.interleave);
    check_gpu_product(p, at);
    if (!divides(p.expert, experts_of(m))) {
        throw_layout(at, "@expert", static_cast<double>(p.expert), "must divide experts = ",
                     static_cast<double>(experts_of(m)), "");
    }
    if (!divides(p.expert, p.data)) {
        throw_layout(at, "@expert", static_cast<double>(p.expert), "must divide @data = ",
                     static_cast<double>(p.data),
                     " (expert parallelism runs across data-parallel ranks)");
    }
    check_zero_stage(p.zero_stage, at);
    if (p.interleave > 1 && p.pipeline == 1) {
        throw_layout(at, "@interleave", static_cast<double>(p.interleave),
                     "needs @pipeline > 1");
    }
    if (p.interleave > ceil_div(m.layers, p.pipeline)) {
        throw_layout(at, "@interleave", static_cast<double>(p.interleave),
                     "must not exceed the layers per stage = ",
                     static_cast<double>(ceil_div(m.layers, p.pipeline)), "");
    }
}
constexpr void check(const checked_model& cm, const parallel_layout& p, const char* function) {
    check(cm, p, layout_path{function});
}

/// A layout for sequences of `sequence` tokens: check() and CP dividing the sequence, since
/// each CP rank holds an equal share of every sequence.
constexpr void check(const checked_model& cm, const parallel_layout& p, std::int64_t sequence,
                     const layout_path& at) {
    check(cm, p, at);
    if (!divides(p.context_parallel, sequence)) {
        throw_layout(at, "@context_parallel", static_cast<double>(p.context_parallel),
                     "must divide sequence = ", static_cast<double>(sequence), "");
    }
}
constexpr void check(const checked_model& cm, const parallel_layout& p, std::int64_t sequence,
                     const char* function) {
    check(cm, p, sequence, layout_path{function});
}

/// A serving replica's layout: tensor and pipeline parallelism only. Replicas (data), experts
/// split across GPUs, context parallelism, ZeRO and interleaving are not serving-memory or
/// roofline concepts here; each must keep its default.
constexpr void check_serving(const checked_model& cm, const parallel_layout& p, const char* function) {
    check(cm, p, function);
    const auto require_one = [function](const char* field, std::int64_t value) {
        if (value != 1) {
            throw_invalid(function, field, static_cast<double>(value), "",
                          "must be 1: a serving setup describes one replica split by "
                          "parallel.tensor and parallel.pipeline");
        }
    };
    require_one("parallel.data", p.data);
    require_one("parallel.expert", p.expert);
    require_one("parallel.context_parallel", p.context_parallel);
    require_one("parallel.interleave", p.interleave);
    if (p.zero_stage != 0) {
        throw_invalid(function, "parallel.zero_stage", static_cast<double>(p.zero_stage), "",
                      "must be 0: serving keeps no optimizer state to shard");
    }
}

/// KV heads one GPU holds: its share, or one replicated head when TP exceeds the KV heads.
constexpr std::int64_t kv_heads_per_gpu(const checked_model& cm, std::int64_t tp) {
    const std::int64_t kv = kv_heads_of(cm);
    return kv >= tp ? exact_quotient(kv, tp) : 1;  // check_tensor_parallel: tp divides kv
}

/// Query and key/value widths on one GPU: queries split by TP, keys and values by their heads
/// (replicated heads counted once per GPU).
struct attention_widths {
    double q = 0.0;
    double kv = 0.0;
};

constexpr attention_widths attention_widths_per_gpu(const checked_model& cm, std::int64_t tp) {
    return {static_cast<double>(q_width_of(cm)) / static_cast<double>(tp),
            static_cast<double>(kv_heads_per_gpu(cm, tp) * head_dim_of(cm))};
}

/// KV-cache elements one token adds on one GPU over `layers` layers: a key and a value per
/// layer and (per-GPU) KV head.
constexpr double kv_elements_per_token(const checked_model& cm, std::int64_t tp, double layers) {
    return 2.0 * layers * attention_widths_per_gpu(cm, tp).kv;
}

/// Weight elements on the most loaded pipeline stage, split into linear-layer weights and
/// "embedding-class" ones (embedding, head, norms). The first stage holds the token embedding
/// (split by TP over the vocabulary, Megatron-LM's vocab-parallel embedding) and the learned
/// position table (not split); the last the head and final norm; a tied head needs its own
/// copy once they are on different stages (Megatron-LM keeps one on the last stage). Stages
/// hold ceil(layers / pp) layers.
struct stage_weights {
    double linear = 0.0;
    double embedding_class = 0.0;
    double experts = 0.0;  ///< the MoE experts' share of `linear` (0 for a dense model)
    double layers = 0.0;   ///< layers on the stage
    /// The part of `embedding_class` a forward pass looks up, one row per token, rather than
    /// reads: the input embedding table (unless it is also this stage's output head) and a
    /// learned position table. With pp > 1 it is the most loaded stage's: the first stage's
    /// embedding when that stage holds the most, else 0.
    double lookup = 0.0;
};

/// The embedding-class elements pipeline stage `stage` of `pp` holds beyond its layers' norms,
/// and the part of them a pass only looks up (see stage_weights). The one statement of where the
/// ends sit: the first stage holds the vocab-parallel token embedding and any learned position
/// table; the last the output head (its own copy unless tied to an embedding on the same stage)
/// and the final norm.
struct stage_ends {
    double elements = 0.0;
    double lookup = 0.0;
};

constexpr stage_ends ends_of_stage(const checked_model& cm, std::int64_t tp, std::int64_t pp,
                                   std::int64_t stage) {
    const transformer& m = cm.spec();
    const double h = static_cast<double>(m.hidden);
    const double table = static_cast<double>(m.vocab) * h / static_cast<double>(tp);
    const bool first = stage == 0;
    const bool last = stage == pp - 1;
    stage_ends e{};
    if (first) {
        const double positions =
            m.positions == position_kind::learned ? static_cast<double>(m.max_context) * h : 0.0;
        e.elements = table + positions;
        e.lookup = positions + (m.tied_embeddings && last ? 0.0 : table);
    }
    if (last) {
        e.elements += (m.tied_embeddings && first ? 0.0 : table);
        e.elements += static_cast<double>(cm.layer().norm);
    }
    return e;
}

constexpr stage_weights weights_on_worst_stage(const checked_model& cm, std::int64_t tp,
                                               std::int64_t pp, std::int64_t expert_parallel) {
    const transformer& m = cm.spec();
    const layer_parameters p = layer_parameters_of(cm);
    const double t = static_cast<double>(tp);
    const double h = static_cast<double>(m.hidden);
    const attention_widths w = attention_widths_per_gpu(cm, tp);
    const double bias = m.linear_biases ? 1.0 : 0.0;
    const double attention = 2.0 * h * w.q + 2.0 * h * w.kv + bias * (w.q + 2.0 * w.kv + h);
    const double experts_here =
        static_cast<double>(experts_of(m)) / static_cast<double>(expert_parallel);
    const double expert = static_cast<double>(p.expert_weights + p.expert_biases) / t;

    stage_weights r{};
    r.layers = static_cast<double>(ceil_div(m.layers, pp));
    r.linear = r.layers * (attention + experts_here * expert + static_cast<double>(p.router));
    r.experts = m.experts > 1 ? r.layers * experts_here * expert : 0.0;

    // The heavier end: the first stage's embedding or the last's head (one stage when pp = 1).
    const stage_ends first = ends_of_stage(cm, tp, pp, 0);
    const stage_ends last = ends_of_stage(cm, tp, pp, pp - 1);
    const stage_ends& ends = first.elements > last.elements ? first : last;
    r.lookup = ends.lookup;
    r.embedding_class = r.layers * 2.0 * static_cast<double>(p.norm) + ends.elements;
    return r;
}

/// Live activation elements per token of one layer's forward at inference (derived): the
/// residual stream and the normalized input, plus the larger of attention's projections
/// (Q, K, V and the output projection's input) and the MLP's intermediates, per GPU.
/// FlashAttention-style kernels keep no s² score matrix.
constexpr double workspace_elements_per_token(const checked_model& cm, std::int64_t tp) {
    const transformer& m = cm.spec();
    const attention_widths w = attention_widths_per_gpu(cm, tp);
    const double attention = 2.0 * w.q + 2.0 * w.kv;
    const double mlp = (m.mlp == mlp_kind::gated ? 3.0 : 2.0) *
                       static_cast<double>(m.ffn_hidden) / static_cast<double>(tp);
    return 2.0 * static_cast<double>(m.hidden) + (attention > mlp ? attention : mlp);
}

}  // namespace detail
}  // namespace gpucalc
