// scaling_inference_static.cpp: decode and prefill across GPUs are usable in constant
// expressions: on a model and a cluster checked at compile time, TP = PP = 1 is roofline's
// decode exactly, TP adds its all-reduces, PP's micro-batches follow the stated rule.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/roofline/inference.hpp>
#include <gpucalc/scaling/inference.hpp>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

constexpr checked_model model = check(cat::llama_3_8b);
constexpr checked_cluster node = [] {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.intra_node = link_spec{"test", 100.0_GB_per_s, 1.0_us, 0, 1.0};
    return check(c);
}();

constexpr serving_setup setup(std::int64_t tp, std::int64_t pp, std::int64_t batch) {
    serving_setup s{};
    s.batch = batch;
    s.parallel.tensor = tp;
    s.parallel.pipeline = pp;
    return s;
}

// One GPU: roofline's decode exactly, nothing communicated.
constexpr parallel_decode_estimate alone = decode_step_time(model, node, setup(1, 1, 16));
static_assert(alone.time_per_token == decode(model, cat::h100_sxm, setup(1, 1, 16)).time_per_token,
              "TP = PP = 1 is roofline's decode");
static_assert(alone.communication_time == 0.0_s, "one GPU communicates nothing");
static_assert(alone.regime == communication_regime::none, "no all-reduce");

// TP = 4, batch 1: 64 ring all-reduces of 4,096 bf16 values, 6 µs + 1.5 × 8,192 B ÷ 100 GB/s.
constexpr parallel_decode_estimate tp4 = decode_step_time(model, node, setup(4, 1, 1));
static_assert(tp4.all_reduces == 64, "2 per layer");
static_assert(approx_equal(tp4.tensor_comm_time, 64.0 * (6.0_us + 1.5 * (8192.0_B / 100.0_GB_per_s))),
              "2(n-1)α + 2(n-1)/n S/B per all-reduce");
static_assert(tp4.regime == communication_regime::latency, "16 KiB is latency-bound");
static_assert(tp4.time_per_token == tp4.roofline_time + tp4.tensor_comm_time, "no pipeline");

// PP = 2, batch 5: m = 2 micro-batches of 3 by default; prefill waits L + (m - 1) × stage.
constexpr parallel_decode_estimate pp2 = decode_step_time(model, node, setup(2, 2, 5));
static_assert(pp2.micro_batches == 2 && pp2.micro_batch == 3, "min(PP, batch), ceil");
static_assert(pp2.hops_within_node == 1 && pp2.hops_across_nodes == 0, "one node");
constexpr parallel_prefill_estimate pre = prefill_time(model, node, setup(2, 2, 5));
static_assert(pre.time_to_first_token == pre.pass_time + pre.stage_time, "GPipe forward");
static_assert(to_string(serving_limiter::memory) == "memory", "names");
}  // namespace
