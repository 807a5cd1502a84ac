// hostile_serving_right_size_test.cpp: bad input to right_size is invalid_input naming the
// function, the field, the value and the rule: a utilization outside [0, 1] or NaN, negative
// memory or more than the GPU has, zero replicas, a negative queue, a zero window, a running batch
// above its limit, a queue growing faster than requests arrive, a bad GPU spec, and thresholds
// out of range or out of order.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/serving.hpp>

#include <doctest/doctest.h>

#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
deployment_measurements on(const gpu_spec& gpu, std::int64_t replicas, double utilization,
                           data_size peak) {
    deployment_measurements m{};
    m.gpu = gpu;
    m.replicas = replicas;
    m.utilization = utilization;
    m.peak_memory_per_gpu = peak;
    return m;
}
deployment_measurements growing(deployment_measurements m, std::int64_t by) {
    m.queue_at_start = 10;
    m.queue_at_end = 10 + by;
    m.window = make<hours>(1.0);
    return m;
}
}  // namespace

TEST_CASE("right_size: bad input is invalid_input naming the field") {
    const deployment_measurements good = on(cat::h100_sxm, 2, 0.3, 20.0_GB);
    const auto with = [&](auto edit) {
        deployment_measurements m = good;
        edit(m);
        return m;
    };
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.utilization = 1.5; })),
                         doctest::Contains("right_size: measured.utilization = 1.5 must be in [0, 1]"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.utilization = -0.1; })),
                         doctest::Contains("measured.utilization = -0.1"), invalid_input);
    CHECK_THROWS_AS(right_size(with([](auto& m) {
                        m.utilization = std::numeric_limits<double>::quiet_NaN();
                    })),
                    invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.peak_memory_per_gpu = -1.0_GB; })),
                         doctest::Contains("right_size: measured.peak_memory_per_gpu = -953.67431640625 "
                                           "MiB must be finite and >= 0"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.peak_memory_per_gpu = 90.0_GB; })),
                         doctest::Contains("must not exceed measured.gpu.memory"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.replicas = 0; })),
                         doctest::Contains("right_size: measured.replicas = 0 must be >= 1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.gpus_per_replica = -2; })),
                         doctest::Contains("measured.gpus_per_replica = -2"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.queue_at_start = -1; })),
                         doctest::Contains("measured.queue_at_start = -1"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.window = duration{}; })),
                         doctest::Contains("measured.window = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) {
                             m.batch_limit = 32;
                             m.running_batch = 40.0;
                         })),
                         doctest::Contains("measured.running_batch = 40"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.batch_limit = -3; })),
                         doctest::Contains("measured.batch_limit = -3"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) { m.replicas_needed = -1; })),
                         doctest::Contains("measured.replicas_needed = -1"), invalid_input);
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) {
                             m.gpu.memory = data_size{};
                         })),
                         doctest::Contains("right_size: measured.gpu.memory = 0"), invalid_input);
    // A queue growing faster than requests arrive.
    CHECK_THROWS_WITH_AS(right_size(with([](auto& m) {
                             m = growing(m, 3600);  // 1 request/s
                             m.arrival_rate = make<requests_per_second>(0.5);
                         })),
                         doctest::Contains("right_size: measured.arrival_rate = 0.5 requests/s "
                                           "must exceed the queue's growth (queue_at_end − "
                                           "queue_at_start) ÷ window = 1 requests/s"),
                         invalid_input);
    right_size_assumptions a{};
    a.over_provisioned_below = 0.0;
    CHECK_THROWS_WITH_AS(right_size(good, a),
                         doctest::Contains("assumptions.over_provisioned_below = 0"), invalid_input);
    a = {};
    a.target_utilization = 0.9;
    CHECK_THROWS_WITH_AS(right_size(good, a),
                         doctest::Contains("assumptions.target_utilization = 0.9 must be <= "
                                           "assumptions.busy_above = 0.8"),
                         invalid_input);
    a = {};
    a.target_utilization = 0.3;
    CHECK_THROWS_WITH_AS(right_size(good, a),
                         doctest::Contains("right_size: assumptions.target_utilization = 0.3 must "
                                           "be >= assumptions.over_provisioned_below = 0.4"),
                         invalid_input);
    a = {};
    a.memory_headroom = 1.0;
    CHECK_THROWS_WITH_AS(right_size(good, a),
                         doctest::Contains("assumptions.memory_headroom = 1 must be in [0, 1)"),
                         invalid_input);
    a = {};
    a.queue_growth_above = make<requests_per_second>(-1.0);
    CHECK_THROWS_WITH_AS(right_size(good, a), doctest::Contains("assumptions.queue_growth_above"),
                         invalid_input);
}
