// scaling_search_test.cpp: the reference of a scaling efficiency (smallest_fitting_step): a
// small model fits on 1 GPU; Llama-2-70B needs 16 H100s by its model states, worked by hand;
// the explicit "no" when nothing fits; and properties: no count below the one found fits, the
// layout found is the fastest fitting one there, the efficiency at the reference itself is 1,
// the counts tried follow the documented order, bad input names its field.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/scaling/step_search.hpp>

#include <doctest/doctest.h>

#include "step_fixtures.hpp"

#include <cstdint>
#include <functional>
#include <string>

using namespace gpucalc;
namespace cat = gpucalc::catalog;
using step_fixtures::h100_nodes;
using step_fixtures::job_of;
using step_fixtures::tiny;

namespace {

/// Whether any layout the search may choose fits on exactly `gpus` GPUs (brute force over
/// every TP dividing the node and every PP dividing the layers).
bool any_fits(const checked_model& m, const cluster& pod, const training_job& job,
              const training_strategy& s, std::int64_t gpus) {
    cluster part = pod;
    part.nodes = static_cast<std::int64_t>(gpus <= 8 ? 1 : gpus / 8);
    const checked_cluster c = check(part);
    for (std::int64_t tp = 1; tp <= 8; ++tp) {
        for (std::int64_t pp = 1; pp <= m.spec().layers; ++pp) {
            if (8 % tp != 0 || m.spec().layers % pp != 0 || gpus % (tp * pp) != 0) continue;
            if (!tensor_parallel_allowed(m, tp)) continue;
            training_strategy t = s;
            t.parallel.tensor = tp;
            t.parallel.pipeline = pp;
            t.parallel.data = gpus / (tp * pp);
            if (job.global_batch % (t.micro_batch * t.parallel.data) != 0) continue;
            if (training_step_time(m, c, job, t).memory_fit.ok) return true;
        }
    }
    return false;
}

std::string message_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a model that fits on one GPU: the reference is 1 GPU, TP 1, PP 1, DP 1") {
    // GPT 1.7B: 16 bytes of model state a parameter (bf16 weights and gradients, fp32 master
    // copy and two AdamW moments) = 16 × 1.7e9 ≈ 27 GB, well under an H100's 80 GiB.
    const checked_model m = check(cat::megatron_1_7b);
    const fitting_step r = smallest_fitting_step(m, check(h100_nodes(4)), job_of(2048, 64),
                                                 training_strategy{});
    REQUIRE(r.found);
    CHECK(r.gpus == 1);
    CHECK(r.nodes == 1);
    CHECK(r.largest_gpus_tried == 1);
    CHECK(r.layouts_tried == 1);
    CHECK(r.strategy.parallel.tensor == 1);
    CHECK(r.strategy.parallel.pipeline == 1);
    CHECK(r.strategy.parallel.data == 1);
    CHECK(r.step.gpus == 1);
    CHECK(r.step.memory_fit.ok);
    CHECK(scaling_efficiency(r.step, r) == doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("Llama-2-70B needs 16 H100s: 8 cannot hold its model states") {
    const checked_model m = check(cat::llama_2_70b);
    const double params = static_cast<double>(m.parameters().total);
    // By hand: without ZeRO sharding to help (DP 1 wherever it binds), each parameter keeps
    // 2 (bf16 weight) + 2 (bf16 gradient) + 4 (fp32 master) + 8 (two fp32 moments) = 16 bytes.
    // Spread over 8 GPUs: 16 × 69.0e9 ÷ 8 = 138 GB a GPU, above 80 GiB = 85.9 GB, whatever the
    // layout (TP and PP only split the parameters; DP > 1 would replicate them, ZeRO-1 shards
    // only the 12 optimizer bytes: 4 × 69e9 ÷ 8 = 34.5 GB + 12 × 69e9 ÷ 8 > 85.9 GB too).
    const double per_gpu_at_8 = 16.0 * params / 8.0;
    CHECK(per_gpu_at_8 > cat::h100_sxm.memory.value());
    // Over 16: 16 × 69.0e9 ÷ 16 = 69 GB of model states, leaving about 17 GB for activations
    // and the runtime: TP 8 × PP 2 with selective recompute and one 4,096-token micro-batch fits.
    const double per_gpu_at_16 = 16.0 * params / 16.0;
    CHECK(per_gpu_at_16 < cat::h100_sxm.memory.value());

    training_strategy s{};
    s.parallel.sequence_parallel = true;
    s.parallel.zero_stage = 1;
    s.recompute = recompute::selective;
    const cluster pod = h100_nodes(16);
    const training_job job = job_of(4096, 512);
    const fitting_step r = smallest_fitting_step(m, check(pod), job, s);
    REQUIRE(r.found);
    CHECK(r.gpus == 16);
    CHECK(r.nodes == 2);
    CHECK(r.step.memory_fit.ok);
    CHECK(r.step.gpus == 16);
    CHECK(r.strategy.parallel.tensor * r.strategy.parallel.pipeline * r.strategy.parallel.data ==
          16);
    CHECK(r.strategy.parallel.zero_stage == 1);
    CHECK(r.strategy.recompute == recompute::selective);
    CHECK(r.strategy.micro_batch == 1);

    // No count below fits (brute force), and nothing at 16 that fits is faster.
    for (std::int64_t n : {1, 2, 4, 8}) CHECK_FALSE(any_fits(m, pod, job, s, n));
    cluster two = pod;
    two.nodes = 2;
    const checked_cluster c2 = check(two);
    for (std::int64_t tp : {1, 2, 4, 8}) {
        for (std::int64_t pp : {1, 2, 4, 8, 16}) {
            if (16 % (tp * pp) != 0) continue;
            training_strategy t = s;
            t.parallel.tensor = tp;
            t.parallel.pipeline = pp;
            t.parallel.data = 16 / (tp * pp);
            const training_step step = training_step_time(m, c2, job, t);
            if (step.memory_fit.ok) CHECK(step.time >= r.step.time);
        }
    }
    // The property: the reference's efficiency against itself is 1.
    CHECK(scaling_efficiency(r.step, r) == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(scaling_efficiency(training_step_time(m, c2, job, r.strategy), r) ==
          doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("nothing fits: found is false, an answer, and the cap is the whole cluster") {
    // Llama-2-70B on one 8-GPU node: 138 GB of model states a GPU at best (above).
    const fitting_step r = smallest_fitting_step(cat::llama_2_70b, h100_nodes(1),
                                                 job_of(4096, 512), training_strategy{});
    CHECK_FALSE(r.found);
    CHECK(r.gpus == 0);
    CHECK(r.largest_gpus_tried == 8);
    CHECK(r.layouts_tried > 0);
    // Without a reference there is no efficiency: invalid_input naming the field.
    const std::string e = message_of([&] { (void)scaling_efficiency(training_step{}, r); });
    CHECK(e.find("scaling_efficiency: reference.found") != std::string::npos);
}

TEST_CASE("the counts tried: powers of two in a node, whole nodes doubling, the whole cluster") {
    CHECK(detail::next_search_count(1, 8, 96) == 2);
    CHECK(detail::next_search_count(4, 8, 96) == 8);
    CHECK(detail::next_search_count(8, 8, 96) == 16);
    CHECK(detail::next_search_count(64, 8, 96) == 96);
    CHECK(detail::next_search_count(96, 8, 96) == 0);
    CHECK(detail::next_search_count(4, 6, 24) == 6);  // a 6-GPU node: 1, 2, 4, 6, 12, 24
    CHECK(detail::next_search_count(6, 6, 24) == 12);
    CHECK(detail::next_search_count(2, 8, 4) == 4);   // a cluster smaller than a node
    CHECK(detail::next_search_count(4, 8, 4) == 0);
}

TEST_CASE("the global batch stays the job's: a layout it does not divide is skipped") {
    // GPT 1.7B on 2 GPUs only when it must: with a global batch of 1 and a template that fits
    // on 1 GPU, DP 2 would need 2 sequences, so the 1-GPU layout is the only one tried.
    const fitting_step r = smallest_fitting_step(cat::megatron_1_7b, h100_nodes(1),
                                                 job_of(2048, 1), training_strategy{});
    REQUIRE(r.found);
    CHECK(r.gpus == 1);
    CHECK(r.step.microbatches == 1);
}

TEST_CASE("a constexpr search on a tiny model") {
    constexpr fitting_step r = [] {
        training_job j{};
        j.sequence = 512;
        j.global_batch = 8;
        cluster c{};
        c.node.gpu = cat::h100_sxm;
        c.inter_node = cat::infiniband_ndr;
        return smallest_fitting_step(tiny, c, j, training_strategy{});
    }();
    static_assert(r.found && r.gpus == 1, "a tiny model fits on one GPU");
    CHECK(r.step.time.value() > 0.0);
}

TEST_CASE("bad input names its field") {
    const cluster pod = h100_nodes(2);
    SUBCASE("an unstated global batch") {
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::megatron_1_7b, pod, job_of(2048, 0), {}); });
        CHECK(e.rfind("smallest_fitting_step: job.global_batch = 0 must be stated", 0) == 0);
    }
    SUBCASE("a micro-batch of 0") {
        training_strategy s{};
        s.micro_batch = 0;
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::megatron_1_7b, pod, job_of(2048, 8), s); });
        CHECK(e.rfind("smallest_fitting_step: strategy.micro_batch = 0", 0) == 0);
    }
    SUBCASE("a micro-batch above the global batch: an error, not \"nothing fits\"") {
        training_strategy s{};
        s.micro_batch = 16;
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::megatron_1_7b, pod, job_of(2048, 8), s); });
        CHECK(e == "smallest_fitting_step: strategy.micro_batch = 16 must not exceed "
                   "job.global_batch = 8");
    }
    SUBCASE("a sequence of 0 names the job's field") {
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::megatron_1_7b, pod, job_of(0, 8), {}); });
        CHECK(e.rfind("smallest_fitting_step: job.sequence = 0", 0) == 0);
    }
    SUBCASE("CP that does not divide the sequence") {
        training_strategy s{};
        s.parallel.context_parallel = 3;
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::megatron_1_7b, pod, job_of(2048, 8), s); });
        CHECK(e.find("context_parallel = 3") != std::string::npos);
    }
    SUBCASE("EP that does not divide the experts") {
        training_strategy s{};
        s.parallel.expert = 3;
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::mixtral_8x7b, pod, job_of(4096, 8), s); });
        CHECK(e.find("expert") != std::string::npos);
    }
    SUBCASE("a bad cluster") {
        cluster c = pod;
        c.nodes = 0;
        const std::string e = message_of(
            [&] { (void)smallest_fitting_step(cat::megatron_1_7b, c, job_of(2048, 8), {}); });
        CHECK(e.rfind("smallest_fitting_step: ", 0) == 0);
        CHECK(e.find("nodes") != std::string::npos);
    }
    SUBCASE("an assumption out of range") {
        step_assumptions a{};
        a.gemm_efficiency = 2.0;
        const std::string e = message_of([&] {
            (void)smallest_fitting_step(cat::megatron_1_7b, pod, job_of(2048, 8), {}, a);
        });
        CHECK(e.find("assumptions.gemm_efficiency") != std::string::npos);
    }
}

TEST_CASE("the template's context parallelism is kept: every layout tried has it") {
    // The 1.7B model with CP 2 on two H100 nodes: it fits on one GPU without CP, so with CP 2
    // the smallest count that can hold a CP pair, 2 GPUs, is the reference, its layout CP 2.
    training_strategy s{};
    s.parallel.context_parallel = 2;
    const fitting_step r = smallest_fitting_step(cat::megatron_1_7b, h100_nodes(2), job_of(2048, 8), s);
    REQUIRE(r.found);
    CHECK(r.gpus == 2);
    CHECK(r.strategy.parallel.context_parallel == 2);
    CHECK(r.strategy.parallel.tensor * r.strategy.parallel.pipeline *
              r.strategy.parallel.context_parallel * r.strategy.parallel.data ==
          r.gpus);
}
