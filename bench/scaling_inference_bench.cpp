// scaling_inference_bench.cpp: how fast a planner can ask "how long is a decode step on this
// replica": decode_step_time evaluations per second on a checked model and a checked 2-node
// H100 cluster, at varied batch, context and TP × PP, beside its raw-double twin
// (twin_support.hpp says how a twin is written), so the ratio is the price of gpucalc's unit
// types. The twin's parts are shared with roofline_bench.cpp (decode, twin_roofline.hpp) and
// scaling_bench.cpp (the placed collectives, twin_collectives.hpp); both sides are called out
// of line.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/scaling/inference.hpp>

#include <benchmark/benchmark.h>

#include "twin_collectives.hpp"
#include "twin_roofline.hpp"
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
using twin::raw_cluster;
using twin::raw_complete;
using twin::raw_decode;
using twin::raw_decode_step;
using twin::raw_estimate;
using twin::raw_fields;
using twin::raw_flat_estimate;
using twin::raw_flat_result;
using twin::raw_gpu;
using twin::raw_group_placement;
using twin::raw_link_fields;
using twin::raw_of;
using twin::raw_op_cost;
using twin::raw_op_time_unchecked;
using twin::raw_op_timing;
using twin::raw_place;
using twin::raw_placed_estimate;
using twin::raw_placement;

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
