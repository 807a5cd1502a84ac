// serving_right_size_test.cpp: right_size's rules on hand-made deployments: each rule firing,
// their precedence when several could, the MIG slice chosen from the A100 and H100 profile
// tables (NVIDIA MIG user guide, as catalog/gpus.hpp holds them), the replica targets, and the
// answers at the edges of the ranges (bad input: hostile_serving_right_size_test.cpp).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/serving.hpp>

#include <doctest/doctest.h>

#include <cmath>

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
/// A queue that grew by `by` requests over the hour.
deployment_measurements growing(deployment_measurements m, std::int64_t by) {
    m.queue_at_start = 10;
    m.queue_at_end = 10 + by;
    m.window = make<hours>(1.0);
    return m;
}
}  // namespace

TEST_CASE("right_size: names") {
    CHECK(to_string(right_size_action::keep) == "keep");
    CHECK(to_string(right_size_action::smaller_gpu_or_mig_slice) == "smaller_gpu_or_mig_slice");
    CHECK(to_string(right_size_action::fewer_replicas) == "fewer_replicas");
    CHECK(to_string(right_size_action::more_replicas) == "more_replicas");
    CHECK(to_string(right_size_action::better_batching) == "better_batching");
    CHECK(to_string(right_size_rule::queue_growing_batch_not_full) ==
          "queue_growing_batch_not_full");
    CHECK(to_string(static_cast<right_size_action>(9)) == "unknown");
}

TEST_CASE("right_size: an H100 at 25 % holding 20 GB moves to a 3g.40gb slice") {
    // 20 GB = 18.6 GiB needs 20.7 GiB at 90 %: 1g.20gb and 2g.20gb (19.625 GiB) are too small;
    // 3g.40gb's share is min(3/7 of the compute, 40/80 of the memory) = 3/7: 0.25 × 7 ÷ 3 =
    // 0.583 <= 0.60, while 2 slices would run at 0.875. Two 3g slices fit a GPU: half a GPU.
    const right_size_recommendation r = right_size(on(cat::h100_sxm, 1, 0.25, 20.0_GB));
    CHECK(r.action == right_size_action::smaller_gpu_or_mig_slice);
    CHECK(r.rule == right_size_rule::over_provisioned_mig);
    CHECK(r.measured == doctest::Approx(0.25));
    CHECK(r.threshold == doctest::Approx(0.40));
    REQUIRE(r.has_profile);
    CHECK(r.profile.name == "3g.40gb");
    CHECK(r.replicas == 1);
    CHECK(r.utilization_after == doctest::Approx(0.25 * 7.0 / 3.0));
    CHECK(r.gpus_before == doctest::Approx(1.0));
    CHECK(r.gpus_after == doctest::Approx(0.5));
    CHECK_FALSE(r.queue_growing);
}

TEST_CASE("right_size: the smallest slice that holds memory and compute") {
    // H100 at 8 %, 15 GB (13.97 GiB): 1g.10gb is too small, 1g.20gb holds it (17.7 GiB at 90 %)
    // and runs at 0.08 × 7 = 0.56.
    right_size_recommendation r = right_size(on(cat::h100_sxm, 1, 0.08, 15.0_GB));
    REQUIRE(r.has_profile);
    CHECK(r.profile.name == "1g.20gb");
    // A100 40GB at 15 %, 8 GB (7.45 GiB): 1g.10gb holds it but would run at 1.05; 2g.10gb's
    // share is its memory's, 9.75 of 40 GiB (and so of the bandwidth), under its 2/7 of the
    // compute: 0.15 ÷ 0.244 = 0.615, over the target; 3g.20gb (3/7: 0.35) keeps up.
    r = right_size(on(cat::a100_40gb_sxm, 1, 0.15, 8.0_GB));
    REQUIRE(r.has_profile);
    CHECK(r.profile.name == "3g.20gb");
    CHECK(r.utilization_after == doctest::Approx(0.15 * 7.0 / 3.0));
    // A100 80GB at 5 %, 4 GB: the 1g.10gb slice (its memory's share, 9.5 of 80 GiB: 0.42),
    // seven to a GPU.
    r = right_size(on(cat::a100_80gb_sxm, 1, 0.05, 4.0_GB));
    REQUIRE(r.has_profile);
    CHECK(r.profile.name == "1g.10gb");
    CHECK(r.gpus_after == doctest::Approx(1.0 / 7.0));
    CHECK(r.utilization_after == doctest::Approx(0.05 * 80.0 / 9.5));
    // Peak memory not measured (0): no slice can be checked, so none is recommended.
    r = right_size(on(cat::a100_80gb_sxm, 1, 0.05, 0.0_GB));
    CHECK_FALSE(r.has_profile);
    // More headroom asked for: 15 GB no longer fits 1g.20gb at 30 % free (13.7 GiB).
    right_size_assumptions a{};
    a.memory_headroom = 0.30;
    r = right_size(on(cat::h100_sxm, 1, 0.08, 15.0_GB), a);
    REQUIRE(r.has_profile);
    CHECK(r.profile.name == "3g.40gb");
}

TEST_CASE("right_size: fewer replicas or a slice, whichever frees more GPUs") {
    // 8 H100s at 30 %: 4 replicas would run at 60 % (frees 4); a slice needs 4g (0.525), one to
    // a GPU, which frees nothing. Fewer replicas win.
    right_size_recommendation r = right_size(on(cat::h100_sxm, 8, 0.30, 30.0_GB));
    CHECK(r.action == right_size_action::fewer_replicas);
    CHECK(r.rule == right_size_rule::over_provisioned_fewer);
    CHECK(r.replicas == 4);
    CHECK(r.utilization_after == doctest::Approx(0.60));
    CHECK(r.gpus_after == doctest::Approx(4.0));
    CHECK_FALSE(r.has_profile);
    // At 25 %: 4 replicas again (frees 4), and 3g slices, two to a GPU, take 4 GPUs too: a tie,
    // which goes to fewer replicas (no reconfiguration).
    r = right_size(on(cat::h100_sxm, 8, 0.25, 30.0_GB));
    CHECK(r.action == right_size_action::fewer_replicas);
    CHECK(r.replicas == 4);
    // At 12 %, 15 GB: fewer replicas, ⌈8 × 0.12 ÷ 0.6⌉ = 2, free 6; 1g.20gb slices (0.84 of
    // theirs: too busy) do not keep up, 2g.20gb (share 2/7: 0.42) three to a GPU take 8/3 GPUs,
    // freeing 5.3. Fewer wins; with 6 replicas needed, fewer frees 2 and the slice wins.
    r = right_size(on(cat::h100_sxm, 8, 0.12, 15.0_GB));
    CHECK(r.action == right_size_action::fewer_replicas);
    CHECK(r.replicas == 2);
    deployment_measurements m = on(cat::h100_sxm, 8, 0.12, 15.0_GB);
    m.replicas_needed = 6;
    r = right_size(m);
    CHECK(r.action == right_size_action::smaller_gpu_or_mig_slice);
    CHECK(r.profile.name == "2g.20gb");
    CHECK(r.gpus_after == doctest::Approx(8.0 / 3.0));
    // The capacity model says more are needed than run: nothing is taken away.
    m.replicas_needed = 9;
    CHECK(right_size(m).action == right_size_action::keep);
    // Without MIG (an L4) the fleet shrinks.
    r = right_size(on(cat::l4, 8, 0.25, 10.0_GB));
    CHECK(r.action == right_size_action::fewer_replicas);
    CHECK(r.replicas == 4);
    // Idle: one replica is left.
    r = right_size(on(cat::l4, 8, 0.0, 10.0_GB));
    CHECK(r.replicas == 1);
}

TEST_CASE("right_size: low utilization with nothing to free names a smaller GPU") {
    // One tensor-parallel replica over 2 GPUs: no slice (MIG instances cannot talk peer to
    // peer), and 1 replica is the fewest.
    deployment_measurements m = on(cat::h100_sxm, 1, 0.20, 60.0_GB);
    m.gpus_per_replica = 2;
    right_size_recommendation r = right_size(m);
    CHECK(r.action == right_size_action::smaller_gpu_or_mig_slice);
    CHECK(r.rule == right_size_rule::over_provisioned_smaller_gpu);
    CHECK_FALSE(r.has_profile);
    CHECK(r.replicas == 1);
    CHECK(r.gpus_after == doctest::Approx(2.0));
    // An H100 at 30 % holding 75 GB: no slice holds it.
    r = right_size(on(cat::h100_sxm, 1, 0.30, 75.0_GB));
    CHECK(r.rule == right_size_rule::over_provisioned_smaller_gpu);
}

TEST_CASE("right_size: a growing queue on busy GPUs adds replicas") {
    // 4 replicas at 90 %, the queue grew by 360 in an hour (0.1 requests/s).
    deployment_measurements m = growing(on(cat::h100_sxm, 4, 0.90, 60.0_GB), 360);
    right_size_recommendation r = right_size(m);
    CHECK(r.action == right_size_action::more_replicas);
    CHECK(r.rule == right_size_rule::queue_growing_busy);
    CHECK(r.queue_growing);
    CHECK(in<requests_per_second>(r.queue_growth) == doctest::Approx(0.1));
    CHECK(r.measured == doctest::Approx(0.90));
    CHECK(r.threshold == doctest::Approx(0.80));
    CHECK(r.replicas == 6);  // ceil(4 × 0.9 ÷ 0.6)
    CHECK(r.utilization_after == doctest::Approx(0.60));
    // With the arrival rate known (2 requests/s, 1.9 completed): ceil(4 × 0.9 × 2/1.9 ÷ 0.6) = 7.
    m.arrival_rate = make<requests_per_second>(2.0);
    r = right_size(m);
    CHECK(r.replicas == 7);
    CHECK(r.utilization_after == doctest::Approx(0.9 * 4.0 / 7.0 * 2.0 / 1.9));
    // replicas_for_rate's count is a floor.
    m.replicas_needed = 10;
    CHECK(right_size(m).replicas == 10);
    // A busy fleet already at the target still gains one.
    deployment_measurements busy = growing(on(cat::h100_sxm, 4, 0.60, 60.0_GB), 100);
    busy.running_batch = 31.0;
    busy.batch_limit = 32;
    r = right_size(busy);
    CHECK(r.rule == right_size_rule::queue_growing);
    CHECK(r.action == right_size_action::more_replicas);
    CHECK(r.replicas == 5);
}

TEST_CASE("right_size: a growing queue with room in the batch asks for better batching") {
    deployment_measurements m = growing(on(cat::h100_sxm, 4, 0.35, 40.0_GB), 200);
    m.running_batch = 16.0;
    m.batch_limit = 32;
    right_size_recommendation r = right_size(m);
    CHECK(r.action == right_size_action::better_batching);
    CHECK(r.rule == right_size_rule::queue_growing_batch_not_full);
    CHECK(r.measured == doctest::Approx(0.5));
    CHECK(r.threshold == doctest::Approx(0.9));
    CHECK(r.batch_fill == doctest::Approx(0.5));
    CHECK(r.replicas == 4);
    // The batch limit unknown, the GPUs idle: batching again, by the idle rule.
    m.batch_limit = 0;
    m.running_batch = 0.0;
    r = right_size(m);
    CHECK(r.rule == right_size_rule::queue_growing_gpu_idle);
    CHECK(r.action == right_size_action::better_batching);
}

TEST_CASE("right_size: precedence") {
    // Busy and a half-empty batch with a growing queue and memory to spare: batching comes
    // first (the busy fraction reads near 1 for decode at any batch).
    deployment_measurements m = growing(on(cat::h100_sxm, 4, 0.90, 40.0_GB), 200);
    m.running_batch = 16.0;
    m.batch_limit = 32;
    CHECK(right_size(m).rule == right_size_rule::queue_growing_batch_not_full);
    // The same with the KV cache full (78 GB of 80, over the 90 % line): the batch cannot grow,
    // so the busy GPUs need more replicas.
    m.peak_memory_per_gpu = 78.0_GB;
    CHECK(right_size(m).rule == right_size_rule::queue_growing_busy);
    // Idle GPUs and a queue that stands (not growing, but requests wait at the end): batching,
    // never fewer replicas.
    m = on(cat::h100_sxm, 8, 0.20, 20.0_GB);
    m.queue_at_start = 40;
    m.queue_at_end = 40;
    CHECK(right_size(m).rule == right_size_rule::queue_standing_gpu_idle);
    CHECK(right_size(m).action == right_size_action::better_batching);
    // Over-provisioned and a growing queue: nothing is taken away while the queue grows.
    m = growing(on(cat::h100_sxm, 8, 0.20, 20.0_GB), 50);
    CHECK(right_size(m).action == right_size_action::better_batching);
    // A shrinking queue is not growing: the low utilization decides.
    m.queue_at_end = 0;
    // 3 replicas would run at 53 % (frees 5); 3g slices, two to a GPU, would free 4.
    CHECK(right_size(m).action == right_size_action::fewer_replicas);
    CHECK(right_size(m).replicas == 3);
    // A growth under the threshold is not growing.
    m = growing(on(cat::h100_sxm, 4, 0.90, 40.0_GB), 3);
    right_size_assumptions a{};
    a.queue_growth_above = make<requests_per_second>(0.01);
    CHECK(right_size(m, a).action == right_size_action::keep);
    // Between the thresholds with a steady queue, busy or not: keep.
    CHECK(right_size(on(cat::h100_sxm, 4, 0.55, 40.0_GB)).action == right_size_action::keep);
    CHECK(right_size(on(cat::h100_sxm, 4, 0.95, 40.0_GB)).action == right_size_action::keep);
    const right_size_recommendation k = right_size(on(cat::h100_sxm, 4, 0.40, 40.0_GB));
    CHECK(k.action == right_size_action::keep);  // 40 % is not below 40 %
    CHECK(k.rule == right_size_rule::none);
    CHECK(k.replicas == 4);
    CHECK(k.utilization_after == doctest::Approx(0.40));
    CHECK(k.measured == doctest::Approx(0.40));
    CHECK(k.threshold == doctest::Approx(0.40));
}

TEST_CASE("right_size: every answer finite at the edges") {
    deployment_measurements m = on(cat::h100_sxm, std::int64_t{1} << 40, 1.0, 80.0_GB);
    m.gpus_per_replica = 1;
    m.queue_at_end = std::int64_t{1} << 40;
    m.window = make<seconds>(1e-30);
    const right_size_recommendation r = right_size(m);
    CHECK(r.action == right_size_action::more_replicas);
    CHECK(r.replicas == std::int64_t{1} << 40);
    CHECK(r.at_largest);
    CHECK(std::isfinite(r.utilization_after));
    CHECK(std::isfinite(r.gpus_after));
}
