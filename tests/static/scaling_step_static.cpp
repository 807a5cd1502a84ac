// scaling_step_static.cpp: the training step time is usable in constant expressions: a GEMM's
// waves worked by hand, and a whole step of Llama-2-70B on a cluster checked at compile time,
// its terms summing to the step and its bubble equal to (p - 1)/(v m).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/scaling/step.hpp>

namespace {
using namespace gpucalc;
namespace cat = gpucalc::catalog;

// 1 SM, 128 × 128 tiles: C[130 × 128] runs 2 waves of a full 128·128·64 tile (NVIDIA, Matrix
// Multiplication Background User's Guide §3.1–3.2); exact binary values at 2^20 FLOP/s.
constexpr detail::gemm_machine one_sm{1048576.0, 1e30, 1.0, 128.0, 128.0, 2.0};
static_assert(detail::gemm_seconds(one_sm, 130.0, 128.0, 64.0) == 4.0, "2 x 2^21 FLOPs / 2^20");
static_assert(detail::ceil_whole(2.0) == 2.0 && detail::ceil_whole(2.5) == 3.0, "ceil");

constexpr cluster four_nodes = [] {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 4;
    c.inter_node = cat::infiniband_ndr;
    return c;
}();
constexpr checked_cluster checked_nodes = check(four_nodes);
constexpr checked_model llama = check(cat::llama_2_70b);

constexpr training_job job = [] {
    training_job j{};
    j.sequence = 4096;
    j.global_batch = 64;
    return j;
}();
constexpr training_strategy strategy = [] {
    training_strategy s{};
    s.parallel.tensor = 8;
    s.parallel.pipeline = 4;
    s.parallel.sequence_parallel = true;
    s.parallel.zero_stage = 1;
    s.recompute = recompute::selective;
    return s;
}();

constexpr training_step step = training_step_time(llama, checked_nodes, job, strategy);
static_assert(step.microbatches == 64, "64 / (1 x 1)");
static_assert(approx_equal(step.bubble_fraction, 3.0 / 64.0), "(p - 1)/(v m)");
static_assert(approx_equal(step.time, step.compute + step.recompute + step.tensor_comm +
                                          step.pipeline_comm + step.expert_comm +
                                          step.context_comm + step.data_comm + step.bubble +
                                          step.optimizer),
              "the terms sum to the step");
static_assert(step.mfu > 0.0 && step.mfu < 1.0 && step.hfu > step.mfu, "utilizations");
static_assert(step.memory_fit.ok, "fits on 80 GB");
static_assert(step.gpus == 32 && scaling_efficiency(step, step) == 1.0, "against itself");
}  // namespace
