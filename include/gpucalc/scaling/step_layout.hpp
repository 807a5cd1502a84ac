// scaling/step_layout.hpp: where a training layout's groups sit on a cluster (Megatron-LM's rank
// order), what a training step time refuses, and the collectives its groups run
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware/cluster.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "cluster_collectives.hpp"
#include "placement.hpp"
#include "rank_order.hpp"
#include "step_compute.hpp"

namespace gpucalc {
namespace detail {

/// The placements of a layout's groups on a checked cluster, found once per evaluation.
struct step_groups {
    placement tensor;     ///< TP ranks: consecutive
    /// Two neighbouring CP ranks (TP apart), one on each of two nodes when a CP group spans
    /// nodes: the ring's slowest hop
    placement context;
    placement pipeline;   ///< two neighbouring stages (TP·CP·DP apart), likewise
    /// The ranks that reduce the dense gradients: DP × CP of them, TP apart (Megatron-LM
    /// reduces gradients over the data-parallel group with context parallelism, as every CP
    /// rank holds the same weights; parallel_state's data-parallel-with-CP group)
    placement data;
    /// EP ranks, TP apart, and the DP·CP ÷ EP ranks that hold the same experts, TP·EP apart:
    /// Megatron Core's expert rank order, whose expert groups leave CP out (parallel_state's
    /// expert-model-parallel generator with context parallelism 1)
    placement experts;
    placement replicas;
};

/// A group placed as its dimension's binding group (slowest_group_shape) sits.
GPUCALC_DETAIL_INLINE constexpr placement place_shape(const checked_cluster& c,
                                                      const group_shape& s,
                                                      const char* function) {
    placement p{};
    p.ranks = s.ranks;
    p.nodes = s.nodes;
    p.per_node = s.fullest;
    p.emptiest = s.emptiest;
    return with_links(c, p, group_placement{}, function);
}

/// Two neighbouring ranks of a group of shape `s` (a ring's hop, a pipeline boundary): one on
/// each of two nodes when the binding group spans nodes, as some pair of its neighbours then
/// does and the slowest hop binds; otherwise both on one node (derived).
GPUCALC_DETAIL_INLINE constexpr placement place_neighbours(const checked_cluster& c,
                                                           const group_shape& s,
                                                           const char* function) {
    group_shape pair{};
    pair.ranks = 2;
    pair.nodes = s.nodes > 1 ? 2 : 1;
    pair.fullest = s.nodes > 1 ? 1 : 2;
    pair.emptiest = pair.fullest;
    return place_shape(c, pair, function);
}

/// Places the groups (the rule step_groups states) from Megatron-LM's rank orders
/// (dense_rank_order, expert_rank_order): each group as its dimension's binding group sits, so
/// the placement depends on the layout and the node's GPUs alone, never on nodes the layout
/// leaves idle.
GPUCALC_DETAIL_INLINE constexpr step_groups place_groups(const checked_cluster& c,
                                                         const parallel_layout& par,
                                                         const char* function) {
    const std::int64_t node_gpus = c.spec().node.gpus_per_node;
    const rank_order dense =
        dense_rank_order(par.tensor, par.context_parallel, par.data, par.pipeline);
    const rank_order expert = expert_rank_order(par.tensor, par.context_parallel, par.data,
                                                par.expert, par.pipeline);
    constexpr int tp = 0, cp = 1, dp = 2, pp = 3;  // dense_rank_order's dimensions
    constexpr int ep = 1, edp = 2;                 // expert_rank_order's
    step_groups g{};
    g.tensor = place_shape(c, slowest_group_shape(dense, tp, tp, node_gpus), function);
    if (par.context_parallel > 1) {
        g.context = place_neighbours(c, slowest_group_shape(dense, cp, cp, node_gpus), function);
    }
    if (par.pipeline > 1) {
        g.pipeline = place_neighbours(c, slowest_group_shape(dense, pp, pp, node_gpus), function);
    }
    g.data = place_shape(c, slowest_group_shape(dense, cp, dp, node_gpus), function);
    g.experts = place_shape(c, slowest_group_shape(expert, ep, ep, node_gpus), function);
    g.replicas = place_shape(c, slowest_group_shape(expert, edp, edp, node_gpus), function);
    return g;
}

/// One collective among a placed group, in seconds; 0 for one rank or nothing to move (a
/// dense model's expert gradients: no collective is launched).
GPUCALC_DETAIL_INLINE constexpr double collective_seconds(collective op, double bytes,
                                                          const placement& p) {
    if (p.ranks <= 1 || !(bytes > 0.0)) return 0.0;
    collective_spec spec{};
    spec.op = op;
    spec.bytes = make<gpucalc::bytes>(bytes);
    spec.ranks = p.ranks;
    return placed_collective_time(spec, p).time.value();
}

/// An overlap in [0, 1].
constexpr void require_overlap(const char* function, const char* field, double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
        throw_invalid(function, field, value, "", "must be in [0, 1]");
    }
}

constexpr void check(const step_assumptions& a, const char* function) {
    require_fraction_of_peak(function, "assumptions.gemm_efficiency", a.gemm_efficiency);
    require_fraction_of_peak(function, "assumptions.memory_efficiency", a.memory_efficiency);
    require_fraction_of_peak(function, "assumptions.attention_forward_efficiency",
                             a.attention_forward_efficiency);
    require_fraction_of_peak(function, "assumptions.attention_backward_efficiency",
                             a.attention_backward_efficiency);
    require_overlap(function, "assumptions.tensor_comm_overlap", a.tensor_comm_overlap);
    require_overlap(function, "assumptions.pipeline_comm_overlap", a.pipeline_comm_overlap);
    require_overlap(function, "assumptions.expert_comm_overlap", a.expert_comm_overlap);
    require_overlap(function, "assumptions.data_parallel_overlap", a.data_parallel_overlap);
    require_overlap(function, "assumptions.parameter_gather_overlap",
                    a.parameter_gather_overlap);
    require_overlap(function, "assumptions.context_comm_overlap", a.context_comm_overlap);
    require_overlap(function, "assumptions.gemm_epilogue_overlap", a.gemm_epilogue_overlap);
    if (a.gemm_tile_rows < 1 || a.gemm_tile_rows > (1 << 20)) {
        throw_invalid(function, "assumptions.gemm_tile_rows",
                      static_cast<double>(a.gemm_tile_rows), "", "must be in [1, 2^20]");
    }
    if (a.gemm_tile_columns < 1 || a.gemm_tile_columns > (1 << 20)) {
        throw_invalid(function, "assumptions.gemm_tile_columns",
                      static_cast<double>(a.gemm_tile_columns), "", "must be in [1, 2^20]");
    }
    require_positive(function, "assumptions.bucket_bytes", a.bucket_bytes);
    constexpr double most_loss_bytes = 1024.0;
    const field_path at{function, "assumptions."};
    require_in_range_at(at, "loss_forward_bytes_per_logit", a.loss_forward_bytes_per_logit, 0.0,
                        most_loss_bytes, false, "", "must be in [0, 1024]");
    require_in_range_at(at, "loss_backward_bytes_per_logit", a.loss_backward_bytes_per_logit,
                        0.0, most_loss_bytes, false, "", "must be in [0, 1024]");
}

/// The batch rules every step evaluation needs, whatever the layout: the global batch stated,
/// the sequence and micro-batch counts, the micro-batch at most the global batch.
constexpr void check_step_batch(const training_job& job, const training_strategy& s,
                                const char* function) {
    if (job.global_batch == 0) {
        throw_invalid(function, "job.global_batch", 0.0, "",
                      "must be stated (>= 1): a step time needs the micro-batches per step");
    }
    require_count(function, "job.global_batch", job.global_batch);
    require_count(function, "job.sequence", job.sequence);
    require_count(function, "strategy.micro_batch", s.micro_batch);
    if (s.micro_batch > job.global_batch) {
        throw_invalid(function, "strategy.micro_batch", static_cast<double>(s.micro_batch), "",
                      "must not exceed job.global_batch = ",
                      static_cast<double>(job.global_batch), "");
    }
}

/// What the step time does not model yet (LoRA, offload), refused by name.
constexpr void check_step_modelled(const training_job& job, const training_strategy& s,
                                   const char* function) {
    if (job.lora.enabled) {
        throw_invalid(function, "job.lora.enabled", 1.0, "",
                      "must be false: the step time does not model LoRA yet");
    }
    if (s.offload_optimizer || s.offload_parameters) {
        throw_invalid(function,
                      s.offload_optimizer ? "strategy.offload_optimizer"
                                          : "strategy.offload_parameters",
                      1.0, "", "must be false: the step time does not model offload yet");
    }
}

/// What training_step_time refuses before any evaluation, each naming the
/// field as the caller wrote it. The job's and strategy's remaining rules are
/// training_memory_per_gpu's, which the step time runs next.
constexpr void check_step(const checked_model& cm, const checked_cluster& c,
                          const training_job& job, const training_strategy& s,
                          const step_assumptions& a, const char* function) {
    const parallel_layout& par = s.parallel;
    check_step_batch(job, s, function);
    check(cm, par, job.sequence, layout_path{function, "strategy.parallel."});
    const double per_round = static_cast<double>(s.micro_batch) * static_cast<double>(par.data);
    if (!is_whole(static_cast<double>(job.global_batch) / per_round)) {
        throw_invalid(function, "job.global_batch", static_cast<double>(job.global_batch), "",
                      "must be a multiple of strategy.micro_batch x strategy.parallel.data = ",
                      per_round, "");
    }
    const std::int64_t gpus = gpus_unchecked(par);
    if (gpus > total_gpus(c)) {
        throw_invalid(function, "strategy.parallel (tensor x pipeline x context_parallel x data)",
                      static_cast<double>(gpus), "", "must not exceed the cluster's GPUs = ",
                      static_cast<double>(total_gpus(c)), "");
    }
    const std::int64_t node_gpus = c.spec().node.gpus_per_node;
    if (!a.allow_tensor_parallel_across_nodes &&
        (par.tensor > node_gpus || !divides(par.tensor, node_gpus))) {
        throw_invalid(function, "strategy.parallel.tensor", static_cast<double>(par.tensor), "",
                      "must divide node.gpus_per_node = ", static_cast<double>(node_gpus),
                      " (a TP group stays in a node unless "
                      "assumptions.allow_tensor_parallel_across_nodes)");
    }
    check_step_modelled(job, s, function);
    check(a, function);
}

}  // namespace detail
}  // namespace gpucalc
