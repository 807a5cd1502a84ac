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
serving_setup fp16_decode(std::int64_t batch, std::int64_t context, const kernel_efficiency& eff) {
    serving_setup s{};
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
    // Derived: dense BF16 peak ÷ bandwidth from each datasheet (catalog/gpus.hpp), as integers.
    CHECK(in<flops_per_byte>(ridge_point(cat::a100_80gb_sxm, compute_precision::bf16)) ==
          doctest::Approx(153.0).epsilon(0.5 / 153.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::h100_sxm, compute_precision::bf16)) ==
          doctest::Approx(295.0).epsilon(0.5 / 295.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::h200, compute_precision::bf16)) ==
          doctest::Approx(206.0).epsilon(0.5 / 206.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::mi300x, compute_precision::bf16)) ==
          doctest::Approx(247.0).epsilon(0.5 / 247.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::a100_40gb_sxm, compute_precision::bf16)) ==
          doctest::Approx(201.0).epsilon(0.5 / 201.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::h100_pcie, compute_precision::bf16)) ==
          doctest::Approx(378.0).epsilon(0.5 / 378.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::mi325x, compute_precision::bf16)) ==
          doctest::Approx(218.0).epsilon(0.5 / 218.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::l4, compute_precision::bf16)) ==
          doctest::Approx(403.0).epsilon(0.5 / 403.0));
    CHECK(in<flops_per_byte>(ridge_point(cat::t4, compute_precision::fp16)) ==
          doctest::Approx(217.0).epsilon(0.5 / 217.0));  // T4 has no bf16: its fp16 tensor peak
    CHECK(in<flops_per_byte>(ridge_point(cat::tpu_v5e, compute_precision::bf16)) ==
          doctest::Approx(240.0).epsilon(1.0 / 240.0));  // 240.5, truncated in the table
    CHECK(in<flops_per_byte>(ridge_point(cat::tpu_v5p, compute_precision::bf16)) ==
          doctest::Approx(166.0).epsilon(0.5 / 166.0));
    // (B200's 281 is left out: its figures are uncertain.)
    // FP8 doubles the peak and so the ridge.
    CHECK(approx_equal(ridge_point(cat::h100_sxm, compute_precision::fp8),
                       2.0 * ridge_point(cat::h100_sxm, compute_precision::bf16), 1e-3));
}

TEST_CASE("bound classification on both sides of the ridge") {
    // Williams et al. 2009: below the ridge an op is memory-bound, above it compute-bound.
    const arithmetic_intensity ridge = ridge_point(cat::h100_sxm, compute_precision::bf16);
    const data_size bytes = 1.0_GB;
    const op_timing below = op_time({0.5 * in<flops_per_byte>(ridge) * make<flops>(1e9), bytes},
                                    cat::h100_sxm, compute_precision::bf16, kernel_efficiency::ideal());
    const op_timing above = op_time({2.0 * in<flops_per_byte>(ridge) * make<flops>(1e9), bytes},
                                    cat::h100_sxm, compute_precision::bf16, kernel_efficiency::ideal());
    CHECK(below.bound == bound::memory);
    CHECK(above.bound == bound::compute);
    CHECK(approx_equal(below.time, bytes / cat::h100_sxm.memory_bandwidth));
    CHECK(approx_equal(above.attained, peak(cat::h100_sxm, compute_precision::bf16)));
    // attainable() is the same roof.
    CHECK(approx_equal(attainable(cat::h100_sxm, compute_precision::bf16, 0.5 * ridge, kernel_efficiency::ideal()),
                       0.5 * peak(cat::h100_sxm, compute_precision::bf16)));
}

TEST_CASE("GEMM: 2mnk FLOPs and the operands' bytes") {
    const op_cost g = gemm(4096, 4096, 4096);
    CHECK(g.flops == make<flops>(2.0 * 4096.0 * 4096.0 * 4096.0));
    CHECK(g.bytes == make<bytes>(3.0 * 4096.0 * 4096.0 * 2.0));
    // A large square GEMM is far above the ridge; a matrix-vector product far below.
    CHECK(op_time(g, cat::a100_80gb_sxm, compute_precision::bf16).bound == bound::compute);
    CHECK(op_time(gemm(1, 4096, 4096), cat::a100_80gb_sxm, compute_precision::bf16).bound ==
          bound::memory);
}

TEST_CASE("attention: FlashAttention moves no score matrix but streams K and V per query block") {
    // Dao et al. 2022: the standard algorithm writes and reads back S and P (one element per
    // pair and head each); FlashAttention reads Q, writes O, and re-reads K and V once per block
    // of queries (Theorem 2). Non-causal, 4,096 queries over 4,096 keys, 16-bit.
    const double n = 4096.0;
    const op_cost flash = attention_cost(cat::llama_2_7b, 1, 4096, 4096, true, false);
    const op_cost standard = attention_cost(cat::llama_2_7b, 1, 4096, 4096, false, false);
    CHECK(flash.flops == standard.flops);
    CHECK(approx_equal(in<flops>(flash.flops), 4.0 * n * n * 4096.0));
    const double q_and_o = 2.0 * n * 4096.0;
    const double k_and_v = 2.0 * n * 4096.0;
    CHECK(approx_equal(in<bytes>(standard.bytes), 2.0 * (q_and_o + k_and_v + 4.0 * 32.0 * n * n)));
    CHECK(approx_equal(in<bytes>(flash.bytes), 2.0 * (q_and_o + (n / 128.0) * k_and_v)));
    // A causal mask halves the pairs (n(n+1)/2 of n²), and so the FLOPs.
    const op_cost causal = attention_cost(cat::llama_2_7b, 1, 4096, 4096, true, true);
    CHECK(approx_equal(in<flops>(causal.flops), 4.0 * (n * (n + 1.0) / 2.0) * 4096.0));
    // Decode attention (one query over a 4k cache) reads the whole cache: memory-bound.
    CHECK(op_time(attention_cost(cat::llama_2_7b, 1, 1, 4096), cat::h100_sxm, compute_precision::bf16)
              .bound == bound::memory);
    // Mistral's window caps the keys each query sees: 8,192 new tokens cost what 4,096-key
    // windows allow.
    const op_cost windowed = attention_cost(cat::mistral_7b, 1, 8192, 8192, true, false);
    CHECK(approx_equal(in<flops>(windowed.flops), 4.0 * 8192.0 * 4096.0 * 4096.0));
    CHECK_THROWS_AS(attention_cost(cat::llama_2_7b, 1, 10, 5), invalid_input);
}

TEST_CASE("MoE: a large batch reaches every expert; a single token only its top-k") {
    // Mixtral routes each token to 2 of 8 experts; 256 tokens almost surely touch all 8.
    serving_setup one{};
    one.prompt = 1;
    serving_setup many{};
    many.prompt = 256;
    const double few = in<bytes>(prefill(cat::mixtral_8x7b, cat::h200, one).bytes);
    const double all = in<bytes>(prefill(cat::mixtral_8x7b, cat::h200, many).bytes);
    const parameter_counts c = parameter_count(cat::mixtral_8x7b);
    CHECK(approx_equal(few, 2.0 * static_cast<double>(c.active - c.embedding), 1e-3));
    CHECK(approx_equal(all, 2.0 * static_cast<double>(c.total - c.embedding), 1e-3));
    // The same for decode: batch 256 reads what prefill of 256 tokens reads.
    serving_setup d{};
    d.batch = 256;
    d.context = 1;
    CHECK(approx_equal(in<bytes>(decode(cat::mixtral_8x7b, cat::h200, d).weight_bytes),
                       in<bytes>(prefill(cat::mixtral_8x7b, cat::h200, many).bytes) -
                           256.0 * 131072.0, 1e-3));
}

TEST_CASE("ideal Llama-2-7B batch-1 fp16 decode on A100 80GB: the weights over the bandwidth") {
    // The figure: 13.48 GB of weights at 2.039 TB/s is about 151 tokens/s. A decode
    // step reads every weight except the input-embedding table, of which it looks up one row
    // (131 M parameters of 6.74 B): 13.21 GB, so 154 tokens/s, within 2.5% of 151.
    const decode_estimate d = decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, kernel_efficiency::ideal()));
    CHECK(d.bound == bound::memory);
    const double weights = (6738415616.0 - 32000.0 * 4096.0) * 2.0;
    CHECK(approx_equal(in<bytes>(d.weight_bytes), weights));
    const double per_stream = in<tokens_per_second_per_stream>(d.stream_rate);
    CHECK(approx_equal(per_stream, 2.039e12 / (weights + in<bytes>(d.kv_bytes))));
    CHECK(per_stream == doctest::Approx(151.0).epsilon(0.025));
    CHECK(approx_equal(in<tokens_per_second>(d.aggregate_rate), per_stream));  // batch 1
    // With the KV reads of a 4k context, and at the default efficiency, it must come out lower.
    const decode_estimate with_kv =
        decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 4096, kernel_efficiency::ideal()));
    const decode_estimate realistic =
        decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 4096, kernel_efficiency{}));
    CHECK(with_kv.stream_rate < d.stream_rate);
    CHECK(realistic.stream_rate < with_kv.stream_rate);
}

TEST_CASE("measured decode: gpt-fast's Llama-2-7B on A100 is ~69% of bandwidth") {
    // pytorch-labs/gpt-fast README: Llama-2-7B, bf16, A100-80GB (330 W): 104.9 tokens/s at
    // 1,397 GB/s of model bandwidth, i.e. 68.5% of 2.039 TB/s (their count of bytes differs a
    // little from ours, which leaves out the embedding table). Printed to 3 figures; our
    // estimate is held to 2%.
    const model_utilization u =
        decode_utilization(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, kernel_efficiency::ideal()), 104.9_tokens_per_s_per_stream);
    CHECK(u.mbu == doctest::Approx(1397.0 / 2039.0).epsilon(0.02));
    CHECK(u.mfu < 0.01);  // batch-1 decode leaves the tensor cores idle
}

TEST_CASE("a claimed decode rate above the bandwidth bound is impossible") {
    const plausibility fast =
        check_decode_claim(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, kernel_efficiency::ideal()), 200.0_tokens_per_s_per_stream);
    CHECK_FALSE(fast.possible);
    CHECK(fast.fraction_of_ceiling > 1.0);
    CHECK(fast.bound == bound::memory);
    const plausibility ok =
        check_decode_claim(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 1, kernel_efficiency::ideal()), 104.9_tokens_per_s_per_stream);
    CHECK(ok.possible);
}

TEST_CASE("batching pays until decode turns compute-bound, near the ridge point") {
    // With weights alone (context 1) a decode step does 2 FLOPs per weight per sequence over 2
    // bytes per weight: batch b has intensity ~b FLOP/B, so it crosses at about the ridge.
    const kernel_efficiency eff{};
    const compute_bound_crossover crossover = decode_compute_bound_batch(
        cat::llama_3_8b, cat::a100_80gb_sxm, fp16_decode(1, 1, eff));
    const double ridge = in<flops_per_byte>(ridge_point(cat::a100_80gb_sxm, compute_precision::fp16, eff));
    REQUIRE(crossover.reached);
    CHECK(static_cast<double>(crossover.batch) == doctest::Approx(ridge).epsilon(0.1));
    // Below the crossover, aggregate throughput grows almost linearly with the batch.
    const token_rate one = decode(cat::llama_3_8b, cat::a100_80gb_sxm, fp16_decode(1, 1, eff)).aggregate_rate;
    const token_rate eight = decode(cat::llama_3_8b, cat::a100_80gb_sxm, fp16_decode(8, 1, eff)).aggregate_rate;
    CHECK(eight > 7.5 * one);
    // Llama-2-7B's full-size KV cache grows as fast as its FLOPs at 512 tokens: never crosses.
    CHECK_FALSE(decode_compute_bound_batch(cat::llama_2_7b, cat::a100_80gb_sxm, fp16_decode(1, 512, eff)).reached);
}

TEST_CASE("monotone: more bandwidth never slows decode, more FLOP/s never slows prefill") {
    gpu_spec faster_memory = cat::h100_sxm;
    faster_memory.memory_bandwidth = 2.0 * cat::h100_sxm.memory_bandwidth;
    gpu_spec faster_compute = cat::h100_sxm;
    faster_compute.dense_peak.bf16 = 2.0 * cat::h100_sxm.dense_peak.bf16;
    for (std::int64_t batch : {1, 16, 256, 4096}) {
        CAPTURE(batch);
        serving_setup d{};
        d.batch = batch;
        CHECK(decode(cat::llama_3_8b, faster_memory, d).time_per_token <=
              decode(cat::llama_3_8b, cat::h100_sxm, d).time_per_token);
        serving_setup p{};
        p.batch = batch;
        p.prompt = 512;
        CHECK(prefill(cat::llama_3_8b, faster_compute, p).time_to_first_token <=
              prefill(cat::llama_3_8b, cat::h100_sxm, p).time_to_first_token);
    }
}

TEST_CASE("prefill is compute-bound and causal attention halves the score work") {
    serving_setup p{};
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
    CHECK(in<days>(megatron_training_time(300.0_B_tokens, 175e9, 1024, 140.0_TFLOPS)) ==
          doctest::Approx(34.0).epsilon(0.5 / 34.0));
    CHECK(in<days>(megatron_training_time(450.0_B_tokens, 1008.0e9, 3072, 163.0_TFLOPS)) ==
          doctest::Approx(84.0).epsilon(0.5 / 84.0));
}

TEST_CASE("time to train: tokens × FLOPs per token over GPUs × peak × MFU") {
    training_job job{};
    job.sequence = 4096;  // Llama 2's context (Touvron et al. 2023, Table 1)
    parallel_layout gpus{};
    gpus.data = 1024;
    mfu_assumption at_half{};
    at_half.mfu = 0.5;
    at_half.six_n_d = true;
    const duration t = time_to_train(cat::llama_2_7b, cat::a100_80gb_sxm, 2.0_T_tokens, job, gpus, at_half);
    // N: Kaplan et al. 2020's non-embedding parameters (the 131 M-entry token table left out).
    const double expected = 6.0 * (6738415616.0 - 32000.0 * 4096.0) * 2e12 / (1024.0 * 0.5 * 312e12);
    CHECK(approx_equal(in<seconds>(t), expected));
    // Llama 2 (Touvron et al. 2023, Table 2): 7B on 2 T tokens took 184,320 A100-80GB GPU
    // hours. At the default MFU the estimate lands within a factor of 1.5 of it.
    const duration default_mfu =
        time_to_train(cat::llama_2_7b, cat::a100_80gb_sxm, 2.0_T_tokens, job, parallel_layout{});
    const double gpu_hours = in<hours>(default_mfu);
    CHECK(gpu_hours > 184320.0 / 1.5);
    CHECK(gpu_hours < 184320.0 * 1.5);
}

TEST_CASE("training step time and MFU from a measured throughput are inverses") {
    training_job job{};
    job.sequence = 4096;
    job.global_batch = 1024;  // a 4M-token global batch
    parallel_layout gpus{};
    gpus.data = 64;
    mfu_assumption assumed{};
    assumed.mfu = 0.45;
    const token_count per_step = make<tokens>(1024.0 * 4096.0);
    const duration step = training_step_time(cat::llama_3_8b, cat::h100_sxm, job, gpus, assumed);
    CHECK(approx_equal(training_mfu(cat::llama_3_8b, cat::h100_sxm, per_step / step, job, gpus),
                       0.45));
    // Korthikanti et al. 2022 / Megatron-LM: the 175B GPT at 51.4% MFU on A100 (Table 5).
    training_job megatron{};
    megatron.sequence = 2048;
    megatron.global_batch = 64;
    mfu_assumption reported{};
    reported.mfu = 0.514;
    const duration mega = training_step_time(cat::korthikanti_175b, cat::a100_80gb_sxm, megatron, gpus, reported);
    CHECK(approx_equal(training_mfu(cat::korthikanti_175b, cat::a100_80gb_sxm,
                                    make<tokens>(64.0 * 2048.0) / mega, megatron, gpus), 0.514));
}

TEST_CASE("bad input is invalid_input naming the field") {
    CHECK_THROWS_WITH_AS(op_time({0.0_FLOP, 1.0_GB}, cat::h100_sxm, compute_precision::bf16),
                         "op_time: op.flops = 0 FLOP must be finite and > 0", invalid_input);
    CHECK_THROWS_AS(op_time({1.0_FLOP, -1.0_GB}, cat::h100_sxm, compute_precision::bf16),
                    invalid_input);
    kernel_efficiency bad{};
    bad.compute = 1.5;
    CHECK_THROWS_WITH_AS(op_time({1.0_FLOP, 1.0_GB}, cat::h100_sxm, compute_precision::bf16, bad),
                         "op_time: efficiency.compute = 1.5 must be in (0, 1]", invalid_input);
    bad = kernel_efficiency{};
    bad.memory = 0.0;
    CHECK_THROWS_AS(decode(cat::llama_2_7b, cat::h100_sxm, [&] {
                        serving_setup s{};
                        s.efficiency = bad;
                        return s;
                    }()),
                    invalid_input);
    serving_setup zero_batch{};
    zero_batch.batch = 0;
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::h100_sxm, zero_batch),
                         "decode: batch = 0 must be >= 1", invalid_input);
    // Functions built on decode name themselves, not decode.
    CHECK_THROWS_WITH_AS(check_decode_claim(cat::llama_2_7b, cat::h100_sxm, zero_batch,
                                            100.0_tokens_per_s_per_stream),
                         "check_decode_claim: batch = 0 must be >= 1", invalid_input);
    serving_setup three_way{};
    three_way.parallel.tensor = 3;
    CHECK_THROWS_WITH_AS(decode_compute_bound_batch(cat::llama_2_7b, cat::h100_sxm, three_way),
                         "decode_compute_bound_batch: parallel.tensor = 3 must divide attention heads = 32",
                         invalid_input);
    CHECK_THROWS_AS(gemm(0, 1, 1), invalid_input);
    serving_setup fp8{};
    fp8.compute = compute_precision::fp8;  // no fp8 on Ampere
    CHECK_THROWS_AS(decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp8), invalid_input);
    gpu_spec no_bandwidth = cat::h100_sxm;
    no_bandwidth.memory_bandwidth = 0.0_GB_per_s;
    CHECK_THROWS_AS(decode(cat::llama_2_7b, no_bandwidth, serving_setup{}), invalid_input);
    mfu_assumption none{};
    none.mfu = 0.0;
    CHECK_THROWS_WITH_AS(time_to_train(cat::llama_2_7b, cat::h100_sxm, 1.0_T_tokens, training_job{},
                                       parallel_layout{}, none),
                         "time_to_train: assumption.mfu = 0 must be in (0, 1]", invalid_input);
    CHECK_THROWS_WITH_AS(training_step_time(cat::llama_2_7b, cat::h100_sxm, training_job{},
                                            parallel_layout{}),
                         "training_step_time: job.global_batch = 0 must be >= 1", invalid_input);
    parallel_layout three{};
    three.tensor = 3;
    CHECK_THROWS_WITH_AS(time_to_train(cat::llama_2_7b, cat::h100_sxm, 1.0_T_tokens, training_job{}, three),
                         "time_to_train: parallel.tensor = 3 must divide attention heads = 32",
                         invalid_input);
    CHECK_THROWS_AS(check_decode_claim(cat::llama_2_7b, cat::h100_sxm, serving_setup{}, -1.0_tokens_per_s_per_stream),
                    invalid_input);
    CHECK_THROWS_WITH_AS(decode_utilization(cat::llama_2_7b, cat::h100_sxm, serving_setup{},
                                            make<tokens_per_second_per_stream>(
                                                std::numeric_limits<double>::quiet_NaN())),
                         "decode_utilization: measured = nan tokens/s per stream must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_AS(attainable(no_bandwidth, compute_precision::bf16, 100.0_FLOP_per_B), invalid_input);
    CHECK_THROWS_AS(attainable(cat::h100_sxm, compute_precision::bf16, 0.0_FLOP_per_B), invalid_input);
    kernel_efficiency too_much{};
    too_much.memory = 2.0;
    CHECK_THROWS_AS(ridge_point(cat::h100_sxm, compute_precision::bf16, too_much), invalid_input);
    gpu_spec infinite = cat::h100_sxm;
    infinite.dense_peak.bf16 = make<flops_per_second>(std::numeric_limits<double>::infinity());
    CHECK_THROWS_WITH_AS(peak(infinite, compute_precision::bf16),
                         "peak: dense_peak.bf16 = inf FLOP/s must be finite and >= 0", invalid_input);
    serving_setup no_prompt{};
    no_prompt.prompt = 0;
    CHECK_THROWS_WITH_AS(prefill(cat::llama_2_7b, cat::h100_sxm, no_prompt),
                         "prefill: prompt = 0 must be >= 1", invalid_input);
    CHECK_THROWS_AS(attention_cost(cat::llama_2_7b, 0, 1, 1), invalid_input);
    CHECK_THROWS_AS(megatron_training_time(1.0_B_tokens, 1e9, 0, 100.0_TFLOPS), invalid_input);
    CHECK_THROWS_AS(megatron_training_time(1.0_B_tokens, -1e9, 8, 100.0_TFLOPS), invalid_input);
    training_job bad_sequence{};
    bad_sequence.sequence = 0;
    CHECK_THROWS_WITH_AS(time_to_train(cat::llama_2_7b, cat::h100_sxm, 1.0_T_tokens, bad_sequence,
                                       parallel_layout{}),
                         "time_to_train: job.sequence = 0 must be >= 1", invalid_input);
    serving_setup two_replicas{};
    two_replicas.parallel.data = 2;
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::h100_sxm, two_replicas),
                         "decode: parallel.data = 2 must be 1: a serving setup describes one "
                         "replica split by parallel.tensor and parallel.pipeline",
                         invalid_input);
}
