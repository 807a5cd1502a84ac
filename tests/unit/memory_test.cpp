// memory_test.cpp: per-GPU memory for training and inference reproduces the ZeRO and
// Korthikanti formulas and published figures; the scheduler decisions are consistent.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
/// A layout with ZeRO at `stage` over `data_parallel` ranks, nothing else split.
parallel_layout zero(std::int64_t stage, std::int64_t data_parallel) {
    parallel_layout layout{};
    layout.zero_stage = stage;
    layout.data = data_parallel;
    return layout;
}

double states_gb(double parameters, std::int64_t stage, std::int64_t dp) {
    const model_states s = model_states_per_gpu(parameters, training_job{}, zero(stage, dp));
    return in<gigabytes>(s.weights + s.gradients + s.optimizer_states);
}

/// Korthikanti et al. 2022 Table 2, in units of s·b·h bytes, for their GPT layer.
double korthikanti_row(const transformer& m, const training_job& job,
                       const training_strategy& strategy) {
    const double sbh = static_cast<double>(job.sequence * strategy.micro_batch * m.hidden);
    return in<bytes>(activation_bytes_per_layer(m, job, strategy)) / sbh;
}

/// Korthikanti et al.'s training: 2,048-token sequences through GPT layers with dropout.
training_job korthikanti_job() {
    training_job job{};
    job.sequence = 2048;
    job.dropout = true;            // their GPT layers have dropout
    job.flash_attention = false;   // and materialize the scores
    return job;
}

training_strategy korthikanti_strategy(std::int64_t tp, std::int64_t micro_batch) {
    training_strategy strategy{};
    strategy.micro_batch = micro_batch;
    strategy.parallel.tensor = tp;
    return strategy;
}
}  // namespace

TEST_CASE("ZeRO: mixed-precision Adam is 16 bytes per parameter before sharding") {
    // Rajbhandari et al. 2020 §3.1: 2Ψ + 2Ψ + KΨ with K = 12; GPT-2 1.5B needs 24 GB.
    CHECK(states_gb(1.5e9, 0, 1) == approx(24.0));
    CHECK(states_gb(1.0, 0, 1) * 1e9 == approx(16.0));
}

TEST_CASE("ZeRO: Table 1, 7.5B model, per-device memory by stage and data-parallel degree") {
    // Rajbhandari et al. 2020, Table 1 (GB = 1e9 B, printed to 3 figures; 0.05 GB absolute
    // where one decimal is printed, 0.005 where two).
    const double psi = 7.5e9;
    struct row {
        std::int64_t dp;
        double os, os_g, os_g_p;
    };
    const row rows[] = {{1, 120, 120, 120},     {4, 52.5, 41.3, 30},  {16, 35.6, 21.6, 7.5},
                        {64, 31.4, 16.6, 1.88}, {256, 30.4, 15.4, 0.47}, {1024, 30.1, 15.1, 0.12}};
    for (const row& r : rows) {
        CAPTURE(r.dp);
        CHECK(states_gb(psi, 1, r.dp) == doctest::Approx(r.os).epsilon(0.051 / r.os));
        CHECK(states_gb(psi, 2, r.dp) == doctest::Approx(r.os_g).epsilon(0.051 / r.os_g));
        CHECK(states_gb(psi, 3, r.dp) == doctest::Approx(r.os_g_p).epsilon(0.0051 / r.os_g_p));
    }
    // Figure 1's caption: 120 GB -> 31.4 -> 16.6 -> 1.9 at Nd = 64.
    CHECK(states_gb(psi, 0, 64) == 120.0);
}

TEST_CASE("ZeRO stage 0 to 3 with other optimizers: K follows the optimizer") {
    const parallel_layout replicated = zero(0, 1);
    training_job job{};
    job.optimizer = optimizer::sgd_momentum;  // master 4 + momentum 4
    CHECK(in<bytes>(model_states_per_gpu(1.0, job, replicated).optimizer_states) == 8.0);
    job.optimizer = optimizer::adamw_8bit;    // master 4 + two 1-byte moments + block scales
    CHECK(in<bytes>(model_states_per_gpu(1.0, job, replicated).optimizer_states) ==
          approx(6.0, 1e-2));
    job.fp32_master_weights = false;          // pure bf16 AdamW: 2 + 2 + 8 = 12 bytes
    job.optimizer = optimizer::adamw;
    const model_states s = model_states_per_gpu(1.0, job, replicated);
    CHECK(in<bytes>(s.weights + s.gradients + s.optimizer_states) == 12.0);
}

TEST_CASE("QLoRA's premise: 16-bit finetuning of a 65B model needs over 780 GB") {
    // Dettmers et al. 2023 (QLoRA), abstract: ">780GB of GPU memory" for regular 16-bit
    // finetuning of a 65B model: 16-bit weights and gradients and 32-bit Adam moments,
    // 12 bytes per parameter. LLaMA-65B: Touvron et al. 2023, Table 2 (80 layers, 8,192
    // wide, 64 heads); FFN 22,016 and vocabulary 32,000 from its released config.
    transformer llama_65b = cat::llama_2_7b;
    llama_65b.layers = 80;
    llama_65b.hidden = 8192;
    llama_65b.heads = 64;
    llama_65b.kv_heads = 64;
    llama_65b.head_dim = 128;
    llama_65b.ffn_hidden = 22016;
    // The released config gives 65,285,660,672 parameters (the paper's table prints 65.2B).
    const double n = static_cast<double>(parameter_count(llama_65b).total);
    CHECK(parameter_count(llama_65b).total == 65285660672LL);
    training_job job{};
    job.fp32_master_weights = false;
    const model_states s = model_states_per_gpu(n, job, parallel_layout{});
    const double gb = in<gigabytes>(s.weights + s.gradients + s.optimizer_states);
    CHECK(gb > 780.0);
    CHECK(gb < 790.0);
}

TEST_CASE("Korthikanti Table 2: activation memory per layer, every technique, every model") {
    // Korthikanti et al. 2022, Table 2 (bytes per layer, in units of s·b·h) on their Table 3
    // configurations: exact to the formula.
    const transformer* models[] = {&cat::korthikanti_22b, &cat::korthikanti_175b,
                                   &cat::korthikanti_530b, &cat::korthikanti_1t};
    for (const transformer* m : models) {
        CAPTURE(std::string(m->name));
        const double a = static_cast<double>(m->heads);
        const double h = static_cast<double>(m->hidden);
        const double s = 2048.0;
        const double t = 8.0;
        const training_job job = korthikanti_job();
        const training_strategy base = korthikanti_strategy(8, 1);

        training_strategy none_1 = base;  // no parallelism at all
        none_1.parallel.tensor = 1;
        CHECK(korthikanti_row(*m, job, none_1) == approx(34.0 + 5.0 * a * s / h));

        CHECK(korthikanti_row(*m, job, base) == approx(10.0 + 24.0 / t + 5.0 * a * s / (h * t)));

        training_strategy sp = base;
        sp.parallel.sequence_parallel = true;
        CHECK(korthikanti_row(*m, job, sp) == approx((34.0 + 5.0 * a * s / h) / t));

        training_strategy selective = base;
        selective.recompute = recompute::selective;
        CHECK(korthikanti_row(*m, job, selective) == approx(10.0 + 24.0 / t));

        training_strategy selective_sp = sp;
        selective_sp.recompute = recompute::selective;
        CHECK(korthikanti_row(*m, job, selective_sp) == approx(34.0 / t));

        training_strategy full = base;
        full.recompute = recompute::full;
        CHECK(korthikanti_row(*m, job, full) == approx(2.0));
    }
}

TEST_CASE("Korthikanti §5: selective recompute saves 70% (GPT-3) and 65% (MT-NLG)") {
    // 5as/h = 80 for GPT-3 175B and 64 for MT-NLG 530B; with sequence parallelism selective
    // recompute keeps 34 of 34 + 5as/h, saving 80/114 = 70% and 64/98 = 65% (printed to 1%).
    for (const auto& c : {std::make_pair(&cat::korthikanti_175b, 0.70),
                          std::make_pair(&cat::korthikanti_530b, 0.65)}) {
        const training_job job = korthikanti_job();
        training_strategy sp = korthikanti_strategy(8, 1);
        sp.parallel.sequence_parallel = true;
        training_strategy selective = sp;
        selective.recompute = recompute::selective;
        const double saved =
            1.0 - korthikanti_row(*c.first, job, selective) / korthikanti_row(*c.first, job, sp);
        CHECK(saved == doctest::Approx(c.second).epsilon(0.005 / c.second));
    }
}

TEST_CASE("Korthikanti §4.2.3/§4.3: the first pipeline stage holds p micro-batches of L/p layers") {
    // Total on the first stage: s·b·h·L/t·(34 + 5as/h) (Eq. 5) plus the embedding-dropout
    // masks s·b·h·p/t; the interleaved schedule multiplies by 1 + (p − 1)/(p·m).
    const transformer& m = cat::korthikanti_175b;  // p = 8, m = 3 in their runs
    const training_job job = korthikanti_job();  // global batch unstated: the pipeline is full
    training_strategy t = korthikanti_strategy(8, 1);
    t.parallel.sequence_parallel = true;
    t.parallel.pipeline = 8;
    const double sbh = 2048.0 * 12288.0;
    const double eq5 = sbh * 96.0 / 8.0 * (34.0 + 80.0);
    const double dropout_masks = sbh * 8.0 / 8.0;
    CHECK(in<bytes>(training_memory_per_gpu(m, job, t).activations) == approx(eq5 + dropout_masks));
    t.parallel.interleave = 3;
    const double factor = 1.0 + 7.0 / 24.0;
    CHECK(in<bytes>(training_memory_per_gpu(m, job, t).activations) ==
          approx(factor * eq5 + dropout_masks));
    // Without pipelining the output layer adds 4·s·b·h/t·(1 + v/h) (§4.3).
    training_strategy flat = korthikanti_strategy(8, 1);
    flat.parallel.sequence_parallel = true;
    const double flat_eq = sbh * 96.0 / 8.0 * (34.0 + 80.0) + sbh / 8.0 +
                           4.0 * sbh / 8.0 * (1.0 + 51200.0 / 12288.0);
    CHECK(in<bytes>(training_memory_per_gpu(m, job, flat).activations) == approx(flat_eq));
}

TEST_CASE("FlashAttention removes the s² term and keeps fp32 softmax statistics") {
    training_job job = korthikanti_job();
    job.dropout = false;
    job.flash_attention = true;
    const training_strategy t = korthikanti_strategy(1, 1);
    const transformer& m = cat::korthikanti_22b;
    const double sbh = 2048.0 * 6144.0;
    // 8 replicated + 24 split (16-bit, no masks) + 4·a·s·b bytes of log-sum-exp.
    CHECK(in<bytes>(activation_bytes_per_layer(m, job, t)) ==
          approx(32.0 * sbh + 4.0 * 64.0 * 2048.0));
}

TEST_CASE("KV cache bytes per token for the catalogued models") {
    // Derived from each model's config (catalog/models.hpp cites them):
    // 2 · layers · KV heads · head_dim · 2 B at 16 bits.
    CHECK(kv_cache_bytes_per_token(cat::llama_2_7b, formats::fp16) == 524288.0_B);
    CHECK(kv_cache_bytes_per_token(cat::llama_2_7b, formats::fp16) == 512.0_KiB);
    CHECK(kv_cache_bytes_per_token(cat::llama_2_13b, formats::bf16) == 819200.0_B);
    CHECK(kv_cache_bytes_per_token(cat::llama_2_70b, formats::bf16) == 327680.0_B);
    CHECK(kv_cache_bytes_per_token(cat::llama_3_8b, formats::bf16) == 131072.0_B);
    CHECK(kv_cache_bytes_per_token(cat::llama_3_70b, formats::bf16) == 327680.0_B);
    CHECK(kv_cache_bytes_per_token(cat::llama_3_1_405b, formats::bf16) == 516096.0_B);
    CHECK(kv_cache_bytes_per_token(cat::mistral_7b, formats::bf16) == 131072.0_B);
    CHECK(kv_cache_bytes_per_token(cat::mixtral_8x7b, formats::bf16) == 131072.0_B);
    CHECK(kv_cache_bytes_per_token(cat::gpt3_175b, formats::bf16) == 4718592.0_B);
    // A 4,096-token sequence: Llama-2-7B 2 GiB, 13B 3.125 GiB, 70B 1.25 GiB, Llama-3-8B 0.5 GiB.
    CHECK(4096.0 * kv_cache_bytes_per_token(cat::llama_2_7b, formats::bf16) == 2.0_GiB);
    CHECK(4096.0 * kv_cache_bytes_per_token(cat::llama_2_13b, formats::bf16) == 3.125_GiB);
    CHECK(4096.0 * kv_cache_bytes_per_token(cat::llama_2_70b, formats::bf16) == 1.25_GiB);
    CHECK(4096.0 * kv_cache_bytes_per_token(cat::llama_3_8b, formats::bf16) == 0.5_GiB);
    // An 8-bit cache halves it.
    CHECK(kv_cache_bytes_per_token(cat::llama_3_8b, formats::fp8_e4m3) == 65536.0_B);
}

TEST_CASE("inference: the KV cache scales with batch and context, split by TP, capped by a window") {
    serving_setup s{};
    s.batch = 8;
    s.context = 4096;
    s.parallel.tensor = 4;
    const inference_memory r = inference_memory_per_gpu(cat::llama_2_70b, s);
    CHECK(r.kv_cache == 8.0 * 4096.0 * 327680.0_B / 4.0);
    // TP = 16 exceeds Llama-2-70B's 8 KV heads: each GPU holds one replicated head.
    s.parallel.tensor = 16;
    CHECK(inference_memory_per_gpu(cat::llama_2_70b, s).kv_cache_per_token == 2.0 * 80.0 * 128.0 * 2.0_B);
    // Mistral's 4,096-token window caps the cache: 32k tokens cost what 4k do.
    serving_setup w{};
    w.context = 32768;
    CHECK(inference_memory_per_gpu(cat::mistral_7b, w).cached_tokens_per_sequence == 4096);
    CHECK(inference_memory_per_gpu(cat::mistral_7b, w).kv_cache == 4096.0 * 131072.0_B);
    // Paged blocks of 16 round 100 tokens up to 112 (Kwon et al. 2023).
    serving_setup paged{};
    paged.context = 100;
    paged.kv_block_tokens = 16;
    CHECK(inference_memory_per_gpu(cat::llama_3_8b, paged).cached_tokens_per_sequence == 112);
}

TEST_CASE("inference weights at each precision: 7B at fp16 is about 14 GB") {
    // Practitioners' rule of thumb (parameters × bits ÷ 8): 7B ~ 14 GB at FP16, 7 GB at INT8,
    // 3.5 GB at INT4 (weights alone).
    serving_setup s{};
    s.weights = formats::fp16;
    s.embeddings = formats::fp16;
    CHECK(in<gigabytes>(inference_memory_per_gpu(cat::llama_2_7b, s).weights) ==
          approx(6738415616.0 * 2.0 / 1e9));
    // int4 with fp16 group scales on the linear layers; embedding and head stay 16-bit.
    s.weights = formats::int4_g128;
    const double linear = 6738415616.0 - 2.0 * 131072000.0 - 65.0 * 4096.0;
    const double expected = linear * 4.125 / 8.0 + (2.0 * 131072000.0 + 65.0 * 4096.0) * 2.0;
    CHECK(in<bytes>(inference_memory_per_gpu(cat::llama_2_7b, s).weights) == approx(expected));
}

TEST_CASE("inference on a single GPU adds the KV cache and overhead practitioners quote") {
    // A practitioners' rule of thumb: the KV cache and framework overhead add roughly 20–30% on
    // top of the weights for inference. Llama-2-7B at 16 bits (13.48 GB of weights) holding one
    // 4,096-token sequence lands in that band: its KV cache alone is 2 GiB (15.9%), and the CUDA
    // context, fragmentation and the activation workspace bring the extra to about 27%. The
    // assertion is the cited band itself.
    serving_setup s{};
    s.batch = 1;
    s.context = 4096;
    const inference_memory r = inference_memory_per_gpu(cat::llama_2_7b, s);
    CHECK(in<gibibytes>(r.kv_cache) == approx(2.0));  // 2 × 32 layers × 4,096 × 2 B per token
    const double extra = in<bytes>(r.total - r.weights) / in<bytes>(r.weights);
    CHECK(extra >= 0.20);
    CHECK(extra <= 0.30);
}

TEST_CASE("7B full training does not fit one A100 80GB; ZeRO-3 over 8 does") {
    // 16 bytes per parameter (ZeRO §3.1) x 6.74B = 108 GB > 80 GiB before any activation.
    const training_job job{};
    training_strategy strategy{};
    const fit_verdict one =
        fits(training_memory_per_gpu(cat::llama_2_7b, job, strategy), cat::a100_80gb_sxm);
    CHECK_FALSE(one.ok);
    CHECK(one.margin < 0.0_GiB);
    strategy.parallel.data = 8;
    strategy.parallel.zero_stage = 3;
    const fit_verdict eight =
        fits(training_memory_per_gpu(cat::llama_2_7b, job, strategy), cat::a100_80gb_sxm);
    CHECK(eight.ok);
    CHECK(eight.margin > 0.0_GiB);
    // ZeRO (Rajbhandari et al. 2020, §3.1 and Fig. 1): stage 3 over N_d = 8 ranks holds
    // (2 + 2 + 12)·Ψ / 8 bytes of model states, Ψ = 6,738,415,616 (Llama-2-7b-hf): 13.48 GB.
    // Activations and overhead come on top, so the margins are bounded by the 80 GiB datasheet
    // capacity less the model states: at most 80 GiB − 107.8 GB = −21.9 GB on one GPU, and at
    // most 80 GiB − 13.48 GB = 72.4 GB on each of eight.
    const double psi = 6738415616.0;
    const training_memory sharded = training_memory_per_gpu(cat::llama_2_7b, job, strategy);
    CHECK(in<bytes>(sharded.weights + sharded.gradients + sharded.optimizer_states) ==
          approx(16.0 * psi / 8.0));
    CHECK(in<bytes>(one.margin) < in<bytes>(80.0_GiB) - 16.0 * psi);
    CHECK(in<bytes>(eight.margin) < in<bytes>(80.0_GiB) - 16.0 * psi / 8.0);
}

TEST_CASE("minimum GPUs: ZeRO sharding finds the smallest data-parallel degree") {
    const training_job job{};
    training_strategy strategy{};
    strategy.parallel.zero_stage = 3;
    const training_fit fit =
        min_gpus_for_training(cat::llama_2_7b, job, strategy, cat::a100_80gb_sxm);
    REQUIRE(fit.outcome == fit_outcome::found);
    // It fits at the degree found and not one below.
    strategy.parallel.data = fit.data_parallel;
    CHECK(fits(training_memory_per_gpu(cat::llama_2_7b, job, strategy), cat::a100_80gb_sxm).ok);
    strategy.parallel.data = fit.data_parallel - 1;
    CHECK_FALSE(
        fits(training_memory_per_gpu(cat::llama_2_7b, job, strategy), cat::a100_80gb_sxm).ok);
    // Without sharding, more GPUs never help, and the result says so.
    const training_strategy replicated{};
    CHECK(min_gpus_for_training(cat::llama_2_7b, job, replicated, cat::a100_80gb_sxm).outcome ==
          fit_outcome::not_sharded);
}

TEST_CASE("minimum GPUs to serve Llama-2-70B at 16 bits on H100: tensor parallel 2") {
    // 69.0B parameters x 2 bytes = 138 GB: more than one 80 GiB H100, less than two.
    serving_setup s{};
    const serving_fit fit = min_gpus_for_inference(cat::llama_2_70b, s, cat::h100_sxm);
    CHECK(fit.outcome == fit_outcome::found);
    CHECK(fit.tensor_parallel == 2);
    CHECK(fit.gpus == 2);
    // Llama-3.1-405B at 16 bits is 812 GB: more than 8 H100s hold (640 GiB = 687 GB).
    const serving_fit big = min_gpus_for_inference(cat::llama_3_1_405b, s, cat::h100_sxm, 0.0, 8);
    CHECK(big.outcome == fit_outcome::too_large_at_limit);
    CHECK(big.verdict.margin < 0.0_GiB);
}

TEST_CASE("largest batch and context: fit at the answer, not one above") {
    serving_setup s{};
    s.context = 4096;
    const std::int64_t batch = max_batch_for_inference(cat::llama_3_8b, s, cat::l4, 0.1);
    CHECK(batch > 0);
    s.batch = batch;
    CHECK(fits(inference_memory_per_gpu(cat::llama_3_8b, s), cat::l4, 0.1).ok);
    s.batch = batch + 1;
    CHECK_FALSE(fits(inference_memory_per_gpu(cat::llama_3_8b, s), cat::l4, 0.1).ok);

    // Llama-2-7B at 16 bits on a 24 GiB A10: 12.6 GiB of weights leave room for ~20k tokens
    // of 512 KiB each; past its trained 4,096 the default limit stops the search.
    serving_setup c{};
    CHECK(max_context_for_inference(cat::llama_2_7b, c, cat::a10) == 4096);
    const std::int64_t context = max_context_for_inference(cat::llama_2_7b, c, cat::a10, 0.0, 1 << 20);
    CHECK(context > 16384);
    CHECK(context < 24576);
    c.context = context;
    CHECK(fits(inference_memory_per_gpu(cat::llama_2_7b, c), cat::a10).ok);
    c.context = context + 1;
    CHECK_FALSE(fits(inference_memory_per_gpu(cat::llama_2_7b, c), cat::a10).ok);
    // Nothing fits: 0, not a negative or a throw.
    CHECK(max_batch_for_inference(cat::llama_2_70b, serving_setup{}, cat::l4) == 0);
}

TEST_CASE("largest batch, context and micro-batch at long contexts: answers, not throws") {
    // Each answer is derived by hand from the footprint's parts. On an 80 GiB H100 the runtime
    // takes 0.5 GiB of CUDA context (+0.5 GiB of NCCL buffers when TP > 1) and 5% of the
    // tensors, so tensors may use (80 − 0.5) / 1.05 = 75.71 GiB (75.24 GiB with TP).
    //
    // Llama-3-8B at 128k context, 16 bits: weights 8.03e9 × 2 B = 14.96 GiB; each sequence's
    // KV cache is 131,072 tokens × 128 KiB = 16 GiB; activations 0.21 GiB. Batch 3 needs
    // 63.2 GiB, batch 4 needs 79.2 GiB: the answer is 3. (Before issue 9 the search probed
    // batch 2^20, whose 2^20 × 2^17 × 128,256 tokens-by-vocabulary tripped the 2^53 guard.)
    serving_setup s{};
    s.context = 131072;
    CHECK(max_batch_for_inference(cat::llama_3_8b, s, cat::h100_sxm) == 3);

    // Llama-3.1-405B at 128k, fp8 linear weights (bf16 embeddings and head), TP 8 on H100s:
    // 401.6e9 linear parameters at 1 B and 4.2e9 embedding-class at 2 B, each ÷ 8, are
    // 47.74 GiB per GPU; one KV head per GPU gives 126 × 128 × 2 × 2 B = 63 KiB per token,
    // 7.875 GiB per sequence; activations 0.20 GiB. (75.24 − 47.74 − 0.20) / 7.875 = 3.47.
    serving_setup big{};
    big.context = 131072;
    big.weights = formats::fp8_e4m3;
    big.parallel.tensor = 8;
    CHECK(max_batch_for_inference(cat::llama_3_1_405b, big, cat::h100_sxm) == 3);
    // At batch 1 its full trained 128k context fits (the default limit), and with no limit
    // the longest is (75.24 GiB − 47.74 GiB − 0.20 GiB) / 63 KiB = 454,263 tokens.
    big.batch = 1;
    CHECK(max_context_for_inference(cat::llama_3_1_405b, big, cat::h100_sxm) == 131072);
    CHECK(max_context_for_inference(cat::llama_3_1_405b, big, cat::h100_sxm, 0.0,
                                    std::int64_t{1} << 40) == 454263);

    // Mistral-7B's sliding window caps its cache at 4,096 tokens, so every context fits; the
    // answer stops at the largest context the counts stay exact for: the largest c with
    // c × 32,000 < 2^53, which is 281,474,976,710.
    serving_setup window{};
    window.batch = 1;
    CHECK(max_context_for_inference(cat::mistral_7b, window, cat::h100_sxm, 0.0,
                                    std::int64_t{1} << 40) == 281474976710);

    // Training Llama-3-8B at sequence 8,192 with ZeRO-3 over 8 H100s, full recompute: model
    // states are 16 B × 8.03e9 ÷ 8 = 14.96 GiB. Per micro-batch, activations are
    // s·(32 layers × 2h·2 B + the recomputed layer's rebuilt 131,200 B + the output layer's
    // 2h·2 B + fp32 logits 4·vocab) = 8,192 × 922,752 B = 7.04 GiB (Korthikanti et al. 2022
    // §5 and §4.3, generalized to GQA and a gated MLP). (75.24 − 14.96) / 7.04 = 8.56.
    // The search's limit of 2^30 once tripped the micro_batch × sequence × hidden guard.
    training_job job{};
    job.sequence = 8192;
    training_strategy strategy{};
    strategy.recompute = recompute::full;
    strategy.parallel.data = 8;
    strategy.parallel.zero_stage = 3;
    CHECK(max_micro_batch_for_training(cat::llama_3_8b, job, strategy, cat::h100_sxm, 0.0,
                                       std::int64_t{1} << 30) == 8);

    // A bad limit is an error, not a default.
    CHECK_THROWS_WITH_AS(max_context_for_inference(cat::llama_3_8b, s, cat::h100_sxm, 0.0, -5),
                         "max_context_for_inference: limit = -5 must be >= 0 (0 means the "
                         "model's max_context)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(max_batch_for_inference(cat::llama_3_8b, s, cat::h100_sxm, 0.0, 0),
                         "max_batch_for_inference: limit = 0 must be >= 1", invalid_input);
}

TEST_CASE("smallest MIG profile that holds a job") {
    // A100 80GB profiles (MIG user guide; nvidia-smi sizes): 1g.10gb holds 9.5 GiB.
    CHECK(std::string(smallest_mig_profile(cat::a100_80gb_sxm, 5.0_GiB)->name) == "1g.10gb");
    CHECK(std::string(smallest_mig_profile(cat::a100_80gb_sxm, 15.0_GiB)->name) == "1g.20gb");
    CHECK(std::string(smallest_mig_profile(cat::a100_80gb_sxm, 30.0_GiB)->name) == "3g.40gb");
    CHECK(smallest_mig_profile(cat::a100_80gb_sxm, 90.0_GiB) == nullptr);
    CHECK(smallest_mig_profile(cat::l4, 1.0_GiB) == nullptr);  // no MIG
}

TEST_CASE("QLoRA: a 7B model fine-tunes on one 24 GB GPU; full fine-tuning does not") {
    // Dettmers et al. 2023: NF4 with double quantization for the frozen base, LoRA r = 64 on
    // all linear layers, 16-bit adapters with 32-bit AdamW moments, gradient checkpointing.
    training_job qlora{};
    qlora.sequence = 2048;
    qlora.fp32_master_weights = false;
    qlora.lora.enabled = true;
    qlora.lora.adapter = {64, lora_all_linear};
    qlora.lora.frozen_base = formats::nf4_double_quant;
    training_strategy checkpointed{};
    checkpointed.recompute = recompute::full;
    const training_memory r = training_memory_per_gpu(cat::llama_2_7b, qlora, checkpointed);
    CHECK(fits(r, cat::a10).ok);
    const double adapter =
        static_cast<double>(lora_parameter_count(cat::llama_2_7b, qlora.lora.adapter));
    CHECK(in<bytes>(r.gradients) == approx(2.0 * adapter));
    CHECK(in<bytes>(r.optimizer_states) == approx(8.0 * adapter));
    const training_job full{};
    CHECK_FALSE(fits(training_memory_per_gpu(cat::llama_2_7b, full, checkpointed), cat::a10).ok);
}

TEST_CASE("CPU offload: ZeRO-Offload moves optimizer state and gradients, ZeRO-Infinity parameters") {
    // Ren et al. 2021 (ZeRO-Offload): fp32 master weights, optimizer states and gradients live
    // in CPU memory; Rajbhandari et al. 2021 (ZeRO-Infinity): parameters too, at ZeRO-3.
    const training_job job{};
    training_strategy t{};
    t.parallel.zero_stage = 3;
    t.parallel.data = 8;
    const training_memory base = training_memory_per_gpu(cat::llama_2_7b, job, t);
    t.offload_optimizer = true;
    const training_memory opt = training_memory_per_gpu(cat::llama_2_7b, job, t);
    CHECK(opt.optimizer_states == 0.0_B);
    CHECK(opt.gradients == 0.0_B);
    CHECK(opt.host_memory == base.optimizer_states + base.gradients);
    CHECK(opt.weights == base.weights);
    t.offload_parameters = true;
    const training_memory params = training_memory_per_gpu(cat::llama_2_7b, job, t);
    CHECK(params.host_memory == base.optimizer_states + base.gradients + base.weights);
    // Resident: two gathered units, the larger of a layer and the embedding/head (Llama-2-7B:
    // embedding + head + norms, 262 M parameters, against a layer's 202 M).
    const double embedding_class = 2.0 * 32000.0 * 4096.0 + 65.0 * 4096.0;
    CHECK(in<bytes>(params.weights) == approx(2.0 * 2.0 * embedding_class));
    // Offload needs sharding first.
    training_strategy bad{};
    bad.offload_optimizer = true;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, bad),
                         "training_memory_per_gpu: parallel.zero_stage = 0 must be 1, 2 or 3 to offload "
                         "the optimizer (ZeRO-Offload)",
                         invalid_input);
}

TEST_CASE("pipeline and expert parallelism split the weights") {
    // PP 4 on Llama-2-7B: the most loaded stage holds 8 layers and, of the embedding (first
    // stage) and the head with the final norm (last stage), the larger: the head and norm.
    serving_setup s{};
    s.parallel.pipeline = 4;
    const double layer = 202383360.0;  // 4·4096² + 3·4096·11008 + 2·4096 (derived)
    const double head_and_norm = 32000.0 * 4096.0 + 4096.0;
    CHECK(in<bytes>(inference_memory_per_gpu(cat::llama_2_7b, s).weights) ==
          approx(2.0 * (8.0 * layer + head_and_norm)));
    // A tied head (GPT-3) still needs its copy on the last stage once stages split.
    serving_setup gpt{};
    gpt.parallel.pipeline = 2;
    const double gpt_layer = 12.0 * 12288.0 * 12288.0 + 13.0 * 12288.0;
    const double embedding = (50257.0 + 2048.0) * 12288.0;  // tokens + learned positions
    CHECK(in<bytes>(inference_memory_per_gpu(cat::gpt3_175b, gpt).weights) ==
          approx(2.0 * (48.0 * gpt_layer + embedding)));
    const training_job job{};
    training_strategy t{};
    t.parallel.pipeline = 4;
    const training_memory pp = training_memory_per_gpu(cat::llama_2_7b, job, t);
    const training_memory flat = training_memory_per_gpu(cat::llama_2_7b, job, training_strategy{});
    CHECK(pp.weights < flat.weights / 3.0);
    // Mixtral: 8 experts over 8 expert-parallel ranks hold one expert each.
    training_strategy e{};
    e.parallel.data = 8;
    e.parallel.expert = 8;
    const training_memory moe = training_memory_per_gpu(cat::mixtral_8x7b, job, e);
    const training_memory dense =
        training_memory_per_gpu(cat::mixtral_8x7b, job, training_strategy{});
    CHECK(moe.weights < dense.weights / 4.0);
}

TEST_CASE("TP beyond the KV heads replicates K and V in weights, activations and cache") {
    // Llama-2-70B has 8 KV heads; at TP 16 each GPU holds one (replicated) KV head of 128.
    serving_setup s{};
    s.parallel.tensor = 16;
    const double h = 8192.0;
    const double attention = 2.0 * h * 8192.0 / 16.0 + 2.0 * h * 128.0;  // Q, O split; K, V one head
    const double mlp = 3.0 * h * 28672.0 / 16.0;
    const double layers = 80.0 * (attention + mlp);
    const double ends = 80.0 * 2.0 * h + 2.0 * 32000.0 * h / 16.0 + h;
    CHECK(in<bytes>(inference_memory_per_gpu(cat::llama_2_70b, s).weights) ==
          approx(2.0 * (layers + ends)));
}

TEST_CASE("LoRA under ZeRO-3 (FSDP-QLoRA) shards the frozen base and the adapter state") {
    training_job qlora{};
    qlora.lora.enabled = true;
    qlora.lora.adapter = {64, lora_all_linear};
    qlora.lora.frozen_base = formats::nf4_double_quant;
    qlora.fp32_master_weights = false;
    training_strategy strategy{};
    const training_memory one = training_memory_per_gpu(cat::llama_2_70b, qlora, strategy);
    strategy.parallel.data = 2;
    strategy.parallel.zero_stage = 3;
    const training_memory two = training_memory_per_gpu(cat::llama_2_70b, qlora, strategy);
    CHECK(in<bytes>(two.weights) == approx(in<bytes>(one.weights) / 2.0));
    CHECK(in<bytes>(two.optimizer_states) == approx(in<bytes>(one.optimizer_states) / 2.0));
}

TEST_CASE("without sequence parallelism the replicated terms are not split by TP") {
    // Korthikanti §4.3 states its extra terms with sequence parallelism; without it the
    // embedding-dropout mask and the output layer's 16-bit inputs are replicated on every rank.
    const training_job job = korthikanti_job();
    const training_strategy t = korthikanti_strategy(8, 1);
    const double sbh = 2048.0 * 12288.0;
    const double expected = sbh * 96.0 * (10.0 + 24.0 / 8.0 + 80.0 / 8.0) + sbh +
                            4.0 * sbh + 4.0 * 2048.0 * 51200.0 / 8.0;
    CHECK(in<bytes>(training_memory_per_gpu(cat::korthikanti_175b, job, t).activations) ==
          approx(expected));
}

TEST_CASE("recompute: the layer being recomputed holds its full activations at the peak") {
    const training_job job{};
    training_strategy full{};
    full.recompute = recompute::full;
    const training_strategy none{};
    const double per_layer_full = in<bytes>(activation_bytes_per_layer(cat::llama_2_7b, job, full));
    const double per_layer_none = in<bytes>(activation_bytes_per_layer(cat::llama_2_7b, job, none));
    const double outputs = 2.0 * 2.0 * 2048.0 * 4096.0 + 4.0 * 2048.0 * 32000.0;
    CHECK(in<bytes>(training_memory_per_gpu(cat::llama_2_7b, job, full).activations) ==
          approx(32.0 * per_layer_full + (per_layer_none - per_layer_full) + outputs));
}

TEST_CASE("a sliding window caps the attention scores kept without FlashAttention") {
    training_job job{};
    job.sequence = 32768;
    job.flash_attention = false;
    const training_strategy strategy{};
    const double capped = in<bytes>(activation_bytes_per_layer(cat::mistral_7b, job, strategy));
    transformer full_attention = cat::mistral_7b;
    full_attention.sliding_window = 0;
    const double uncapped = in<bytes>(activation_bytes_per_layer(full_attention, job, strategy));
    // Scores: 32 heads × 32,768 queries × keys × 2 bytes; keys 4,096 against 32,768.
    CHECK(uncapped - capped == approx(2.0 * 32.0 * 32768.0 * (32768.0 - 4096.0)));
}

TEST_CASE("weights at each precision practitioners quote: 7B ~14 GB fp16, 7 GB int8, 3.5 GB int4") {
    // The rule of thumb is parameters × bits ÷ 8: weights alone, all in one format, rounded to
    // one figure.
    const double n = 6738415616.0;
    serving_setup s{};
    struct row {
        storage_format format;
        double bits;
    };
    for (const row& r : {row{formats::fp16, 16.0}, row{formats::int8, 8.0}, row{formats::int4, 4.0},
                         row{formats::fp8_e4m3, 8.0}, row{formats::nf4_double_quant, 4.0 + 0.127},
                         row{formats::mxfp4, 4.25}, row{formats::int4_g128, 4.125}}) {
        s.weights = r.format;
        s.embeddings = r.format;
        CHECK(in<gigabytes>(inference_memory_per_gpu(cat::llama_2_7b, s).weights) ==
              doctest::Approx(n * r.bits / 8.0 / 1e9).epsilon(1e-3));
    }
}

TEST_CASE("min GPUs for training returns one GPU when one is enough") {
    // Llama-2-7B full training fits one H200 (141 GiB) at ZeRO-3, micro-batch 1, full recompute.
    const training_job job{};
    training_strategy strategy{};
    strategy.parallel.zero_stage = 3;
    strategy.recompute = recompute::full;
    const training_fit fit = min_gpus_for_training(cat::llama_2_7b, job, strategy, cat::h200);
    CHECK(fit.outcome == fit_outcome::found);
    CHECK(fit.gpus == 1);
}

TEST_CASE("invalid setups are rejected with the function, field, value and rule") {
    serving_setup s{};
    s.parallel.tensor = 3;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: parallel.tensor = 3 must divide attention heads = 32",
                         invalid_input);
    // TP 8 divides 48 heads, but 12 KV heads neither divide by 8 nor divide 8.
    transformer odd = cat::llama_2_7b;
    odd.heads = 48;
    odd.kv_heads = 12;
    odd.hidden = 6144;
    odd.head_dim = 128;
    s.parallel.tensor = 8;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(odd, s),
                         "inference_memory_per_gpu: parallel.tensor = 8 must divide KV heads = 12 or be a "
                         "multiple of it (KV heads are then replicated)",
                         invalid_input);
    s = serving_setup{};
    s.parallel.pipeline = 33;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: parallel.pipeline = 33 must not exceed layers = 32",
                         invalid_input);
    s = serving_setup{};
    s.batch = 0;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: batch = 0 must be >= 1", invalid_input);
    s = serving_setup{};
    s.context = -5;
    CHECK_THROWS_AS(inference_memory_per_gpu(cat::llama_2_7b, s), invalid_input);
    s = serving_setup{};
    s.overhead.cuda_context = make<gibibytes>(-1.0);
    CHECK_THROWS_AS(inference_memory_per_gpu(cat::llama_2_7b, s), invalid_input);
    s = serving_setup{};
    s.overhead.fragmentation = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(inference_memory_per_gpu(cat::llama_2_7b, s), invalid_input);

    const training_job job{};
    training_strategy t{};
    t.parallel.zero_stage = 4;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, t),
                         "training_memory_per_gpu: parallel.zero_stage = 4 must be 0, 1, 2 or 3",
                         invalid_input);
    t = training_strategy{};
    t.parallel.tensor = 5;
    CHECK_THROWS_AS(training_memory_per_gpu(cat::llama_2_7b, job, t), invalid_input);
    t = training_strategy{};
    t.parallel.tensor = 16;  // Llama-2-70B: 64 heads, 8 KV heads: 16 is a multiple of 8, valid
    CHECK_NOTHROW(training_memory_per_gpu(cat::llama_2_70b, job, t));
    t = training_strategy{};
    t.parallel.pipeline = 81;
    CHECK_THROWS_AS(training_memory_per_gpu(cat::llama_2_70b, job, t), invalid_input);
    t = training_strategy{};
    t.micro_batch = 0;
    CHECK_THROWS_AS(training_memory_per_gpu(cat::llama_2_7b, job, t), invalid_input);
    t = training_strategy{};
    t.parallel.expert = 3;
    CHECK_THROWS_AS(training_memory_per_gpu(cat::mixtral_8x7b, job, t), invalid_input);
    t = training_strategy{};
    t.offload_parameters = true;  // needs ZeRO-3
    CHECK_THROWS_AS(training_memory_per_gpu(cat::llama_2_7b, job, t), invalid_input);
    t = training_strategy{};
    t.parallel.interleave = 2;  // without pipelining
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, t),
                         "training_memory_per_gpu: parallel.interleave = 2 needs parallel.pipeline > 1",
                         invalid_input);
    t = training_strategy{};
    t.parallel.pipeline = 4;
    t.parallel.interleave = 9;  // more chunks than the 8 layers a stage holds
    CHECK_THROWS_AS(training_memory_per_gpu(cat::llama_2_7b, job, t), invalid_input);
    // A stated global batch must split into whole micro-batches on every data-parallel rank.
    training_job batched{};
    batched.global_batch = 10;
    t = training_strategy{};
    t.micro_batch = 4;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, batched, t),
                         "training_memory_per_gpu: global_batch = 10 must be a multiple of micro_batch x "
                         "parallel.data = 4 (0 leaves it unstated)",
                         invalid_input);
    training_job bad_overhead{};
    bad_overhead.overhead.communication_buffers = make<gibibytes>(-1.0);
    t = training_strategy{};
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, bad_overhead, t),
                         "training_memory_per_gpu: overhead.communication_buffers = -1 GiB must be "
                         "finite and >= 0",
                         invalid_input);
    bad_overhead = training_job{};
    bad_overhead.overhead.fragmentation = 1.0;  // the allocator cannot waste all of memory
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, bad_overhead, t),
                         "training_memory_per_gpu: overhead.fragmentation = 1 must be in [0, 1)",
                         invalid_input);
    // activation_bytes_per_layer never uses the overhead, so it does not judge it.
    CHECK_NOTHROW(activation_bytes_per_layer(cat::llama_2_7b, bad_overhead, t));
    t = training_strategy{};
    t.parallel.expert = 4;  // divides Mixtral's 8 experts but not data = 2
    t.parallel.data = 2;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::mixtral_8x7b, job, t),
                         "training_memory_per_gpu: parallel.expert = 4 must divide parallel.data = 2 "
                         "(expert parallelism runs across data-parallel ranks)",
                         invalid_input);
    serving_setup paged{};
    paged.kv_block_tokens = -16;
    CHECK_THROWS_AS(inference_memory_per_gpu(cat::llama_2_7b, paged), invalid_input);
    serving_setup huge{};
    huge.batch = std::int64_t{1} << 40;
    huge.context = std::int64_t{1} << 30;  // 2^70 tokens × 32,000 vocabulary
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, huge),
                         "inference_memory_per_gpu: batch x context x vocab = 3.77789318629572e+25 must "
                         "stay below 2^53, where counts stop being exact",
                         invalid_input);
    training_strategy negative_batch{};
    negative_batch.micro_batch = -4;
    CHECK_THROWS_AS(activation_bytes_per_layer(cat::llama_2_7b, job, negative_batch),
                    invalid_input);
    CHECK_THROWS_AS(max_batch_for_inference(cat::llama_2_7b, serving_setup{}, cat::h100_sxm, 0.0, -5),
                    invalid_input);
    CHECK_THROWS_AS(smallest_mig_profile(cat::l4, -1.0_GiB), invalid_input);
    CHECK_THROWS_AS(smallest_mig_profile(cat::l4, 1.0_GiB, 7.0), invalid_input);
    CHECK_THROWS_AS(fits(1.0_GiB, 0.0_GiB), invalid_input);
    CHECK_THROWS_AS(fits(1.0_GiB, 80.0_GiB, 1.0), invalid_input);
    CHECK_THROWS_AS(fits(-1.0_GiB, 80.0_GiB), invalid_input);
}

TEST_CASE("a stated global batch caps the micro-batches in flight below the pipeline depth") {
    // Llama-2-7B on 4 pipeline stages of 8 layers, micro-batch 2, 2 data-parallel ranks. With
    // the global batch unstated the first stage holds p = 4 micro-batches (1F1B, Korthikanti
    // §4.2.3); a global batch of 2 × micro_batch × data = 8 gives each rank 2 micro-batches per
    // step, so only 2 can be in flight. No dropout and no output layer on the first stage, so
    // the activations are 8 layers × in-flight × one layer's bytes. One layer (derived, 16-bit,
    // FlashAttention): s·b = 4,096 tokens × (2 B × (4h replicated + 2h + 2h + 3·11,008 split)
    // + 4 B × 32 heads of fp32 softmax statistics) = 4,096 × 131,712 B.
    const double per_layer =
        4096.0 * (2.0 * (4.0 * 4096.0 + 4.0 * 4096.0 + 3.0 * 11008.0) + 4.0 * 32.0);
    training_strategy strategy{};
    strategy.parallel.pipeline = 4;
    strategy.parallel.data = 2;
    strategy.micro_batch = 2;
    const training_job unstated{};
    const training_memory full = training_memory_per_gpu(cat::llama_2_7b, unstated, strategy);
    CHECK(in<bytes>(full.activations_per_layer) == approx(per_layer));
    CHECK(in<bytes>(full.activations) == approx(8.0 * 4.0 * per_layer));

    training_job two_per_step{};
    two_per_step.global_batch = 2 * strategy.micro_batch * strategy.parallel.data;
    const training_memory capped = training_memory_per_gpu(cat::llama_2_7b, two_per_step, strategy);
    CHECK(in<bytes>(capped.activations) == approx(8.0 * 2.0 * per_layer));
    CHECK(in<bytes>(capped.activations) / in<bytes>(full.activations) == approx(2.0 / 4.0));
    CHECK(capped.activations_per_layer == full.activations_per_layer);  // only the count changes
    CHECK(capped.weights == full.weights);

    // As many micro-batches per step as stages, or more, fill the pipeline: as if unstated.
    training_job four_per_step{};
    four_per_step.global_batch = 4 * strategy.micro_batch * strategy.parallel.data;
    CHECK(training_memory_per_gpu(cat::llama_2_7b, four_per_step, strategy).activations ==
          full.activations);
    training_job many_per_step{};
    many_per_step.global_batch = 64 * strategy.micro_batch * strategy.parallel.data;
    CHECK(training_memory_per_gpu(cat::llama_2_7b, many_per_step, strategy).activations ==
          full.activations);
}

TEST_CASE("context parallelism divides each GPU's activations by its degree") {
    // Korthikanti's GPT-3 175B layer (dropout on, 16-bit) at TP 8, CP 2: each GPU holds
    // 2,048 / 2 = 1,024 tokens of every sequence, so its activations are those of a
    // 1,024-token sequence without CP. FlashAttention is on because the attention scores are
    // the exception: a local query still scores the keys of the whole sequence (ring attention
    // passes every K and V block by), so without FlashAttention the s² term would be
    // (s/2)·s, not (s/2)². With it, every term is per token: one layer is
    // s'·b·h·(10 + 24/t) + 4·a·s'·b/t bytes (Table 2's selective row plus fp32 softmax
    // statistics) with s' = 1,024, b = 1, h = 12,288, a = 96, t = 8.
    const transformer& m = cat::korthikanti_175b;
    training_job job = korthikanti_job();
    job.flash_attention = true;
    training_strategy cp2 = korthikanti_strategy(8, 1);
    cp2.parallel.context_parallel = 2;
    const double local = 1024.0;
    const double expected_layer = local * 12288.0 * (10.0 + 24.0 / 8.0) + 4.0 * 96.0 * local / 8.0;
    CHECK(in<bytes>(activation_bytes_per_layer(m, job, cp2)) == approx(expected_layer));

    training_job half = job;
    half.sequence = 1024;
    const training_strategy cp1 = korthikanti_strategy(8, 1);
    CHECK(in<bytes>(activation_bytes_per_layer(m, job, cp2)) ==
          approx(in<bytes>(activation_bytes_per_layer(m, half, cp1))));
    // The whole first stage too: 96 layers, the embedding-dropout mask and the output layer's
    // inputs and fp32 logits are all per local token.
    const training_memory at_cp2 = training_memory_per_gpu(m, job, cp2);
    const training_memory at_half = training_memory_per_gpu(m, half, cp1);
    CHECK(in<bytes>(at_cp2.activations) == approx(in<bytes>(at_half.activations)));
    const double sbh = local * 12288.0;
    CHECK(in<bytes>(at_cp2.activations) ==
          approx(96.0 * expected_layer + sbh + 4.0 * sbh + 4.0 * local * 51200.0 / 8.0));
    // And half of the full sequence's, away from the scores.
    CHECK(in<bytes>(at_cp2.activations) ==
          approx(in<bytes>(training_memory_per_gpu(m, job, cp1).activations) / 2.0));

    // Without FlashAttention the scores (2 bytes, their dropout mask 1 byte and its output
    // 2 bytes, per head and query-key pair) keep all 2,048 keys per local query: CP 2 holds
    // 5 × 12 heads × 1,024 queries × (2,048 − 1,024) keys more than the half sequence.
    job.flash_attention = false;
    half.flash_attention = false;
    CHECK(in<bytes>(activation_bytes_per_layer(m, job, cp2)) -
              in<bytes>(activation_bytes_per_layer(m, half, cp1)) ==
          approx(5.0 * 12.0 * 1024.0 * (2048.0 - 1024.0)));
}

TEST_CASE("ZeRO shards model states over data x context-parallel ranks") {
    // Context-parallel ranks hold the same weights, so ZeRO (Megatron-LM's distributed
    // optimizer) shards over data × CP ranks. Llama-2-7B, N = 6,738,415,616 parameters, mixed-
    // precision AdamW (2 + 2 + 12 bytes per parameter, ZeRO §3.1), data 2 × CP 2 = 4 ranks.
    const double n = 6738415616.0;
    const training_job job{};
    training_strategy strategy{};
    strategy.parallel.data = 2;
    strategy.parallel.context_parallel = 2;
    strategy.parallel.zero_stage = 3;  // parameters, gradients and optimizer states: ÷ 4
    const training_memory stage3 = training_memory_per_gpu(cat::llama_2_7b, job, strategy);
    CHECK(in<bytes>(stage3.weights) == approx(2.0 * n / 4.0));
    CHECK(in<bytes>(stage3.gradients) == approx(2.0 * n / 4.0));
    CHECK(in<bytes>(stage3.optimizer_states) == approx(12.0 * n / 4.0));
    CHECK(in<bytes>(stage3.weights + stage3.gradients + stage3.optimizer_states) ==
          approx(16.0 * 1684603904.0));  // N / 4
    // model_states_per_gpu shards the same layout the same way.
    const model_states alone = model_states_per_gpu(n, job, strategy.parallel);
    CHECK(alone.weights == approx(stage3.weights));
    CHECK(alone.optimizer_states == approx(stage3.optimizer_states));
    parallel_layout no_cp = strategy.parallel;
    no_cp.context_parallel = 0;
    CHECK_THROWS_WITH_AS(model_states_per_gpu(n, job, no_cp),
                         "model_states_per_gpu: layout.context_parallel = 0 must be >= 1",
                         invalid_input);
    strategy.parallel.zero_stage = 1;  // optimizer states only
    const training_memory stage1 = training_memory_per_gpu(cat::llama_2_7b, job, strategy);
    CHECK(in<bytes>(stage1.weights) == approx(2.0 * n));
    CHECK(in<bytes>(stage1.gradients) == approx(2.0 * n));
    CHECK(in<bytes>(stage1.optimizer_states) == approx(12.0 * n / 4.0));
    // Without ZeRO, CP shards nothing: the states are whole on every rank.
    strategy.parallel.zero_stage = 0;
    const training_memory stage0 = training_memory_per_gpu(cat::llama_2_7b, job, strategy);
    CHECK(in<bytes>(stage0.weights + stage0.gradients + stage0.optimizer_states) ==
          approx(16.0 * n));
}

TEST_CASE("with a stated global batch the searches try only splits of it") {
    // Llama-2-7B, ZeRO-3, sequence 4,096, full recompute on A100 80GB: without a global batch
    // the fewest GPUs is the smallest degree that fits (docs/examples: 2). With a global batch
    // of 6 sequences at micro-batch 1, degrees must divide 6, and the answer is still the
    // smallest fitting one among 1, 2, 3, 6.
    training_job job{};
    job.sequence = 4096;
    training_strategy zero3{};
    zero3.parallel.zero_stage = 3;
    zero3.recompute = recompute::full;
    const training_fit free_fit = min_gpus_for_training(cat::llama_2_7b, job, zero3, cat::a100_80gb_sxm);
    REQUIRE(free_fit.outcome == fit_outcome::found);
    job.global_batch = 6;
    const training_fit split = min_gpus_for_training(cat::llama_2_7b, job, zero3, cat::a100_80gb_sxm);
    CHECK(split.outcome == fit_outcome::found);
    CHECK(split.data_parallel >= free_fit.data_parallel);
    CHECK(detail::divides(split.data_parallel, 6));
    // A global batch of 5 at degree 2 and above: only 5 splits it, so the answer is 5 GPUs.
    job.global_batch = 5;
    const training_fit five = min_gpus_for_training(cat::llama_2_7b, job, zero3, cat::a100_80gb_sxm);
    CHECK(five.outcome == fit_outcome::found);
    CHECK(five.data_parallel == (free_fit.data_parallel == 1 ? 1 : 5));
    // The largest micro-batch on 8 ranks with 64 sequences per step: one that divides 8.
    training_strategy eight = zero3;
    eight.parallel.data = 8;
    job.global_batch = 64;
    const std::int64_t b = max_micro_batch_for_training(cat::llama_2_7b, job, eight, cat::a100_80gb_sxm);
    CHECK(b >= 1);
    CHECK(detail::divides(b * 8, 64));
    training_strategy at = eight;
    at.micro_batch = b;
    CHECK(fits(training_memory_per_gpu(cat::llama_2_7b, job, at), cat::a100_80gb_sxm).ok);
    // A global batch that 8 ranks cannot split is an error, not a silent 0.
    job.global_batch = 12;
    CHECK_THROWS_WITH_AS(max_micro_batch_for_training(cat::llama_2_7b, job, eight, cat::a100_80gb_sxm),
                         "max_micro_batch_for_training: global_batch = 12 must be a multiple of micro_batch x "
                         "parallel.data = 8 (0 leaves it unstated)",
                         invalid_input);
    // The fewest-GPUs search sets parallel.data itself, so it names the smallest degree it
    // would try (parallel.expert), not whatever data degree the caller left in the strategy.
    training_strategy four_per_rank = zero3;
    four_per_rank.micro_batch = 4;
    four_per_rank.parallel.data = 3;  // ignored by the search
    job.global_batch = 6;
    CHECK_THROWS_WITH_AS(min_gpus_for_training(cat::llama_2_7b, job, four_per_rank, cat::a100_80gb_sxm),
                         "min_gpus_for_training: global_batch = 6 must be a multiple of micro_batch x "
                         "parallel.expert = 4, one micro-batch on each rank of the smallest "
                         "data-parallel degree",
                         invalid_input);
    // Errors from the memory model inside a search name the search.
    training_strategy bad_zero = zero3;
    bad_zero.parallel.zero_stage = 4;
    job.global_batch = 0;
    CHECK_THROWS_WITH_AS(min_gpus_for_training(cat::llama_2_7b, job, bad_zero, cat::a100_80gb_sxm),
                         "min_gpus_for_training: parallel.zero_stage = 4 must be 0, 1, 2 or 3",
                         invalid_input);
}

TEST_CASE("layout rules name the parallel_layout field and the rule") {
    const training_job job{};  // sequence 2,048
    training_strategy t{};
    // EP must divide the experts (Mixtral has 8), even when it divides the data degree.
    t.parallel.expert = 3;
    t.parallel.data = 3;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::mixtral_8x7b, job, t),
                         "training_memory_per_gpu: parallel.expert = 3 must divide experts = 8",
                         invalid_input);
    // CP must divide the sequence: each CP rank holds an equal share of it.
    t = training_strategy{};
    t.parallel.context_parallel = 3;
    CHECK_THROWS_WITH_AS(training_memory_per_gpu(cat::llama_2_7b, job, t),
                         "training_memory_per_gpu: parallel.context_parallel = 3 must divide sequence = "
                         "2048",
                         invalid_input);
    CHECK_THROWS_WITH_AS(activation_bytes_per_layer(cat::llama_2_7b, job, t),
                         "activation_bytes_per_layer: parallel.context_parallel = 3 must divide "
                         "sequence = 2048",
                         invalid_input);

    // A serving setup is one replica: only tensor and pipeline split it.
    serving_setup s{};
    s.parallel.data = 2;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: parallel.data = 2 must be 1: a serving setup "
                         "describes one replica split by parallel.tensor and parallel.pipeline",
                         invalid_input);
    s = serving_setup{};
    s.parallel.context_parallel = 2;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: parallel.context_parallel = 2 must be 1: a serving "
                         "setup describes one replica split by parallel.tensor and "
                         "parallel.pipeline",
                         invalid_input);
    s = serving_setup{};
    s.parallel.pipeline = 2;
    s.parallel.interleave = 2;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: parallel.interleave = 2 must be 1: a serving setup "
                         "describes one replica split by parallel.tensor and parallel.pipeline",
                         invalid_input);
    s = serving_setup{};
    s.parallel.zero_stage = 1;
    CHECK_THROWS_WITH_AS(inference_memory_per_gpu(cat::llama_2_7b, s),
                         "inference_memory_per_gpu: parallel.zero_stage = 1 must be 0: serving keeps no "
                         "optimizer state to shard",
                         invalid_input);
    // The searches take the same setup and the same rule.
    s = serving_setup{};
    s.parallel.data = 2;
    CHECK_THROWS_AS(min_gpus_for_inference(cat::llama_2_7b, s, cat::h100_sxm), invalid_input);
}
