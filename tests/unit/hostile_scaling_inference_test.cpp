// hostile_scaling_inference_test.cpp: bad input to decode_step_time and prefill_time is
// invalid_input naming the function the caller called, the field, the value and the rule: a
// replica larger than the cluster, TP across nodes unless allowed, stages that would straddle
// nodes, TP not dividing the heads (the layout's rule), out-of-range assumptions, and the
// setup's own rules. Input inside the stated ranges gets a finite answer, at the edges too.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/scaling/inference.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
serving_setup layout(std::int64_t tp, std::int64_t pp, std::int64_t batch) {
    serving_setup s{};
    s.batch = batch;
    s.parallel.tensor = tp;
    s.parallel.pipeline = pp;
    return s;
}

cluster hgx(std::int64_t nodes) {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = nodes;
    c.inter_node = cat::infiniband_ndr;
    return c;
}

bool finite_and_positive(const serving_pass& r) {
    return std::isfinite(in<seconds>(r.pass_time)) && r.pass_time > 0.0_s &&
           std::isfinite(in<seconds>(r.stage_time)) && r.stage_time > 0.0_s &&
           std::isfinite(r.communication_share) && r.communication_share >= 0.0 &&
           r.communication_share < 1.0;
}
}  // namespace

TEST_CASE("a replica larger than the cluster, or TP across nodes, is named") {
    const checked_model m = check(cat::llama_3_70b);
    const checked_cluster one = check(hgx(1));
    CHECK_THROWS_WITH_AS(decode_step_time(m, one, layout(8, 2, 1)),
                         "decode_step_time: parallel.tensor x parallel.pipeline = 16 must not "
                         "exceed the cluster's GPUs = 8 (nodes x node.gpus_per_node)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(prefill_time(m, one, layout(2, 8, 1)),
                         "prefill_time: parallel.tensor x parallel.pipeline = 16 must not "
                         "exceed the cluster's GPUs = 8 (nodes x node.gpus_per_node)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(decode_step_time(m, check(hgx(2)), layout(16, 1, 1)),
                         "decode_step_time: parallel.tensor = 16 must not exceed "
                         "node.gpus_per_node = 8 unless "
                         "assumptions.allow_tensor_parallel_across_nodes",
                         invalid_input);
    // 4-GPU groups on 6-GPU nodes: one stage a node, so 3 stages need 3 nodes, not 2.
    cluster six = hgx(2);
    six.node.gpus_per_node = 6;
    six.node.intra_node = cat::nvlink4;
    six.node.intra_node.span = 0;
    CHECK(decode_step_time(m, check(six), layout(4, 2, 1)).hops_across_nodes == 1);
    CHECK_THROWS_WITH_AS(decode_step_time(m, check(six), layout(4, 3, 1)),
                         "decode_step_time: parallel.pipeline = 3 places the stages on more "
                         "nodes than the cluster's nodes = 2 (a stage's tensor-parallel group "
                         "does not straddle nodes)",
                         invalid_input);
    // TP across nodes, allowed, still needs the GPUs: 16 × 2 on two nodes.
    serving_parallel_assumptions allow{};
    allow.allow_tensor_parallel_across_nodes = true;
    CHECK_THROWS_WITH_AS(decode_step_time(m, check(hgx(2)), layout(16, 2, 1), allow),
                         "decode_step_time: parallel.tensor x parallel.pipeline = 32 must not "
                         "exceed the cluster's GPUs = 16 (nodes x node.gpus_per_node)",
                         invalid_input);
    // 8-GPU groups on 6-GPU nodes: each stage takes 2 nodes of its own, so 4 for two stages.
    six.nodes = 3;
    CHECK_THROWS_WITH_AS(decode_step_time(m, check(six), layout(8, 2, 1), allow),
                         "decode_step_time: parallel.pipeline = 2 places the stages on more "
                         "nodes than the cluster's nodes = 3 (a stage's tensor-parallel group "
                         "does not straddle nodes)",
                         invalid_input);
}

TEST_CASE("the layout's and the setup's own rules, under this function's name") {
    const checked_model m = check(cat::llama_3_70b);
    const checked_cluster c = check(hgx(1));
    CHECK_THROWS_WITH_AS(decode_step_time(m, c, layout(3, 1, 1)),
                         "decode_step_time: parallel.tensor = 3 must divide attention heads = 64",
                         invalid_input);
    CHECK_THROWS_WITH_AS(decode_step_time(m, check(hgx(16)), layout(1, 100, 1)),
                         "decode_step_time: parallel.pipeline = 100 must not exceed layers = 80",
                         invalid_input);
    CHECK_THROWS_WITH_AS(decode_step_time(m, c, layout(1, 1, 0)),
                         "decode_step_time: batch = 0 must be >= 1", invalid_input);
    serving_setup s = layout(8, 1, 1);
    s.prompt = 0;
    CHECK_THROWS_WITH_AS(prefill_time(m, c, s), "prefill_time: prompt = 0 must be >= 1",
                         invalid_input);
    s.prompt = std::int64_t{1} << 30;
    s.batch = std::int64_t{1} << 20;
    CHECK_THROWS_WITH_AS(prefill_time(m, c, s),
                         "prefill_time: batch x prompt x vocab = 1.44403418452008e+20 must stay "
                         "below 2^53, where counts stop being exact",
                         invalid_input);
    s = layout(8, 1, 1);
    s.efficiency.memory = std::nan("");
    CHECK_THROWS_WITH_AS(decode_step_time(m, c, s),
                         "decode_step_time: efficiency.memory = nan must be in (0, 1]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(prefill_time(m, c, s),
                         "prefill_time: efficiency.memory = nan must be in (0, 1]",
                         invalid_input);
    // The validating overloads name the model's and the cluster's fields.
    transformer no_layers = cat::llama_3_70b;
    no_layers.layers = 0;
    CHECK_THROWS_WITH_AS(decode_step_time(no_layers, hgx(1), layout(8, 1, 1)),
                         "decode_step_time: layers = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(prefill_time(cat::llama_3_70b, hgx(0), layout(8, 1, 1)),
                         "prefill_time: nodes = 0 must be >= 1", invalid_input);
}

TEST_CASE("assumptions out of range are named") {
    const checked_model m = check(cat::llama_3_70b);
    const checked_cluster c = check(hgx(1));
    serving_parallel_assumptions a{};
    a.tensor_comm_overlap = std::nan("");
    CHECK_THROWS_WITH_AS(decode_step_time(m, c, layout(8, 1, 1), a),
                         "decode_step_time: assumptions.tensor_comm_overlap = nan must be in "
                         "[0, 1]",
                         invalid_input);
    a.tensor_comm_overlap = -0.1;
    CHECK_THROWS_AS(decode_step_time(m, c, layout(8, 1, 1), a), invalid_input);
    a = {};
    a.pipeline_comm_overlap = 1.5;
    CHECK_THROWS_WITH_AS(prefill_time(m, c, layout(8, 1, 1), a),
                         "prefill_time: assumptions.pipeline_comm_overlap = 1.5 must be in "
                         "[0, 1]",
                         invalid_input);
    a = {};
    a.micro_batches = 5;
    CHECK_THROWS_WITH_AS(decode_step_time(m, c, layout(4, 2, 4), a),
                         "decode_step_time: assumptions.micro_batches = 5 must be 0 (one per "
                         "stage) or in [1, batch = 4]",
                         invalid_input);
    a.micro_batches = -1;
    CHECK_THROWS_WITH_AS(prefill_time(m, c, layout(4, 2, 4), a),
                         "prefill_time: assumptions.micro_batches = -1 must be 0 (one per "
                         "stage) or in [1, batch = 4]",
                         invalid_input);
}

TEST_CASE("inside the ranges, at the edges, every answer is finite") {
    const checked_model m = check(cat::llama_3_70b);
    // The slowest efficiencies and links the ranges allow, the largest replica.
    cluster big = hgx(80);
    big.node.intra_node = link_spec{"slowest", make<bytes_per_second>(1e-30), 0.0_s, 0, 1e-30};
    big.inter_node.per_direction = make<bytes_per_second>(1e-30);
    serving_setup s = layout(8, 80, 80);
    s.efficiency = {1e-30, 1e-30};
    const parallel_decode_estimate d = decode_step_time(m, check(big), s);
    CHECK(std::isfinite(in<seconds>(d.time_per_token)));
    CHECK(d.time_per_token > 0.0_s);
    const parallel_prefill_estimate p = prefill_time(m, check(big), s);
    CHECK(std::isfinite(in<seconds>(p.time_to_first_token)));
    // The fastest links and a batch as large as the setup allows.
    cluster fast = hgx(1);
    fast.node.intra_node = link_spec{"fastest", make<bytes_per_second>(1e30), 0.0_s, 0, 1.0};
    serving_setup wide = layout(8, 1, std::int64_t{1} << 30);
    wide.context = 1;
    const parallel_decode_estimate w = decode_step_time(m, check(fast), wide);
    CHECK(finite_and_positive(w));
    CHECK(std::isfinite(in<tokens_per_second>(w.aggregate_rate)));
    // Overlap 1: communication hidden, the share 0.
    serving_parallel_assumptions all{};
    all.tensor_comm_overlap = 1.0;
    all.pipeline_comm_overlap = 1.0;
    const parallel_decode_estimate h = decode_step_time(m, check(hgx(2)), layout(8, 2, 64), all);
    CHECK(h.communication_time == 0.0_s);
    CHECK(h.communication_share == 0.0);
    CHECK(to_string(static_cast<serving_limiter>(9)) == "unknown");
    CHECK(to_string(static_cast<communication_regime>(9)) == "unknown");
}
