// scaling_inference_bench.cpp: how fast a planner can ask "how long is a decode step on this
// replica": decode_step_time evaluations per second on a checked model and a checked 2-node
// H100 cluster, at varied batch, context and TP × PP, beside its raw-double twin
// (twin_support.hpp says how a twin is written), so the ratio is the price of gpucalc's unit
// types. The twin's parts are copied from roofline_bench.cpp (decode) and scaling_bench.cpp
// (the placed collectives), as each bench is one self-contained file; both sides are called out
// of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/scaling/inference.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

namespace detail = gpucalc::detail;
namespace cat = gpucalc::catalog;
using gpucalc::collective;
using gpucalc::collective_algorithm;
using twin::input_mask;

// --- the twin's parts: the placed collectives (scaling_bench.cpp) and decode (roofline_bench.cpp)

/// collective_time_estimate in base units: what the flat functions return.
struct raw_flat_result {
    double time = 0.0, latency_term = 0.0, bandwidth_term = 0.0;
    collective_algorithm algorithm = collective_algorithm::ring;
    double algorithm_bandwidth = 0.0, bus_bandwidth = 0.0;
};

/// placed_collective_estimate in base units, derived from the flat result as the library's is
/// (a flat twin returning this whole struct builds and copies twice the bytes its library
/// function does).
struct raw_estimate : raw_flat_result {
    std::int64_t nodes = 1, ranks_per_node = 1, ranks_on_emptiest_node = 1;
    double intra_node_term = 0.0, inter_node_term = 0.0;
    gpucalc::link_level binding = gpucalc::link_level::intra_node;
    double inter_node_bandwidth = 0.0;
};

GPUCALC_DETAIL_INLINE inline void raw_complete(raw_flat_result& e, collective op, std::int64_t n,
                                               double bytes) {
    e.time = e.latency_term + e.bandwidth_term;
    if (e.time > 0.0) {
        e.algorithm_bandwidth = bytes / e.time;
        e.bus_bandwidth = detail::bus_factor_unchecked(op, n) * e.algorithm_bandwidth;
    }
}

/// detail::flat_estimate, transliterated.
GPUCALC_DETAIL_INLINE inline raw_flat_result raw_flat_estimate(collective op,
                                                               collective_algorithm a,
                                                               std::int64_t n, double bytes,
                                                               double alpha, double bus) {
    raw_flat_result e{};
    e.algorithm = a;
    if (n > 1) {
        const detail::alpha_beta_terms t = detail::flat_terms(op, a, n);
        e.latency_term = t.latency_steps * alpha;
        e.bandwidth_term = t.volume * (bytes / bus);
    }
    raw_complete(e, op, n, bytes);
    return e;
}


/// A link's fields in base units, compared as link_spec's operator== compares them.
struct raw_link_fields {
    std::string_view name;
    double per_direction, latency;
    std::int32_t span;
    double collective_efficiency;
};

GPUCALC_DETAIL_INLINE inline bool raw_same_link(const raw_link_fields& a,
                                                const raw_link_fields& b) {
    return a.name == b.name && a.per_direction == b.per_direction && a.latency == b.latency &&
           a.span == b.span && detail::exactly_equal(a.collective_efficiency,
                                                     b.collective_efficiency);
}

/// A checked cluster's values, in base units: what detail::place reads from it.
struct raw_cluster {
    std::int64_t gpus_per_node, nodes, total_gpus;
    raw_link_fields intra, host;
    double inter_latency, inter_efficiency, node_network;
};

struct raw_group_placement {
    std::int64_t ranks_per_node = 0, groups_per_node = 0;
    double tree_bandwidth_derate = 0.92;
};

struct raw_placement {
    std::int64_t ranks, per_node, emptiest, nodes;
    double intra_alpha, intra_bus, inter_alpha, inter_bus, inter_bus_full;
    bool intra_is_host;
    double tree_derate;
};

/// detail::network_share, transliterated.
GPUCALC_DETAIL_INLINE inline double raw_network_share(double network, double host,
                                                      std::int64_t g_node,
                                                      std::int64_t node_gpus,
                                                      std::int64_t groups) {
    const double g = static_cast<double>(g_node);
    const double share = groups == 0 ? network * (g / static_cast<double>(node_gpus))
                                     : network / static_cast<double>(groups);
    const double cap = g * host;
    return host > 0.0 && cap < share ? cap : share;
}

/// detail::place, transliterated.
GPUCALC_DETAIL_INLINE inline raw_placement raw_place(const raw_cluster& c, std::int64_t ranks,
                                                     const raw_group_placement& where,
                                                     const char* function) {
    const std::int64_t node_gpus = c.gpus_per_node;
    if (ranks > c.total_gpus) {
        detail::throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                              "must not exceed the cluster's GPUs = ",
                              static_cast<double>(c.total_gpus), " (nodes x node.gpus_per_node)");
    }
    const std::int64_t strided = where.ranks_per_node;
    if (strided < 0 || strided > node_gpus) {
        detail::throw_invalid(function, "placement.ranks_per_node", static_cast<double>(strided),
                              "", "must be 0 (contiguous) or in [1, node.gpus_per_node = ",
                              static_cast<double>(node_gpus), "]");
    }
    raw_placement p{};
    p.ranks = ranks;
    if (strided == 0) {
        p.per_node = ranks < node_gpus ? ranks : node_gpus;
        p.nodes = detail::ceil_div(ranks, p.per_node);
        p.emptiest = ranks - (p.nodes - 1) * p.per_node;
    } else {
        if (!detail::divides(strided, ranks)) {
            detail::throw_invalid(function, "spec.ranks", static_cast<double>(ranks), "",
                                  "must be a multiple of placement.ranks_per_node = ",
                                  static_cast<double>(strided), " (the same ranks on each node)");
        }
        p.per_node = strided;
        p.emptiest = strided;
        p.nodes = detail::exact_quotient(ranks, strided);
        if (p.nodes > c.nodes) {
            detail::throw_invalid(function, "placement.ranks_per_node",
                                  static_cast<double>(strided), "",
                                  "places spec.ranks on more nodes than the cluster's nodes = ",
                                  static_cast<double>(c.nodes),
                                  " (spec.ranks / placement.ranks_per_node)");
        }
    }
    const std::int64_t groups = where.groups_per_node;
    if (groups < 0 || groups > node_gpus || groups * p.per_node > node_gpus) {
        detail::throw_invalid(function, "placement.groups_per_node", static_cast<double>(groups),
                              "",
                              "must be 0 (every GPU busy) or in [1, node.gpus_per_node / the "
                              "group's ranks on its fullest node = ",
                              static_cast<double>(node_gpus / p.per_node),
                              "] (groups on a node use distinct GPUs)");
    }
    detail::require_fraction_of_peak(function, "placement.tree_bandwidth_derate",
                                     where.tree_bandwidth_derate);
    p.tree_derate = where.tree_bandwidth_derate;
    p.intra_alpha = c.intra.latency;
    p.intra_bus = c.intra.collective_efficiency * c.intra.per_direction;
    p.inter_alpha = c.inter_latency;
    if (p.nodes > 1) {
        p.intra_is_host = raw_same_link(c.intra, c.host);
        const double network = c.inter_efficiency * c.node_network;
        const double host_bus = c.host.collective_efficiency * c.host.per_direction;
        p.inter_bus = raw_network_share(network, host_bus, p.emptiest, node_gpus, groups);
        p.inter_bus_full =
            p.emptiest == p.per_node
                ? p.inter_bus
                : raw_network_share(network, host_bus, p.per_node, node_gpus, groups);
    }
    return p;
}

/// detail::set_terms, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_set_terms(raw_estimate& e, double latency, double intra,
                                                double inter, bool pipelined) {
    e.latency_term = latency;
    e.intra_node_term = intra;
    e.inter_node_term = inter;
    e.bandwidth_term = !pipelined ? intra + inter : intra > inter ? intra : inter;
    e.binding = intra > inter ? gpucalc::link_level::intra_node : gpucalc::link_level::inter_node;
}

/// detail::ring_across, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_ring_across(raw_estimate& e, collective op,
                                                  collective_algorithm a, const raw_placement& p,
                                                  double bytes) {
    const detail::alpha_beta_terms t = detail::flat_terms(op, a, p.ranks);
    const double crossings = static_cast<double>(p.nodes - 1);
    double inter_steps = op == collective::all_reduce ? 2.0 * crossings : crossings;
    if (op == collective::broadcast && a == collective_algorithm::halving_doubling) {
        inter_steps += static_cast<double>(detail::ceil_log2(p.nodes));
    }
    const double latency =
        (t.latency_steps - inter_steps) * p.intra_alpha + inter_steps * p.inter_alpha;
    const double volume = t.volume * bytes;
    const double g = static_cast<double>(p.per_node);
    const double intra_share = p.intra_is_host ? 1.0 : (g - 1.0) / g;
    const double intra = p.per_node == 1 ? 0.0 : intra_share * (volume / p.intra_bus);
    raw_set_terms(e, latency, intra, volume / p.inter_bus, true);
}

/// detail::placed_estimate, transliterated: every op and algorithm.
GPUCALC_DETAIL_INLINE inline raw_estimate raw_placed_estimate(collective op,
                                                              collective_algorithm a,
                                                              const raw_placement& p,
                                                              double bytes) {
    const double g = static_cast<double>(p.per_node);
    const double n = static_cast<double>(p.ranks);
    const double node_steps = static_cast<double>(detail::ceil_log2(p.nodes));
    const bool across = p.nodes > 1;
    const bool intra_used = p.per_node > 1;
    raw_estimate e{};
    if (op == collective::all_reduce && a == collective_algorithm::tree) {
        const double volume = (2.0 / p.tree_derate) * bytes;
        raw_set_terms(e, 2.0 * ((g - 1.0) * p.intra_alpha + node_steps * p.inter_alpha),
                      intra_used ? volume / p.intra_bus : 0.0,
                      across ? volume / p.inter_bus : 0.0, true);
    } else if (op == collective::broadcast && a == collective_algorithm::tree) {
        raw_set_terms(e, node_steps * p.inter_alpha + (g - 1.0) * p.intra_alpha,
                      intra_used ? bytes / p.intra_bus : 0.0,
                      across ? node_steps * (bytes / p.inter_bus) : 0.0, false);
    } else if (!across) {
        const raw_flat_result flat =
            raw_flat_estimate(op, a, p.ranks, bytes, p.intra_alpha, p.intra_bus);
        raw_set_terms(e, flat.latency_term, flat.bandwidth_term, 0.0, true);
    } else if (a == collective_algorithm::halving_doubling && op != collective::broadcast) {
        const raw_flat_result intra =
            raw_flat_estimate(op, a, p.per_node, bytes, p.intra_alpha, p.intra_bus);
        const raw_flat_result inter =
            raw_flat_estimate(op, a, p.nodes, bytes / g, p.inter_alpha, p.inter_bus / g);
        raw_set_terms(e, intra.latency_term + inter.latency_term, intra.bandwidth_term,
                      inter.bandwidth_term, false);
    } else if (op == collective::all_to_all) {
        const double gmin = static_cast<double>(p.emptiest);
        const double on_node = intra_used ? ((g - 1.0) / n) * (bytes / p.intra_bus) : 0.0;
        const double full_off = (g * (n - g) / n) * (bytes / p.inter_bus_full);
        const double emptiest_off = (gmin * (n - gmin) / n) * (bytes / p.inter_bus);
        raw_set_terms(e, (g - 1.0) * p.intra_alpha + (n - g) * p.inter_alpha, on_node,
                      full_off > emptiest_off ? full_off : emptiest_off, !p.intra_is_host);
    } else if (op == collective::point_to_point) {
        raw_set_terms(e, p.inter_alpha, 0.0, bytes / p.inter_bus, true);
    } else {
        raw_ring_across(e, op, a, p, bytes);
    }
    if (!across) e.binding = gpucalc::link_level::intra_node;
    e.algorithm = a;
    raw_complete(e, op, p.ranks, bytes);
    return e;
}


raw_link_fields raw_fields(const gpucalc::link_spec& l) {
    return {l.name, l.per_direction.value(), l.latency.value(), l.span, l.collective_efficiency};
}

raw_cluster raw_of(const gpucalc::checked_cluster& c) {
    const gpucalc::cluster& s = c.spec();
    return {s.node.gpus_per_node,
            s.nodes,
            gpucalc::total_gpus(c),
            raw_fields(gpucalc::intra_node_link(c)),
            raw_fields(s.node.gpu.host),
            s.inter_node.latency.value(),
            s.inter_node.collective_efficiency,
            gpucalc::node_network_bandwidth(c).value()};
}

/// roofline/op.hpp's op_cost, in FLOPs and bytes.
struct raw_op_cost {
    double flops, bytes;
};

/// roofline/op.hpp's op_timing, in seconds and FLOPs.
struct raw_op_timing {
    double time, compute_time, memory_time;
    gpucalc::bound bound;
    double intensity, attained;
};

/// detail::op_time_unchecked(), transliterated.
GPUCALC_DETAIL_INLINE inline raw_op_timing raw_op_time_unchecked(const raw_op_cost& op, double peak_rate,
                                                                  double data_bandwidth,
                                                                  const gpucalc::kernel_efficiency& eff) {
    raw_op_timing t{};
    t.compute_time = op.flops / (eff.compute * peak_rate);
    t.memory_time = op.bytes / (eff.memory * data_bandwidth);
    t.bound = t.compute_time >= t.memory_time ? gpucalc::bound::compute : gpucalc::bound::memory;
    t.time = t.bound == gpucalc::bound::compute ? t.compute_time : t.memory_time;
    t.intensity = op.flops / op.bytes;
    t.attained = op.flops / t.time;
    return t;
}


/// hardware.hpp's peak_rates, in FLOP/s.
struct raw_peak_rates {
    double fp64, fp64_tensor, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4;
};

/// The part of hardware.hpp's gpu_spec decode reads, in FLOP/s and bytes/s.
struct raw_gpu {
    std::string_view name;
    raw_peak_rates dense_peak;
    double memory_bandwidth;
};

raw_gpu raw_of(const gpucalc::gpu_spec& g) {
    const gpucalc::peak_rates& p = g.dense_peak;
    using gpucalc::in;
    using gpucalc::flops_per_second;
    return {g.name,
            {in<flops_per_second>(p.fp64), in<flops_per_second>(p.fp64_tensor), in<flops_per_second>(p.fp32),
             in<flops_per_second>(p.tf32), in<flops_per_second>(p.bf16), in<flops_per_second>(p.fp16),
             in<flops_per_second>(p.fp8), in<flops_per_second>(p.int8), in<flops_per_second>(p.int4),
             in<flops_per_second>(p.fp4)},
            in<gpucalc::bytes_per_second>(g.memory_bandwidth)};
}

/// detail::peak_entry(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_peak_entry(const raw_peak_rates& peaks, gpucalc::compute_precision precision) {
    using p = gpucalc::compute_precision;
    switch (precision) {
        case p::fp64: return peaks.fp64;
        case p::fp64_tensor: return peaks.fp64_tensor;
        case p::fp32: return peaks.fp32;
        case p::tf32: return peaks.tf32;
        case p::bf16: return peaks.bf16;
        case p::fp16: return peaks.fp16;
        case p::fp8: return peaks.fp8;
        case p::int8: return peaks.int8;
        case p::int4: return peaks.int4;
        case p::fp4: return peaks.fp4;
    }
    return 0.0;
}

/// detail::peak_of(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_peak_of(const raw_gpu& gpu, gpucalc::compute_precision precision,
                                                const char* function, const char* field) {
    const double rate = raw_peak_entry(gpu.dense_peak, precision);
    if (!(rate >= detail::smallest_input && rate <= detail::input_range<gpucalc::flop_rate>::largest)) {
        detail::throw_unusable_peak(function, field, "gpu.", gpu.name, precision, rate);
    }
    return rate;
}

/// roofline/inference.hpp's detail::weight_bytes_read(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_weight_bytes_read(const gpucalc::checked_model& cm, std::int64_t tp, std::int64_t tokens,
                                    const gpucalc::storage_format& linear, const gpucalc::storage_format& rest,
                                    bool fewest_experts) {
    const gpucalc::transformer& m = cm.spec();
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, tp, 1, 1);
    double unread_experts = 0.0;
    if (w.experts > 0.0) {
        const double touched = fewest_experts ? static_cast<double>(m.experts_per_token)
                                              : detail::experts_touched(m, tokens);
        unread_experts = w.experts * (1.0 - touched / static_cast<double>(m.experts));
    }
    return twin::storage_unchecked(w.linear - unread_experts, linear) +
           twin::storage_unchecked(w.embedding_class - w.lookup, rest);
}

/// parallelism/costs.hpp's detail::pass_forward_flops() for a decode step (one query per
/// sequence over `context` keys, one output), with model/flops.hpp's layer formula, in FLOPs.
GPUCALC_DETAIL_INLINE inline double raw_decode_flops(const gpucalc::checked_model& cm, std::int64_t tp,
                                                     std::int64_t batch, std::int64_t context) {
    const gpucalc::transformer& m = cm.spec();
    const gpucalc::layer_parameters& p = cm.layer();
    const detail::attention_widths w = detail::attention_widths_per_gpu(cm, tp);
    const double t = static_cast<double>(tp);
    const double h = static_cast<double>(m.hidden);
    const double tokens = static_cast<double>(batch) * 1.0;
    const double weights = 2.0 * h * w.q + 2.0 * h * w.kv +
                           static_cast<double>(gpucalc::active_experts_of(m) * p.expert_weights) * (1.0 / t) +
                           static_cast<double>(p.router);
    const double pairs = detail::attention_pairs_unchecked(m, 1, context, gpucalc::pair_count::causal);
    const double gemm = 2.0 * tokens * weights;
    const double attention = 4.0 * static_cast<double>(batch) * pairs * w.q;
    const double table = static_cast<double>(m.vocab) * h / t;
    return static_cast<double>(m.layers) * (gemm + attention) + 2.0 * (static_cast<double>(batch) * 1.0) * table;
}

/// roofline/inference.hpp's decode_estimate, in seconds, FLOPs and bytes.
struct raw_decode {
    double time_per_token, stream_rate, aggregate_rate;
    gpucalc::bound bound;
    double flops, bytes, weight_bytes, kv_bytes, compute_time, memory_time;
};

/// roofline/inference.hpp's detail::check_pass(), transliterated: the serving setup's shape
/// checks (workload.hpp's detail::check, unit-free, so shared; its storage formats included), the
/// efficiencies, the bandwidth and the peak, which it returns.
GPUCALC_DETAIL_INLINE inline double raw_check_pass(const gpucalc::checked_model& cm, const raw_gpu& gpu,
                                                   const gpucalc::serving_setup& s, const char* function) {
    detail::check(cm, s, function);
    detail::check(s.efficiency, function);
    twin::require_positive<gpucalc::bandwidth>(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    return raw_peak_of(gpu, s.compute, function, "compute");
}

/// roofline/inference.hpp's detail::decode_step() on a checked model, transliterated.
GPUCALC_DETAIL_INLINE inline raw_decode raw_decode_step(const gpucalc::checked_model& cm, const raw_gpu& gpu,
                                                        const gpucalc::serving_setup& s, const char* function) {
    const gpucalc::transformer& m = cm.spec();
    const double peak_rate = raw_check_pass(cm, gpu, s, function);
    const std::int64_t tp = s.parallel.tensor;
    const double b = static_cast<double>(s.batch);
    raw_decode d{};
    d.weight_bytes = raw_weight_bytes_read(cm, tp, s.batch, s.weights, s.embeddings, false);
    const double cached = static_cast<double>(gpucalc::attended_tokens(m, s.context));
    d.kv_bytes = twin::storage_unchecked(
        b * (cached + 1.0) * detail::kv_elements_per_token(cm, tp, static_cast<double>(m.layers)),
        s.kv_cache);
    d.bytes = d.weight_bytes + d.kv_bytes;
    d.flops = raw_decode_flops(cm, tp, s.batch, s.context);
    const raw_op_timing o =
        raw_op_time_unchecked({d.flops, d.bytes}, peak_rate, gpu.memory_bandwidth, s.efficiency);
    d.compute_time = o.compute_time;
    d.memory_time = o.memory_time;
    d.bound = o.bound;
    d.time_per_token = o.time;
    d.stream_rate = 1.0 / o.time;
    d.aggregate_rate = d.stream_rate * b;
    return d;
}

// --- the twin of scaling/inference.hpp, in seconds, bytes and tokens/s ------------------------

/// detail::placed_collective_time, transliterated.
GPUCALC_DETAIL_INLINE inline raw_estimate raw_placed_collective_time(collective op, collective_algorithm a,
                                                                     double bytes, const raw_placement& p) {
    const bool fastest = a == collective_algorithm::fastest;
    raw_estimate e =
        raw_placed_estimate(op, fastest ? detail::default_algorithm(op) : a, p, bytes);
    if (fastest && detail::chooses_ring_or_tree(op) && p.ranks > 1) {
        const raw_estimate tree = raw_placed_estimate(op, collective_algorithm::tree, p, bytes);
        if (tree.time < e.time) e = tree;
    }
    e.nodes = p.nodes;
    e.ranks_per_node = p.per_node;
    e.ranks_on_emptiest_node = p.emptiest;
    e.inter_node_bandwidth = p.inter_bus;
    return e;
}

/// parallel_decode_estimate in base units.
struct raw_parallel_decode {
    std::int64_t micro_batches = 1, micro_batch = 1;
    double compute_time = 0.0, memory_time = 0.0, roofline_time = 0.0;
    gpucalc::bound bound = gpucalc::bound::memory;
    double tensor_comm_time = 0.0, pipeline_comm_time = 0.0, communication_time = 0.0;
    double pass_time = 0.0, stage_time = 0.0, communication_share = 0.0;
    gpucalc::serving_limiter limiter = gpucalc::serving_limiter::memory;
    gpucalc::communication_regime regime = gpucalc::communication_regime::none;
    std::int64_t all_reduces = 0;
    raw_estimate all_reduce{};
    std::int64_t hops_within_node = 0, hops_across_nodes = 0;
    double time_per_token = 0.0, stream_rate = 0.0, aggregate_rate = 0.0;
};

struct raw_serving_layout {
    raw_placement tensor{}, hop_within{}, hop_across{};
    std::int64_t hops_within = 0, hops_across = 0;
};

/// detail::place_replica, transliterated.
GPUCALC_DETAIL_INLINE inline raw_serving_layout raw_place_replica(const raw_cluster& c, std::int64_t tp,
                                                                  std::int64_t pp,
                                                                  const gpucalc::serving_parallel_assumptions& a,
                                                                  const char* function) {
    const std::int64_t node_gpus = c.gpus_per_node;
    const double gpus = static_cast<double>(tp) * static_cast<double>(pp);
    if (gpus > static_cast<double>(c.total_gpus)) {
        detail::throw_invalid(function, "parallel.tensor x parallel.pipeline", gpus, "",
                              "must not exceed the cluster's GPUs = ", static_cast<double>(c.total_gpus),
                              " (nodes x node.gpus_per_node)");
    }
    if (tp > node_gpus && !a.allow_tensor_parallel_across_nodes) {
        detail::throw_invalid(function, "parallel.tensor", static_cast<double>(tp), "",
                              "must not exceed node.gpus_per_node = ", static_cast<double>(node_gpus),
                              " unless assumptions.allow_tensor_parallel_across_nodes");
    }
    raw_serving_layout l{};
    std::int64_t nodes = 0;
    if (tp <= node_gpus) {
        nodes = detail::ceil_div(pp, node_gpus / tp);
        l.hops_across = nodes - 1;
    } else {
        nodes = pp * detail::ceil_div(tp, node_gpus);
        l.hops_across = pp - 1;
    }
    if (nodes > c.nodes) {
        detail::throw_invalid(function, "parallel.pipeline", static_cast<double>(pp), "",
                              "places the stages on more nodes than the cluster's nodes = ",
                              static_cast<double>(c.nodes),
                              " (a stage's tensor-parallel group does not straddle nodes)");
    }
    l.hops_within = pp - 1 - l.hops_across;
    l.tensor = raw_place(c, tp, {}, function);
    if (l.hops_within > 0) l.hop_within = raw_place(c, 2, {}, function);
    if (l.hops_across > 0) {
        raw_group_placement apart{};
        apart.ranks_per_node = 1;
        l.hop_across = raw_place(c, 2, apart, function);
    }
    return l;
}

/// detail::compose, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_compose(raw_parallel_decode& r, const gpucalc::checked_model& cm,
                                              const raw_serving_layout& l,
                                              const gpucalc::serving_parallel_assumptions& a, std::int64_t pp,
                                              double bytes) {
    const std::int64_t layers = cm.spec().layers;
    r.hops_within_node = l.hops_within;
    r.hops_across_nodes = l.hops_across;
    if (l.tensor.ranks > 1) {
        r.all_reduce = raw_placed_collective_time(collective::all_reduce, collective_algorithm::fastest, bytes,
                                                  l.tensor);
        r.all_reduces = 2 * layers;
        r.tensor_comm_time = (1.0 - a.tensor_comm_overlap) * (static_cast<double>(r.all_reduces) * r.all_reduce.time);
        r.regime = r.all_reduce.latency_term < r.all_reduce.bandwidth_term ? gpucalc::communication_regime::bandwidth
                                                                           : gpucalc::communication_regime::latency;
    }
    double hops = 0.0;
    if (l.hops_within > 0) {
        hops += static_cast<double>(l.hops_within) *
                raw_placed_collective_time(collective::point_to_point, collective_algorithm::direct, bytes,
                                           l.hop_within).time;
    }
    if (l.hops_across > 0) {
        hops += static_cast<double>(l.hops_across) *
                raw_placed_collective_time(collective::point_to_point, collective_algorithm::direct, bytes,
                                           l.hop_across).time;
    }
    r.pipeline_comm_time = (1.0 - a.pipeline_comm_overlap) * hops;
    r.communication_time = r.tensor_comm_time + r.pipeline_comm_time;
    r.pass_time = r.roofline_time + r.communication_time;
    r.stage_time = (r.roofline_time + r.tensor_comm_time) / static_cast<double>(pp);
    r.communication_share = r.communication_time / r.pass_time;
    r.limiter = r.bound == gpucalc::bound::compute ? gpucalc::serving_limiter::compute
                                                   : gpucalc::serving_limiter::memory;
    double largest = r.roofline_time;
    if (r.tensor_comm_time > largest) {
        largest = r.tensor_comm_time;
        r.limiter = gpucalc::serving_limiter::tensor_communication;
    }
    if (r.pipeline_comm_time > largest) r.limiter = gpucalc::serving_limiter::pipeline_communication;
}

/// decode_step_time(checked_model, checked_cluster, ...) and detail::decode_across,
/// transliterated. micro_batches_of and micro_setup involve no quantity: the library's own.
[[gnu::flatten, gnu::noinline]] raw_parallel_decode raw_decode_step_time(
    const gpucalc::checked_model& cm, const raw_cluster& c, const raw_gpu& gpu, const gpucalc::serving_setup& s,
    const gpucalc::serving_parallel_assumptions& a) {
    constexpr const char* function = "decode_step_time";
    detail::check(cm, s, function);
    const std::int64_t pp = s.parallel.pipeline;
    raw_parallel_decode r{};
    r.micro_batches = detail::micro_batches_of(a, s.batch, pp, function);
    const gpucalc::serving_setup one = detail::micro_setup(s, r.micro_batches);
    r.micro_batch = one.batch;
    const raw_serving_layout l = raw_place_replica(c, s.parallel.tensor, pp, a, function);
    const raw_decode d = raw_decode_step(cm, gpu, one, function);
    r.compute_time = d.compute_time;
    r.memory_time = d.memory_time;
    r.roofline_time = d.time_per_token;
    r.bound = d.bound;
    raw_compose(r, cm, l, a, pp,
                twin::storage_unchecked(static_cast<double>(one.batch) * static_cast<double>(cm.spec().hidden),
                                        s.activations));
    const double round = static_cast<double>(r.micro_batches) * r.stage_time;
    r.time_per_token = round > r.pass_time ? round : r.pass_time;
    r.stream_rate = 1.0 / r.time_per_token;
    r.aggregate_rate = r.stream_rate * static_cast<double>(s.batch);
    return r;
}

// --- the library side -------------------------------------------------------------------------

[[gnu::noinline]] gpucalc::parallel_decode_estimate library_decode(const gpucalc::checked_model& m,
                                                                   const gpucalc::checked_cluster& c,
                                                                   const gpucalc::serving_setup& s,
                                                                   const gpucalc::serving_parallel_assumptions& a) {
    return gpucalc::decode_step_time(m, c, s, a);
}

gpucalc::checked_cluster two_hgx_h100() {
    gpucalc::cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 2;
    c.inter_node = cat::infiniband_ndr;
    return gpucalc::check(c);
}

void check_decode(const gpucalc::checked_model& m, const gpucalc::checked_cluster& c, const gpucalc::serving_setup& s,
                  const gpucalc::serving_parallel_assumptions& a = {}) {
    const gpucalc::parallel_decode_estimate lib = library_decode(m, c, s, a);
    const raw_parallel_decode raw = raw_decode_step_time(m, raw_of(c), raw_of(c.spec().node.gpu), s, a);
    twin::expect_same("time per token", lib.time_per_token, raw.time_per_token);
    twin::expect_same("stream rate", lib.stream_rate, raw.stream_rate);
    twin::expect_same("aggregate rate", lib.aggregate_rate, raw.aggregate_rate);
    twin::expect_same("micro-batches", lib.micro_batches, raw.micro_batches);
    twin::expect_same("micro-batch", lib.micro_batch, raw.micro_batch);
    twin::expect_same("compute time", lib.compute_time, raw.compute_time);
    twin::expect_same("memory time", lib.memory_time, raw.memory_time);
    twin::expect_same("roofline time", lib.roofline_time, raw.roofline_time);
    twin::expect_same("bound", lib.bound, raw.bound);
    twin::expect_same("tensor comm", lib.tensor_comm_time, raw.tensor_comm_time);
    twin::expect_same("pipeline comm", lib.pipeline_comm_time, raw.pipeline_comm_time);
    twin::expect_same("communication", lib.communication_time, raw.communication_time);
    twin::expect_same("pass", lib.pass_time, raw.pass_time);
    twin::expect_same("stage", lib.stage_time, raw.stage_time);
    twin::expect_same("share", lib.communication_share, raw.communication_share);
    twin::expect_same("limiter", lib.limiter, raw.limiter);
    twin::expect_same("regime", lib.regime, raw.regime);
    twin::expect_same("all-reduces", lib.all_reduces, raw.all_reduces);
    twin::expect_same("all-reduce time", lib.all_reduce.time, raw.all_reduce.time);
    twin::expect_same("all-reduce algorithm", lib.all_reduce.algorithm, raw.all_reduce.algorithm);
    twin::expect_same("hops within", lib.hops_within_node, raw.hops_within_node);
    twin::expect_same("hops across", lib.hops_across_nodes, raw.hops_across_nodes);
}

/// The TP × PP layouts the benchmark cycles through on two 8-GPU nodes.
struct tp_pp {
    std::int64_t tp, pp;
};
constexpr tp_pp layouts[] = {{1, 1}, {2, 1}, {4, 1}, {8, 1}, {8, 2}, {4, 4}, {2, 8}, {4, 2}};

// The twin must agree with the library before anything is timed: every layout above, small and
// large batches, a compute-bound MoE, overlap and explicit micro-batches, a PCIe-only cluster.
void check_twins() {
    const gpucalc::checked_cluster c = two_hgx_h100();
    for (const gpucalc::transformer* model : {&cat::llama_3_70b, &cat::mixtral_8x7b}) {
        const gpucalc::checked_model m = gpucalc::check(*model);
        for (const tp_pp& l : layouts) {
            for (std::int64_t batch : {1, 7, 64, 4096}) {
                gpucalc::serving_setup s{};
                s.batch = batch;
                s.context = 3000;
                s.parallel.tensor = l.tp;
                s.parallel.pipeline = l.pp;
                check_decode(m, c, s);
                gpucalc::serving_parallel_assumptions a{};
                a.tensor_comm_overlap = 0.3;
                a.pipeline_comm_overlap = 0.7;
                a.micro_batches = batch;
                check_decode(m, c, s, a);
            }
        }
    }
    gpucalc::cluster pcie{};
    pcie.node.gpu = cat::h100_pcie;
    pcie.nodes = 2;
    pcie.inter_node = cat::ethernet_100g;
    gpucalc::serving_setup s{};
    s.batch = 64;
    s.parallel.tensor = 4;
    s.parallel.pipeline = 4;
    check_decode(gpucalc::check(cat::llama_3_70b), gpucalc::check(pcie), s);
}

// Both loops vary the batch, the context and the layout every iteration, on the same checked
// model and cluster (the hot path: nothing re-checked but the setup). The model, cluster and
// assumptions go through DoNotOptimize first: the default assumptions passed as a constant let
// GCC clone library_decode for them (library_decode.constprop) and not the flattened twin, so
// the pair compared constant folding, not the unit types.
void BM_decode_step_time_units(benchmark::State& state) {
    const auto batch = twin::varied(1, 256, 20261124), context = twin::varied(1, 32768, 20261125);
    gpucalc::checked_model m = gpucalc::check(cat::llama_3_70b);
    gpucalc::checked_cluster c = two_hgx_h100();
    gpucalc::serving_parallel_assumptions a{};
    benchmark::DoNotOptimize(m);
    benchmark::DoNotOptimize(c);
    benchmark::DoNotOptimize(a);
    gpucalc::serving_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        s.parallel.tensor = layouts[i & 7].tp;
        s.parallel.pipeline = layouts[i & 7].pp;
        const gpucalc::parallel_decode_estimate d = library_decode(m, c, s, a);
        benchmark::DoNotOptimize(d.time_per_token.value());
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_step_time_units);

void BM_decode_step_time_raw(benchmark::State& state) {
    const auto batch = twin::varied(1, 256, 20261124), context = twin::varied(1, 32768, 20261125);
    gpucalc::checked_model m = gpucalc::check(cat::llama_3_70b);
    const gpucalc::checked_cluster checked = two_hgx_h100();
    raw_cluster c = raw_of(checked);
    raw_gpu gpu = raw_of(checked.spec().node.gpu);
    gpucalc::serving_parallel_assumptions a{};
    benchmark::DoNotOptimize(m);
    benchmark::DoNotOptimize(c);
    benchmark::DoNotOptimize(gpu);
    benchmark::DoNotOptimize(a);
    gpucalc::serving_setup s{};
    std::size_t i = 0;
    for (auto _ : state) {
        s.batch = batch[i];
        s.context = context[i];
        s.parallel.tensor = layouts[i & 7].tp;
        s.parallel.pipeline = layouts[i & 7].pp;
        const raw_parallel_decode d = raw_decode_step_time(m, c, gpu, s, a);
        benchmark::DoNotOptimize(d.time_per_token);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_decode_step_time_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
