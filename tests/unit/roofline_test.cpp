// roofline_test.cpp: op rooflines, and LLM decode, prefill and training time against the
// datasheets and published figures.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/roofline.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
decode_setup fp16_decode(std::int64_t batch, std::int64_t context, const efficiency& eff) {
    decode_setup s{};
    s.batch = batch;
    s.context = context;
    s.weights = formats::fp16;
    s.embeddings = formats::fp16;
    s.kv_cache = formats::fp16;
    s.compute = compute_precision::fp16;
    s.efficiency = eff;
    return s;
}
}  // namespace

TEST_CASE("ridge points from the datasheets") {
    // reference/hardware-and-models.md, dense BF16 peak ÷ bandwidth, printed as integers.
    CHECK(in<flops_per_byte>(ridge_point(cat::a100_80gb_sxm, compute_precision::bf16)) ==
          doctest::Approx(153.0).epsilon(0.5 / 153.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::h100_sxm, compute_precision::bf16)) ==
          doctest::Approx(295.0).epsilon(0.5 / 295.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::h200, compute_precision::bf16)) ==
          doctest::Approx(206.0).epsilon(0.5 / 206.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::mi300x, compute_precision::bf16)) ==
          doctest::Approx(247.0).epsilon(0.5 / 247.0));
    // FP8 doubles the peak and so the ridge.
    CHECK(approx_equal(ridge_point(cat::h100_sxm, compute_precision::fp8),
                       2.0 * ridge_point(cat::h100_sxm, compute_precision::bf16), 1e-3));
}

TEST_CASE("bound classification on both sides of the ridge") {
    // Williams et al. 2009: below the ridge an op is memory-bound, above it compute-bound.
    const arithmetic_intensity ridge = ridge_point(cat::h100_sxm, compute_precision::bf16);
    const data_size bytes = 1.0_GB;
    const op_timing below = op_time({0.5 * in<flops_per_byte>(ridge) * make<flops>(1e9), bytes},
                                    cat::h100_sxm, compute_precision::bf16, ideal);
    const op_timing above = op_time({2.0 * in<flops_per_byte>(ridge) * make<flops>(1e9), bytes},
                                    cat::h100_sxm, compute_precision::bf16, ideal);
    CHECK(below.limit == bound::memory);
    CHECK(above.limit == bound::compute);
    CHECK(approx_equal(below.time, bytes / cat::h100_sxm.memory_bandwidth));
    CHECK(approx_equal(above.attained, peak(cat::h100_sxm, compute_precision::bf16)));
    // attainable() is the same roof.
    CHECK(approx_equal(attainable(cat::h100_sxm, compute_precision::bf16, 0.5 * ridge, ideal),
                       0.5 * peak(cat::h100_sxm, compute_precision::bf16)));
}

TEST_CASE("GEMM: 2mnk FLOPs and the operands' bytes") {
    const op_cost g = gemm(4096, 4096, 4096);
    CHECK(g.flops == make<flops>(2.0 * 4096.0 * 4096.0 * 4096.0));
    CHECK(g.bytes == make<bytes>(3.0 * 4096.0 * 4096.0 * 2.0));
    // A large square GEMM is far above the ridge; a matrix-vector product far below.
    CHECK(op_time(g, cat::a100_80gb_sxm, compute_precision::bf16).limit == bound::compute);
    CHECK(op_time(gemm(1, 4096, 4096), cat::a100_80gb_sxm, compute_precision::bf16).limit ==
          bound::memory);
}

TEST_CASE("attention: FlashAttention moves no score matrix") {
    // Dao et al. 2022: the standard algorithm writes and reads S and P, O(N²) bytes;
    // FlashAttention reads Q, K, V and writes O.
    const op_cost flash = attention_cost(cat::llama_2_7b, 1, 4096, 4096, true);
    const op_cost standard = attention_cost(cat::llama_2_7b, 1, 4096, 4096, false);
    CHECK(flash.flops == standard.flops);
    CHECK(approx_equal(in<bytes>(standard.bytes - flash.bytes), 2.0 * 4.0 * 32.0 * 4096.0 * 4096.0));
    CHECK(approx_equal(in<bytes>(flash.bytes), 2.0 * 4.0 * 4096.0 * 4096.0));
    // Decode attention (one query) reads the whole cache: memory-bound.
    CHECK(op_time(attention_cost(cat::llama_2_7b, 1, 1, 4096), cat::h100_sxm, compute_precision::bf16)
              .limit == bound::memory);
}

TEST_CASE("ideal Llama-2-7B batch-1 fp16 decode on A100 80GB: the weights over the bandwidth") {
    // The figure: 13.48 GB of weights at 2.039 TB/s is about 151 tokens/s. A decode
    // step reads every weight except the input-embedding table, of which it looks up one row
    // (131 M parameters of 6.74 B): 13.21 GB, so 154 tokens/s, within 2.5% of 151.
    const decode_estimate d = decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, ideal));
    CHECK(d.bound == bound::memory);
    const double weights = (6738415616.0 - 32000.0 * 4096.0) * 2.0;
    CHECK(approx_equal(in<bytes>(d.weight_bytes), weights));
    CHECK(d.tokens_per_second == doctest::Approx(2.039e12 / (weights + in<bytes>(d.kv_bytes))));
    CHECK(d.tokens_per_second == doctest::Approx(151.0).epsilon(0.025));
    // With the KV reads of a 4k context, and at the default efficiency, it must come out lower.
    const decode_estimate with_kv =
        decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 4096, ideal));
    const decode_estimate realistic =
        decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 4096, efficiency{}));
    CHECK(with_kv.tokens_per_second < d.tokens_per_second);
    CHECK(realistic.tokens_per_second < with_kv.tokens_per_second);
}

TEST_CASE("measured decode: gpt-fast's Llama-2-7B on A100 is ~69% of bandwidth") {
    // pytorch-labs/gpt-fast README: Llama-2-7B, bf16, A100-80GB (330 W): 104.9 tokens/s at
    // 1,397 GB/s of model bandwidth, i.e. 68.5% of 2.039 TB/s (their count of bytes differs a
    // little from ours, which leaves out the embedding table). Printed to 3 figures; our
    // estimate is held to 2%.
    const utilization u =
        decode_utilization(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, ideal), 104.9);
    CHECK(u.mbu == doctest::Approx(1397.0 / 2039.0).epsilon(0.02));
    CHECK(u.mfu < 0.01);  // batch-1 decode leaves the tensor cores idle
}

TEST_CASE("a claimed decode rate above the bandwidth bound is impossible") {
    const plausibility fast =
        check_decode_claim(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, ideal), 200.0);
    CHECK_FALSE(fast.possible);
    CHECK(fast.fraction_of_bound > 1.0);
    CHECK(fast.limit == bound::memory);
    const plausibility ok =
        check_decode_claim(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, ideal), 104.9);
    CHECK(ok.possible);
}

TEST_CASE("batching pays until decode turns compute-bound, near the ridge point") {
    // With weights alone (context 1) a decode step does 2 FLOPs per weight per sequence over 2
    // bytes per weight: batch b has intensity ~b FLOP/B, so it crosses at about the ridge.
    const efficiency eff{};
    const std::int64_t crossover = decode_compute_bound_batch(cat::llama_3_8b, cat::a100_80gb_sxm,
                                                              fp16_decode(1, 1, eff));
    const double ridge = in<flops_per_byte>(ridge_point(cat::a100_80gb_sxm, compute_precision::fp16, eff));
    CHECK(static_cast<double>(crossover) == doctest::Approx(ridge).epsilon(0.1));
    // Below the crossover, aggregate throughput grows almost linearly with the batch.
    const double one = decode(cat::llama_3_8b, cat::a100_80gb_sxm, fp16_decode(1, 1, eff)).aggregate_tokens_per_second;
    const double eight = decode(cat::llama_3_8b, cat::a100_80gb_sxm, fp16_decode(8, 1, eff)).aggregate_tokens_per_second;
    CHECK(eight > 7.5 * one);
    // Llama-2-7B's full-size KV cache grows as fast as its FLOPs at 512 tokens: never crosses.
    CHECK(decode_compute_bound_batch(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 512, eff)) == 0);
}

TEST_CASE("monotone: more bandwidth never slows decode, more FLOP/s never slows prefill") {
    gpu_spec faster_memory = cat::h100_sxm;
    faster_memory.memory_bandwidth = 2.0 * cat::h100_sxm.memory_bandwidth;
    gpu_spec faster_compute = cat::h100_sxm;
    faster_compute.dense_peak.bf16 = 2.0 * cat::h100_sxm.dense_peak.bf16;
    for (std::int64_t batch : {1, 16, 256, 4096}) {
        CAPTURE(batch);
        decode_setup d{};
        d.batch = batch;
        CHECK(decode(cat::llama_3_8b, faster_memory, d).time_per_token <=
              decode(cat::llama_3_8b, cat::h100_sxm, d).time_per_token);
        prefill_setup p{};
        p.batch = batch;
        p.prompt = 512;
        CHECK(prefill(cat::llama_3_8b, faster_compute, p).time_to_first_token <=
              prefill(cat::llama_3_8b, cat::h100_sxm, p).time_to_first_token);
    }
}

TEST_CASE("prefill is compute-bound and causal attention halves the score work") {
    prefill_setup p{};
    p.prompt = 8192;
    const prefill_estimate causal = prefill(cat::llama_3_8b, cat::h100_sxm, p);
    p.causal = false;
    const prefill_estimate full = prefill(cat::llama_3_8b, cat::h100_sxm, p);
    CHECK(causal.bound == bound::compute);
    CHECK(causal.flops < full.flops);
    // The difference is the masked half of the scores: Σ keys = n(n+1)/2 against n².
    const forward_flops one = forward_flops_per_token(cat::llama_3_8b, 1);
    CHECK(approx_equal(full.flops - causal.flops,
                       (8192.0 * 8192.0 - 8192.0 * 8193.0 / 2.0) * one.attention));
}

TEST_CASE("training time: Narayanan Eq. 4 reproduces the paper's 34 and 84 days") {
    // Narayanan et al. 2021, §5.1: GPT-3 (175 B) on 300 B tokens with 1,024 A100s at
    // 140 TFLOP/s each: about 34 days; the 1 T model on 450 B tokens with 3,072 GPUs at
    // 163 TFLOP/s: about 84 days.
    CHECK(in<days>(megatron_training_time(300e9, 175e9, 1024, 140.0_TFLOPS)) ==
          doctest::Approx(34.0).epsilon(0.5 / 34.0));
    CHECK(in<days>(megatron_training_time(450e9, 1008.0e9, 3072, 163.0_TFLOPS)) ==
          doctest::Approx(84.0).epsilon(0.5 / 84.0));
}

TEST_CASE("time to train: tokens × FLOPs per token over GPUs × peak × MFU") {
    training_run run{};
    run.gpus = 1024;
    run.mfu = 0.5;
    run.six_n_d = true;
    const duration t = time_to_train(cat::llama_2_7b, cat::a100_80gb_sxm, 2e12, run);
    const double expected = 6.0 * 6738415616.0 * 2e12 / (1024.0 * 0.5 * 312e12);
    CHECK(approx_equal(in<seconds>(t), expected));
    // Llama 2 (Touvron et al. 2023, Table 2): 7B on 2 T tokens took 184,320 A100-80GB GPU
    // hours. At the default MFU the estimate lands within a factor of 1.5 of it.
    const duration default_mfu = time_to_train(cat::llama_2_7b, cat::a100_80gb_sxm, 2e12,
                                               training_run{1, 4096, compute_precision::bf16});
    const double gpu_hours = in<hours>(default_mfu);
    CHECK(gpu_hours > 184320.0 / 1.5);
    CHECK(gpu_hours < 184320.0 * 1.5);
}

TEST_CASE("bad input is invalid_input naming the field") {
    CHECK_THROWS_WITH_AS(op_time({0.0_FLOP, 1.0_GB}, cat::h100_sxm, compute_precision::bf16),
                         "op_time: op.flops = 0 FLOP must be finite and > 0", invalid_input);
    CHECK_THROWS_AS(op_time({1.0_FLOP, -1.0_GB}, cat::h100_sxm, compute_precision::bf16),
                    invalid_input);
    efficiency bad{};
    bad.compute = 1.5;
    CHECK_THROWS_WITH_AS(op_time({1.0_FLOP, 1.0_GB}, cat::h100_sxm, compute_precision::bf16, bad),
                         "op_time: efficiency.compute = 1.5 must be in (0, 1]", invalid_input);
    bad = efficiency{};
    bad.memory = 0.0;
    CHECK_THROWS_AS(decode(cat::llama_2_7b, cat::h100_sxm, [&] {
                        decode_setup s{};
                        s.efficiency = bad;
                        return s;
                    }()),
                    invalid_input);
    decode_setup zero_batch{};
    zero_batch.batch = 0;
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::h100_sxm, zero_batch),
                         "decode: batch = 0 must be >= 1", invalid_input);
    CHECK_THROWS_AS(gemm(0, 1, 1), invalid_input);
    decode_setup fp8{};
    fp8.compute = compute_precision::fp8;  // no fp8 on Ampere
    CHECK_THROWS_AS(decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp8), invalid_input);
    gpu_spec no_bandwidth = cat::h100_sxm;
    no_bandwidth.memory_bandwidth = 0.0_GB_per_s;
    CHECK_THROWS_AS(decode(cat::llama_2_7b, no_bandwidth, decode_setup{}), invalid_input);
    training_run run{};
    run.mfu = 0.0;
    CHECK_THROWS_AS(time_to_train(cat::llama_2_7b, cat::h100_sxm, 1e12, run), invalid_input);
    CHECK_THROWS_AS(check_decode_claim(cat::llama_2_7b, cat::h100_sxm, decode_setup{}, -1.0),
                    invalid_input);
    CHECK_THROWS_AS(decode_utilization(cat::llama_2_7b, cat::h100_sxm, decode_setup{},
                                       std::numeric_limits<double>::quiet_NaN()),
                    invalid_input);
}
