// costs_test.cpp: per-layer and per-stage costs against the papers' closed forms and counts:
// Korthikanti et al. 2022 Eq. 7 and Narayanan et al. 2021 Eq. 3 for FLOPs, Megatron-LM's
// collectives for TP and SP, the pipeline's point-to-point volume, and ZeRO's gradient buffer.
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/parallelism/costs.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cstdint>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
/// A stage's FLOPs, forward and backward.
double train_flops(const stage_cost& s) {
    return in<flops>(s.forward_gemm + s.forward_attention + s.backward_gemm + s.backward_attention);
}
}  // namespace

TEST_CASE("summed over stages and TP ranks, training FLOPs are Korthikanti's Eq. 7") {
    // Korthikanti et al. 2022 App. A, Eq. 7: model FLOPs per iteration of their GPT models,
    // 72·B·s·l·h²(1 + s/(6h) + V/(12·l·h)), which counts every key for every query.
    // The 175B model (l 96, h 12288, V 51200, s 2048) on TP 8 × PP 8, micro-batch 1.
    const checked_model m = check(cat::korthikanti_175b);
    parallel_layout layout{};
    layout.tensor = 8;
    layout.pipeline = 8;
    const pass_shape pass{1, 2048, 2048, 2048, pair_count::all_keys};
    double total = 0.0;
    for (std::int64_t stage = 0; stage < 8; ++stage) {
        const stage_cost s = stage_cost_of(m, layout, pass, stage);
        CHECK(s.layers == 12);
        total += 8.0 * train_flops(s);
    }
    const double l = 96.0, h = 12288.0, s = 2048.0, v = 51200.0;
    CHECK(total == approx(72.0 * s * l * h * h * (1.0 + s / (6.0 * h) + v / (12.0 * l * h))));
    // Full recompute adds the layers' forward again, not the head's: Narayanan et al. 2021 Eq. 3,
    // 96·B·s·l·h²(1 + s/(6h) + V/(16·l·h)).
    double recomputed = 0.0;
    for (std::int64_t stage = 0; stage < 8; ++stage) {
        const stage_cost c = stage_cost_of(m, layout, pass, stage);
        recomputed += 8.0 * in<flops>(c.forward_attention) +
                      8.0 * static_cast<double>(c.layers) *
                          in<flops>(layer_cost_of(m, layout, pass).forward_gemm);
    }
    CHECK(total + recomputed ==
          approx(in<flops>(megatron_flops_per_iteration(1, 2048, 96, 12288, 51200))));
}

TEST_CASE("causal counting does the work a causal kernel does: about half the pairs") {
    // A 2,048-token causal pass scores Σ i = 2048·2049/2 pairs per head, against 2048² counted
    // the MFU way (Dao et al. 2022 §3.1 skip the masked blocks).
    const checked_model m = check(cat::llama_3_8b);
    const layer_cost all = layer_cost_of(m, {}, {1, 2048, 2048, 2048, pair_count::all_keys});
    const layer_cost causal = layer_cost_of(m, {}, {1, 2048, 2048, 2048, pair_count::causal});
    CHECK(in<flops>(causal.forward_attention) / in<flops>(all.forward_attention) ==
          approx(2049.0 / (2.0 * 2048.0)));
    CHECK(causal.forward_gemm == all.forward_gemm);
    CHECK(attention_pairs(m, 2048, 2048, pair_count::causal) == 2048.0 * 2049.0 / 2.0);
    // A decode step's one query sees every cached key either way; Mistral's window caps it
    // at 4,096 (Jiang et al. 2023).
    CHECK(attention_pairs(cat::mistral_7b, 1, 32768, pair_count::causal) == 4096.0);
    CHECK(attention_pairs(cat::mistral_7b, 1, 32768, pair_count::all_keys) == 4096.0);
}

TEST_CASE("TP all-reduces, or with SP all-gathers and reduce-scatters of the same volume") {
    // Shoeybi et al. 2019 §3: a Megatron layer all-reduces its b·s·h activations twice in the
    // forward pass. GPT-3 175B at b 1, s 2048, bf16: 2 × 2048 × 12288 × 2 B = 100.7 MB.
    const checked_model m = check(cat::korthikanti_175b);
    parallel_layout tp8{};
    tp8.tensor = 8;
    const pass_shape pass{1, 2048, 2048, 2048, pair_count::causal};
    const layer_cost plain = layer_cost_of(m, tp8, pass);
    CHECK(in<bytes>(plain.tensor_all_reduce) == approx(2.0 * 2048.0 * 12288.0 * 2.0));
    CHECK(plain.sequence_all_gather == 0.0_B);
    // Korthikanti et al. 2022 §4.2.2: with sequence parallelism each all-reduce becomes a
    // reduce-scatter and an all-gather, "the same communication volume": a ring all-reduce is
    // exactly those two over the same buffer.
    tp8.sequence_parallel = true;
    const layer_cost sp = layer_cost_of(m, tp8, pass);
    CHECK(sp.tensor_all_reduce == 0.0_B);
    CHECK(sp.sequence_all_gather == plain.tensor_all_reduce);
    CHECK(sp.sequence_reduce_scatter == plain.tensor_all_reduce);
    // No TP, no TP collectives.
    CHECK(layer_cost_of(m, {}, pass).tensor_all_reduce == 0.0_B);
}

TEST_CASE("a pipeline boundary carries b·s·h activations; the last stage sends nothing") {
    // Narayanan et al. 2021 §2.2: stages exchange the b·s·h activations of each micro-batch.
    // GPT-3 175B, b 1, s 2048, bf16: 2048 × 12288 × 2 B = 50.3 MB per micro-batch.
    const checked_model m = check(cat::korthikanti_175b);
    parallel_layout pp4{};
    pp4.pipeline = 4;
    const pass_shape pass{1, 2048, 2048, 2048, pair_count::causal};
    CHECK(in<bytes>(stage_cost_of(m, pp4, pass, 0).boundary_activations) ==
          approx(2048.0 * 12288.0 * 2.0));
    CHECK(stage_cost_of(m, pp4, pass, 3).boundary_activations == 0.0_B);
}

TEST_CASE("gradients over all stages and TP ranks are the parameters, in the gradient format") {
    // Llama-2-7B has 6,738,415,616 parameters (HF config meta-llama/Llama-2-7b-hf): its bf16
    // gradient buffer, the one data parallelism all-reduces (Rajbhandari et al. 2020 §7), is
    // 13.48 GB on one GPU; split by PP 4 the stages' buffers sum to the same.
    const checked_model m = check(cat::llama_2_7b);
    const pass_shape pass{1, 4096, 4096, 4096, pair_count::causal};
    CHECK(in<bytes>(stage_cost_of(m, {}, pass, 0).gradients) == approx(6738415616.0 * 2.0));
    parallel_layout pp4{};
    pp4.pipeline = 4;
    double sum = 0.0;
    for (std::int64_t stage = 0; stage < 4; ++stage) {
        sum += in<bytes>(stage_cost_of(m, pp4, pass, stage).gradients);
    }
    CHECK(sum == approx(6738415616.0 * 2.0));
    // fp32 gradients double it; the weights in bf16 stay the parameters × 2 B.
    cost_formats fp32_grads{};
    fp32_grads.gradients = formats::fp32;
    CHECK(in<bytes>(stage_cost_of(m, {}, pass, 0, fp32_grads).gradients) ==
          approx(6738415616.0 * 4.0));
    CHECK(in<bytes>(stage_cost_of(m, {}, pass, 0).weights) == approx(6738415616.0 * 2.0));
    // A pass reads all but the input embedding's 32,000 × 4,096 table, which it looks up:
    // 13.21 GB, the bytes a batch-1 decode step reads (Llama-2-7B is untied).
    CHECK(in<bytes>(stage_cost_of(m, {}, pass, 0).weights_read) ==
          approx((6738415616.0 - 32000.0 * 4096.0) * 2.0));
}

TEST_CASE("an MoE layer with expert parallelism sends each token to its k experts and back") {
    // Mixtral-8x7B routes each token to 2 of 8 experts (Jiang et al. 2024): dispatch and
    // combine carry b·s·k·h activations each. b 1, s 4096, h 4096, bf16: 2 × 2 × 4096 × 4096 ×
    // 2 B = 134 MB per layer and forward.
    const checked_model m = check(cat::mixtral_8x7b);
    parallel_layout ep8{};
    ep8.expert = 8;
    ep8.data = 8;
    const pass_shape pass{1, 4096, 4096, 4096, pair_count::causal};
    CHECK(in<bytes>(layer_cost_of(m, ep8, pass).expert_all_to_all) ==
          approx(2.0 * 2.0 * 4096.0 * 4096.0 * 2.0));
    CHECK(layer_cost_of(m, {}, pass).expert_all_to_all == 0.0_B);
    // Each EP rank holds 1 of the 8 experts' weights; the GEMM FLOPs still follow the 2 active.
    const layer_cost spread = layer_cost_of(m, ep8, pass);
    const layer_cost whole = layer_cost_of(m, {}, pass);
    CHECK(spread.weights < whole.weights);
    CHECK(spread.forward_gemm == whole.forward_gemm);
}

TEST_CASE("under TP each rank sends its share across a stage boundary and to the experts") {
    // Narayanan et al. 2021 §4.1: with the scatter/gather optimization each of t ranks sends
    // b·s·h/t across a stage boundary. GPT-3 175B, TP 8, b 1, s 2048, bf16: 6.29 MB per GPU.
    const checked_model m = check(cat::korthikanti_175b);
    parallel_layout layout{};
    layout.tensor = 8;
    layout.pipeline = 4;
    const pass_shape pass{1, 2048, 2048, 2048, pair_count::causal};
    CHECK(in<bytes>(stage_cost_of(m, layout, pass, 0).boundary_activations) ==
          approx(2048.0 * 12288.0 * 2.0 / 8.0));
    // Interleaved 1F1B with 2 chunks per stage: twice the boundary traffic, and the last stage
    // sends its chunks back to the first (Narayanan et al. 2021 §2.2.2).
    layout.interleave = 2;
    CHECK(in<bytes>(stage_cost_of(m, layout, pass, 3).boundary_activations) ==
          approx(2.0 * 2048.0 * 12288.0 * 2.0 / 8.0));
}

TEST_CASE("the MoE router runs whole on every TP rank; the experts split") {
    // Mixtral-8x7B at TP 2: the experts' and attention's GEMMs halve, the router's (h × E =
    // 4096 × 8 per layer, Jiang et al. 2024) does not.
    const checked_model m = check(cat::mixtral_8x7b);
    parallel_layout tp2{};
    tp2.tensor = 2;
    const pass_shape pass{1, 1, 1, 1, pair_count::causal};
    const double one_gpu = in<flops>(layer_cost_of(m, {}, pass).forward_gemm);
    const double split = in<flops>(layer_cost_of(m, tp2, pass).forward_gemm);
    const double router = 2.0 * 4096.0 * 8.0;
    CHECK(split == approx((one_gpu - router) / 2.0 + router));
    // The experts' gradients are their own buffer: they reduce over fewer ranks.
    const layer_cost c = layer_cost_of(m, {}, pass);
    CHECK(in<bytes>(c.expert_gradients) == approx(8.0 * 3.0 * 4096.0 * 14336.0 * 2.0));
}

TEST_CASE("context parallelism is refused, not ignored") {
    parallel_layout cp2{};
    cp2.context_parallel = 2;
    CHECK_THROWS_WITH_AS(layer_cost_of(cat::llama_2_7b, cp2, {}),
                         "layer_cost_of: layout.context_parallel = 2 must be 1: per-layer costs "
                         "do not model context parallelism yet",
                         invalid_input);
}

TEST_CASE("stages split the layers as evenly as they go") {
    // 32 layers on 3 stages: 11, 11, 10 (derived); 96 on 8: 12 each.
    CHECK(layers_on_stage(cat::llama_2_7b, 3, 0) == 11);
    CHECK(layers_on_stage(cat::llama_2_7b, 3, 1) == 11);
    CHECK(layers_on_stage(cat::llama_2_7b, 3, 2) == 10);
    CHECK(layers_on_stage(cat::korthikanti_175b, 8, 7) == 12);
}

TEST_CASE("bad passes and stages are invalid_input naming the field") {
    const checked_model m = check(cat::llama_2_7b);
    CHECK_THROWS_WITH_AS(layer_cost_of(m, {}, {1, 10, 5, 1, pair_count::causal}),
                         "layer_cost_of: pass.queries = 10 must not exceed pass.keys = 5 (the new "
                         "tokens are among the keys)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(layer_cost_of(m, {}, {0, 1, 1, 1, pair_count::causal}),
                         "layer_cost_of: pass.batch = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(stage_cost_of(m, {}, {1, 4, 4, 5, pair_count::causal}, 0),
                         "stage_cost_of: pass.outputs = 5 must not exceed pass.queries = 4",
                         invalid_input);
    CHECK_THROWS_WITH_AS(layers_on_stage(m, 4, 4),
                         "layers_on_stage: stage = 4 must be in [0, pipeline - 1 = 3]", invalid_input);
    CHECK_THROWS_WITH_AS(stage_cost_of(m, {}, {}, 3),
                         "stage_cost_of: stage = 3 must be in [0, layout.pipeline - 1 = 0]",
                         invalid_input);
    transformer bad = cat::llama_2_7b;
    bad.heads = 0;
    CHECK_THROWS_WITH_AS(stage_cost_of(bad, {}, {}, 0), "stage_cost_of: heads = 0 must be >= 1",
                         invalid_input);
    parallel_layout three{};
    three.tensor = 3;
    CHECK_THROWS_WITH_AS(layer_cost_of(m, three, {}),
                         "layer_cost_of: layout.tensor = 3 must divide attention heads = 32",
                         invalid_input);
    CHECK_THROWS_AS(attention_pairs(m, 0, 1, pair_count::causal), invalid_input);
}
