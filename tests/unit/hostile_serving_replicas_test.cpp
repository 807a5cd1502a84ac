// hostile_serving_replicas_test.cpp: bad input to replicas_for_rate and
// replicas_cost_per_million_tokens is invalid_input naming the function, the field, the value and
// the rule: a negative or zero rate, a zero SLO, a TTFT percentile outside (0, 1), a negative
// C_s², a zero replica cap, a routing cast from another integer, a p90 below its mean, a
// negative price, an estimate whose rate or GPU count is not a rate or a count. Input at the
// edges gets a finite answer or an explicit "no" (a p90 far above its mean: a verdict).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
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
const request_profile chat{1024, 256, 0, 0};

replicas_estimate run(double rate, const replicas_assumptions& a = {},
                      const serving_slo& slo = chat_slo, routing route = routing::round_robin,
                      const request_profile& p = chat) {
    return replicas_for_rate(check(cat::llama_3_8b), one_h100(), serving_setup{}, p, slo,
                             prefill_mode::stall, route, make<requests_per_second>(rate), a);
}
replicas_assumptions with_percentile(double p) {
    replicas_assumptions a{};
    a.ttft_percentile = p;
    return a;
}
}  // namespace

TEST_CASE("the rate: negative, zero, NaN, infinite") {
    CHECK_THROWS_WITH_AS(run(-1.0), doctest::Contains("replicas_for_rate: rate = -1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(0.0), doctest::Contains("replicas_for_rate: rate = 0"),
                         invalid_input);
    CHECK_THROWS_AS(run(std::numeric_limits<double>::quiet_NaN()), invalid_input);
    CHECK_THROWS_AS(run(std::numeric_limits<double>::infinity()), invalid_input);
}

TEST_CASE("the SLO: zero TTFT or TPOT names replicas_for_rate and the field") {
    CHECK_THROWS_WITH_AS(run(10.0, {}, {500.0_ms, 0.0_s}),
                         "replicas_for_rate: slo.time_per_output_token = 0 s must be finite and "
                         "> 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(10.0, {}, {0.0_s, 33.0_ms}),
                         doctest::Contains("replicas_for_rate: slo.time_to_first_token = 0"),
                         invalid_input);
}

TEST_CASE("the percentile outside (0, 1), the C_s², the cap") {
    for (double p : {0.0, 1.0, -0.5, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
        CAPTURE(p);
        CHECK_THROWS_WITH_AS(run(10.0, with_percentile(p)),
                             doctest::Contains("replicas_for_rate: assumptions.ttft_percentile"),
                             invalid_input);
    }
    CHECK_THROWS_WITH_AS(run(10.0, with_percentile(1.0)),
                         "replicas_for_rate: assumptions.ttft_percentile = 1 must be in (0, 1)",
                         invalid_input);
    replicas_assumptions a{};
    a.default_service_scv = -1.0;
    CHECK_THROWS_WITH_AS(run(10.0, a),
                         "replicas_for_rate: assumptions.default_service_scv = -1 must be in "
                         "[0, 1e6]",
                         invalid_input);
    a = {};
    a.largest_replicas = 0;
    CHECK_THROWS_WITH_AS(run(10.0, a),
                         "replicas_for_rate: assumptions.largest_replicas = 0 must be >= 1",
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(10.0, {}, chat_slo, static_cast<routing>(7)),
                         doctest::Contains("replicas_for_rate: route = 7 must be a routing value"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(10.0, {}, chat_slo, routing::round_robin, {1024, 256, 100, 0}),
                         doctest::Contains("replicas_for_rate: profile.prompt_p90 = 100"),
                         invalid_input);
}

TEST_CASE("the estimate overload and the cost check their input too") {
    const replica_capacity_estimate e = replica_capacity(
        check(cat::llama_3_8b), one_h100(), serving_setup{}, chat, chat_slo, prefill_mode::stall);
    CHECK_THROWS_WITH_AS(
        replicas_for_rate(e, chat, routing::round_robin, make<requests_per_second>(-3.0)),
        doctest::Contains("replicas_for_rate: rate = -3"), invalid_input);
    const replicas_estimate r =
        replicas_for_rate(e, chat, routing::round_robin, make<requests_per_second>(10.0));
    CHECK_THROWS_WITH_AS(replicas_cost_per_million_tokens(r, 256, make<usd_per_gpu_hour>(-1.0)),
                         doctest::Contains("replicas_cost_per_million_tokens: price"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(replicas_cost_per_million_tokens(r, 0, make<usd_per_gpu_hour>(1.0)),
                         "replicas_cost_per_million_tokens: output_tokens = 0 must be >= 1",
                         invalid_input);
}

TEST_CASE("edges: a tiny rate, a huge rate, extreme percentiles give finite answers") {
    const replicas_estimate tiny = run(1e-30);
    REQUIRE(tiny.found);
    CHECK(tiny.replicas == 1);
    CHECK(std::isfinite(in<requests_per_second>(tiny.break_rate)));
    const replicas_estimate huge = run(1e15);
    CHECK_FALSE(huge.found);
    CHECK(huge.verdict == replicas_verdict::above_largest);
    for (double p : {1e-9, 0.5, 0.999999}) {
        const replicas_estimate r = run(50.0, with_percentile(p));
        REQUIRE(r.found);
        CHECK(std::isfinite(in<seconds>(r.time_to_first_token)));
        CHECK(r.headroom >= 0.0);
    }
    // JSQ pools R × B slots: a million requests/s still answers (or says no), finitely.
    const replicas_estimate pooled = run(1e6, {}, chat_slo, routing::join_shortest_queue);
    CHECK(pooled.found);
    CHECK(pooled.replicas > 1000);
}

namespace {
/// The fuzzer's reproduction: a one-token prompt whose p90 is 3,000 tokens, inside
/// request_profile's range (p90 in [mean, 2^40]). Its C² from the p90 (scv_from_p90, worked by
/// hand): ((3000 − 1) ÷ (ln 10 − 1))² = (2999 ÷ 1.302585)² = 5,300,791.5, above queue_wait's
/// 1e6.
const request_profile wide_prompts{1, 64, 3000, 0};
const serving_slo slo_2s{2.0_s, 50.0_ms};
}  // namespace

TEST_CASE("a p90 far above its mean is answered with a verdict, never an inner function's error") {
    // It used to throw "servers_for_wait: service_scv = 5300791.52 must be in [0, 1e6]" from
    // the disaggregated prefill pool: a function the caller never called, about a value they
    // never wrote. Every prefill mode now says the lengths are beyond the queueing model.
    for (prefill_mode mode :
         {prefill_mode::stall, prefill_mode::chunked, prefill_mode::disaggregated}) {
        CAPTURE(to_string(mode));
        replicas_estimate r{};
        CHECK_NOTHROW(r = replicas_for_rate(cat::llama_3_8b, one_h100().spec(), serving_setup{},
                                            wide_prompts, slo_2s, mode, routing::round_robin,
                                            make<requests_per_second>(10.0)));
        CHECK_FALSE(r.found);
        CHECK(r.verdict == replicas_verdict::service_scv_out_of_range);
        CHECK(r.service_scv == approx(5300791.52, 1e-8));
        CHECK(r.total_gpus == 0);
        CHECK(to_string(r.verdict) == "service_scv_out_of_range");
    }
    // Just inside: p90 = 1,303 gives (1302 ÷ 1.302585)² = 999,101, answered.
    const replicas_estimate inside = replicas_for_rate(
        cat::llama_3_8b, one_h100().spec(), serving_setup{}, request_profile{1, 64, 1303, 0},
        slo_2s, prefill_mode::disaggregated, routing::round_robin,
        make<requests_per_second>(10.0));
    CHECK(inside.found);
    // The output's p90 counts alike.
    const replicas_estimate outputs =
        run(10.0, {}, chat_slo, routing::round_robin, request_profile{1024, 1, 0, 3000});
    CHECK(outputs.verdict == replicas_verdict::service_scv_out_of_range);
}

TEST_CASE("replicas_cost_per_million_tokens checks the estimate it is given") {
    // It returned +inf for a rate of 0, -inf for -0, NaN for NaN and a negative price for a
    // negative rate or GPU count: the estimate's fields were not checked.
    replicas_estimate e{};
    e.found = true;
    e.rate = make<requests_per_second>(2.0);
    e.total_gpus = 4;
    const gpu_price price = make<usd_per_gpu_hour>(3.0);
    // By hand: 4 GPUs × $3/h ÷ 3,600 s ÷ (2 × 256 tokens/s) × 1e6 = $6.51 per million.
    CHECK(in<usd_per_million_tokens>(replicas_cost_per_million_tokens(e, 256, price)) ==
          approx(4.0 * 3.0 / 3600.0 / 512.0 * 1e6, 1e-12));
    for (double rate : {0.0, -0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::infinity()}) {
        CAPTURE(rate);
        e.rate = make<requests_per_second>(rate);
        CHECK_THROWS_WITH_AS(replicas_cost_per_million_tokens(e, 256, price),
                             doctest::Contains("replicas_cost_per_million_tokens: estimate.rate = "),
                             invalid_input);
    }
    e.rate = make<requests_per_second>(2.0);
    for (std::int64_t g : {std::int64_t{0}, std::int64_t{-4}, (std::int64_t{1} << 40) + 1}) {
        CAPTURE(g);
        e.total_gpus = g;
        CHECK_THROWS_WITH_AS(
            replicas_cost_per_million_tokens(e, 256, price),
            doctest::Contains("replicas_cost_per_million_tokens: estimate.total_gpus = "),
            invalid_input);
    }
    // An estimate that found nothing is 0 whatever its fields hold (read found first).
    e.found = false;
    e.rate = make<requests_per_second>(-1.0);
    CHECK(replicas_cost_per_million_tokens(e, 256, price) == token_price{});
}
