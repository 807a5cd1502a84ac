// scaling_step_bench.cpp: how fast a plan search can ask "how long is a training step":
// training_step_time evaluations per second on a checked model and cluster, at varied layouts,
// micro-batches and global batches, beside its raw-double twin (twin_support.hpp says how a
// twin is written), so the ratio is the price of gpucalc's unit types. The twin reuses the
// collectives' twin of scaling_bench.cpp and the training-memory twin of memory_bench.cpp,
// copied here (a benchmark is one translation unit). The step's own arithmetic is already on
// plain numbers in the library (scaling/step_compute.hpp's detail), so both sides share it,
// and check_step, which reads one quantity (the bucket size) among its count rules, is the
// library's on both sides too. Both sides are called out of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/scaling/step.hpp>

#include <benchmark/benchmark.h>

#include "twin_collectives.hpp"
#include "twin_memory.hpp"
#include "twin_support.hpp"

#include <cstdint>
#include <vector>

namespace {

namespace detail = gpucalc::detail;
namespace cat = gpucalc::catalog;
using gpucalc::collective;
using gpucalc::collective_algorithm;
using twin::input_mask;
using twin::raw_check;
using twin::raw_cluster;
using twin::raw_complete;
using twin::raw_estimate;
using twin::raw_fields;
using twin::raw_flat_estimate;
using twin::raw_flat_result;
using twin::raw_group_placement;
using twin::raw_link_fields;
using twin::raw_model_states;
using twin::raw_of;
using twin::raw_overhead;
using twin::raw_overhead_for;
using twin::raw_place;
using twin::raw_placed_estimate;
using twin::raw_placement;
using twin::raw_shard_model_states;
using twin::raw_training_memory;
using twin::raw_training_of;

// --- the step's twin -----------------------------------------------------------------------------

/// detail::collective_seconds, transliterated: placed_collective_time's `fastest` on a raw
/// placement.
GPUCALC_DETAIL_INLINE inline double raw_collective_seconds(collective op, double bytes,
                                                           const raw_placement& p) {
    if (p.ranks <= 1 || !(bytes > 0.0)) return 0.0;
    raw_estimate e = raw_placed_estimate(op, detail::default_algorithm(op), p, bytes);
    if (detail::chooses_ring_or_tree(op) && p.ranks > 1) {
        const raw_estimate tree = raw_placed_estimate(op, collective_algorithm::tree, p, bytes);
        if (tree.time < e.time) e = tree;
    }
    return e.time;
}

struct raw_groups {
    raw_placement tensor, context, pipeline, data, experts, replicas;
};

/// detail::place_shape, transliterated (the shape's integer search is the library's on both
/// sides, as check_step is).
GPUCALC_DETAIL_INLINE inline raw_placement raw_place_shape(const raw_cluster& c,
                                                           const detail::group_shape& s,
                                                           const char* function) {
    raw_placement p{};
    p.ranks = s.ranks;
    p.nodes = s.nodes;
    p.per_node = s.fullest;
    p.emptiest = s.emptiest;
    return twin::raw_with_links(c, p, raw_group_placement{}, function);
}

/// detail::place_neighbours, transliterated.
GPUCALC_DETAIL_INLINE inline raw_placement raw_place_neighbours(const raw_cluster& c,
                                                                const detail::group_shape& s,
                                                                const char* function) {
    detail::group_shape pair{};
    pair.ranks = 2;
    pair.nodes = s.nodes > 1 ? 2 : 1;
    pair.fullest = s.nodes > 1 ? 1 : 2;
    pair.emptiest = pair.fullest;
    return raw_place_shape(c, pair, function);
}

/// detail::place_groups, transliterated.
GPUCALC_DETAIL_INLINE inline raw_groups raw_place_groups(const raw_cluster& c,
                                                         const gpucalc::parallel_layout& par,
                                                         const char* function) {
    const std::int64_t node_gpus = c.gpus_per_node;
    const detail::rank_order dense =
        detail::dense_rank_order(par.tensor, par.context_parallel, par.data, par.pipeline);
    const detail::rank_order expert = detail::expert_rank_order(
        par.tensor, par.context_parallel, par.data, par.expert, par.pipeline);
    constexpr int tp = 0, cp = 1, dp = 2, pp = 3;
    constexpr int ep = 1, edp = 2;
    raw_groups g{};
    g.tensor = raw_place_shape(c, detail::slowest_group_shape(dense, tp, tp, node_gpus), function);
    if (par.context_parallel > 1) {
        g.context = raw_place_neighbours(c, detail::slowest_group_shape(dense, cp, cp, node_gpus),
                                         function);
    }
    if (par.pipeline > 1) {
        g.pipeline = raw_place_neighbours(c, detail::slowest_group_shape(dense, pp, pp, node_gpus),
                                          function);
    }
    g.data = raw_place_shape(c, detail::slowest_group_shape(dense, cp, dp, node_gpus), function);
    g.experts =
        raw_place_shape(c, detail::slowest_group_shape(expert, ep, ep, node_gpus), function);
    g.replicas =
        raw_place_shape(c, detail::slowest_group_shape(expert, edp, edp, node_gpus), function);
    return g;
}

/// layer_cost's communication buffers, in bytes (detail::layer_cost_unchecked, transliterated,
/// every field computed as the library computes it).
struct raw_layer_cost {
    double forward_gemm, forward_attention, backward_gemm, backward_attention, weights, gradients,
        expert_gradients, tensor_all_reduce, sequence_all_gather, sequence_reduce_scatter,
        expert_all_to_all, output_activations;
};

GPUCALC_DETAIL_INLINE inline raw_layer_cost raw_layer_cost_unchecked(
    const gpucalc::checked_model& cm, const gpucalc::parallel_layout& par,
    const gpucalc::pass_shape& pass, const gpucalc::cost_formats& f) {
    const gpucalc::transformer& m = cm.spec();
    const gpucalc::layer_parameters& p = cm.layer();
    const double h = static_cast<double>(m.hidden);
    const double t = static_cast<double>(par.tensor);
    const double tokens = static_cast<double>(pass.batch) * static_cast<double>(pass.queries);
    // layer_forward_flops, transliterated.
    const detail::attention_widths w = detail::attention_widths_per_gpu(cm, par.tensor);
    const double share = 1.0 / static_cast<double>(par.tensor);
    const double weights = 2.0 * h * w.q + 2.0 * h * w.kv +
                           static_cast<double>(detail::active_experts_unchecked(m) * p.expert_weights) * share +
                           static_cast<double>(p.router);
    const double pairs = detail::attention_pairs_unchecked(m, pass.queries, pass.keys, pass.counted);
    raw_layer_cost c{};
    c.forward_gemm = 2.0 * tokens * weights;
    c.forward_attention = 4.0 * static_cast<double>(pass.batch) * pairs * w.q;
    c.backward_gemm = 2.0 * c.forward_gemm;
    c.backward_attention = 2.0 * c.forward_attention;
    const detail::stage_weights one = detail::weights_on_worst_stage(cm, par.tensor, m.layers, par.expert);
    const double norms = 2.0 * static_cast<double>(p.norm);
    c.weights = twin::storage(one.linear, f.weights) + twin::storage(norms, f.embeddings);
    c.gradients = twin::storage(one.linear - one.experts + norms, f.gradients);
    c.expert_gradients = twin::storage(one.experts, f.gradients);
    const double hidden_states = twin::storage(tokens * h, f.activations);
    c.output_activations = hidden_states / t;
    c.tensor_all_reduce = c.sequence_all_gather = c.sequence_reduce_scatter = 0.0;
    if (par.tensor > 1 && par.sequence_parallel) {
        c.sequence_all_gather = 2.0 * hidden_states;
        c.sequence_reduce_scatter = 2.0 * hidden_states;
    } else if (par.tensor > 1) {
        c.tensor_all_reduce = 2.0 * hidden_states;
    }
    c.expert_all_to_all = 0.0;
    if (m.experts > 1 && par.expert > 1) {
        c.expert_all_to_all = 2.0 * static_cast<double>(m.experts_per_token) * hidden_states / t;
    }
    return c;
}

/// detail::shared_terms, transliterated.
GPUCALC_DETAIL_INLINE inline detail::step_shared raw_shared_terms(
    const gpucalc::checked_model& cm, const gpucalc::training_job& job,
    const gpucalc::training_strategy& s, const raw_groups& g, const detail::gemm_machine& machine,
    double peak, const gpucalc::step_assumptions& a) {
    const gpucalc::transformer& m = cm.spec();
    const gpucalc::parallel_layout& par = s.parallel;
    detail::step_shared sh{};
    sh.layer = detail::layer_compute_seconds(cm, job, s, machine, peak, a);
    const std::int64_t local = job.sequence / par.context_parallel;
    const double tokens = static_cast<double>(s.micro_batch) * static_cast<double>(local);
    sh.head = detail::head_seconds(m, par, tokens, machine, a);
    const gpucalc::cost_formats formats{job.parameters, job.parameters, job.activations, job.gradients};
    const gpucalc::pass_shape pass{s.micro_batch, local, local, local, gpucalc::pair_count::causal};
    gpucalc::parallel_layout per_rank = par;
    per_rank.context_parallel = 1;
    const raw_layer_cost one = raw_layer_cost_unchecked(cm, per_rank, pass, formats);
    if (par.tensor > 1 && par.sequence_parallel) {
        sh.tensor_forward =
            2.0 * (raw_collective_seconds(collective::all_gather, 0.5 * one.sequence_all_gather, g.tensor) +
                   raw_collective_seconds(collective::reduce_scatter, 0.5 * one.sequence_reduce_scatter,
                                          g.tensor));
    } else if (par.tensor > 1) {
        sh.tensor_forward =
            2.0 * raw_collective_seconds(collective::all_reduce, 0.5 * one.tensor_all_reduce, g.tensor);
    }
    sh.expert_forward =
        2.0 * raw_collective_seconds(collective::all_to_all, 0.5 * one.expert_all_to_all, g.experts);
    const double kv = 2.0 * tokens * detail::attention_widths_per_gpu(cm, par.tensor).kv *
                      gpucalc::bytes_per_element(job.activations);
    sh.context_forward = static_cast<double>(par.context_parallel - 1) *
                         raw_collective_seconds(collective::point_to_point, kv, g.context);
    const double whole = one.output_activations * static_cast<double>(par.tensor);
    const bool replicated = par.tensor > 1 && !par.sequence_parallel;
    const bool gathered = replicated && a.pipeline_scatter_gather;
    sh.p2p = raw_collective_seconds(collective::point_to_point,
                                    replicated && !gathered ? whole : one.output_activations, g.pipeline) +
             (gathered ? raw_collective_seconds(collective::all_gather, whole, g.tensor) : 0.0);
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, par.tensor, m.layers, par.expert);
    sh.dense_per_layer = w.linear - w.experts + 2.0 * static_cast<double>(cm.layer().norm);
    sh.experts_per_layer = w.experts;
    sh.optimizer_bytes = detail::optimizer_step_bytes(job, a);  // once an evaluation
    sh.gemm_output_bytes = machine.element_bytes;
    sh.gemm_epilogue = machine.epilogue;
    return sh;
}

/// detail::stage_terms_of, transliterated.
GPUCALC_DETAIL_INLINE inline detail::stage_terms raw_stage_terms_of(
    const gpucalc::checked_model& cm, const gpucalc::training_job& job,
    const gpucalc::training_strategy& s, const raw_groups& g, const detail::step_shared& sh,
    std::int64_t stage, double byte_rate, const gpucalc::step_assumptions& a, double bucket_bytes) {
    const gpucalc::parallel_layout& par = s.parallel;
    const double layers = static_cast<double>(detail::stage_layers(cm.spec(), par.pipeline, stage));
    const bool last = stage == par.pipeline - 1;
    const double v = static_cast<double>(par.interleave);
    detail::stage_terms t{};
    const double f_compute = layers * (sh.layer.gemm.forward + sh.layer.attention.forward +
                                       sh.layer.elementwise.forward) +
                             (last ? sh.head.forward : 0.0);
    const double dense = layers * sh.dense_per_layer +
                         detail::ends_of_stage(cm, par.tensor, par.pipeline, stage).elements;
    const double experts = layers * sh.experts_per_layer;
    const double grad_bytes = gpucalc::bytes_per_element(job.gradients);
    const double param_bytes = gpucalc::bytes_per_element(job.parameters);
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
    const double tensor_passes = s.recompute == gpucalc::recompute::full ? 3.0 : 2.0;
    const double tp_pass = detail::exposed(layers * sh.tensor_forward, a.tensor_comm_overlap);
    t.tensor = tensor_passes * tp_pass;
    const double ep_pass = detail::exposed(layers * sh.expert_forward, a.expert_comm_overlap);
    t.expert = 2.0 * ep_pass;
    const double cp_f = layers * (sh.context_forward -
                                  a.context_comm_overlap * sh.layer.attention.forward);
    const double cp_b = layers * (2.0 * sh.context_forward -
                                  a.context_comm_overlap * sh.layer.attention.backward);
    const double cp_forward = cp_f > 0.0 ? cp_f : 0.0;
    const double cp_backward =
        (cp_b > 0.0 ? cp_b : 0.0) + (s.recompute == gpucalc::recompute::none ? 0.0 : cp_forward);
    t.context = cp_forward + cp_backward;
    const double p2p_pass = par.pipeline > 1 ? detail::exposed(v * sh.p2p, a.pipeline_comm_overlap) : 0.0;
    t.pipeline = 2.0 * p2p_pass;
    double gather_f = 0.0, gather_b = 0.0;
    if (par.zero_stage == 3) {
        const double gather = raw_collective_seconds(collective::all_gather, dense * param_bytes, g.data) +
                              raw_collective_seconds(collective::all_gather, experts * param_bytes, g.replicas);
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
    const collective op = par.zero_stage == 0 ? collective::all_reduce : collective::reduce_scatter;
    const double reduce = raw_collective_seconds(op, dense * grad_bytes, g.data) +
                          raw_collective_seconds(op, experts * grad_bytes, g.replicas);
    const double bucket = bucket_bytes < dense * grad_bytes ? bucket_bytes : dense * grad_bytes;
    const double last_bucket = raw_collective_seconds(op, bucket, g.data);
    const double hidden = reduce - a.data_parallel_overlap * b_compute;
    t.tail_comm = hidden > last_bucket ? hidden : last_bucket;
    if (par.zero_stage == 1 || par.zero_stage == 2) {
        t.tail_comm += raw_collective_seconds(collective::all_gather, dense * param_bytes, g.data) +
                       raw_collective_seconds(collective::all_gather, experts * param_bytes, g.replicas);
    }
    const double cp = static_cast<double>(par.context_parallel);
    const double shard = par.zero_stage >= 1 ? static_cast<double>(par.data) * cp : 1.0;
    const double expert_shard =
        par.zero_stage >= 1 ? static_cast<double>(detail::exact_quotient(par.data, par.expert)) * cp
                            : 1.0;
    t.tail_optimizer = (dense / shard + experts / expert_shard) * sh.optimizer_bytes / byte_rate;
    return t;
}

/// training_step, in seconds, bytes and tokens per second.
struct raw_step {
    double time, compute, recompute, tensor_comm, pipeline_comm, expert_comm, context_comm,
        data_comm, bubble, optimizer;
    std::int64_t microbatches;
    double bubble_fraction, forward_per_microbatch, backward_per_microbatch;
    std::int64_t slowest_stage, gpus;
    double tokens_per_second, mfu, hfu;
    raw_training_memory memory;
    bool fits;
    double margin;
};

/// The GPU's values the step reads, in base units.
struct raw_gpu {
    double memory, memory_bandwidth;
    std::int64_t multiprocessors;
};

/// training_step_time(checked_model, checked_cluster, ...), transliterated (flattened, as the
/// library's GPUCALC_DETAIL_HOT entry point is).
[[gnu::flatten, gnu::noinline]] raw_step raw_step_time(const gpucalc::checked_model& cm,
                                         const gpucalc::checked_cluster& checked,
                                         const raw_cluster& c, const raw_gpu& gpu,
                                         const gpucalc::training_job& job,
                                         const gpucalc::training_strategy& s,
                                         const gpucalc::step_assumptions& a,
                                         const raw_overhead& overhead, double bucket_bytes) {
    constexpr const char* function = "training_step_time";
    detail::check_step(cm, checked, job, s, a, function);
    raw_step r{};
    r.memory = raw_training_of(cm, job, s, overhead, function);
    const double usable = (1.0 - 0.0) * gpu.memory;
    r.margin = usable - r.memory.total;
    r.fits = r.margin >= 0.0;
    const double peak = detail::peak_entry(checked.spec().node.gpu.dense_peak, job.compute).value();
    if (!(peak >= detail::smallest_input && peak <= detail::input_range<gpucalc::flop_rate>::largest)) {
        detail::throw_unusable_peak(function, "job.compute", "node.gpu.", checked.spec().node.gpu.name,
                                    job.compute, peak);
    }
    const detail::gemm_machine machine{a.gemm_efficiency * peak, a.memory_efficiency * gpu.memory_bandwidth,
                                       static_cast<double>(gpu.multiprocessors),
                                       static_cast<double>(a.gemm_tile_rows),
                                       static_cast<double>(a.gemm_tile_columns),
                                       gpucalc::bytes_per_element(job.activations),
                                       1.0 - a.gemm_epilogue_overlap};
    const gpucalc::parallel_layout& par = s.parallel;
    const raw_groups groups = raw_place_groups(c, par, function);
    const detail::step_shared sh = raw_shared_terms(cm, job, s, groups, machine, peak, a);
    const double byte_rate = machine.byte_rate;
    const detail::stage_terms first = raw_stage_terms_of(cm, job, s, groups, sh, 0, byte_rate, a, bucket_bytes);
    const detail::stage_terms last =
        par.pipeline > 1 ? raw_stage_terms_of(cm, job, s, groups, sh, par.pipeline - 1, byte_rate, a, bucket_bytes)
                         : first;
    const bool last_binds = last.forward + last.backward > first.forward + first.backward;
    const detail::stage_terms& slow = last_binds ? last : first;
    r.slowest_stage = last_binds ? par.pipeline - 1 : 0;
    r.microbatches = detail::microbatches_per_step(job, s);
    const double mb = static_cast<double>(r.microbatches);
    const double per_mb = slow.forward + slow.backward;
    const double waits = static_cast<double>(par.pipeline - 1) / static_cast<double>(par.interleave);
    r.bubble_fraction = waits / mb;
    r.compute = mb * slow.compute;
    r.recompute = mb * slow.recompute;
    r.tensor_comm = mb * slow.tensor;
    r.pipeline_comm = mb * slow.pipeline;
    r.expert_comm = mb * slow.expert;
    r.context_comm = mb * slow.context;
    r.bubble = waits * per_mb;
    r.forward_per_microbatch = slow.forward;
    r.backward_per_microbatch = slow.backward;
    const double slack = waits * first.backward;
    const double last_comm = last.tail_comm > slack ? last.tail_comm - slack : 0.0;
    const double left = last.tail_comm > slack ? 0.0 : slack - last.tail_comm;
    const double last_opt = last.tail_optimizer > left ? last.tail_optimizer - left : 0.0;
    const bool last_tail = par.pipeline > 1 && last_comm + last_opt > first.tail_comm + first.tail_optimizer;
    const double tail_comm = last_tail ? last_comm : first.tail_comm;
    r.optimizer = last_tail ? last_opt : first.tail_optimizer;
    r.data_comm = mb * slow.data + tail_comm;
    r.time = r.compute + r.recompute + r.tensor_comm + r.pipeline_comm + r.expert_comm + r.context_comm +
             r.data_comm + r.bubble + r.optimizer;
    const double step_tokens = static_cast<double>(job.global_batch) * static_cast<double>(job.sequence);
    r.tokens_per_second = step_tokens / r.time;
    // pass_forward_flops and layer_forward_flops on one whole sequence, transliterated.
    const gpucalc::transformer& m = cm.spec();
    const double h = static_cast<double>(m.hidden);
    const double sequence = static_cast<double>(job.sequence);
    const detail::attention_widths w1 = detail::attention_widths_per_gpu(cm, 1);
    const double weights1 = 2.0 * h * w1.q + 2.0 * h * w1.kv +
                            static_cast<double>(detail::active_experts_unchecked(m) * cm.layer().expert_weights) *
                                (1.0 / static_cast<double>(1)) +
                            static_cast<double>(cm.layer().router);
    const double pairs = detail::attention_pairs_unchecked(m, job.sequence, job.sequence, gpucalc::pair_count::all_keys);
    const double gemm1 = 2.0 * (1.0 * sequence) * weights1;
    const double attention1 = 4.0 * 1.0 * pairs * w1.q;
    const double head = 2.0 * (1.0 * sequence) * (static_cast<double>(m.vocab) * h / 1.0);
    const double forward = static_cast<double>(m.layers) * (gemm1 + attention1) + head;
    double recomputed = 0.0;
    if (s.recompute == gpucalc::recompute::full) {
        recomputed = static_cast<double>(m.layers) * (gemm1 + attention1);
    } else if (s.recompute == gpucalc::recompute::selective) {
        recomputed = static_cast<double>(m.layers) * attention1;
    }
    r.gpus = detail::gpus_unchecked(par);
    const double capacity = static_cast<double>(r.gpus) * peak * r.time;
    const double sequences = static_cast<double>(job.global_batch);
    // The model's FLOPs formed once, so hfu >= mfu holds as computed (sequences × 3 × forward
    // rounds apart from sequences × (3 × forward + 0)).
    const double model_flops = 3.0 * forward;
    r.mfu = sequences * model_flops / capacity;
    r.hfu = sequences * (model_flops + recomputed) / capacity;
    return r;
}

// --- the library side ----------------------------------------------------------------------------

[[gnu::noinline]] gpucalc::training_step library_step(const gpucalc::checked_model& m,
                                                      const gpucalc::checked_cluster& c,
                                                      const gpucalc::training_job& job,
                                                      const gpucalc::training_strategy& s,
                                                      const gpucalc::step_assumptions& a) {
    return gpucalc::training_step_time(m, c, job, s, a);
}

gpucalc::checked_cluster eight_hgx_h100() {
    gpucalc::cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 8;
    c.inter_node = cat::infiniband_ndr;
    return gpucalc::check(c);
}

raw_gpu raw_gpu_of(const gpucalc::checked_cluster& c) {
    const gpucalc::gpu_spec& g = c.spec().node.gpu;
    return {g.memory.value(), g.memory_bandwidth.value(), g.multiprocessors};
}

/// One evaluation's inputs: a job and a strategy.
struct step_input {
    gpucalc::training_job job;
    gpucalc::training_strategy strategy;
};

/// 256 layouts of a 64-GPU job: TP 1–8, PP 1–8 (interleaved 1 or 2), DP the rest, micro-batch
/// 1–4, every recompute mode and ZeRO stage, sequence parallelism on or off, 1–16 rounds of
/// micro-batches a step.
std::vector<step_input> varied_inputs() {
    const std::vector<std::int64_t> tp = twin::varied(0, 3, 11), pp = twin::varied(0, 3, 12),
                                    mb = twin::varied(0, 2, 13), rc = twin::varied(0, 2, 14),
                                    zero = twin::varied(0, 3, 15), rounds = twin::varied(1, 16, 16),
                                    flags = twin::varied(0, 3, 17);
    std::vector<step_input> v;
    for (std::size_t i = 0; i < twin::input_count; ++i) {
        step_input in{};
        gpucalc::parallel_layout& p = in.strategy.parallel;
        p.tensor = std::int64_t{1} << tp[i];
        p.pipeline = std::int64_t{1} << pp[i];
        p.data = 64 / (p.tensor * p.pipeline);
        p.sequence_parallel = p.tensor > 1 && (flags[i] & 1) != 0;
        p.zero_stage = zero[i];
        p.interleave = p.pipeline > 1 && (flags[i] & 2) != 0 ? 2 : 1;
        in.strategy.micro_batch = std::int64_t{1} << mb[i];
        in.strategy.recompute = static_cast<gpucalc::recompute>(rc[i]);
        in.job.sequence = 4096;
        in.job.global_batch = in.strategy.micro_batch * p.data * rounds[i];
        v.push_back(in);
    }
    return v;
}

void expect_same_step(const gpucalc::training_step& lib, const raw_step& raw) {
    twin::expect_same("time", lib.time, raw.time);
    twin::expect_same("compute", lib.compute, raw.compute);
    twin::expect_same("recompute", lib.recompute, raw.recompute);
    twin::expect_same("tensor_comm", lib.tensor_comm, raw.tensor_comm);
    twin::expect_same("pipeline_comm", lib.pipeline_comm, raw.pipeline_comm);
    twin::expect_same("expert_comm", lib.expert_comm, raw.expert_comm);
    twin::expect_same("context_comm", lib.context_comm, raw.context_comm);
    twin::expect_same("data_comm", lib.data_comm, raw.data_comm);
    twin::expect_same("bubble", lib.bubble, raw.bubble);
    twin::expect_same("optimizer", lib.optimizer, raw.optimizer);
    twin::expect_same("microbatches", lib.microbatches, raw.microbatches);
    twin::expect_same("bubble_fraction", lib.bubble_fraction, raw.bubble_fraction);
    twin::expect_same("forward_per_microbatch", lib.forward_per_microbatch, raw.forward_per_microbatch);
    twin::expect_same("backward_per_microbatch", lib.backward_per_microbatch, raw.backward_per_microbatch);
    twin::expect_same("slowest_stage", lib.slowest_stage, raw.slowest_stage);
    twin::expect_same("gpus", lib.gpus, raw.gpus);
    twin::expect_same("tokens_per_second", lib.tokens_per_second, raw.tokens_per_second);
    twin::expect_same("mfu", lib.mfu, raw.mfu);
    twin::expect_same("hfu", lib.hfu, raw.hfu);
    twin::expect_same("memory total", lib.memory.total, raw.memory.total);
    twin::expect_same("memory activations", lib.memory.activations, raw.memory.activations);
    twin::expect_same("memory_fit ok", lib.memory_fit.ok, raw.fits);
    twin::expect_same("memory_fit margin", lib.memory_fit.margin, raw.margin);
}

// The twin must agree with the library on every input it is timed on, and beyond them: an MoE
// with expert parallelism (Mixtral 8x7B), context parallelism, flash attention off, the
// overlaps on, unfused gradient accumulation, full-size buckets, and a cluster of 2 nodes (TP 8
// and DP across nodes).
void check_twins() {
    const gpucalc::checked_cluster cluster = eight_hgx_h100();
    const raw_cluster rc = raw_of(cluster);
    const raw_gpu gpu = raw_gpu_of(cluster);
    const gpucalc::checked_model llama = gpucalc::check(cat::llama_2_70b);
    const gpucalc::checked_model mixtral = gpucalc::check(cat::mixtral_8x7b);
    gpucalc::step_assumptions overlapped{};
    overlapped.data_parallel_overlap = 1.0;
    overlapped.tensor_comm_overlap = 0.5;
    overlapped.pipeline_comm_overlap = 0.25;
    overlapped.expert_comm_overlap = 0.5;
    overlapped.parameter_gather_overlap = 0.5;
    overlapped.context_comm_overlap = 0.5;
    overlapped.fused_gradient_accumulation = false;
    overlapped.gemm_epilogue_overlap = 0.5;
    for (const gpucalc::step_assumptions& a : {gpucalc::step_assumptions{}, overlapped}) {
        for (step_input in : varied_inputs()) {
            for (bool flash : {true, false}) {
                in.job.flash_attention = flash;
                expect_same_step(library_step(llama, cluster, in.job, in.strategy, a),
                                 raw_step_time(llama, cluster, rc, gpu, in.job, in.strategy, a,
                                               raw_of(in.job.overhead), a.bucket_bytes.value()));
                if (in.strategy.parallel.data % 2 == 0) {
                    step_input cp = in;  // context parallelism: CP 2 from the DP ranks
                    cp.strategy.parallel.context_parallel = 2;
                    cp.strategy.parallel.data /= 2;
                    expect_same_step(library_step(llama, cluster, cp.job, cp.strategy, a),
                                     raw_step_time(llama, cluster, rc, gpu, cp.job, cp.strategy, a,
                                                   raw_of(cp.job.overhead), a.bucket_bytes.value()));
                }
                if (in.strategy.parallel.data % 8 == 0) {
                    step_input moe = in;
                    moe.strategy.parallel.expert = 8;
                    if (moe.strategy.parallel.pipeline > 32) continue;
                    expect_same_step(library_step(mixtral, cluster, moe.job, moe.strategy, a),
                                     raw_step_time(mixtral, cluster, rc, gpu, moe.job, moe.strategy, a,
                                                   raw_of(moe.job.overhead), a.bucket_bytes.value()));
                }
            }
        }
    }
}

void BM_training_step_units(benchmark::State& state) {
    gpucalc::checked_cluster cluster = eight_hgx_h100();
    gpucalc::checked_model model = gpucalc::check(cat::llama_2_70b);
    gpucalc::step_assumptions a{};
    std::vector<step_input> inputs = varied_inputs();
    benchmark::DoNotOptimize(cluster);
    benchmark::DoNotOptimize(model);
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(inputs);
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::training_step r = library_step(model, cluster, inputs[i].job, inputs[i].strategy, a);
        benchmark::DoNotOptimize(r.time.value());
        i = (i + 1) & input_mask;
    }
}
BENCHMARK(BM_training_step_units);

void BM_training_step_raw(benchmark::State& state) {
    gpucalc::checked_cluster cluster = eight_hgx_h100();
    raw_cluster rc = raw_of(cluster);
    raw_gpu gpu = raw_gpu_of(cluster);
    gpucalc::checked_model model = gpucalc::check(cat::llama_2_70b);
    gpucalc::step_assumptions a{};
    double bucket = a.bucket_bytes.value();
    std::vector<step_input> inputs = varied_inputs();
    std::vector<raw_overhead> overheads;
    for (const step_input& in : inputs) overheads.push_back(raw_of(in.job.overhead));
    benchmark::DoNotOptimize(cluster);
    benchmark::DoNotOptimize(rc);
    benchmark::DoNotOptimize(gpu);
    benchmark::DoNotOptimize(model);
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(bucket);
    benchmark::DoNotOptimize(inputs);
    benchmark::DoNotOptimize(overheads);
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_step r = raw_step_time(model, cluster, rc, gpu, inputs[i].job, inputs[i].strategy, a,
                                         overheads[i], bucket);
        benchmark::DoNotOptimize(r.time);
        i = (i + 1) & input_mask;
    }
}
BENCHMARK(BM_training_step_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
