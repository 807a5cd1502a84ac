// hostile_serving_capacity_test.cpp: bad input to replica_capacity and replica_at_rate is
// invalid_input naming the function, the field, the value and the rule: negative or zero
// lengths, a p90 below its mean, a zero or negative SLO, a mode cast from another integer,
// assumptions out of range, a negative rate, a hand-written step model with no step; the
// setup's and layout's own rules keep their names. Input at the edges gets a finite answer.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/serving.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
checked_cluster one_h100() {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = 1;
    return check(c);
}
const serving_slo chat_slo{500.0_ms, 33.0_ms};

replica_capacity_estimate run(const request_profile& p, const serving_slo& slo = chat_slo,
                              prefill_mode mode = prefill_mode::stall,
                              const replica_assumptions& a = {},
                              const serving_setup& s = {}) {
    return replica_capacity(check(cat::llama_3_8b), one_h100(), s, p, slo, mode, a);
}
}  // namespace

TEST_CASE("lengths: negative, zero, a p90 below its mean") {
    CHECK_THROWS_WITH_AS(run({-5, 256, 0, 0}),
                         "replica_capacity: profile.prompt_mean = -5 must be >= 1",
                         invalid_input);
    CHECK_THROWS_WITH_AS(run({1024, 0, 0, 0}),
                         "replica_capacity: profile.output_mean = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(run({1024, 256, 512, 0}),
                         "replica_capacity: profile.prompt_p90 = 512 must be 0 (the mean) or "
                         "in [profile.prompt_mean = 1024, 2^40]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(run({1024, 256, 0, -1}),
                         "replica_capacity: profile.output_p90 = -1 must be 0 (the mean) or in "
                         "[profile.output_mean = 256, 2^40]",
                         invalid_input);
    CHECK_THROWS_AS(run({std::int64_t{1} << 41, 256, 0, 0}), invalid_input);
}

TEST_CASE("SLOs: zero, negative, NaN") {
    CHECK_THROWS_WITH_AS(run({}, {500.0_ms, 0.0_s}),
                         "replica_capacity: slo.time_per_output_token = 0 s must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(run({}, {-1.0_s, 33.0_ms}),
                         "replica_capacity: slo.time_to_first_token = -1 s must be finite and > 0",
                         invalid_input);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(run({}, {make<seconds>(nan), 33.0_ms}), invalid_input);
}

TEST_CASE("the mode and the assumptions") {
    CHECK_THROWS_WITH_AS(run({}, chat_slo, static_cast<prefill_mode>(7)),
                         "replica_capacity: mode = 7 must be a prefill_mode value", invalid_input);
    replica_assumptions a{};
    a.chunk_tokens = 0;
    CHECK_THROWS_WITH_AS(run({}, chat_slo, prefill_mode::chunked, a),
                         "replica_capacity: assumptions.chunk_tokens = 0 must be >= 1",
                         invalid_input);
    a = {};
    a.memory_headroom = 1.0;
    CHECK_THROWS_WITH_AS(run({}, chat_slo, prefill_mode::stall, a),
                         "replica_capacity: assumptions.memory_headroom = 1 must be in [0, 1)",
                         invalid_input);
    a = {};
    a.batch_limit = 0;
    CHECK_THROWS_WITH_AS(run({}, chat_slo, prefill_mode::stall, a),
                         "replica_capacity: assumptions.batch_limit = 0 must be >= 1",
                         invalid_input);
    a = {};
    a.parallel.tensor_comm_overlap = 2.0;
    CHECK_THROWS_WITH_AS(run({}, chat_slo, prefill_mode::stall, a),
                         "replica_capacity: assumptions.tensor_comm_overlap = 2 must be in [0, 1]",
                         invalid_input);
}

TEST_CASE("the setup's and the layout's rules keep their names, under replica_capacity") {
    serving_setup s{};
    s.parallel.tensor = 2;  // two GPUs on a one-GPU node
    CHECK_THROWS_WITH_AS(run({}, chat_slo, prefill_mode::stall, {}, s),
                         "replica_capacity: parallel.tensor x parallel.pipeline = 2 must not "
                         "exceed the cluster's GPUs = 1 (nodes x node.gpus_per_node)",
                         invalid_input);
    s = {};
    s.kv_block_tokens = -1;
    CHECK_THROWS_AS(run({}, chat_slo, prefill_mode::stall, {}, s), invalid_input);
}

TEST_CASE("replica_at_rate: a negative rate, a step model with no step") {
    const replica_capacity_estimate r = run({});
    REQUIRE(r.feasible);
    CHECK_THROWS_WITH_AS(replica_at_rate(r, make<requests_per_second>(-1.0)),
                         "replica_at_rate: rate = -1 requests/s must be finite and >= 0",
                         invalid_input);
    replica_step_model s{};
    s.slo = chat_slo;
    CHECK_THROWS_WITH_AS(replica_at_rate(s, make<requests_per_second>(1.0)),
                         "replica_at_rate: model.step_fixed + model.step_per_sequence = 0 s must "
                         "be > 0 (the batch-1 step)",
                         invalid_input);
    s.step_fixed = 1.0_ms;
    s.batch = 0;
    CHECK_THROWS_WITH_AS(replica_at_rate(s, make<requests_per_second>(1.0)),
                         "replica_at_rate: model.batch = 0 must be >= 1", invalid_input);
    s.batch = 1;
    s.prefill_time = make<seconds>(-1.0);
    CHECK_THROWS_AS(replica_at_rate(s, make<requests_per_second>(1.0)), invalid_input);
    s.prefill_time = {};
    s.slo.time_per_output_token = {};
    CHECK_THROWS_AS(replica_at_rate(s, make<requests_per_second>(1.0)), invalid_input);
}

TEST_CASE("the edges get finite answers") {
    // One-token prompts and answers; a p90 equal to its mean; the largest rate.
    const replica_capacity_estimate r = run({1, 1, 1, 1});
    REQUIRE(r.feasible);
    CHECK(std::isfinite(in<requests_per_second>(r.capacity)));
    CHECK(std::isfinite(in<requests_per_second>(r.sustainable_rate)));
    const replica_load l = replica_at_rate(r, make<requests_per_second>(1e15));
    CHECK_FALSE(l.stable);
    CHECK(std::isfinite(in<seconds>(l.time_per_token)));
    CHECK(std::isfinite(l.utilization));
    // A hand model with a zero batch-dependence and zero prefill.
    replica_step_model s{};
    s.slo = chat_slo;
    s.step_fixed = 1.0_ms;
    for (prefill_mode m : {prefill_mode::stall, prefill_mode::chunked, prefill_mode::disaggregated}) {
        s.mode = m;
        const replica_load at = replica_at_rate(s, make<requests_per_second>(1e15));
        CHECK(std::isfinite(in<seconds>(at.time_per_token)));
        CHECK(std::isfinite(at.running_batch));
    }
}
