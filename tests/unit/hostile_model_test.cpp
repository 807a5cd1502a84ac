// hostile_model_test.cpp: the model, parallelism and workload rules under hostile input
// (issue 13). Every field has a stated range, and input outside it is invalid_input naming the
// function the user called and the member path the user wrote; inside it, every count gpucalc
// forms is an exact integer below 2^53, never a wrapped one.
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/parallelism.hpp>
#include <gpucalc/parallelism/costs.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;
constexpr std::int64_t two_to_62 = std::int64_t{1} << 62;
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
}  // namespace

TEST_CASE("max_context has an upper bound, and GPT-3's position table counts against 2^53") {
    transformer gpt3 = cat::gpt3_175b;
    gpt3.max_context = int64_max;  // wrapped vocab + max_context to 174.6 B parameters
    CHECK_THROWS_WITH_AS(parameter_count(gpt3),
                         "parameter_count: max_context = 9.22337203685478e+18 must be <= 2^40",
                         invalid_input);
    // 2^40 rows of a learned table 12,288 wide are 1.35e16 parameters: past 2^53.
    gpt3.max_context = two_to_40;
    CHECK_THROWS_WITH_AS(parameter_count(gpt3),
                         "parameter_count: parameter count = 1.3510973461205e+16 must stay below "
                         "2^53, where counts stop being exact",
                         invalid_input);
    // Rotary positions have no table: the same context on Llama-2-7B adds no parameter.
    transformer llama = cat::llama_2_7b;
    llama.max_context = two_to_40;
    CHECK(parameter_count(llama).total == 6738415616LL);
}

TEST_CASE("a LoRA rank that would pass 2^53 adapter parameters is a broken rule, not a wrap") {
    CHECK_THROWS_WITH_AS(lora_parameter_count(cat::llama_2_7b, {two_to_40, lora_all_linear}),
                         "lora_parameter_count: adapter.rank = 1099511627776 gives "
                         "2.747195772696e+18 adapter parameters; they must stay below 2^53, "
                         "where counts stop being exact",
                         invalid_input);
    // The largest rank that stays exact is accepted: 2^53 ÷ (32 layers × 78,080 widths),
    // rounded down, on all linear layers of Llama-2-7B.
    const std::int64_t widths = 4 * 8192 + 3 * (4096 + 11008);
    const std::int64_t largest_rank = (std::int64_t{1} << 53) / (32 * widths);
    CHECK(lora_parameter_count(cat::llama_2_7b, {largest_rank, lora_all_linear}) ==
          largest_rank * 32 * widths);
    CHECK_THROWS_AS(lora_parameter_count(cat::llama_2_7b, {largest_rank + 1, lora_all_linear}),
                    invalid_input);
}

TEST_CASE("experts are capped, and the router and biases count against 2^53") {
    transformer moe = cat::mixtral_8x7b;
    moe.experts = std::int64_t{1} << 41;
    CHECK_THROWS_WITH_AS(parameter_count(moe),
                         "parameter_count: experts = 2199023255552 must be <= 2^40", invalid_input);
    // One layer, 2^31 experts of one-wide gated MLPs over a 2^20-wide stream: the experts'
    // matrices are 3 × 2^51 parameters, below 2^53, and the router's h × E = 2^51 more takes
    // the model past it. (The old bound left the router out and accepted this model.)
    transformer wide{};
    wide.layers = 1;
    wide.hidden = std::int64_t{1} << 20;
    wide.heads = 1;
    wide.ffn_hidden = 1;
    wide.vocab = 1;
    wide.experts = std::int64_t{1} << 31;
    wide.experts_per_token = 1;
    CHECK_THROWS_WITH_AS((void)check(wide),
                         "check(transformer): parameter count = 9.01159730649498e+15 must stay "
                         "below 2^53, where counts stop being exact",
                         invalid_input);
    wide.experts = std::int64_t{1} << 30;
    const parameter_counts c = parameter_count(wide);
    CHECK(c.router == (std::int64_t{1} << 50));
    CHECK(c.total == c.embedding + c.attention + c.mlp + c.router + c.norms + c.lm_head);
    // Biases count too: at 1.8e9 experts the model is 7.55e15 parameters without biases and
    // 9.44e15 with them (each expert's biases add h + 2).
    wide.experts = 1800000000;
    CHECK(parameter_count(wide).total == 7554145251753984LL);
    wide.linear_biases = true;
    CHECK_THROWS_WITH_AS(parameter_count(wide),
                         "parameter_count: parameter count = 9.44158565594829e+15 must stay "
                         "below 2^53, where counts stop being exact",
                         invalid_input);
}

TEST_CASE("q_width_of and kv_width_of check the fields they multiply") {
    transformer m = cat::llama_3_8b;
    m.heads = two_to_62;  // heads × head_dim wrapped
    CHECK_THROWS_WITH_AS(q_width_of(m), "q_width_of: heads = 4.61168601842739e+18 must be <= 2^40",
                         invalid_input);
    m.heads = two_to_40;
    m.head_dim = two_to_40;
    CHECK_THROWS_WITH_AS(q_width_of(m),
                         "q_width_of: heads x head_dim = 1.20892581961463e+24 must stay below "
                         "2^53, where counts stop being exact",
                         invalid_input);
    m.kv_heads = -1;
    CHECK_THROWS_WITH_AS(kv_width_of(m),
                         "kv_width_of: kv_heads = -1 must be >= 0 (0 means kv_heads = heads)",
                         invalid_input);
    CHECK(q_width_of(cat::llama_3_8b) == 4096);
    CHECK(kv_width_of(cat::llama_3_8b) == 1024);
}

TEST_CASE("a transformer's enum values outside their enumerators are invalid_input") {
    transformer m = cat::llama_2_7b;
    m.mlp = static_cast<mlp_kind>(2);
    CHECK_THROWS_WITH_AS((void)check(m), "check(transformer): mlp = 2 must be a mlp_kind value",
                         invalid_input);
    m = cat::llama_2_7b;
    m.norm = static_cast<norm_kind>(5);
    CHECK_THROWS_WITH_AS(forward_flops_per_token(m, 1),
                         "forward_flops_per_token: norm = 5 must be a norm_kind value",
                         invalid_input);
    m = cat::llama_2_7b;
    m.positions = static_cast<position_kind>(-1);
    CHECK_THROWS_WITH_AS(parameter_count(m),
                         "parameter_count: positions = -1 must be a position_kind value",
                         invalid_input);
    CHECK(to_string(static_cast<mlp_kind>(2)) == "unknown");
    CHECK_THROWS_WITH_AS(training_flops_per_token(cat::llama_2_7b, 2048, static_cast<recompute>(3)),
                         "training_flops_per_token: policy = 3 must be a recompute value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(attention_pairs(cat::llama_2_7b, 1, 1, static_cast<pair_count>(2)),
                         "attention_pairs: counted = 2 must be a pair_count value", invalid_input);
    CHECK(to_string(static_cast<pair_count>(9)) == "unknown");
}

TEST_CASE("model functions name themselves and keep their results finite") {
    // training_flops_per_token once reported forward_flops_per_token's context.
    CHECK_THROWS_WITH_AS(training_flops_per_token(cat::llama_2_7b, 0),
                         "training_flops_per_token: sequence = 0 must be >= 1", invalid_input);
    // 6 × DBL_MAX parameters overflowed to inf FLOPs.
    CHECK_THROWS_WITH_AS(kaplan_training_flops(std::numeric_limits<double>::max(), 1.0_T_tokens),
                         "kaplan_training_flops: parameters = 1.79769313486232e+308 must be in "
                         "[1, 2^53]",
                         invalid_input);
    // The closed forms at every count's largest are finite.
    CHECK(std::isfinite(megatron_parameter_count(two_to_40, two_to_40, two_to_40, two_to_40)));
    CHECK(std::isfinite(in<flops>(
        megatron_flops_per_iteration(two_to_40, two_to_40, two_to_40, two_to_40, two_to_40))));
}

TEST_CASE("inside a training job, the LoRA rules name the job's member path") {
    training_job job{};
    job.lora.enabled = true;
    job.lora.adapter = {two_to_40, lora_all_linear};
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, training_strategy{}),
                         "training_memory_per_gpu: lora.adapter.rank = 1099511627776 gives "
                         "2.747195772696e+18 adapter parameters; they must stay below 2^53, "
                         "where counts stop being exact",
                         invalid_input);
    job.lora.adapter = {8, 1U << 9};
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, training_strategy{}),
                         "training_memory_per_gpu: lora.adapter.targets = 512 must be a "
                         "non-empty set of lora_target bits",
                         invalid_input);
}

TEST_CASE("layout products are checked after their factors, never formed before") {
    training_strategy huge{};
    huge.parallel.tensor = two_to_62;
    huge.parallel.pipeline = 4;  // tensor × pipeline wrapped before anything was checked
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, training_job{}, huge),
                         "training_memory_per_gpu: parallel.tensor = 4.61168601842739e+18 must "
                         "be <= 2^40",
                         invalid_input);
    // Each factor in range, the product not.
    training_strategy wide{};
    wide.parallel.tensor = 4;
    wide.parallel.data = two_to_40;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, training_job{}, wide),
                         "training_memory_per_gpu: parallel.tensor x parallel.pipeline x "
                         "parallel.context_parallel x parallel.data = 4398046511104 must be <= "
                         "2^40",
                         invalid_input);
    // gpus_of checks what it multiplies, naming the member path.
    parallel_layout layout{};
    layout.tensor = two_to_62;
    layout.pipeline = 4;
    CHECK_THROWS_WITH_AS(gpus_of(layout),
                         "gpus_of: layout.tensor = 4.61168601842739e+18 must be <= 2^40",
                         invalid_input);
    layout.tensor = two_to_40;
    CHECK_THROWS_WITH_AS(gpus_of(layout),
                         "gpus_of: layout.tensor x layout.pipeline x layout.context_parallel x "
                         "layout.data = 4398046511104 must be <= 2^40",
                         invalid_input);
    CHECK_THROWS_WITH_AS(gpus_of(wide),
                         "gpus_of: parallel.tensor x parallel.pipeline x "
                         "parallel.context_parallel x parallel.data = 4398046511104 must be <= "
                         "2^40",
                         invalid_input);
    layout.tensor = 8;
    CHECK(gpus_of(layout) == 32);
}

TEST_CASE("kv_block_tokens has an upper bound") {
    serving_setup s{};
    s.kv_block_tokens = two_to_62;  // rounded every sequence up to 2^62 tokens, and wrapped
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: kv_block_tokens = 4.61168601842739e+18 must "
                         "be <= 2^40",
                         invalid_input);
    s.kv_block_tokens = -16;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: kv_block_tokens = -16 must be >= 0 (0 means "
                         "no paging)",
                         invalid_input);
}

TEST_CASE("a setup's, a job's and a strategy's enums and formats are checked under the caller") {
    transformer m = cat::llama_2_7b;
    m.norm = static_cast<norm_kind>(5);
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(m, serving_setup{}),
                         "inference_memory_per_gpu: norm = 5 must be a norm_kind value",
                         invalid_input);
    training_strategy s{};
    s.recompute = static_cast<recompute>(7);
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, training_job{}, s),
                         "training_memory_per_gpu: recompute = 7 must be a recompute value",
                         invalid_input);
    pass_shape pass{};
    pass.counted = static_cast<pair_count>(9);
    CHECK_THROWS_WITH_AS(layer_cost_of(cat::llama_2_7b, parallel_layout{}, pass),
                         "layer_cost_of: pass.counted = 9 must be a pair_count value",
                         invalid_input);
    training_job job{};
    job.optimizer = static_cast<optimizer>(4);  // was 0 bytes of optimizer state
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, training_strategy{}),
                         "training_memory_per_gpu: optimizer = 4 must be a gpucalc::optimizer "
                         "value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(zero_stage_of(static_cast<fsdp>(1)),
                         "zero_stage_of: strategy = 1 must be a fsdp value: no_shard (0), "
                         "shard_grad_op (2) or full_shard (3)",
                         invalid_input);
    CHECK(zero_stage_of(fsdp::full_shard) == 3);

    // Storage formats, under the caller's name and the member path.
    serving_setup serve{};
    serve.weights.element = static_cast<number_format>(12);
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, serve),
                         "inference_memory_per_gpu: weights.element = 12 must be a number_format "
                         "value",
                         invalid_input);
    job = training_job{};
    job.gradients.block_size = -1;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, training_strategy{}),
                         "training_memory_per_gpu: gradients.block_size = -1 must be >= 0 (0 "
                         "means no block scale)",
                         invalid_input);
    job.gradients.block_size = two_to_62;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, training_strategy{}),
                         "training_memory_per_gpu: gradients.block_size = 4.61168601842739e+18 "
                         "must be <= 2^40",
                         invalid_input);
    cost_formats formats{};
    formats.activations.scale_block_size = 4;  // a second-level block with no first
    CHECK_THROWS_WITH_AS(stage_cost_of(cat::llama_2_7b, {}, pass_shape{}, 0, formats),
                         "stage_cost_of: formats.activations.scale_block_size = 4 needs "
                         "block_size > 0: there are no scales to scale",
                         invalid_input);
}

TEST_CASE("a layout passed on its own reads layout.; tensor_parallel_allowed checks its model") {
    parallel_layout interleaved{};
    interleaved.interleave = 2;
    CHECK_THROWS_WITH_AS(layer_cost_of(cat::llama_2_7b, interleaved, pass_shape{}),
                         "layer_cost_of: layout.interleave = 2 needs layout.pipeline > 1",
                         invalid_input);
    // Inside a strategy the same rule reads parallel.
    training_strategy s{};
    s.parallel.interleave = 2;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, training_job{}, s),
                         "training_memory_per_gpu: parallel.interleave = 2 needs "
                         "parallel.pipeline > 1",
                         invalid_input);
    transformer bad = cat::llama_2_7b;
    bad.heads = 0;
    CHECK_THROWS_WITH_AS(tensor_parallel_allowed(bad, 2),
                         "tensor_parallel_allowed: heads = 0 must be >= 1", invalid_input);
    CHECK_FALSE(tensor_parallel_allowed(cat::llama_2_7b, two_to_62));
    CHECK_FALSE(tensor_parallel_allowed(cat::llama_2_7b, -4));
    CHECK(tensor_parallel_allowed(cat::llama_2_70b, 16));  // 8 KV heads, replicated
}
