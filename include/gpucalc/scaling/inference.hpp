// scaling/inference.hpp: how long a decode step and a prefill take on a serving replica split
// across GPUs by tensor and pipeline parallelism: roofline's per-GPU time, the tensor-parallel
// all-reduces, and the pipeline's hops and schedule
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../hardware/cluster.hpp"
#include "../model.hpp"
#include "../roofline/inference.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "cluster_collectives.hpp"
#include "collectives.hpp"
#include "placement.hpp"

namespace gpucalc {

/// What a serving replica's communication assumes. Ranges: each overlap in [0, 1];
/// micro_batches 0 or in [1, setup.batch].
struct serving_parallel_assumptions {
    /// The fraction of the tensor-parallel all-reduces hidden behind compute. 0 (the default):
    /// Megatron's all-reduce after each row-parallel GEMM is a synchronous point on the
    /// critical path (Shoeybi et al. 2019 §3, the operator g), as vLLM and TensorRT-LLM run it
    /// in decode; overlapping it needs kernels that split the GEMM (e.g. NVIDIA's
    /// userbuffers), which serving engines do not use by default.
    double tensor_comm_overlap = 0.0;
    /// The fraction of the pipeline's point-to-point hops hidden behind compute. 0 (the
    /// default): a stage cannot start a micro-batch before its activations arrive (derived).
    double pipeline_comm_overlap = 0.0;
    /// Whether a tensor-parallel group may span nodes. false (the default): a group larger
    /// than a node is invalid_input, since its per-layer all-reduces would cross the network
    /// (Narayanan et al. 2021 §3.3: tensor parallelism within a node, pipeline across).
    bool allow_tensor_parallel_across_nodes = false;
    /// Micro-batches the batch is split into across the pipeline stages. 0 (the default):
    /// min(pipeline, batch), the fewest that keep every stage busy (derived). With one stage
    /// the batch is never split (m = 1), whatever is set here.
    std::int64_t micro_batches = 0;
};

/// Which term is the largest part of one pass through the replica.
enum class serving_limiter { compute, memory, tensor_communication, pipeline_communication };

/// Whether the tensor-parallel all-reduce's latency term or its bandwidth term is the larger
/// (none: one GPU per stage, no all-reduce).
enum class communication_regime { none, latency, bandwidth };

constexpr std::string_view to_string(serving_limiter l) {
    switch (l) {
        case serving_limiter::compute: return "compute";
        case serving_limiter::memory: return "memory";
        case serving_limiter::tensor_communication: return "tensor_communication";
        case serving_limiter::pipeline_communication: return "pipeline_communication";
    }
    return "unknown";
}

constexpr std::string_view to_string(communication_regime r) {
    switch (r) {
        case communication_regime::none: return "none";
        case communication_regime::latency: return "latency";
        case communication_regime::bandwidth: return "bandwidth";
    }
    return "unknown";
}

/// One micro-batch's pass through every pipeline stage of the replica, and its parts.
struct serving_pass {
    std::int64_t micro_batches = 1;    ///< m
    std::int64_t micro_batch = 1;      ///< b' = ⌈batch ÷ m⌉ sequences, the largest micro-batch
    duration compute_time{};           ///< roofline: FLOPs ÷ attainable peak, all stages, per rank
    duration memory_time{};            ///< roofline: bytes ÷ attainable bandwidth, the same
    duration roofline_time{};          ///< the larger of the two (roofline's time for b')
    gpucalc::bound bound = gpucalc::bound::memory;
    /// 2 × layers all-reduces of b' × hidden (× prompt in prefill) activations, exposed.
    duration tensor_comm_time{};
    duration pipeline_comm_time{};     ///< the pipeline - 1 hops, exposed
    duration communication_time{};     ///< the sum of the two
    duration pass_time{};              ///< L: roofline + communication
    /// The time one stage holds a micro-batch: (roofline + tensor communication) ÷ pipeline,
    /// the stages taken as balanced.
    duration stage_time{};
    double communication_share = 0.0; ///< communication_time ÷ pass_time
    serving_limiter limiter = serving_limiter::memory;
    communication_regime regime = communication_regime::none;
    std::int64_t all_reduces = 0;      ///< per pass: 2 × layers (0 when tensor is 1)
    placed_collective_estimate all_reduce{};  ///< one of them, on the cluster
    std::int64_t hops_within_node = 0;
    std::int64_t hops_across_nodes = 0;
};

/// A decode step of a replica on several GPUs.
struct parallel_decode_estimate : serving_pass {
    /// T = max(L, m × stage_time): each sequence's time between two tokens (derived: a
    /// micro-batch's next step needs its last token, so it cannot come round faster than L,
    /// and the busiest stage serves m micro-batches per round).
    duration time_per_token{};
    stream_token_rate stream_rate{};   ///< 1 ÷ T per sequence
    token_rate aggregate_rate{};       ///< batch ÷ T
};

/// A prefill of a replica on several GPUs.
struct parallel_prefill_estimate : serving_pass {
    /// L + (m − 1) × stage_time: the last micro-batch's first token (GPipe's forward
    /// schedule, Huang et al. 2019 §2.2: m + p − 1 stage slots, plus the hops).
    duration time_to_first_token{};
    token_rate prompt_rate{};          ///< batch × prompt ÷ time_to_first_token
};

namespace detail {

/// How the replica's stages sit on the cluster, and the collectives' placements.
struct serving_layout {
    placement tensor;            ///< one stage's tensor-parallel group, contiguous
    placement hop_within{};      ///< two ranks on one node
    placement hop_across{};      ///< two ranks on two nodes
    std::int64_t hops_within = 0;
    std::int64_t hops_across = 0;
};

/// Places a replica of `tp` × `pp` GPUs, stage after stage (Megatron's order: tensor innermost):
/// with tp ≤ gpus_per_node, ⌊gpus_per_node ÷ tp⌋ whole stages on each node, so the replica
/// needs ⌈pp ÷ that⌉ nodes and its hops cross nodes that many times less one; with tp larger
/// (only when the assumptions allow it), each stage fills ⌈tp ÷ gpus_per_node⌉ nodes of its
/// own and every hop crosses nodes (derived).
GPUCALC_DETAIL_INLINE constexpr serving_layout place_replica(const checked_cluster& c,
                                                             std::int64_t tp, std::int64_t pp,
                                                             const serving_parallel_assumptions& a,
                                                             const char* function) {
    const std::int64_t node_gpus = c.spec().node.gpus_per_node;
    const double gpus = static_cast<double>(tp) * static_cast<double>(pp);
    if (gpus > static_cast<double>(total_gpus(c))) {
        throw_invalid(function, "parallel.tensor x parallel.pipeline", gpus, "",
                      "must not exceed the cluster's GPUs = ", static_cast<double>(total_gpus(c)),
                      " (nodes x node.gpus_per_node)");
    }
    if (tp > node_gpus && !a.allow_tensor_parallel_across_nodes) {
        throw_invalid(function, "parallel.tensor", static_cast<double>(tp), "",
                      "must not exceed node.gpus_per_node = ", static_cast<double>(node_gpus),
                      " unless assumptions.allow_tensor_parallel_across_nodes");
    }
    serving_layout l{};
    std::int64_t nodes = 0;
    if (tp <= node_gpus) {
        nodes = ceil_div(pp, node_gpus / tp);
        l.hops_across = nodes - 1;
    } else {
        nodes = pp * ceil_div(tp, node_gpus);
        l.hops_across = pp - 1;
    }
    if (nodes > c.spec().nodes) {
        throw_invalid(function, "parallel.pipeline", static_cast<double>(pp), "",
                      "places the stages on more nodes than the cluster's nodes = ",
                      static_cast<double>(c.spec().nodes),
                      " (a stage's tensor-parallel group does not straddle nodes)");
    }
    l.hops_within = pp - 1 - l.hops_across;
    l.tensor = place(c, tp, {}, function);
    if (l.hops_within > 0) l.hop_within = place(c, 2, {}, function);
    if (l.hops_across > 0) {
        group_placement apart{};
        apart.ranks_per_node = 1;  // one rank on each of two nodes
        l.hop_across = place(c, 2, apart, function);
    }
    return l;
}

/// Rejects assumptions outside their ranges; returns m for `batch` sequences and `pp` stages.
constexpr std::int64_t micro_batches_of(const serving_parallel_assumptions& a,
                                        std::int64_t batch, std::int64_t pp,
                                        const char* function) {
    if (!(a.tensor_comm_overlap >= 0.0 && a.tensor_comm_overlap <= 1.0)) {
        throw_invalid(function, "assumptions.tensor_comm_overlap", a.tensor_comm_overlap, "",
                      "must be in [0, 1]");
    }
    if (!(a.pipeline_comm_overlap >= 0.0 && a.pipeline_comm_overlap <= 1.0)) {
        throw_invalid(function, "assumptions.pipeline_comm_overlap", a.pipeline_comm_overlap, "",
                      "must be in [0, 1]");
    }
    if (a.micro_batches < 0 || a.micro_batches > batch) {
        throw_invalid(function, "assumptions.micro_batches", static_cast<double>(a.micro_batches),
                      "", "must be 0 (one per stage) or in [1, batch = ",
                      static_cast<double>(batch), "]");
    }
    if (pp == 1) return 1;
    if (a.micro_batches > 0) return a.micro_batches;
    return pp < batch ? pp : batch;
}

/// Fills the pass's communication and totals from its roofline terms, for `bytes` of
/// activations per all-reduce and per hop.
GPUCALC_DETAIL_INLINE constexpr void compose(serving_pass& r, const checked_model& cm,
                                             const serving_layout& l,
                                             const serving_parallel_assumptions& a,
                                             std::int64_t pp, data_size bytes) {
    const std::int64_t layers = cm.spec().layers;
    r.hops_within_node = l.hops_within;
    r.hops_across_nodes = l.hops_across;
    if (l.tensor.ranks > 1) {
        // Two all-reduces per layer: after attention's output projection and after the MLP's
        // down projection, each of the layer's output activations (Shoeybi et al. 2019 §3).
        r.all_reduce = placed_collective_time({collective::all_reduce, bytes, l.tensor.ranks,
                                               collective_algorithm::fastest},
                                              l.tensor);
        r.all_reduces = 2 * layers;
        r.tensor_comm_time = (1.0 - a.tensor_comm_overlap) *
                             (static_cast<double>(r.all_reduces) * r.all_reduce.time);
        r.regime = r.all_reduce.latency_term < r.all_reduce.bandwidth_term
                       ? communication_regime::bandwidth
                       : communication_regime::latency;
    }
    // Each TP rank of a stage sends its copy of the activations to its peer in the next stage,
    // all at once over their own links (derived).
    duration hops{};
    const collective_spec hop{collective::point_to_point, bytes, 2, collective_algorithm::direct};
    if (l.hops_within > 0) {
        hops += static_cast<double>(l.hops_within) * placed_collective_time(hop, l.hop_within).time;
    }
    if (l.hops_across > 0) {
        hops += static_cast<double>(l.hops_across) * placed_collective_time(hop, l.hop_across).time;
    }
    r.pipeline_comm_time = (1.0 - a.pipeline_comm_overlap) * hops;
    r.communication_time = r.tensor_comm_time + r.pipeline_comm_time;
    r.pass_time = r.roofline_time + r.communication_time;
    r.stage_time = (r.roofline_time + r.tensor_comm_time) / static_cast<double>(pp);
    r.communication_share = r.communication_time / r.pass_time;
    r.limiter = r.bound == gpucalc::bound::compute ? serving_limiter::compute
                                                   : serving_limiter::memory;
    duration largest = r.roofline_time;
    if (r.tensor_comm_time > largest) {
        largest = r.tensor_comm_time;
        r.limiter = serving_limiter::tensor_communication;
    }
    if (r.pipeline_comm_time > largest) r.limiter = serving_limiter::pipeline_communication;
}

/// The setup one micro-batch of b' sequences runs as.
constexpr serving_setup micro_setup(serving_setup s, std::int64_t m) {
    s.batch = ceil_div(s.batch, m);
    return s;
}

GPUCALC_DETAIL_INLINE constexpr parallel_decode_estimate decode_across(
    const checked_model& cm, const checked_cluster& c, const serving_setup& s,
    const serving_parallel_assumptions& a, const char* function) {
    check(cm, s, function);
    const std::int64_t pp = s.parallel.pipeline;
    parallel_decode_estimate r{};
    r.micro_batches = micro_batches_of(a, s.batch, pp, function);
    const serving_setup one = micro_setup(s, r.micro_batches);
    r.micro_batch = one.batch;
    const serving_layout l = place_replica(c, s.parallel.tensor, pp, a, function);
    const decode_estimate d = decode_step(cm, c.spec().node.gpu, one, false, function);
    r.compute_time = d.compute_time;
    r.memory_time = d.memory_time;
    r.roofline_time = d.time_per_token;
    r.bound = d.bound;
    compose(r, cm, l, a, pp,
            storage_size_unchecked(static_cast<double>(one.batch) *
                                       static_cast<double>(cm.spec().hidden),
                                   s.activations));
    const duration round = static_cast<double>(r.micro_batches) * r.stage_time;
    r.time_per_token = round > r.pass_time ? round : r.pass_time;
    r.stream_rate = one_token_per_sequence() / r.time_per_token;
    r.aggregate_rate = r.stream_rate * make<sequences>(static_cast<double>(s.batch));
    return r;
}

GPUCALC_DETAIL_INLINE constexpr parallel_prefill_estimate prefill_across(
    const checked_model& cm, const checked_cluster& c, const serving_setup& s,
    const serving_parallel_assumptions& a, const char* function) {
    const gpu_spec& gpu = c.spec().node.gpu;
    check_pass(cm, gpu, s, function);
    require_count(function, "prompt", s.prompt);
    const double by_vocab = static_cast<double>(s.batch) * static_cast<double>(s.prompt) *
                            static_cast<double>(cm.spec().vocab);
    if (!(by_vocab < largest_exact_count)) {
        throw_invalid(function, "batch x prompt x vocab", by_vocab, "",
                      "must stay below 2^53, where counts stop being exact");
    }
    const std::int64_t pp = s.parallel.pipeline;
    parallel_prefill_estimate r{};
    r.micro_batches = micro_batches_of(a, s.batch, pp, function);
    const serving_setup one = micro_setup(s, r.micro_batches);
    r.micro_batch = one.batch;
    const serving_layout l = place_replica(c, s.parallel.tensor, pp, a, function);
    const prefill_estimate p = prefill(cm, gpu, one);
    r.compute_time = p.compute_time;
    r.memory_time = p.memory_time;
    r.roofline_time = p.time_to_first_token;
    r.bound = p.bound;
    compose(r, cm, l, a, pp,
            storage_size_unchecked(static_cast<double>(one.batch) *
                                       static_cast<double>(s.prompt) *
                                       static_cast<double>(cm.spec().hidden),
                                   s.activations));
    r.time_to_first_token =
        r.pass_time + static_cast<double>(r.micro_batches - 1) * r.stage_time;
    r.prompt_rate = make<tokens>(static_cast<double>(s.batch) * static_cast<double>(s.prompt)) /
                    r.time_to_first_token;
    return r;
}

}  // namespace detail

/// A decode step of `setup.batch` sequences on a replica of setup.parallel.tensor (TP) ×
/// setup.parallel.pipeline (PP) GPUs of `c` (composed, derived unless cited):
/// - per GPU, roofline's decode (roofline/inference.hpp) for one micro-batch of b' = ⌈batch ÷
///   m⌉ sequences: one TP rank's share of FLOPs and bytes, summed over the stages;
/// - 2 × layers all-reduces of b' × hidden activations (setup.activations) over the TP group,
///   placed contiguously in a node, at collective_time(spec, cluster) with `fastest` (Shoeybi
///   et al. 2019 §3): latency-bound at small batch, bandwidth-bound at large;
/// - PP − 1 point-to-point hops of the same activations between neighbouring stages (over the
///   node's link, or the network where stages change nodes);
/// - each exposed × (1 − its overlap); the pass L = roofline + communication; a stage holds a
///   micro-batch for stage_time = (roofline + TP communication) ÷ PP (balanced stages);
/// - time per token T = max(L, m × stage_time), tokens/s = batch ÷ T.
/// With TP = PP = 1 the time is roofline's decode's exactly. A checked model and cluster skip
/// their checks. Ranges: the setup as decode states (its layout: TP divides the heads, as
/// the layout's rules say); TP × PP at most the cluster's GPUs, whole stages on each node;
/// TP at most node.gpus_per_node unless allowed; the assumptions as they state. The answer is
/// then finite and positive.
GPUCALC_DETAIL_HOT constexpr parallel_decode_estimate decode_step_time(
    const checked_model& m, const checked_cluster& c, const serving_setup& setup,
    const serving_parallel_assumptions& assumptions = {}) {
    return detail::decode_across(m, c, setup, assumptions, "decode_step_time");
}
/// The same for a model and a cluster not yet checked: checks both first.
constexpr parallel_decode_estimate decode_step_time(
    const transformer& m, const cluster& c, const serving_setup& setup,
    const serving_parallel_assumptions& assumptions = {}) {
    constexpr const char* function = "decode_step_time";
    return detail::decode_across(check(m, function), detail::check_cluster(c, function), setup,
                                 assumptions, function);
}

/// A prefill of `setup.batch` prompts of `setup.prompt` tokens on a replica of TP × PP GPUs of
/// `c`: roofline's prefill for one micro-batch of b' prompts per GPU, 2 × layers all-reduces of
/// b' × prompt × hidden activations over the TP group, PP − 1 hops of the same, each exposed ×
/// (1 − its overlap), composed as decode_step_time states; the batch's last first token comes
/// after L + (m − 1) × stage_time (GPipe's forward schedule, Huang et al. 2019). Ranges: as
/// decode_step_time, and setup.prompt as prefill states.
GPUCALC_DETAIL_HOT constexpr parallel_prefill_estimate prefill_time(
    const checked_model& m, const checked_cluster& c, const serving_setup& setup,
    const serving_parallel_assumptions& assumptions = {}) {
    return detail::prefill_across(m, c, setup, assumptions, "prefill_time");
}
/// The same for a model and a cluster not yet checked: checks both first.
constexpr parallel_prefill_estimate prefill_time(
    const transformer& m, const cluster& c, const serving_setup& setup,
    const serving_parallel_assumptions& assumptions = {}) {
    constexpr const char* function = "prefill_time";
    return detail::prefill_across(check(m, function), detail::check_cluster(c, function), setup,
                                  assumptions, function);
}

}  // namespace gpucalc
