// hostile_serving_fleet_test.cpp: bad input to the fleet search is invalid_input naming the
// function, the field and the rule (issue 17 §4: a fleet with no GPU types, shares that do not
// sum to 1, a negative rate; and the table's limits).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/serving.hpp>

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

using namespace gpucalc;
namespace cat = gpucalc::catalog;

namespace {

template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return "no error";
}

fleet_gpu_type h100() {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = 1;
    return {"H100", c, serving_setup{}, make<usd_per_gpu_hour>(3.0)};
}

const serving_slo slo{make<milliseconds>(2000.0), make<milliseconds>(100.0)};

std::string plan(const std::vector<fleet_gpu_type>& types, const std::vector<fleet_bucket>& buckets,
                 double rate, prefill_mode mode = prefill_mode::chunked) {
    return error_of([&] {
        plan_fleet(cat::llama_3_8b, types, buckets, make<requests_per_second>(rate), slo, mode,
                   routing::round_robin);
    });
}

const std::vector<fleet_bucket> two{{{256, 128, 0, 0}, 0.6}, {{2048, 512, 0, 0}, 0.4}};

}  // namespace

TEST_CASE("a fleet with no GPU types, or too many") {
    const std::string none = plan({}, two, 1.0);
    CHECK(none.find("plan_fleet") != std::string::npos);
    CHECK(none.find("types") != std::string::npos);
    CHECK(none.find("1 to 8") != std::string::npos);
    CHECK(plan(std::vector<fleet_gpu_type>(9, h100()), two, 1.0).find("types") !=
          std::string::npos);
    CHECK(plan({h100()}, {}, 1.0).find("buckets") != std::string::npos);
    CHECK(plan({h100()}, std::vector<fleet_bucket>(17, two[0]), 1.0).find("buckets") !=
          std::string::npos);
}

TEST_CASE("shares that do not sum to 1, or outside [0, 1]") {
    const std::string e = plan({h100()}, {{{256, 128, 0, 0}, 0.6}, {{2048, 512, 0, 0}, 0.5}}, 1.0);
    CHECK(e.find("plan_fleet") != std::string::npos);
    CHECK(e.find("share") != std::string::npos);
    CHECK(e.find("sum to 1") != std::string::npos);
    // The sum is named by the shares the caller wrote, not the internal table's field (it was
    // "plan_fleet: table.share = 1.1").
    CHECK(e.find("plan_fleet: buckets[0..1].share = 1.1 must sum to 1") == 0);
    CHECK(e.find("table.") == std::string::npos);
    const std::string negative =
        plan({h100()}, {{{256, 128, 0, 0}, -0.2}, {{2048, 512, 0, 0}, 1.2}}, 1.0);
    CHECK(negative.find("buckets[0].share") != std::string::npos);
    // Within the tolerance: accepted.
    CHECK(plan({h100()}, {{{256, 128, 0, 0}, 0.6000001}, {{2048, 512, 0, 0}, 0.4}}, 1.0) ==
          "no error");
}

TEST_CASE("a negative or zero rate, a bad price, a bad bucket, disaggregated prefill") {
    CHECK(plan({h100()}, two, -1.0).find("plan_fleet: rate = -1") != std::string::npos);
    CHECK(plan({h100()}, two, 0.0).find("plan_fleet: rate = 0") != std::string::npos);
    fleet_gpu_type free = h100();
    free.price = gpu_price{};
    CHECK(plan({h100(), free}, two, 1.0).find("types[1].price") != std::string::npos);
    CHECK(plan({h100()}, {{{0, 128, 0, 0}, 1.0}}, 1.0).find("buckets[0].profile.prompt_mean") !=
          std::string::npos);
    CHECK(plan({h100()}, {{{256, 128, 100, 0}, 1.0}}, 1.0).find("buckets[0].profile.prompt_p90") !=
          std::string::npos);
    CHECK(plan({h100()}, two, 1.0, prefill_mode::disaggregated).find("mode") != std::string::npos);
}

TEST_CASE("a table made by hand is checked") {
    fleet_table t{};
    CHECK(error_of([&] { cheapest_fleet(t); }).find("table.types") != std::string::npos);
    t.types = 1;
    t.buckets = 1;
    t.rate = make<requests_per_second>(1.0);
    t.gpus_per_replica[0] = 1;
    t.price[0] = make<usd_per_gpu_hour>(1.0);
    t.share[0] = 1.0;
    t.output_mean[0] = 10;
    t.replica_rate[0][0] = make<requests_per_second>(-1.0);
    CHECK(error_of([&] { cheapest_fleet(t); }).find("table.replica_rate[0][0]") !=
          std::string::npos);
    t.replica_rate[0][0] = make<requests_per_second>(1.0);
    // A table made by hand names its own field.
    t.share[0] = 0.5;
    CHECK(error_of([&] { cheapest_fleet(t); }).find("cheapest_fleet: table.share = 0.5") == 0);
    t.share[0] = 1.0;
    t.gpus_per_replica[0] = 0;
    CHECK(error_of([&] { cheapest_fleet(t); }).find("table.gpus_per_replica[0]") !=
          std::string::npos);
    t.gpus_per_replica[0] = 1;
    fleet_assumptions a{};
    a.largest_assignments = 0;
    CHECK(error_of([&] { cheapest_fleet(t, a); }).find("assumptions.largest_assignments") !=
          std::string::npos);
    a = {};
    a.share_tolerance = 0.5;
    CHECK(error_of([&] { cheapest_fleet(t, a); }).find("assumptions.share_tolerance") !=
          std::string::npos);
    CHECK(error_of([&] { cheapest_fleet(t); }) == "no error");
}

TEST_CASE("an error in one type's cluster or setup names that type") {
    // The inner checks name the bare field (node.gpu.memory, parallel.tensor); plan_fleet
    // prefixes the type it came from, as the caller wrote it.
    fleet_gpu_type broken = h100();
    broken.hardware.node.gpu.memory = make<gigabytes>(-80.0);
    const std::string memory = plan({h100(), broken}, two, 1.0);
    CHECK(memory.find("plan_fleet: types[1].hardware.node.gpu.memory = ") == 0);
    fleet_gpu_type wide = h100();
    wide.setup.parallel.tensor = 2;  // a 1-GPU node cannot hold TP 2
    const std::string layout = plan({wide}, two, 1.0);
    CHECK(layout.find("plan_fleet: types[0].setup.parallel.tensor") == 0);
}

TEST_CASE("a bucket whose p90 is far above its mean: a verdict naming the bucket") {
    // A one-token prompt with a p90 of 3,000 is inside request_profile's range; its C² (5.3e6,
    // worked in hostile_serving_replicas_test.cpp) is beyond queue_wait's 1e6. The bucket was
    // reported as unservable; the verdict now says why there is no fleet.
    const fleet_plan p = plan_fleet(cat::llama_3_8b, std::vector<fleet_gpu_type>{h100()},
                                    std::vector<fleet_bucket>{two[0], {{1, 64, 3000, 0}, 0.4}},
                                    make<requests_per_second>(1.0), slo, prefill_mode::chunked,
                                    routing::round_robin);
    CHECK_FALSE(p.found);
    CHECK(p.verdict == fleet_verdict::service_scv_out_of_range);
    CHECK(p.unservable_bucket == 1);
    CHECK(to_string(p.verdict) == "service_scv_out_of_range");
}
