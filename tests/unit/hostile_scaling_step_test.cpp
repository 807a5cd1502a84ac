// hostile_scaling_step_test.cpp: every input training_step_time refuses (issue 15 §4 and the
// assumptions' ranges) is invalid_input naming the function, the field and the rule; what is
// not modelled yet (LoRA, offload) says so.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/scaling/step.hpp>

#include <doctest/doctest.h>

#include "step_fixtures.hpp"

#include <cstdint>
#include <limits>
#include <string>

using namespace gpucalc;
namespace cat = gpucalc::catalog;
using step_fixtures::job_of;
const auto& nodes_of = step_fixtures::h100_nodes;

namespace {
/// The message of the invalid_input the call throws, or "" when it does not throw.
template <class Call>
std::string message_of(Call call) {
    try {
        call();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return "";
}

bool mentions(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("issue 15 section 4: each bad input names its field") {
    const checked_model m = check(cat::llama_2_70b);
    const checked_cluster c = check(nodes_of(8));
    training_strategy s{};
    s.parallel.tensor = 8;
    s.parallel.pipeline = 4;
    s.parallel.data = 2;

    SUBCASE("an unstated global batch") {
        const std::string e = message_of([&] { training_step_time(m, c, job_of(4096, 0), s); });
        CHECK(e == "training_step_time: job.global_batch = 0 must be stated (>= 1): a step time "
                   "needs the micro-batches per step");
    }
    SUBCASE("a global batch that is not a multiple of micro-batch x DP") {
        s.micro_batch = 2;
        const std::string e = message_of([&] { training_step_time(m, c, job_of(4096, 6), s); });
        CHECK(mentions(e, "training_step_time: job.global_batch = 6"));
        CHECK(mentions(e, "must be a multiple of strategy.micro_batch x strategy.parallel.data = 4"));
    }
    SUBCASE("a micro-batch above the global batch") {
        s.micro_batch = 16;
        const std::string e = message_of([&] { training_step_time(m, c, job_of(4096, 8), s); });
        CHECK(e == "training_step_time: strategy.micro_batch = 16 must not exceed "
                   "job.global_batch = 8");
    }
    SUBCASE("PP larger than the layers") {
        s.parallel.pipeline = 81;
        s.parallel.tensor = 1;
        s.parallel.data = 1;
        const std::string e = message_of([&] { training_step_time(m, c, job_of(4096, 8), s); });
        CHECK(e == "training_step_time: strategy.parallel.pipeline = 81 must not exceed "
                   "layers = 80");
    }
    SUBCASE("EP that does not divide the experts") {
        const checked_model moe = check(cat::mixtral_8x7b);
        s.parallel.pipeline = 1;
        s.parallel.data = 6;
        s.parallel.expert = 3;
        const std::string e =
            message_of([&] { training_step_time(moe, c, job_of(4096, 6), s); });
        CHECK(e == "training_step_time: strategy.parallel.expert = 3 must divide experts = 8");
    }
    SUBCASE("CP that does not divide the sequence") {
        s.parallel.context_parallel = 3;
        s.parallel.data = 1;
        const std::string e = message_of([&] { training_step_time(m, c, job_of(4096, 8), s); });
        CHECK(e == "training_step_time: strategy.parallel.context_parallel = 3 must divide "
                   "sequence = 4096");
    }
    SUBCASE("a CP or GEMM-epilogue overlap outside [0, 1]") {
        step_assumptions a{};
        a.context_comm_overlap = 1.5;
        const std::string e =
            message_of([&] { training_step_time(m, c, job_of(4096, 8), s, a); });
        CHECK(mentions(e, "training_step_time: assumptions.context_comm_overlap = 1.5 must be "
                          "in [0, 1]"));
        a.context_comm_overlap = 1.0;
        a.gemm_epilogue_overlap = -0.25;
        const std::string e2 =
            message_of([&] { training_step_time(m, c, job_of(4096, 8), s, a); });
        CHECK(mentions(e2, "training_step_time: assumptions.gemm_epilogue_overlap = -0.25 must "
                           "be in [0, 1]"));
    }
    SUBCASE("a layout larger than the cluster") {
        s.parallel.data = 4;
        const std::string e = message_of([&] { training_step_time(m, c, job_of(4096, 8), s); });
        CHECK(mentions(e, "training_step_time: strategy.parallel (tensor x pipeline x "
                          "context_parallel x data) = 128 must not exceed the cluster's GPUs = 64"));
    }
    SUBCASE("TP across nodes when the policy forbids it, allowed when it does not") {
        const checked_model gpt = check(cat::gpt3_175b);
        s.parallel.tensor = 16;
        s.parallel.pipeline = 1;
        s.parallel.data = 1;
        const std::string e =
            message_of([&] { training_step_time(gpt, c, job_of(2048, 8), s); });
        CHECK(mentions(e, "training_step_time: strategy.parallel.tensor = 16 must divide "
                          "node.gpus_per_node = 8"));
        step_assumptions a{};
        a.allow_tensor_parallel_across_nodes = true;
        const training_step r = training_step_time(gpt, c, job_of(2048, 8), s, a);
        CHECK(r.tensor_comm > duration{});
    }
}

TEST_CASE("the assumptions' ranges, and what is not modelled yet") {
    const checked_model m = check(cat::llama_2_7b);
    const checked_cluster c = check(nodes_of(1));
    const training_job job = job_of(2048, 8);
    const auto with = [&](step_assumptions a) {
        return message_of([&] { training_step_time(m, c, job, training_strategy{}, a); });
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    step_assumptions a{};
    a.gemm_efficiency = 0.0;
    CHECK(mentions(with(a), "training_step_time: assumptions.gemm_efficiency = 0"));
    a = {};
    a.memory_efficiency = 1.5;
    CHECK(mentions(with(a), "assumptions.memory_efficiency"));
    a = {};
    a.attention_forward_efficiency = nan;
    CHECK(mentions(with(a), "assumptions.attention_forward_efficiency"));
    a = {};
    a.attention_backward_efficiency = -1.0;
    CHECK(mentions(with(a), "assumptions.attention_backward_efficiency"));
    a = {};
    a.tensor_comm_overlap = 1.01;
    CHECK(with(a) == "training_step_time: assumptions.tensor_comm_overlap = 1.01 must be in [0, 1]");
    a = {};
    a.pipeline_comm_overlap = -0.1;
    CHECK(mentions(with(a), "assumptions.pipeline_comm_overlap"));
    a = {};
    a.expert_comm_overlap = nan;
    CHECK(mentions(with(a), "assumptions.expert_comm_overlap"));
    a = {};
    a.data_parallel_overlap = 2.0;
    CHECK(mentions(with(a), "assumptions.data_parallel_overlap"));
    a = {};
    a.parameter_gather_overlap = -1.0;
    CHECK(mentions(with(a), "assumptions.parameter_gather_overlap"));
    a = {};
    a.gemm_tile_rows = 0;
    CHECK(with(a) == "training_step_time: assumptions.gemm_tile_rows = 0 must be in [1, 2^20]");
    a = {};
    a.gemm_tile_columns = -4;
    CHECK(mentions(with(a), "assumptions.gemm_tile_columns = -4"));
    a = {};
    a.bucket_bytes = make<bytes>(0.0);
    CHECK(mentions(with(a), "assumptions.bucket_bytes"));
    a = {};
    a.loss_forward_bytes_per_logit = -1.0;
    CHECK(with(a) ==
          "training_step_time: assumptions.loss_forward_bytes_per_logit = -1 must be in [0, 1024]");
    a = {};
    a.loss_backward_bytes_per_logit = nan;
    CHECK(mentions(with(a), "assumptions.loss_backward_bytes_per_logit = nan"));
    a = {};
    a.loss_forward_bytes_per_logit = 1024.5;
    CHECK(mentions(with(a), "assumptions.loss_forward_bytes_per_logit = 1024.5 must be in"));
    a = {};
    a.loss_backward_bytes_per_logit = std::numeric_limits<double>::infinity();
    CHECK(mentions(with(a), "assumptions.loss_backward_bytes_per_logit = inf"));
    a = {};
    a.loss_forward_bytes_per_logit = 0.0;  // the bounds are valid: a loss left out
    a.loss_backward_bytes_per_logit = 1024.0;
    CHECK(with(a).empty());

    training_job lora = job;
    lora.lora.enabled = true;
    CHECK(mentions(message_of([&] { training_step_time(m, c, lora, training_strategy{}); }),
                   "job.lora.enabled = 1 must be false"));
    training_strategy offload{};
    offload.parallel.zero_stage = 3;
    offload.offload_parameters = true;
    CHECK(mentions(message_of([&] { training_step_time(m, c, job, offload); }),
                   "strategy.offload_parameters = 1 must be false"));
}

TEST_CASE("an unchecked model or cluster is checked under training_step_time") {
    transformer bad = cat::llama_2_7b;
    bad.hidden = 0;
    CHECK(mentions(message_of([&] {
                       training_step_time(bad, nodes_of(1), job_of(2048, 8), training_strategy{});
                   }),
                   "training_step_time: hidden = 0"));
    cluster c = nodes_of(1);
    c.nodes = 0;
    CHECK(mentions(message_of([&] {
                       training_step_time(cat::llama_2_7b, c, job_of(2048, 8), training_strategy{});
                   }),
                   "training_step_time: nodes = 0"));
    const training_step ok =
        training_step_time(cat::llama_2_7b, nodes_of(1), job_of(2048, 8), training_strategy{});
    CHECK_THROWS_AS(time_to_train(ok, make<tokens>(0.0)), invalid_input);
    training_step unset{};
    CHECK(message_of([&] { scaling_efficiency(unset, ok); }) ==
          "scaling_efficiency: step.tokens_per_second = 0 tokens/s must be finite and > 0");
    training_step no_gpus = ok;
    no_gpus.gpus = 0;
    CHECK(mentions(message_of([&] { scaling_efficiency(ok, no_gpus); }), "reference.gpus = 0"));
}
