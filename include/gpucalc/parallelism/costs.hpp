// parallelism/costs.hpp: what one layer and one pipeline stage of a layout cost on one GPU:
// FLOPs split into GEMM and attention, forward and backward, the weight bytes, and the buffers
// each parallelism's collectives move
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../precision.hpp"
#include "../units.hpp"
#include "../workload.hpp"

namespace gpucalc {

/// One pass of the model over a batch on one GPU: `batch` sequences, each adding `queries` new
/// tokens after `keys − queries` cached ones, of which `outputs` per sequence reach the output
/// head. Training and prefill: queries = keys = the sequence (outputs = the sequence in
/// training, 1 in prefill); decode: queries = 1, keys = the context, outputs = 1. `counted` says
/// which (query, key) pairs the attention FLOPs count (pair_count). Ranges: batch, queries,
/// keys and outputs in [1, 2^40], outputs <= queries <= keys; counted a pair_count value.
struct pass_shape {
    std::int64_t batch = 1;
    std::int64_t queries = 1;
    std::int64_t keys = 1;
    std::int64_t outputs = 1;
    pair_count counted = pair_count::causal;
};

/// The storage formats a cost is priced in: linear-layer weights; the embedding, the output head
/// and the norms (quantized models keep them at 16 bits); the activations the collectives carry;
/// and the gradients data parallelism reduces. Ranges: each as bits_per_element says.
struct cost_formats {
    storage_format weights = formats::bf16;
    storage_format embeddings = formats::bf16;
    storage_format activations = formats::bf16;
    storage_format gradients = formats::bf16;
};

/// Work on one GPU for a pass: what a layer costs, and what a stage's layers cost together.
/// FLOPs count matmuls only, 2 per multiply-add, as Narayanan et al. 2021 do. The communication
/// fields are the buffers each collective works on, per forward pass; the backward pass runs the
/// same collectives on gradients of the same size (Shoeybi et al. 2019 §3; Korthikanti et al.
/// 2022 §4.2.2). How long a buffer takes on a link (a ring all-reduce moves 2(n − 1)/n of it per
/// GPU) is the scaling module's question, not this one's.
struct work_cost {
    /// Weight matmuls of the active experts: 2 × tokens × weights ÷ TP (Kaplan et al. 2020 §2.1).
    flop_count forward_gemm{};
    /// QKᵀ and ·V: 4 × pairs × heads × head_dim ÷ TP (Narayanan et al. 2021 §5.1).
    flop_count forward_attention{};
    /// Twice the forward: gradients with respect to the inputs and to the weights (Kaplan et al.
    /// 2020 §2.1; Narayanan et al. 2021 §5.1).
    flop_count backward_gemm{};
    flop_count backward_attention{};
    /// The weights on this GPU (its experts, its TP share; norms and router replicated).
    data_size weights{};
    /// The gradients of the dense weights this GPU holds (all but the experts), in the gradient
    /// format: reduced across the data-parallel × context-parallel ranks (Rajbhandari et al.
    /// 2020, ZeRO §7: a data-parallel step all-reduces the gradients; ZeRO-2 and -3
    /// reduce-scatter the same buffer).
    data_size gradients{};
    /// The gradients of the experts this GPU holds: reduced only across the ranks that hold the
    /// same experts, data × context-parallel ÷ expert-parallel.
    data_size expert_gradients{};
    /// TP without sequence parallelism: two all-reduces of batch × queries × hidden per layer and
    /// forward, after attention and after the MLP (Shoeybi et al. 2019 §3, the g operator).
    data_size tensor_all_reduce{};
    /// TP with sequence parallelism: each all-reduce becomes an all-gather before the block and a
    /// reduce-scatter after it, on the same full-size buffers: two of each per layer and forward
    /// (Korthikanti et al. 2022 §4.2.2), so the volume equals the all-reduces'.
    data_size sequence_all_gather{};
    data_size sequence_reduce_scatter{};
    /// MoE with expert parallelism: each token's hidden state goes to each of its k experts and
    /// comes back, two all-to-alls per layer and forward (dispatch and combine; Lepikhin et al.
    /// 2021, GShard; Fedus et al. 2022, Switch), of batch × queries × k × hidden ÷ TP per GPU:
    /// with TP, an MoE layer runs sequence parallel, each rank routing its share of the tokens.
    data_size expert_all_to_all{};
};

/// One transformer layer's work for a pass on one GPU of a layout (its TP rank's share, its EP
/// rank's experts).
struct layer_cost : work_cost {
    /// What one GPU sends when the layer ends a pipeline stage: the batch × queries × hidden
    /// output split over the TP ranks, each sending its share and the receiving stage
    /// all-gathering it (Narayanan et al. 2021 §4.1, the scatter/gather optimization); the
    /// gradient of the same size comes back.
    data_size output_activations{};
};

/// A pipeline stage's work for a pass on one GPU: its layers' costs summed, plus the input
/// embedding on the first stage (a lookup: weights, no FLOPs) and the output head on the last
/// (2 × outputs × vocab × hidden ÷ TP FLOPs forward, twice that backward).
struct stage_cost : work_cost {
    std::int64_t layers = 0;
    /// The weight bytes a pass reads: `weights` less the tables it only looks up, one row per
    /// token (the input embedding unless it is also this stage's head, learned positions).
    /// Every expert the GPU holds counts as read, as in training; decode's estimate reads only
    /// the experts a batch reaches (roofline/inference.hpp).
    data_size weights_read{};
    /// What one GPU of the stage sends the next stage per pass: one layer's output_activations,
    /// none on the last stage; with an interleaved schedule of v chunks, v of them from every
    /// stage, the last sending its chunks back to the first (Narayanan et al. 2021 §2.2.2).
    data_size boundary_activations{};
};

namespace detail {
constexpr void check_pass_shape(const pass_shape& p, const char* function) {
    require_count(function, "pass.batch", p.batch);
    require_count(function, "pass.queries", p.queries);
    require_count(function, "pass.keys", p.keys);
    require_count(function, "pass.outputs", p.outputs);
    if (p.queries > p.keys) {
        throw_invalid(function, "pass.queries", static_cast<double>(p.queries), "",
                      "must not exceed pass.keys = ", static_cast<double>(p.keys),
                      " (the new tokens are among the keys)");
    }
    if (p.outputs > p.queries) {
        throw_invalid(function, "pass.outputs", static_cast<double>(p.outputs), "",
                      "must not exceed pass.queries = ", static_cast<double>(p.queries), "");
    }
    require_enumerator(function, "pass.counted", p.counted, 2, "pair_count");
}

constexpr void check_cost_formats(const cost_formats& f, const char* function) {
    check_format(f.weights, function, "formats.weights.");
    check_format(f.embeddings, function, "formats.embeddings.");
    check_format(f.activations, function, "formats.activations.");
    check_format(f.gradients, function, "formats.gradients.");
}

/// The layout checks the costs make: the layout's rules, and no context parallelism, whose
/// split of the queries and K/V exchange these costs do not model yet. The layout is passed on
/// its own, so its fields read "layout.tensor".
constexpr void check_cost_layout(const checked_model& cm, const parallel_layout& layout,
                                 const char* function) {
    const layout_path at{function, "layout."};
    check(cm, layout, at);
    if (layout.context_parallel != 1) {
        throw_layout(at, "@context_parallel", static_cast<double>(layout.context_parallel),
                     "must be 1: per-layer costs do not model context parallelism yet");
    }
}

/// layers_on_stage() for a checked pipeline and stage.
constexpr std::int64_t stage_layers(const transformer& m, std::int64_t pipeline,
                                    std::int64_t stage) {
    return m.layers / pipeline + (stage < m.layers % pipeline ? 1 : 0);
}

/// `rule_head` names the pipeline degree as the caller wrote it.
constexpr void check_stage(std::int64_t pipeline, std::int64_t stage, const char* function,
                           const char* rule_head = "must be in [0, pipeline - 1 = ") {
    if (stage < 0 || stage >= pipeline) {
        throw_invalid(function, "stage", static_cast<double>(stage), "", rule_head,
                      static_cast<double>(pipeline - 1), "]");
    }
}

/// One layer's forward FLOPs on one TP rank of `par` (model/flops.hpp's formula with the rank's
/// share of the attention and experts; the router runs whole on every rank).
GPUCALC_DETAIL_INLINE constexpr layer_forward layer_forward_flops(const checked_model& cm,
                                                                  const parallel_layout& par,
                                                                  const pass_shape& pass) {
    const attention_widths w = attention_widths_per_gpu(cm, par.tensor);
    return layer_forward_flops(cm, w.q, w.kv, 1.0 / static_cast<double>(par.tensor), pass.batch,
                               pass.queries, pass.keys, pass.counted);
}

/// layer_cost_of() for a model, layout and pass already checked.
constexpr layer_cost layer_cost_unchecked(const checked_model& cm, const parallel_layout& par,
                                          const pass_shape& pass, const cost_formats& f) {
    const transformer& m = cm.spec();
    const layer_parameters& p = cm.layer();
    const double h = static_cast<double>(m.hidden);
    const double t = static_cast<double>(par.tensor);
    const double tokens = static_cast<double>(pass.batch) * static_cast<double>(pass.queries);
    const layer_forward forward = layer_forward_flops(cm, par, pass);

    layer_cost c{};
    c.forward_gemm = forward.gemm;
    c.forward_attention = forward.attention;
    c.backward_gemm = 2.0 * c.forward_gemm;
    c.backward_attention = 2.0 * c.forward_attention;

    // The weights this GPU holds: weights_on_worst_stage's per-layer terms.
    const stage_weights one = weights_on_worst_stage(cm, par.tensor, m.layers, par.expert);
    const double norms = 2.0 * static_cast<double>(p.norm);
    c.weights = storage_size(one.linear, f.weights) + storage_size(norms, f.embeddings);
    c.gradients = storage_size(one.linear - one.experts + norms, f.gradients);
    c.expert_gradients = storage_size(one.experts, f.gradients);

    const data_size hidden_states = storage_size(tokens * h, f.activations);
    c.output_activations = hidden_states / t;
    if (par.tensor > 1 && par.sequence_parallel) {
        c.sequence_all_gather = 2.0 * hidden_states;
        c.sequence_reduce_scatter = 2.0 * hidden_states;
    } else if (par.tensor > 1) {
        c.tensor_all_reduce = 2.0 * hidden_states;
    }
    if (m.experts > 1 && par.expert > 1) {
        c.expert_all_to_all =
            2.0 * static_cast<double>(m.experts_per_token) * hidden_states / t;
    }
    return c;
}

/// `n` layers' work: every field of `one` times n.
constexpr work_cost times(double n, const work_cost& one) {
    work_cost w{};
    w.forward_gemm = n * one.forward_gemm;
    w.forward_attention = n * one.forward_attention;
    w.backward_gemm = n * one.backward_gemm;
    w.backward_attention = n * one.backward_attention;
    w.weights = n * one.weights;
    w.gradients = n * one.gradients;
    w.expert_gradients = n * one.expert_gradients;
    w.tensor_all_reduce = n * one.tensor_all_reduce;
    w.sequence_all_gather = n * one.sequence_all_gather;
    w.sequence_reduce_scatter = n * one.sequence_reduce_scatter;
    w.expert_all_to_all = n * one.expert_all_to_all;
    return w;
}

/// The output head's forward FLOPs for a pass on one TP rank: 2 × outputs × vocab × hidden ÷ TP.
constexpr flop_count head_forward_flops(const transformer& m, const parallel_layout& par,
                                        const pass_shape& pass) {
    const double outputs = static_cast<double>(pass.batch) * static_cast<double>(pass.outputs);
    const double table = static_cast<double>(m.vocab) * static_cast<double>(m.hidden) /
                         static_cast<double>(par.tensor);
    return make<flops>(2.0 * outputs * table);
}

/// A whole pass's forward FLOPs on one TP rank, all stages summed: every layer's forward FLOPs
/// (layer_cost's) and the head's, as stage_cost_of counts them. Decode, prefill and the training-time estimate
/// take their FLOPs from here.
GPUCALC_DETAIL_INLINE constexpr flop_count pass_forward_flops(const checked_model& cm,
                                                              const parallel_layout& par,
                                                              const pass_shape& pass) {
    const layer_forward one = layer_forward_flops(cm, par, pass);
    return static_cast<double>(cm.spec().layers) * (one.gemm + one.attention) +
           head_forward_flops(cm.spec(), par, pass);
}
}  // namespace detail

/// The cost of one layer of `m` for `pass` on one GPU of `layout` (see layer_cost). The layout
/// is checked as for training: TP splits the heads, EP the experts; context parallelism must be
/// 1 (not modelled here yet). Ranges: the model's (check()); the layout's (parallel_layout,
/// reported as "layout.<degree>"); the pass's (pass_shape); the formats' (cost_formats).
/// Every field of the result is finite and >= 0.
constexpr layer_cost layer_cost_of(const checked_model& m, const parallel_layout& layout,
                                   const pass_shape& pass, const cost_formats& formats = {}) {
    constexpr const char* function = "layer_cost_of";
    detail::check_cost_layout(m, layout, function);
    detail::check_pass_shape(pass, function);
    detail::check_cost_formats(formats, function);
    return detail::layer_cost_unchecked(m, layout, pass, formats);
}
constexpr layer_cost layer_cost_of(const transformer& m, const parallel_layout& layout,
                                   const pass_shape& pass, const cost_formats& formats = {}) {
    return layer_cost_of(check(m, "layer_cost_of"), layout, pass, formats);
}

/// Layers on pipeline stage `stage` (0-based) of `pipeline`: the layers split as evenly as they
/// go, the first layers mod pipeline stages taking one more (derived; Megatron-LM asks for an
/// even split, which this gives when the pipeline divides the layers). Ranges: the model's;
/// `pipeline` in [1, layers]; `stage` in [0, pipeline − 1].
constexpr std::int64_t layers_on_stage(const transformer& m, std::int64_t pipeline,
                                       std::int64_t stage) {
    constexpr const char* function = "layers_on_stage";
    detail::check_shape(m, function);
    detail::require_count(function, "pipeline", pipeline);
    if (pipeline > m.layers) {
        detail::throw_invalid(function, "pipeline", static_cast<double>(pipeline), "",
                              "must not exceed layers = ", static_cast<double>(m.layers), "");
    }
    detail::check_stage(pipeline, stage, function);
    return detail::stage_layers(m, pipeline, stage);
}

/// The cost of pipeline stage `stage` (0-based) of `layout` for `pass` on one of its GPUs (see
/// stage_cost). The first stage holds the token embedding (split over TP by vocabulary, as
/// Megatron-LM's vocab-parallel embedding) and any learned position table; the last the final
/// norm and the output head, which needs its own copy when tied and the ends are on different
/// stages (as weights_on_worst_stage counts them). Ranges: as layer_cost_of, and `stage` in
/// [0, layout.pipeline − 1].
constexpr stage_cost stage_cost_of(const checked_model& cm, const parallel_layout& layout,
                                   const pass_shape& pass, std::int64_t stage,
                                   const cost_formats& formats = {}) {
    constexpr const char* function = "stage_cost_of";
    detail::check_cost_layout(cm, layout, function);
    detail::check_pass_shape(pass, function);
    detail::check_cost_formats(formats, function);
    const transformer& m = cm.spec();
    detail::check_stage(layout.pipeline, stage, function, "must be in [0, layout.pipeline - 1 = ");
    const layer_cost one = detail::layer_cost_unchecked(cm, layout, pass, formats);
    stage_cost s{};
    s.layers = detail::stage_layers(m, layout.pipeline, stage);
    static_cast<work_cost&>(s) = detail::times(static_cast<double>(s.layers), one);

    const detail::stage_ends ends = detail::ends_of_stage(cm, layout.tensor, layout.pipeline, stage);
    const bool last = stage == layout.pipeline - 1;
    if (last) {
        const flop_count head = detail::head_forward_flops(m, layout, pass);
        s.forward_gemm += head;
        s.backward_gemm += 2.0 * head;
    }
    if (layout.interleave > 1) {
        s.boundary_activations = static_cast<double>(layout.interleave) * one.output_activations;
    } else if (!last) {
        s.boundary_activations = one.output_activations;
    }
    s.weights += storage_size(ends.elements, formats.embeddings);
    s.weights_read = s.weights - storage_size(ends.lookup, formats.embeddings);
    s.gradients += storage_size(ends.elements, formats.gradients);
    return s;
}
constexpr stage_cost stage_cost_of(const transformer& m, const parallel_layout& layout,
                                   const pass_shape& pass, std::int64_t stage,
                                   const cost_formats& formats = {}) {
    return stage_cost_of(check(m, "stage_cost_of"), layout, pass, stage, formats);
}

}  // namespace gpucalc
