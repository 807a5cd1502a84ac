// model_test.cpp: exact parameter counts of published models, FLOPs per token against the
// papers' closed forms, LoRA sizes, and shape rules.
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cstdint>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

TEST_CASE("exact parameter counts equal the published checkpoint counts") {
    // Derived from the configs catalog/models.hpp cites (HF configs; meta-llama/llama-models
    // sku_list.py for Llama 3); Llama-2-7b-hf's count is also what transformers reports for it.
    CHECK(parameter_count(cat::llama_2_7b).total == 6738415616LL);
    CHECK(parameter_count(cat::llama_2_13b).total == 13015864320LL);
    CHECK(parameter_count(cat::llama_2_70b).total == 68976648192LL);
    CHECK(parameter_count(cat::llama_3_8b).total == 8030261248LL);
    CHECK(parameter_count(cat::llama_3_70b).total == 70553706496LL);
    CHECK(parameter_count(cat::llama_3_1_405b).total == 405853388800LL);
    CHECK(parameter_count(cat::mistral_7b).total == 7241732096LL);
}

TEST_CASE("Mixtral: 46.7B total, 12.9B active (top-2 of 8 experts)") {
    // Derived from HF config mistralai/Mixtral-8x7B-v0.1; Jiang et al. 2024: "47B" total, "13B"
    // active.
    const parameter_counts c = parameter_count(cat::mixtral_8x7b);
    CHECK(c.total == 46702792704LL);
    CHECK(c.active == 12879925248LL);
    CHECK(c.router == 32LL * 4096 * 8);
    // A dense model's active count is its total.
    CHECK(parameter_count(cat::mistral_7b).active == parameter_count(cat::mistral_7b).total);
}

TEST_CASE("the parts add up, and a tied head adds nothing") {
    const parameter_counts c = parameter_count(cat::llama_2_7b);
    CHECK(c.embedding == 32000LL * 4096);
    CHECK(c.lm_head == 32000LL * 4096);
    CHECK(c.embedding + c.attention + c.mlp + c.router + c.norms + c.lm_head == c.total);
    CHECK(c.per_layer * 32 + c.embedding + c.lm_head + 4096 == c.total);
    CHECK(parameter_count(cat::gpt3_175b).lm_head == 0);
}

TEST_CASE("GPT-3 175B: Narayanan Eq. 2 gives 174.6B; the exact count adds the final norm") {
    // Brown et al. 2020 Table 2.1 print 175.0B; Narayanan et al. 2021 Eq. 2 at GPT-3's shape gives
    // 174,604,234,752 (derived), which leaves out the final LayerNorm (2h = 24,576 parameters).
    CHECK(megatron_parameter_count(96, 12288, 50257, 2048) == approx(174604234752.0));
    CHECK(parameter_count(cat::gpt3_175b).total == 174604234752LL + 2 * 12288);
}

TEST_CASE("Megatron-LM scaling study: Table 1 parameter counts, to the printed 0.1B") {
    // Narayanan et al. 2021, Table 1 (billions, one decimal).
    struct row {
        const transformer* model;
        double billions;
    };
    const row rows[] = {{&cat::megatron_1_7b, 1.7},     {&cat::megatron_3_6b, 3.6},
                        {&cat::megatron_7_5b, 7.5},     {&cat::megatron_18_4b, 18.4},
                        {&cat::megatron_39_1b, 39.1},   {&cat::megatron_76_1b, 76.1},
                        {&cat::megatron_145_6b, 145.6}, {&cat::megatron_310_1b, 310.1},
                        {&cat::megatron_529_6b, 529.6}, {&cat::megatron_1008b, 1008.0}};
    for (const row& r : rows) {
        CAPTURE(r.billions);
        const double eq2 = megatron_parameter_count(r.model->layers, r.model->hidden,
                                                    r.model->vocab, r.model->max_context);
        CHECK(eq2 / 1e9 == doctest::Approx(r.billions).epsilon(0.05 / r.billions));
        // The exact count differs from Eq. 2 by the final LayerNorm alone.
        CHECK(static_cast<double>(parameter_count(*r.model).total) ==
              approx(eq2 + 2.0 * static_cast<double>(r.model->hidden)));
    }
}

TEST_CASE("training FLOPs with full recompute reproduce Narayanan Eq. 3 exactly") {
    // Narayanan et al. 2021 Eq. 3: F = 96·B·s·l·h²(1 + s/(6h) + V/(16·l·h)) per iteration.
    // Our hardware FLOPs with full recompute, per token, times B·s must equal it (matmul FLOPs
    // only; biases and norms are not matmuls, and the head is not recomputed).
    for (const transformer* m : {&cat::megatron_1_7b, &cat::megatron_145_6b, &cat::megatron_1008b,
                                 &cat::korthikanti_530b}) {
        CAPTURE(std::string(m->name));
        const std::int64_t batch = 512;
        const std::int64_t s = m->max_context;
        const flop_count eq3 = megatron_flops_per_iteration(batch, s, m->layers, m->hidden, m->vocab);
        const flop_count ours =
            static_cast<double>(batch * s) * training_flops_per_token(*m, s, recompute::full).hardware;
        CHECK(ours == approx(eq3));
    }
}

TEST_CASE("model FLOPs reproduce Korthikanti Eq. 7; 6·N·D is its large-model limit") {
    // Korthikanti et al. 2022 App. A, Eq. 7: model FLOPs per iteration
    // 72·B·L·s·h²(1 + s/(6h) + v/(12·h·L)).
    const transformer& m = cat::korthikanti_175b;
    const double L = 96.0, h = 12288.0, s = 2048.0, v = 51200.0;
    const double eq7_per_token = 72.0 * L * h * h * (1.0 + s / (6.0 * h) + v / (12.0 * h * L));
    CHECK(in<flops>(training_flops_per_token(m, 2048).model) == approx(eq7_per_token));
    // Kaplan et al. 2020: C = 6·N·D. For a 175B model at s = 2,048 the exact count is within
    // a few percent (attention adds s/(6h) = 2.8%).
    const double n = static_cast<double>(parameter_count(m).total);
    const double ratio = in<flops>(training_flops_per_token(m, 2048).model) /
                         in<flops>(kaplan_training_flops(n, 1.0_tokens));
    CHECK(ratio > 1.0);
    CHECK(ratio < 1.05);
}

TEST_CASE("6·N·D reproduces GPT-3's published training compute") {
    // Brown et al. 2020, Table D.1: GPT-3 175B (174.6 B parameters) trained on 300 B tokens
    // took 3.14e23 FLOPs (3,640 PF-days), computed there as 6·N·D.
    CHECK(in<flops>(kaplan_training_flops(174.6e9, 300.0_B_tokens)) ==
          doctest::Approx(3.14e23).epsilon(0.005));
}

TEST_CASE("recompute adds work: none < selective < full") {
    const transformer& m = cat::llama_2_7b;
    const training_flops none = training_flops_per_token(m, 4096, recompute::none);
    const training_flops selective = training_flops_per_token(m, 4096, recompute::selective);
    const training_flops full = training_flops_per_token(m, 4096, recompute::full);
    CHECK(none.hardware == none.model);
    CHECK(selective.model == none.model);
    CHECK(none.hardware < selective.hardware);
    CHECK(selective.hardware < full.hardware);
    // Full recompute is one more forward of the layers: about 4/3 of the model FLOPs.
    CHECK(in<flops>(full.hardware) / in<flops>(full.model) < 4.0 / 3.0);
    CHECK(in<flops>(full.hardware) / in<flops>(full.model) > 1.3);
}

TEST_CASE("decode FLOPs: 2 per active parameter plus attention over the context") {
    // Kaplan et al. 2020 §2.1: forward ≈ 2N + 2·n_layer·n_ctx·d_attn per token.
    const transformer& m = cat::llama_2_7b;
    const forward_flops f = forward_flops_per_token(m, 4096);
    const parameter_counts c = parameter_count(m);
    const double matmul_params = static_cast<double>(c.total - c.embedding - c.norms);
    CHECK(in<flops>(f.layers + f.lm_head) == approx(2.0 * matmul_params));
    CHECK(in<flops>(f.attention) == approx(4.0 * 4096.0 * 4096.0 * 32.0));
    // MoE: only the routed experts count.
    const forward_flops moe = forward_flops_per_token(cat::mixtral_8x7b, 1);
    const parameter_counts mc = parameter_count(cat::mixtral_8x7b);
    CHECK(in<flops>(moe.layers + moe.lm_head) ==
          approx(2.0 * static_cast<double>(mc.active - mc.embedding - mc.norms)));
}

TEST_CASE("a sliding window caps the keys attended") {
    // Mistral 7B (Jiang et al. 2023): window 4,096.
    CHECK(attended_tokens(cat::mistral_7b, 32768) == 4096);
    CHECK(attended_tokens(cat::mistral_7b, 1000) == 1000);
    CHECK(forward_flops_per_token(cat::mistral_7b, 32768).attention ==
          forward_flops_per_token(cat::mistral_7b, 4096).attention);
    CHECK(attended_tokens(cat::llama_2_7b, 32768) == 32768);
}

TEST_CASE("LoRA adds r·(d_in + d_out) per adapted matrix") {
    // Hu et al. 2021: W + B·A, A: r × d_in, B: d_out × r. Llama-2-7B, r = 8 on W_q and W_v:
    // 32 layers × 2 × 8 × (4096 + 4096) = 4,194,304, the "trainable params" Hugging Face
    // PEFT's print_trainable_parameters() reports for this setup.
    CHECK(lora_parameter_count(cat::llama_2_7b, {8, lora_q | lora_v}) == 4194304LL);
    // All linear layers at r = 16: attention 4 × (4096 + 4096), MLP 3 × (4096 + 11008).
    CHECK(lora_parameter_count(cat::llama_2_7b, {16, lora_all_linear}) ==
          16LL * 32 * (4 * 8192 + 3 * (4096 + 11008)));
    // GQA: K and V are 1,024 wide on Llama-3-8B.
    CHECK(lora_parameter_count(cat::llama_3_8b, {1, lora_k}) == 32LL * (4096 + 1024));
}

TEST_CASE("shapes that no model has are rejected with the field and the rule") {
    transformer m = cat::llama_2_7b;
    m.kv_heads = 5;
    CHECK_THROWS_WITH_AS(parameter_count(m),
                         "parameter_count: kv_heads = 5 must divide heads = 32 (0 means "
                         "kv_heads = heads)",
                         invalid_input);
    m = cat::mixtral_8x7b;
    m.experts_per_token = 9;
    CHECK_THROWS_WITH_AS(parameter_count(m),
                         "parameter_count: experts_per_token = 9 must be in [1, experts = 8]",
                         invalid_input);
    m = cat::llama_2_7b;
    m.layers = 0;
    CHECK_THROWS_WITH_AS(parameter_count(m), "parameter_count: layers = 0 must be >= 1",
                         invalid_input);
    m = cat::llama_2_7b;
    m.hidden = -4096;
    CHECK_THROWS_AS(parameter_count(m), invalid_input);
    m = cat::llama_2_7b;
    m.sliding_window = -1;
    CHECK_THROWS_AS(forward_flops_per_token(m, 10), invalid_input);
    CHECK_THROWS_AS(forward_flops_per_token(cat::llama_2_7b, 0), invalid_input);
    CHECK_THROWS_AS(lora_parameter_count(cat::llama_2_7b, {0, lora_q}), invalid_input);
    CHECK_THROWS_AS(lora_parameter_count(cat::llama_2_7b, {8, 0U}), invalid_input);
    CHECK_THROWS_AS(lora_parameter_count(cat::llama_2_7b, {8, 1U << 9}), invalid_input);
    CHECK_THROWS_WITH_AS(lora_parameter_count(cat::gpt3_175b, {8, lora_gate}),
                         "lora_parameter_count: adapter.targets = 16 names lora_gate, but a "
                         "plain MLP has no gate matrix",
                         invalid_input);
    m = cat::llama_2_7b;
    m.experts = -1;
    CHECK_THROWS_AS(parameter_count(m), invalid_input);
    m = cat::llama_2_7b;
    m.experts_per_token = 2;  // a dense model routes to no experts
    CHECK_THROWS_WITH_AS(parameter_count(m),
                         "parameter_count: experts_per_token = 2 must be 0 or 1 for a dense model "
                         "(experts <= 1)",
                         invalid_input);
    m = cat::llama_2_7b;
    m.head_dim = 0;
    m.hidden = 4100;  // not divisible by 32 heads
    CHECK_THROWS_AS(parameter_count(m), invalid_input);
    m = cat::gpt3_175b;
    m.max_context = 0;  // learned positions need a table size
    CHECK_THROWS_AS(parameter_count(m), invalid_input);
    m = cat::llama_2_7b;
    m.vocab = std::int64_t{1} << 40;  // 2^40 × 4096 × 2 passes 2^53
    CHECK_THROWS_AS(parameter_count(m), invalid_input);
    CHECK_THROWS_AS(kaplan_training_flops(-1.0, 1.0_T_tokens), invalid_input);
}
