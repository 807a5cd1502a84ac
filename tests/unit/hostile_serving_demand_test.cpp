// hostile_serving_demand_test.cpp: bad input to cold_start, warm_replicas_for_ramp, plan_demand,
// reserved_base_load and batch_inference is invalid_input naming the function, the field, the
// value and the rule: a load bandwidth of zero, a negative rate (in a curve, by its index), an
// empty demand curve, a percentile below the mean, a zero step, a spot discount of 1, an
// output range too short, an enumerator cast from another integer.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/serving.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <vector>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
replica_capacity_estimate h100_replica() {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = 1;
    return replica_capacity(check(cat::llama_3_8b), check(c), serving_setup{},
                            request_profile{1024, 256, 0, 0}, serving_slo{500.0_ms, 33.0_ms},
                            prefill_mode::stall);
}
const request_profile chat{1024, 256, 0, 0};
demand_prices prices() {
    demand_prices p{};
    p.instance = make<usd_per_gpu_hour>(3.0);
    p.serverless = make<usd_per_gpu_hour>(4.0);
    return p;
}
}  // namespace

TEST_CASE("cold_start: a load bandwidth of zero, no weights, a negative start") {
    CHECK_THROWS_WITH_AS(cold_start(16.0_GB, 1, load_path{}),
                         doctest::Contains("cold_start: path.read = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(cold_start(0.0_GB, 1, cat::load_paths::nvme_pcie_gen4),
                         doctest::Contains("cold_start: weights_per_gpu = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(cold_start(16.0_GB, 0, cat::load_paths::nvme_pcie_gen4),
                         doctest::Contains("cold_start: gpus = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(cold_start(16.0_GB, 1, cat::load_paths::nvme_pcie_gen4, -1.0_s),
                         doctest::Contains("cold_start: engine_start = -1"), invalid_input);
    const load_path nan{make<gigabytes_per_second>(std::numeric_limits<double>::quiet_NaN()),
                        false};
    CHECK_THROWS_AS(cold_start(16.0_GB, 1, nan), invalid_input);
    // The largest inputs give a finite answer.
    const cold_start_estimate slow = cold_start(make<bytes>(1e30), 1099511627776,
                                                load_path{make<bytes_per_second>(1e-30), false});
    CHECK(std::isfinite(slow.total.value()));
}

TEST_CASE("warm_replicas_for_ramp: a negative rate or rise, a ramp over no time") {
    const replica_capacity_estimate e = h100_replica();
    const auto run = [&](double rate, double rise, duration over, duration start = 30.0_s) {
        return warm_replicas_for_ramp(e, chat, routing::round_robin,
                                      make<requests_per_second>(rate),
                                      demand_ramp{make<requests_per_second>(rise), over}, start);
    };
    CHECK_THROWS_WITH_AS(run(-1.0, 1.0, 1.0_min),
                         doctest::Contains("warm_replicas_for_ramp: rate = -1"), invalid_input);
    CHECK_THROWS_WITH_AS(run(1.0, -1.0, 1.0_min),
                         doctest::Contains("warm_replicas_for_ramp: ramp.rise = -1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(1.0, 1.0, 0.0_s),
                         doctest::Contains("warm_replicas_for_ramp: ramp.over = 0"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(1.0, 1.0, 1.0_min, -1.0_s),
                         doctest::Contains("warm_replicas_for_ramp: cold_start = -1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(run(1e15, 1e15, 1e-30_s, 1e6 * 365.0 * 86400.0_s),
                         doctest::Contains("warm_replicas_for_ramp: ramp.rise"), invalid_input);
}

TEST_CASE("plan_demand: an empty curve, a negative rate at its index, a short output range") {
    const replica_capacity_estimate e = h100_replica();
    const std::vector<demand_period> empty;
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, empty, 30.0_s, prices()),
                         doctest::Contains("plan_demand: curve = 0 periods must hold at least one"),
                         invalid_input);
    std::vector<demand_period> day(24, demand_period{make<requests_per_second>(5.0), 1.0_h});
    day[3].rate = make<requests_per_second>(-2.0);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 30.0_s, prices()),
                         doctest::Contains("plan_demand: curve[3].rate = -2"), invalid_input);
    day[3].rate = make<requests_per_second>(2.0);
    day[5].time = 0.0_h;
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 30.0_s, prices()),
                         doctest::Contains("plan_demand: curve[5].time = 0"), invalid_input);
    day[5].time = 1.0_h;
    std::vector<period_replicas> short_out(23);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 30.0_s, prices(),
                                     demand_assumptions{}, short_out),
                         doctest::Contains("plan_demand: per_period's size = 23 must be at least the curve's size, 24"), invalid_input);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, -1.0_s, prices()),
                         doctest::Contains("plan_demand: cold_start = -1"), invalid_input);
    demand_prices negative = prices();
    negative.serverless = make<usd_per_gpu_hour>(-1.0);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 1.0_s, negative),
                         doctest::Contains("plan_demand: prices.serverless = -"), invalid_input);
    demand_prices market = prices();
    market.market = static_cast<capacity_market>(9);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 1.0_s, market),
                         doctest::Contains("plan_demand: prices.market = 9"), invalid_input);
    demand_assumptions a{};
    a.min_replicas = -1;
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 1.0_s, prices(), a),
                         doctest::Contains("plan_demand: assumptions.min_replicas = -1"),
                         invalid_input);
    // A percentile below the mean, and a zero TTFT percentile.
    request_profile below = chat;
    below.output_p90 = 100;
    CHECK_THROWS_WITH_AS(plan_demand(e, below, routing::round_robin, day, 1.0_s, prices()),
                         doctest::Contains("plan_demand: profile.output_p90 = 100"),
                         invalid_input);
    demand_assumptions zero_percentile{};
    zero_percentile.replicas.ttft_percentile = 0.0;
    CHECK_THROWS_WITH_AS(
        plan_demand(e, chat, routing::round_robin, day, 1.0_s, prices(), zero_percentile),
        doctest::Contains("plan_demand: assumptions.replicas.ttft_percentile = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, static_cast<routing>(4), day, 1.0_s, prices()),
                         doctest::Contains("plan_demand: route = 4"), invalid_input);
    // Each strategy is priced: a price of 0 would show a free strategy.
    demand_prices unpriced{};
    unpriced.instance = make<usd_per_gpu_hour>(3.0);
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 1.0_s, unpriced),
                         doctest::Contains("plan_demand: prices.serverless = $0/GPU"),
                         invalid_input);
}

TEST_CASE("a replica estimate made by hand is checked where it is passed back in") {
    const std::vector<demand_period> day(24, demand_period{make<requests_per_second>(5.0), 1.0_h});
    replica_capacity_estimate e = h100_replica();
    REQUIRE(e.feasible);
    e.gpus = -2;
    CHECK_THROWS_WITH_AS(plan_demand(e, chat, routing::round_robin, day, 1.0_s, prices()),
                         doctest::Contains("plan_demand: replica.gpus = -2"), invalid_input);
    e = h100_replica();
    e.batch = -5;
    batch_job j{};
    j.requests = 1000;
    j.on_demand = make<usd_per_gpu_hour>(3.0);
    j.mean_time_between_preemptions = 2.0_h;
    CHECK_THROWS_WITH_AS(batch_inference(e, chat, j),
                         doctest::Contains("batch_inference: replica.batch = -5"), invalid_input);
    e = h100_replica();
    e.capacity = make<requests_per_second>(std::numeric_limits<double>::infinity());
    CHECK_THROWS_WITH_AS(batch_inference(e, chat, j),
                         doctest::Contains("batch_inference: replica.capacity = inf"),
                         invalid_input);
    e = h100_replica();
    e.step.output_tokens = 0;
    CHECK_THROWS_WITH_AS(
        replicas_for_rate(e, chat, routing::round_robin, make<requests_per_second>(1.0)),
        doctest::Contains("replicas_for_rate: replica.step.output_tokens = 0"), invalid_input);
    e = h100_replica();
    e.sustainable_rate = make<requests_per_second>(0.0);
    CHECK_THROWS_WITH_AS(warm_replicas_for_ramp(e, chat, routing::round_robin,
                                                make<requests_per_second>(1.0), demand_ramp{},
                                                1.0_s),
                         doctest::Contains("warm_replicas_for_ramp: replica.sustainable_rate = 0"),
                         invalid_input);
    // A batch job's time between reclaims has no default: unset, it is named.
    batch_job unset{};
    unset.on_demand = make<usd_per_gpu_hour>(3.0);
    CHECK_THROWS_WITH_AS(batch_inference(h100_replica(), chat, unset),
                         doctest::Contains("batch_inference: job.mean_time_between_preemptions = 0"),
                         invalid_input);
}

TEST_CASE("reserved_base_load and batch_inference: empty, negative, a discount of 1") {
    const std::vector<period_replicas> none;
    reservation r{};
    r.on_demand = make<usd_per_gpu_hour>(3.0);
    CHECK_THROWS_WITH_AS(reserved_base_load(none, 1, reserved_capacity(r), r.on_demand),
                         doctest::Contains("reserved_base_load: per_period = 0 periods"),
                         invalid_input);
    std::vector<period_replicas> day(2, period_replicas{{}, 1.0_h, 1, 1});
    day[1].autoscaled = -3;
    CHECK_THROWS_WITH_AS(reserved_base_load(day, 1, reserved_capacity(r), r.on_demand),
                         doctest::Contains("reserved_base_load: per_period[1].autoscaled = -3"),
                         invalid_input);
    day[1].autoscaled = 1;
    CHECK_THROWS_WITH_AS(reserved_base_load(day, 0, reserved_capacity(r), r.on_demand),
                         doctest::Contains("reserved_base_load: gpus_per_replica = 0"),
                         invalid_input);
    const replica_capacity_estimate e = h100_replica();
    batch_job j{};
    j.requests = 1000;
    j.on_demand = make<usd_per_gpu_hour>(3.0);
    j.mean_time_between_preemptions = 2.0_h;
    j.spot_discount = 1.0;
    CHECK_THROWS_WITH_AS(batch_inference(e, chat, j),
                         doctest::Contains("batch_inference: job.spot_discount = 1"),
                         invalid_input);
    j.spot_discount = 0.6;
    j.requests = 0;
    CHECK_THROWS_WITH_AS(batch_inference(e, chat, j),
                         doctest::Contains("batch_inference: job.requests = 0"), invalid_input);
    j.requests = 1000;
    j.mean_time_between_preemptions = 0.0_h;
    CHECK_THROWS_WITH_AS(batch_inference(e, chat, j),
                         doctest::Contains("batch_inference: job.mean_time_between_preemptions = 0"),
                         invalid_input);
}

TEST_CASE("plan_demand and warm_replicas_for_ramp: a p90 far above its mean is a verdict") {
    // A one-token prompt with a p90 of 3,000 (inside request_profile's range) gives a C² of
    // 5.3e6 (worked in hostile_serving_replicas_test.cpp), beyond queue_wait's 1e6. It used to
    // escape as "servers_for_wait: service_scv = ... must be in [0, 1e6]" from a disaggregated
    // replica; now each function answers with the verdict.
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = 1;
    const request_profile wide{1, 64, 3000, 0};
    const replica_capacity_estimate e =
        replica_capacity(check(cat::llama_3_8b), check(c), serving_setup{}, wide,
                         serving_slo{2.0_s, 50.0_ms}, prefill_mode::disaggregated);
    REQUIRE(e.feasible);
    const demand_period curve[] = {{make<requests_per_second>(0.0), 1.0_h},
                                   {make<requests_per_second>(10.0), 1.0_h}};
    demand_plan plan{};
    CHECK_NOTHROW(plan = plan_demand(e, wide, routing::round_robin, curve, 30.0_s, prices()));
    CHECK_FALSE(plan.found);
    CHECK(plan.verdict == demand_verdict::service_scv_out_of_range);
    CHECK(plan.failed_period == 1);
    CHECK(to_string(plan.verdict) == "service_scv_out_of_range");
    std::vector<period_replicas> steps(2);
    CHECK_NOTHROW(plan = plan_demand(e, wide, routing::round_robin, curve, 30.0_s, prices(), {},
                                     steps));
    CHECK(plan.verdict == demand_verdict::service_scv_out_of_range);
    ramp_estimate ramp{};
    CHECK_NOTHROW(ramp = warm_replicas_for_ramp(e, wide, routing::round_robin,
                                                make<requests_per_second>(10.0),
                                                demand_ramp{make<requests_per_second>(1.0)},
                                                30.0_s));
    CHECK_FALSE(ramp.found);
    CHECK(ramp.verdict == replicas_verdict::service_scv_out_of_range);
}
