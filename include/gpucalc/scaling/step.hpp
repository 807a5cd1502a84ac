// scaling/step.hpp: how long one optimizer step of a training job split across a cluster takes
// (1F1B pipeline, tensor, data and expert parallelism, ZeRO), term by term, and what it gives:
// tokens/s, MFU and HFU, the memory verdict, the time to train a token budget
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../memory/fit.hpp"
#include "../memory/training.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../parallelism/costs.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "step_compute.hpp"
#include "step_layout.hpp"

namespace gpucalc {

/// One optimizer step, term by term on the critical path; the terms sum to `time`. The
/// per-micro-batch terms are the slowest stage's, times the m micro-batches; the bubble is the
/// pipeline's idle time; data_comm and optimizer come after the last backward pass.
struct training_step {
    duration time{};           ///< the whole step
    duration compute{};  ///< matmuls, attention and element-wise kernels, forward and backward, × m
    duration recompute{};      ///< the forward work recompute runs again, × m
    duration tensor_comm{};    ///< exposed TP all-reduces (or SP all-gathers, reduce-scatters), × m
    duration pipeline_comm{};  ///< exposed point-to-point sends between stages, × m
    duration expert_comm{};    ///< exposed MoE all-to-alls, × m
    duration context_comm{};   ///< exposed CP ring exchange of keys and values, × m
    /// Exposed data-parallel communication: the gradient reduction after the last backward
    /// (ZeRO 1–2: and the parameter all-gather after the optimizer; ZeRO-3: and the exposed
    /// part of every micro-batch's parameter gathers).
    duration data_comm{};
    duration bubble{};         ///< (p − 1)/v × the slowest stage's micro-batch time
    duration optimizer{};      ///< the optimizer step over the GPU's (sharded) parameters
    std::int64_t microbatches = 0;  ///< m = global_batch ÷ (micro_batch × DP)
    /// (p − 1)/(v·m), the bubble over the ideal time (Narayanan et al. 2021 §2.2.1–2.2.2).
    double bubble_fraction = 0.0;
    /// The slowest stage's forward and backward for one micro-batch, exposed communication
    /// and recompute included.
    duration forward_per_microbatch{};
    duration backward_per_microbatch{};
    std::int64_t slowest_stage = 0;  ///< 0 (the first) or pipeline − 1 (the last, with the head)
    std::int64_t gpus = 0;           ///< the layout's GPUs: tensor × pipeline × CP × data
    token_rate tokens_per_second{};  ///< global_batch × sequence ÷ time
    /// Model FLOPs utilization: training_model_flops_per_token (forward and backward, all keys,
    /// no recompute) × tokens/s ÷ (GPUs × peak) (Chowdhery et al. 2022 App. B).
    double mfu = 0.0;
    /// Hardware FLOPs utilization: the same with the recomputed forward FLOPs counted.
    double hfu = 0.0;
    training_memory memory{};  ///< per GPU on the first stage (training_memory_per_gpu)
    fit_verdict memory_fit{};  ///< memory.total against the GPU's memory; ok false: no fit
};

namespace detail {

/// One pipeline stage for one micro-batch, in seconds, and its step-end tail.
struct stage_terms {
    double forward = 0.0;     ///< everything in the forward pass, exposed comm included
    double backward = 0.0;    ///< everything in the backward pass, recompute included
    double compute = 0.0;
    double recompute = 0.0;
    double tensor = 0.0;
    double pipeline = 0.0;
    double expert = 0.0;
    double context = 0.0;
    double data = 0.0;        ///< ZeRO-3's exposed parameter gathers
    double tail_comm = 0.0;   ///< exposed DP communication after the last backward
    double tail_optimizer = 0.0;
    double backward_compute = 0.0;  ///< the window the gradient reduction may overlap
};

/// What every stage shares: the per-layer times and buffers, found once per evaluation.
struct step_shared {
    layer_seconds layer;
    pass_seconds head;
    double tensor_forward = 0.0;  ///< one layer's TP collectives in one pass
    double expert_forward = 0.0;  ///< one layer's EP all-to-alls in one pass
    double context_forward = 0.0; ///< one layer's CP ring exchange in the forward pass
    double p2p = 0.0;             ///< one boundary crossing: the send and the TP gather
    double dense_per_layer = 0.0; ///< parameters per layer on a GPU, experts apart
    double experts_per_layer = 0.0;
    double optimizer_bytes = 0.0; ///< HBM bytes the optimizer moves per parameter
    double gemm_output_bytes = 0.0;  ///< an element of a GEMM's output (the activations')
    double gemm_epilogue = 0.0;      ///< the exposed part of a GEMM's output write
};

constexpr double exposed(double t, double overlap) { return (1.0 - overlap) * t; }

/// Stage `stage`'s terms (derived from the sources step_shared's fields cite).
GPUCALC_DETAIL_INLINE constexpr stage_terms stage_terms_of(
    const checked_model& cm, const training_job& job, const training_strategy& s,
    const step_groups& g, const step_shared& sh, std::int64_t stage, double byte_rate,
    const step_assumptions& a) {
    const parallel_layout& par = s.parallel;
    const double layers = static_cast<double>(stage_layers(cm.spec(), par.pipeline, stage));
    const bool last = stage == par.pipeline - 1;
    const double v = static_cast<double>(par.interleave);
    stage_terms t{};
    const double f_compute = layers * (sh.layer.gemm.forward + sh.layer.attention.forward +
                                       sh.layer.elementwise.forward) +
                             (last ? sh.head.forward : 0.0);
    const double dense = layers * sh.dense_per_layer +
                         ends_of_stage(cm, par.tensor, par.pipeline, stage).elements;
    const double experts = layers * sh.experts_per_layer;
    const double grad_bytes = bytes_per_element(job.gradients);
    const double param_bytes = bytes_per_element(job.parameters);
    // Gradient accumulation, beyond the weight-gradient GEMMs' output write (an element in the
    // activations' format, gemm_seconds's epilogue): fused, the GEMM reads and writes the
    // gradient buffer instead (2 gradient elements for the one written); unfused, a separate
    // kernel reads the fresh gradient and reads and writes the buffer
    // (step_assumptions::fused_gradient_accumulation's source; derived).
    const double out_bytes = sh.gemm_output_bytes;
    const double fused_extra = 2.0 * grad_bytes > out_bytes ? 2.0 * grad_bytes - out_bytes : 0.0;
    const double accumulate =
        (dense + experts) *
        (a.fused_gradient_accumulation ? sh.gemm_epilogue * fused_extra
                                       : out_bytes + 2.0 * grad_bytes) /
        byte_rate;
    const double b_compute = layers * (sh.layer.gemm.backward + sh.layer.attention.backward +
                                       sh.layer.elementwise.backward) +
                             (last ? sh.head.backward : 0.0) + accumulate;
    t.compute = f_compute + b_compute;
    t.recompute = layers * sh.layer.recompute;
    // Full recompute reruns the layer's forward, its TP collectives with it.
    const double tensor_passes = s.recompute == recompute::full ? 3.0 : 2.0;
    const double tp_pass = exposed(layers * sh.tensor_forward, a.tensor_comm_overlap);
    t.tensor = tensor_passes * tp_pass;
    const double ep_pass = exposed(layers * sh.expert_forward, a.expert_comm_overlap);
    t.expert = 2.0 * ep_pass;
    // The CP ring: keys and values forward; backward both again and their gradients, twice the
    // bytes; a recompute that reruns the attention core reruns its forward ring. Each hides
    // behind its pass's attention core as far as context_comm_overlap lets it.
    const double cp_f = layers * (sh.context_forward -
                                  a.context_comm_overlap * sh.layer.attention.forward);
    const double cp_b = layers * (2.0 * sh.context_forward -
                                  a.context_comm_overlap * sh.layer.attention.backward);
    const double cp_forward = cp_f > 0.0 ? cp_f : 0.0;
    const double cp_backward =
        (cp_b > 0.0 ? cp_b : 0.0) + (s.recompute == recompute::none ? 0.0 : cp_forward);
    t.context = cp_forward + cp_backward;
    // v sends a pass with v chunks (Narayanan et al. 2021 §2.2.2), none without a pipeline.
    const double p2p_pass =
        par.pipeline > 1 ? exposed(v * sh.p2p, a.pipeline_comm_overlap) : 0.0;
    t.pipeline = 2.0 * p2p_pass;

    double gather_f = 0.0, gather_b = 0.0;
    if (par.zero_stage == 3) {
        // ZeRO-3 gathers the stage's parameters before each pass of every micro-batch
        // (Rajbhandari et al. 2020 §5.3, §7: with the reduce-scatter, 1.5× DP's volume).
        const double gather =
            collective_seconds(collective::all_gather, dense * param_bytes, g.data) +
            collective_seconds(collective::all_gather, experts * param_bytes, g.replicas);
        const double fo = gather - a.parameter_gather_overlap * f_compute;
        const double bo = gather - a.parameter_gather_overlap * b_compute;
        gather_f = fo > 0.0 ? fo : 0.0;
        gather_b = bo > 0.0 ? bo : 0.0;
    }
    t.data = gather_f + gather_b;
    t.forward = f_compute + tp_pass + ep_pass + cp_forward + p2p_pass + gather_f;
    t.backward = b_compute + t.recompute + (tensor_passes - 1.0) * tp_pass + ep_pass +
                 cp_backward + p2p_pass + gather_b;
    t.backward_compute = b_compute;

    // The gradient reduction: an all-reduce (ZeRO 0) or a reduce-scatter (ZeRO 1–3: the same
    // time's half each way; Rajbhandari et al. 2020 §7), bucketed: it may overlap the last
    // micro-batch's backward, all but the last bucket (Li et al. 2020 §3.2.3).
    const collective op = par.zero_stage == 0 ? collective::all_reduce : collective::reduce_scatter;
    const double reduce = collective_seconds(op, dense * grad_bytes, g.data) +
                          collective_seconds(op, experts * grad_bytes, g.replicas);
    const double bucket = a.bucket_bytes.value() < dense * grad_bytes ? a.bucket_bytes.value()
                                                                      : dense * grad_bytes;
    const double last_bucket = collective_seconds(op, bucket, g.data);
    const double hidden = reduce - a.data_parallel_overlap * b_compute;
    t.tail_comm = hidden > last_bucket ? hidden : last_bucket;
    if (par.zero_stage == 1 || par.zero_stage == 2) {
        // The distributed optimizer all-gathers the updated parameters (Megatron-LM's
        // --overlap-param-gather is off by default: exposed).
        t.tail_comm += collective_seconds(collective::all_gather, dense * param_bytes, g.data) +
                       collective_seconds(collective::all_gather, experts * param_bytes,
                                          g.replicas);
    }
    // The optimizer streams its state once: memory-bound (derived).
    // ZeRO shards over the gradient group: DP × CP ranks (training_memory_per_gpu's rule).
    const double cp = static_cast<double>(par.context_parallel);
    const double shard = par.zero_stage >= 1 ? static_cast<double>(par.data) * cp : 1.0;
    const double expert_shard =
        par.zero_stage >= 1 ? static_cast<double>(exact_quotient(par.data, par.expert)) * cp
                            : 1.0;
    t.tail_optimizer = (dense / shard + experts / expert_shard) * sh.optimizer_bytes / byte_rate;
    return t;
}

/// step_shared for a checked evaluation.
GPUCALC_DETAIL_INLINE constexpr step_shared shared_terms(const checked_model& cm,
                                                         const training_job& job,
                                                         const training_strategy& s,
                                                         const step_groups& g,
                                                         const gemm_machine& machine,
                                                         double peak,
                                                         const step_assumptions& a) {
    const transformer& m = cm.spec();
    const parallel_layout& par = s.parallel;
    step_shared sh{};
    sh.layer = layer_compute_seconds(cm, job, s, machine, peak, a);
    // A CP rank holds s/CP tokens of each sequence: its matmuls, collectives and sends carry
    // those (Megatron Core docs, "Context parallelism").
    const std::int64_t local = job.sequence / par.context_parallel;
    const double tokens = static_cast<double>(s.micro_batch) * static_cast<double>(local);
    sh.head = head_seconds(m, par, tokens, machine, a);
    const cost_formats formats{job.parameters, job.parameters, job.activations, job.gradients};
    const pass_shape pass{s.micro_batch, local, local, local, pair_count::causal};
    parallel_layout per_rank = par;
    per_rank.context_parallel = 1;  // the per-layer costs of the rank's s/CP tokens
    const layer_cost one = layer_cost_unchecked(cm, per_rank, pass, formats);
    // Two collectives a pass each, half the buffer each (costs.hpp sums the two).
    if (par.tensor > 1 && par.sequence_parallel) {
        sh.tensor_forward =
            2.0 * (collective_seconds(collective::all_gather,
                                      0.5 * one.sequence_all_gather.value(), g.tensor) +
                   collective_seconds(collective::reduce_scatter,
                                      0.5 * one.sequence_reduce_scatter.value(), g.tensor));
    } else if (par.tensor > 1) {
        sh.tensor_forward = 2.0 * collective_seconds(collective::all_reduce,
                                                     0.5 * one.tensor_all_reduce.value(),
                                                     g.tensor);
    }
    sh.expert_forward = 2.0 * collective_seconds(collective::all_to_all,
                                                 0.5 * one.expert_all_to_all.value(), g.experts);
    // The CP ring passes every rank's keys and values round the CP group: CP − 1 steps, each a
    // point-to-point send of s/CP tokens' K and V to the next rank (Liu et al. 2023 §3;
    // Megatron Core's context parallelism runs it as point-to-point sends in a ring), each step
    // as slow as the ring's slowest hop (step_groups::context).
    const double kv = 2.0 * tokens * attention_widths_per_gpu(cm, par.tensor).kv *
                      bytes_per_element(job.activations);
    sh.context_forward = static_cast<double>(par.context_parallel - 1) *
                         collective_seconds(collective::point_to_point, kv, g.context);
    // Scatter/gather: each TP rank sends its 1/TP share, and the receiving TP group
    // all-gathers the whole tensor before it computes (Narayanan et al. 2021 §4.1); without
    // it each rank sends the whole tensor. With sequence parallelism the boundary tensor is
    // already split along the sequence and each rank sends its own share: no gather
    // (Korthikanti et al. 2022 §4.2.2).
    const double share = one.output_activations.value();
    const double whole = share * static_cast<double>(par.tensor);
    const bool replicated = par.tensor > 1 && !par.sequence_parallel;
    const bool gathered = replicated && a.pipeline_scatter_gather;
    sh.p2p = collective_seconds(collective::point_to_point,
                                replicated && !gathered ? whole : share, g.pipeline) +
             (gathered ? collective_seconds(collective::all_gather, whole, g.tensor) : 0.0);
    const stage_weights w = weights_on_worst_stage(cm, par.tensor, m.layers, par.expert);
    sh.dense_per_layer = w.linear - w.experts + 2.0 * static_cast<double>(cm.layer().norm);
    sh.experts_per_layer = w.experts;
    sh.optimizer_bytes = optimizer_step_bytes(job, a);
    sh.gemm_output_bytes = machine.element_bytes;
    sh.gemm_epilogue = machine.epilogue;
    return sh;
}

/// training_step_time for a checked model and cluster; checks the rest.
GPUCALC_DETAIL_INLINE constexpr training_step step_time_of(const checked_model& cm,
                                                           const checked_cluster& c,
                                                           const training_job& job,
                                                           const training_strategy& s,
                                                           const step_assumptions& a,
                                                           const char* function) {
    check_step(cm, c, job, s, a, function);
    training_step r{};
    r.memory = training_memory_of(cm, job, s, function);  // checks the job's other rules
    const gpu_spec& gpu = c.spec().node.gpu;
    r.memory_fit = verdict_unchecked(r.memory.total, gpu.memory, 0.0);
    const double peak = peak_of(gpu, job.compute, function, "job.compute", "node.gpu.").value();
    const gemm_machine machine{a.gemm_efficiency * peak,
                               a.memory_efficiency * gpu.memory_bandwidth.value(),
                               static_cast<double>(gpu.multiprocessors),
                               static_cast<double>(a.gemm_tile_rows),
                               static_cast<double>(a.gemm_tile_columns),
                               bytes_per_element(job.activations),
                               1.0 - a.gemm_epilogue_overlap};
    const parallel_layout& par = s.parallel;
    const step_groups groups = place_groups(c, par, function);
    const step_shared sh = shared_terms(cm, job, s, groups, machine, peak, a);

    // The first stage holds the most layers, the last the head: one of them is the slowest.
    const double byte_rate = machine.byte_rate;
    const stage_terms first = stage_terms_of(cm, job, s, groups, sh, 0, byte_rate, a);
    const stage_terms last =
        par.pipeline > 1 ? stage_terms_of(cm, job, s, groups, sh, par.pipeline - 1, byte_rate, a)
                         : first;
    const bool last_binds = last.forward + last.backward > first.forward + first.backward;
    const stage_terms& slow = last_binds ? last : first;
    r.slowest_stage = last_binds ? par.pipeline - 1 : 0;

    r.microbatches = microbatches_per_step(job, s);
    const double mb = static_cast<double>(r.microbatches);
    const double per_mb = slow.forward + slow.backward;
    const double waits = static_cast<double>(par.pipeline - 1) / static_cast<double>(par.interleave);
    r.bubble_fraction = waits / mb;
    r.compute = make<seconds>(mb * slow.compute);
    r.recompute = make<seconds>(mb * slow.recompute);
    r.tensor_comm = make<seconds>(mb * slow.tensor);
    r.pipeline_comm = make<seconds>(mb * slow.pipeline);
    r.expert_comm = make<seconds>(mb * slow.expert);
    r.context_comm = make<seconds>(mb * slow.context);
    r.bubble = make<seconds>(waits * per_mb);
    r.forward_per_microbatch = make<seconds>(slow.forward);
    r.backward_per_microbatch = make<seconds>(slow.backward);

    // After the pipeline: the first stage ends its last backward last; the last stage ends
    // (p − 1)/v backward passes earlier, slack its tail may use (1F1B's cool-down; derived).
    const double slack = waits * first.backward;
    const double last_comm = last.tail_comm > slack ? last.tail_comm - slack : 0.0;
    const double left = last.tail_comm > slack ? 0.0 : slack - last.tail_comm;
    const double last_opt = last.tail_optimizer > left ? last.tail_optimizer - left : 0.0;
    const bool last_tail = par.pipeline > 1 &&
                           last_comm + last_opt > first.tail_comm + first.tail_optimizer;
    const double tail_comm = last_tail ? last_comm : first.tail_comm;
    r.optimizer = make<seconds>(last_tail ? last_opt : first.tail_optimizer);
    r.data_comm = make<seconds>(mb * slow.data + tail_comm);
    r.time = r.compute + r.recompute + r.tensor_comm + r.pipeline_comm + r.expert_comm +
             r.context_comm + r.data_comm + r.bubble + r.optimizer;

    const double step_tokens =
        static_cast<double>(job.global_batch) * static_cast<double>(job.sequence);
    r.tokens_per_second = make<tokens_per_second>(step_tokens / r.time.value());
    const pass_shape sequence{1, job.sequence, job.sequence, job.sequence, pair_count::all_keys};
    const double forward = pass_forward_flops(cm, parallel_layout{}, sequence).value();
    // HFU adds what the time model recomputes (layer_compute_seconds): the layers' forward
    // (full) or their attention cores' (selective); the output head is never recomputed.
    const layer_forward one = layer_forward_flops(cm, parallel_layout{}, sequence);
    const double layers = static_cast<double>(cm.spec().layers);
    double recomputed = 0.0;
    if (s.recompute == recompute::full) {
        recomputed = layers * (one.gemm + one.attention).value();
    } else if (s.recompute == recompute::selective) {
        recomputed = layers * one.attention.value();
    }
    r.gpus = gpus_unchecked(par);
    const double capacity = static_cast<double>(r.gpus) * peak * r.time.value();
    const double sequences = static_cast<double>(job.global_batch);
    // The model's FLOPs formed once, so hfu >= mfu holds as computed (sequences × 3 × forward
    // rounds apart from sequences × (3 × forward + 0)).
    const double model_flops = 3.0 * forward;
    r.mfu = sequences * model_flops / capacity;
    r.hfu = sequences * (model_flops + recomputed) / capacity;
    return r;
}

}  // namespace detail

/// One optimizer step of `job` with `strategy` on `cluster` (1F1B, Narayanan et al. 2021):
/// m = global_batch ÷ (micro_batch × DP) micro-batches; the step is (m + (p − 1)/v) × the
/// slowest stage's micro-batch time (its compute, recompute and exposed TP, CP, EP and PP
/// communication), then the exposed data-parallel reduction and the optimizer step
/// (docs/scaling.md, part 2, gives every term, its source and its default). Groups sit on the
/// cluster in Megatron-LM's rank order: TP innermost, then CP, then DP (EP within it), PP
/// outermost. With CP each rank holds s/CP tokens of every sequence, balanced causal work, and
/// the gradients are reduced over DP × CP ranks.
/// A layout whose memory does not fit is an answer: memory_fit.ok is false.
/// Ranges: the model's (check()); the cluster's (check(cluster)); the job's and strategy's
/// (training_job, training_strategy), with job.global_batch stated, a multiple of micro_batch
/// × DP, micro_batch at most global_batch, the layout at most the cluster's GPUs, TP dividing
/// gpus_per_node unless assumptions.allow_tensor_parallel_across_nodes, no LoRA and no
/// offload (not modelled yet); the assumptions' (step_assumptions). Every field of the result
/// is finite and >= 0.
GPUCALC_DETAIL_HOT constexpr training_step training_step_time(const checked_model& m,
                                                              const checked_cluster& cluster,
                                                              const training_job& job,
                                                              const training_strategy& strategy,
                                                              const step_assumptions& a = {}) {
    return detail::step_time_of(m, cluster, job, strategy, a, "training_step_time");
}

/// The same for a model and cluster not yet checked: checks them first.
constexpr training_step training_step_time(const transformer& m, const cluster& cluster,
                                           const training_job& job,
                                           const training_strategy& strategy,
                                           const step_assumptions& a = {}) {
    constexpr const char* function = "training_step_time";
    return detail::step_time_of(check(m, function), detail::check_cluster(cluster, function),
                                job, strategy, a, function);
}

/// Time to train `tokens` at a step's throughput: tokens ÷ step.tokens_per_second. Ranges:
/// tokens in [1e-30, 1e20]; the step as training_step_time returns it (tokens_per_second > 0).
constexpr duration time_to_train(const training_step& step, token_count tokens) {
    constexpr const char* function = "time_to_train";
    detail::require_positive(function, "tokens", tokens);
    detail::require_positive(function, "step.tokens_per_second", step.tokens_per_second);
    return tokens / step.tokens_per_second;
}

/// Scaling efficiency of `step` against `reference`: its tokens/s per GPU over the reference's
/// (1: linear scaling). The reference is the smallest GPU count on which the job fits at the
/// same micro-batch per GPU, as "1 GPU" is undefined for a large model: smallest_fitting_step
/// (scaling/step_search.hpp) finds it. Above 1 is an answer, not an error: more GPUs can shard the
/// optimizer (ZeRO) or free memory for a better layout. Not to be confused with a kernel
/// efficiency (a fraction of a peak). Ranges: both steps as training_step_time returns them
/// (tokens_per_second > 0, gpus >= 1).
constexpr double scaling_efficiency(const training_step& step, const training_step& reference) {
    constexpr const char* function = "scaling_efficiency";
    detail::require_positive(function, "step.tokens_per_second", step.tokens_per_second);
    detail::require_positive(function, "reference.tokens_per_second",
                             reference.tokens_per_second);
    detail::require_count(function, "step.gpus", step.gpus);
    detail::require_count(function, "reference.gpus", reference.gpus);
    return (step.tokens_per_second / static_cast<double>(step.gpus)) /
           (reference.tokens_per_second / static_cast<double>(reference.gpus));
}

}  // namespace gpucalc
