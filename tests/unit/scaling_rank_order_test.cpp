// scaling_rank_order_test.cpp: a layout's groups sit where Megatron-LM's rank order puts them
// (TP, CP, DP, PP from the innermost; the launcher fills a node before the next), worked by hand
// rank by rank; the slowest group of a dimension binds; and a step never depends on nodes its
// layout leaves idle.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/scaling/rank_order.hpp>
#include <gpucalc/scaling/step.hpp>
#include <gpucalc/scaling/step_search.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cstdint>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;
using detail::group_shape;
using detail::slowest_group_shape;

namespace {

constexpr int tp = 0, cp = 1, dp = 2, pp = 3;

group_shape dense_shape(std::int64_t t, std::int64_t c, std::int64_t d, std::int64_t p,
                        int first, int last, std::int64_t node_gpus) {
    return slowest_group_shape(detail::dense_rank_order(t, c, d, p), first, last, node_gpus);
}

void check_shape(const group_shape& s, std::int64_t ranks, std::int64_t nodes,
                 std::int64_t fullest, std::int64_t emptiest) {
    CHECK(s.ranks == ranks);
    CHECK(s.nodes == nodes);
    CHECK(s.fullest == fullest);
    CHECK(s.emptiest == emptiest);
}

/// `nodes` GB200 NVL72 racks: 72 GPUs a node on NVLink 5, InfiniBand NDR between racks, one NIC
/// a GPU (NVIDIA's GB200 NVL72 reference: 72 ConnectX-7 400 Gb/s ports a rack).
cluster nvl72(std::int64_t nodes) {
    cluster c{};
    c.node.gpu = cat::gb200;
    c.node.gpus_per_node = 72;
    c.nodes = nodes;
    c.inter_node = cat::infiniband_ndr;
    c.nics_per_node = 72;
    return c;
}

training_job job_of(std::int64_t sequence, std::int64_t global_batch) {
    training_job j{};
    j.sequence = sequence;
    j.global_batch = global_batch;
    return j;
}

training_strategy layout_of(std::int64_t t, std::int64_t d, std::int64_t p) {
    training_strategy s{};
    s.micro_batch = 1;
    s.parallel.tensor = t;
    s.parallel.data = d;
    s.parallel.pipeline = p;
    return s;
}

}  // namespace

// The placement is a constant expression: a scheduler's static_assert can pin it.
static_assert(slowest_group_shape(detail::dense_rank_order(8, 1, 2, 9), dp, dp, 72).nodes == 2);

TEST_CASE("groups that fill their nodes evenly, worked rank by rank") {
    // TP 4 x DP 4 on 8-GPU nodes: DP group i is ranks {i, i+4, i+8, i+12}: two on node 0, two
    // on node 1.
    check_shape(dense_shape(4, 1, 4, 1, dp, dp, 8), 4, 2, 2, 2);
    // TP 2 x DP 4: ranks {i, i+2, i+4, i+6}, all on node 0.
    check_shape(dense_shape(2, 1, 4, 1, dp, dp, 8), 4, 1, 4, 4);
    // TP 8 x DP 4: neighbours 8 ranks apart, each on a node of its own.
    check_shape(dense_shape(8, 1, 4, 1, dp, dp, 8), 4, 4, 1, 1);
    // TP itself: ranks 0..7 of a node.
    check_shape(dense_shape(8, 1, 4, 1, tp, tp, 8), 8, 1, 8, 8);
    // CP and DP together (the gradients' group), TP 2 x CP 2 x DP 4: ranks {i, i+2, ..., i+14}
    // TP apart, four on each of two nodes.
    check_shape(dense_shape(2, 2, 4, 1, cp, dp, 8), 8, 2, 4, 4);
    // One rank: nothing to place.
    check_shape(dense_shape(8, 1, 1, 1, dp, dp, 8), 1, 1, 1, 1);
}

TEST_CASE("the slowest group binds when blocks straddle nodes, worked rank by rank") {
    // TP 8 x DP 2 x PP 9 on 72-GPU racks: stage s holds ranks 16s .. 16s+15, so stage 4 (ranks
    // 64..79) straddles racks 0 and 1: its DP groups {64+i, 72+i} put one rank on each. Every
    // other stage's groups sit in one rack.
    check_shape(dense_shape(8, 1, 2, 9, dp, dp, 72), 2, 2, 1, 1);
    // TP 8 x DP 2 x PP 4: 64 ranks in rack 0; no group leaves it.
    check_shape(dense_shape(8, 1, 2, 4, dp, dp, 72), 2, 1, 2, 2);
    // The pipeline groups of TP 8 x DP 2 x PP 9: stage neighbours 16 apart, {i, i+16, ...,
    // i+128} on both racks: i = 0 holds 0..64 (5) in rack 0 and 80..128 (4) in rack 1; i = 8
    // holds 8..56 (4) then 72..136 (5).
    check_shape(dense_shape(8, 1, 2, 9, pp, pp, 72), 9, 2, 5, 4);
    // TP 4 x DP 3 on 6-GPU nodes: group i is {i, i+4, i+8}: i = 0, 1 put two on node 0 and one
    // on node 1; i = 2, 3 one on node 0 and two on node 1. The second block (ranks 12..23) is
    // the first shifted by two nodes.
    check_shape(dense_shape(4, 1, 3, 2, dp, dp, 6), 3, 2, 2, 1);
}

TEST_CASE("past the offsets it examines one by one, every offset in a node counts") {
    // TP 2 x DP 3 x PP 2000 on 1,031-GPU nodes (1,031 is prime): blocks of 6 ranks start at
    // 1,031 distinct offsets, more than the 1,024 examined, so every offset counts. The group
    // starting at offset 1,030 ({1030, 1032, 1034}) puts one rank on its first node and two on
    // the next; block 171 (ranks 1,026..1,031) holds such a group, {1027, 1029, 1031}.
    check_shape(dense_shape(2, 1, 3, 2000, dp, dp, 1031), 3, 2, 2, 1);
}

TEST_CASE("the expert groups follow Megatron Core's expert rank order") {
    // TP 2 x CP 1 x DP 8 x EP 4 on 8-GPU nodes: EP groups {i, i+2, i+4, i+6} (TP apart) in one
    // node; the expert-DP groups {j, j+8} (TP x EP apart) on two nodes.
    const detail::rank_order o = detail::expert_rank_order(2, 1, 8, 4, 1);
    check_shape(slowest_group_shape(o, 1, 1, 8), 4, 1, 4, 4);
    check_shape(slowest_group_shape(o, 2, 2, 8), 2, 2, 1, 1);
}

TEST_CASE("a step does not depend on nodes its layout leaves idle (GB200 NVL72)") {
    // Llama-3-8B at TP 8 x DP 2, sequence 4,096, global batch 64: the 16 GPUs are ranks 0..15
    // of the first rack, and DP ranks 0 and 8 both sit there, whatever racks follow. Before
    // the rank order, a second rack moved one DP rank onto it and the gradient all-reduce onto
    // InfiniBand.
    const training_job job = job_of(4096, 64);
    const training_strategy s = layout_of(8, 2, 1);
    const training_step one = training_step_time(cat::llama_3_8b, nvl72(1), job, s);
    const training_step two = training_step_time(cat::llama_3_8b, nvl72(2), job, s);
    const training_step four = training_step_time(cat::llama_3_8b, nvl72(4), job, s);
    CHECK(two.data_comm == one.data_comm);
    CHECK(four.data_comm == one.data_comm);
    CHECK(two.time == one.time);
    CHECK(four.time == one.time);
    // The DP pair's all-reduce stays on NVLink 5: faster than the same pair split over two
    // 8-GPU nodes of the same GPUs, where it crosses InfiniBand.
    cluster split = nvl72(2);
    split.node.gpus_per_node = 8;
    split.nics_per_node = 8;
    CHECK(one.data_comm < training_step_time(cat::llama_3_8b, split, job, s).data_comm);
}

TEST_CASE("the search's step is the step time's at the layout it returns") {
    // smallest_fitting_step evaluates each count on just enough racks; the step it reports is
    // training_step_time's for its layout on the whole cluster.
    const training_job job = job_of(4096, 64);
    training_strategy s = layout_of(1, 1, 1);
    const fitting_step found = smallest_fitting_step(cat::llama_3_8b, nvl72(4), job, s);
    REQUIRE(found.found);
    const training_step direct =
        training_step_time(cat::llama_3_8b, nvl72(4), job, found.strategy);
    CHECK(direct.time == found.step.time);
    CHECK(direct.data_comm == found.step.data_comm);
}

TEST_CASE("on 72-GPU racks, a straddling stage's DP groups cross as on 8-GPU nodes") {
    // TP 8 x DP 2 x PP 8 (128 GPUs on 2 racks): stage 4 holds ranks 64..79, so its DP groups
    // {64+i, 72+i} put one rank on each rack, as every DP group does on 8-GPU nodes of the same
    // GPUs (one NIC a GPU on both, so each rank gets one NIC); the pipeline's neighbours cross
    // nodes on both. The slowest group binds, so the terms are the same.
    const training_job job = job_of(4096, 64);
    const training_strategy s = layout_of(8, 2, 8);
    const cluster racks = nvl72(2);
    cluster nodes = racks;
    nodes.node.gpus_per_node = 8;
    nodes.nodes = 16;
    nodes.nics_per_node = 8;
    const training_step on_racks = training_step_time(cat::llama_3_8b, racks, job, s);
    const training_step on_nodes = training_step_time(cat::llama_3_8b, nodes, job, s);
    CHECK(on_racks.data_comm == on_nodes.data_comm);
    CHECK(on_racks.pipeline_comm == on_nodes.pipeline_comm);
}
