// serving_capacity_test.cpp: one replica's capacity under continuous batching. A tiny model on a
// toy GPU where the decode step is memory-bound and worked by hand, T(B) = (W + B × KV) ÷ BW,
// so the largest batch at the SLO is a floor by hand; the stall bound 1 ÷ (P + D·T(B)/B) and
// the disaggregated B ÷ (D·T(B)) reproduced; the load model worked by hand on an affine step;
// the largest batch against a scan on Llama-3-8B; disaggregated ≥ chunked and stall (property),
// chunked ≥ stall at the default chunk and a tiny chunk where it is not; infeasible answers.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/memory/fit.hpp>
#include <gpucalc/roofline/inference.hpp>
#include <gpucalc/serving.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cstdint>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {

/// 4 layers, h = 256, 4 heads of 64, plain 1,024-wide MLP, vocab 1,024, LayerNorm, RoPE: the
/// model of scaling_step_test.cpp. A token's KV cache is 2 × 4 layers × 256 × 2 B = 4,096 B.
constexpr transformer tiny = [] {
    transformer m{};
    m.name = "tiny";
    m.layers = 4;
    m.hidden = 256;
    m.heads = 4;
    m.kv_heads = 4;
    m.head_dim = 64;
    m.ffn_hidden = 1024;
    m.vocab = 1024;
    m.max_context = 1024;
    m.mlp = mlp_kind::plain;
    m.norm = norm_kind::layer_norm;
    return m;
}();

/// A GPU of 100 TFLOP/s bf16 and 1 TB/s (ridge 100 FLOP/B), `memory` bytes.
gpu_spec toy_gpu(double memory = 80e9) {
    gpu_spec g = cat::h100_sxm;
    g.name = "toy";
    g.dense_peak.bf16 = make<flops_per_second>(1e14);
    g.memory_bandwidth = make<bytes_per_second>(1e12);
    g.memory = make<bytes>(memory);
    g.mig = nullptr;
    g.mig_count = 0;
    g.multiprocessors = 0;
    return g;
}

checked_cluster one_gpu(const gpu_spec& g) {
    cluster c{};
    c.node.gpu = g;
    c.node.gpus_per_node = 1;
    return check(c);
}

/// Every peak reached, no runtime overhead: the step is the bare roofline.
serving_setup bare() {
    serving_setup s{};
    s.efficiency = kernel_efficiency::ideal();
    s.overhead.cuda_context = make<bytes>(0.0);
    s.overhead.fragmentation = 0.0;
    s.overhead.communication_buffers = make<bytes>(0.0);
    return s;
}

replica_assumptions no_headroom() {
    replica_assumptions a{};
    a.memory_headroom = 0.0;
    return a;
}

// The toy case: prompts of 256 tokens, 128 output tokens. Decode context 256 + 64 = 320.
// A decode step reads the weights but the embedding table, 2 B × (3,674,624 − 1,024 × 256) =
// 6,824,960 B, and each sequence's 321 cached tokens (320 + its new one) × 4,096 B =
// 1,314,816 B; its FLOPs are ≈ 2 × params per sequence, far below the ridge, so it is
// memory-bound: T(B) = (6,824,960 + 1,314,816 B) ÷ 1e12 s.
constexpr double weights_read = 6824960.0;
constexpr double kv_per_sequence = 321.0 * 4096.0;
double toy_step(double batch) { return (weights_read + kv_per_sequence * batch) / 1e12; }

const request_profile toy_profile{256, 128, 0, 0};
const serving_slo toy_slo{make<seconds>(1.0), make<microseconds>(100.0)};

}  // namespace

TEST_CASE("the toy replica: the largest batch at the SLO by hand, and the stall bound") {
    const gpu_spec g = toy_gpu();
    const replica_capacity_estimate r = replica_capacity(
        check(tiny), one_gpu(g), bare(), toy_profile, toy_slo, prefill_mode::stall, no_headroom());
    REQUIRE(r.feasible);
    CHECK(r.verdict == replica_verdict::feasible);
    CHECK(r.mode == prefill_mode::stall);
    CHECK(r.decode_context == 320);
    CHECK(r.memory_context == 384);
    CHECK(r.gpus == 1);
    CHECK(in<seconds>(r.time_per_token_batch_one) == approx(toy_step(1.0), 1e-12));
    // T(B) <= 100 µs: B <= (1e-4 × 1e12 − 6,824,960) ÷ 1,314,816 = 70.87, so B = 70 (80 GB
    // holds tens of thousands of sequences).
    CHECK(r.memory_batch > 10000);
    CHECK(r.batch == 70);
    CHECK(in<seconds>(r.time_per_token) == approx(toy_step(70.0), 1e-12));
    CHECK(in<microseconds>(r.time_per_token) == approx(98.86208, 1e-12));
    // P: roofline's prefill of one 256-token prompt (compute-bound: its FLOPs ÷ 1e14).
    serving_setup p = bare();
    p.prompt = 256;
    const prefill_estimate pre = prefill(tiny, g, p);
    CHECK(pre.bound == bound::compute);
    const double prefill_s = in<flops>(pre.flops) / 1e14;
    CHECK(in<seconds>(r.prefill_time) == approx(prefill_s, 1e-12));
    CHECK(in<seconds>(r.time_to_first_token) == approx(prefill_s, 1e-12));
    // The bound 1 ÷ (P + D·T(B)/B), and the decode-only B ÷ (D·T(B)).
    const double t_b = toy_step(70.0);
    CHECK(in<requests_per_second>(r.capacity) ==
          approx(1.0 / (prefill_s + 128.0 * t_b / 70.0), 1e-9));
    CHECK(in<requests_per_second>(r.decode_only_rate) == approx(70.0 / (128.0 * t_b), 1e-12));
    CHECK(in<seconds>(r.longest_token_gap) == approx(t_b + prefill_s, 1e-12));
    // At capacity the stalled tokens come every T(B) ÷ (1 − λP) = T(B) + B·P/D (derived) =
    // 98.9 µs + 70 × 17.5 µs ÷ 128 = 108.4 µs > 100 µs: the SLO binds below capacity.
    const replica_load full = replica_at_rate(r, r.capacity);
    CHECK(in<seconds>(full.time_per_token) == approx(t_b + 70.0 * prefill_s / 128.0, 1e-9));
    CHECK_FALSE(full.stable);
    CHECK(r.sustainable_rate < r.capacity);
    CHECK(r.time_per_token_at_rate == approx(toy_slo.time_per_output_token, 1e-9));
    CHECK(in<tokens_per_second>(r.output_token_rate) ==
          approx(128.0 * in<requests_per_second>(r.sustainable_rate), 1e-12));
    CHECK(r.prefill_replicas_per_decode_replica == 0.0);
}

TEST_CASE("disaggregated: decode capacity B ÷ (D·T(B)) and the prefill GPUs it needs") {
    const replica_capacity_estimate r =
        replica_capacity(check(tiny), one_gpu(toy_gpu()), bare(), toy_profile, toy_slo,
                         prefill_mode::disaggregated, no_headroom());
    REQUIRE(r.feasible);
    CHECK(r.mode == prefill_mode::disaggregated);
    CHECK(r.batch == 70);
    const double t_b = toy_step(70.0);
    CHECK(in<requests_per_second>(r.capacity) == approx(70.0 / (128.0 * t_b), 1e-12));
    CHECK(r.sustainable_rate == r.capacity);
    CHECK(in<seconds>(r.time_per_token_at_rate) == approx(t_b, 1e-9));
    CHECK(r.prefill_replicas_per_decode_replica ==
          approx(in<requests_per_second>(r.capacity) * in<seconds>(r.prefill_time), 1e-12));
    CHECK(r.longest_token_gap == r.time_per_token);
}

TEST_CASE("the memory bound: the KV cache sized at the p90 context, against a scan") {
    // 20 MB: the weights (7.3 MB) and a few sequences of 768 tokens (3 MiB each).
    const gpu_spec g = toy_gpu(20e6);
    const request_profile p90{256, 128, 512, 256};
    const replica_capacity_estimate r = replica_capacity(
        check(tiny), one_gpu(g), bare(), p90, toy_slo, prefill_mode::stall, no_headroom());
    REQUIRE(r.feasible);
    CHECK(r.memory_context == 768);
    CHECK(r.decode_context == 320);  // the means, not the p90s
    serving_setup s = bare();
    s.context = 768;
    std::int64_t scanned = 0;
    for (std::int64_t b = 1; b < 100; ++b) {
        s.batch = b;
        if (inference_memory_per_gpu(tiny, s).total <= g.memory) scanned = b;
    }
    CHECK(scanned > 0);
    CHECK(scanned < 70);
    CHECK(r.memory_batch == scanned);
    CHECK(r.batch == scanned);  // memory binds before the SLO
    CHECK(r.memory_batch == max_batch_for_inference(tiny, s, g));
}

TEST_CASE("Llama-3-8B on an H100: the largest batch against a scan of decode_step_time") {
    const checked_model m = check(cat::llama_3_8b);
    const checked_cluster h100 = one_gpu(cat::h100_sxm);
    const request_profile chat{1024, 256, 2048, 512};
    const serving_slo slo{500.0_ms, make<milliseconds>(12.0)};
    serving_setup setup{};
    setup.kv_block_tokens = 16;
    const replica_capacity_estimate r =
        replica_capacity(m, h100, setup, chat, slo, prefill_mode::stall);
    REQUIRE(r.feasible);
    serving_setup s = setup;
    s.context = 1024 + 128;
    std::int64_t largest = 0;
    for (std::int64_t b = 1; b <= r.memory_batch; ++b) {
        s.batch = b;
        if (decode_step_time(m, h100, s).time_per_token <= slo.time_per_output_token) largest = b;
    }
    CHECK(largest > 1);
    CHECK(largest < r.memory_batch);  // the 12 ms SLO binds before memory
    CHECK(r.batch == largest);
}

TEST_CASE("the load model worked by hand on an affine step") {
    // T(n) = 1 ms + 0.1 ms × n, B = 10, D = 100, N = 100, P = 50 ms.
    replica_step_model s{};
    s.mode = prefill_mode::stall;
    s.slo = {1.0_s, make<milliseconds>(2.0)};
    s.batch = 10;
    s.prompt_tokens = 100;
    s.output_tokens = 100;
    s.step_fixed = make<milliseconds>(1.0);
    s.step_per_sequence = make<milliseconds>(0.1);
    s.prefill_time = make<milliseconds>(50.0);
    // Capacity 10 ÷ (10 × 0.05 + 100 × 0.002) = 14.2857/s.
    const replica_load idle = replica_at_rate(s, make<requests_per_second>(0.0));
    CHECK(in<requests_per_second>(idle.capacity) == approx(10.0 / 0.7, 1e-12));
    CHECK(in<milliseconds>(idle.time_per_token) == approx(1.1, 1e-12));  // T(1)
    CHECK(idle.stable);
    CHECK(idle.slo_met);
    // At 5/s: q = 0.25, k = 5 × 100 ÷ 0.75 = 666.7/s, n = k × 1 ms ÷ (1 − k × 0.1 ms) = 0.714,
    // so the token's own sequence counts (n seen = 1): τ = 1.1 ms ÷ 0.75 = 1.4667 ms.
    const replica_load five = replica_at_rate(s, make<requests_per_second>(5.0));
    CHECK(five.prefill_busy == approx(0.25, 1e-12));
    CHECK(five.running_batch == approx((2000.0 / 3.0 * 1e-3) / (1.0 - 2000.0 / 3.0 * 1e-4), 1e-12));
    CHECK(in<milliseconds>(five.time_per_token) == approx(1.1 / 0.75, 1e-12));
    CHECK(five.utilization == approx(5.0 * 0.7 / 10.0, 1e-12));
    // At 12/s: q = 0.6, k = 3,000/s, n = 3 ÷ 0.7 = 4.2857, τ = (1 + 0.42857) ms ÷ 0.4 = 3.571 ms.
    const replica_load twelve = replica_at_rate(s, make<requests_per_second>(12.0));
    CHECK(twelve.running_batch == approx(3.0 / 0.7, 1e-12));
    CHECK(in<milliseconds>(twelve.time_per_token) == approx((1.0 + 0.3 / 0.7) / 0.4, 1e-12));
    CHECK(twelve.stable);
    CHECK_FALSE(twelve.slo_met);
    // Past capacity: the batch is full, the excess waits, the tokens come as at capacity.
    const replica_load over = replica_at_rate(s, make<requests_per_second>(100.0));
    CHECK_FALSE(over.stable);
    CHECK(over.running_batch == approx(10.0, 1e-9));
    CHECK(in<milliseconds>(over.time_per_token) == approx(2.0 + 10.0 * 50.0 / 100.0, 1e-9));

    // Chunked, X = 1 ms, C = 10: P_eff = 100 × 1 ms ÷ 10 = 10 ms; the chunk-fed batch
    // C × D ÷ N = 10 = B, so capacity = 10 ÷ (10 × 0.01 + 100 × 0.002) = 33.3/s.
    s.mode = prefill_mode::chunked;
    s.chunk_tokens = 10;
    s.chunk_step_extra = make<milliseconds>(1.0);
    CHECK(in<requests_per_second>(replica_at_rate(s, make<requests_per_second>(0.0)).capacity) ==
          approx(10.0 / 0.3, 1e-12));
    // C = 5: prompts feed only C × D ÷ N = 5 sequences: 5 ÷ (5 × 0.02 + 100 × 0.0015) = 20/s.
    s.chunk_tokens = 5;
    CHECK(in<requests_per_second>(replica_at_rate(s, make<requests_per_second>(0.0)).capacity) ==
          approx(20.0, 1e-12));
    // Disaggregated: 10 ÷ (100 × 2 ms) = 50/s.
    s.mode = prefill_mode::disaggregated;
    CHECK(in<requests_per_second>(replica_at_rate(s, make<requests_per_second>(0.0)).capacity) ==
          approx(50.0, 1e-12));
}

TEST_CASE("the time per token never falls as the rate rises") {
    const replica_capacity_estimate r =
        replica_capacity(check(cat::llama_3_8b), one_gpu(cat::h100_sxm), serving_setup{},
                         request_profile{}, {500.0_ms, make<milliseconds>(33.0)},
                         prefill_mode::stall);
    REQUIRE(r.feasible);
    duration last{};
    for (int i = 0; i <= 40; ++i) {
        const replica_load l = replica_at_rate(r, r.capacity * (i / 40.0));
        CHECK(l.time_per_token >= last);
        CHECK(l.running_batch <= static_cast<double>(r.batch) + 1e-9);
        last = l.time_per_token;
    }
}

TEST_CASE("disaggregated >= chunked and stall; chunked >= stall when the chunks feed the batch") {
    const serving_slo slo{500.0_ms, make<milliseconds>(33.0)};
    int fed = 0, starved = 0;
    for (const transformer* m : {&cat::llama_3_8b, &cat::llama_3_70b}) {
        for (const gpu_spec* g : {&cat::h100_sxm, &cat::a100_80gb_sxm, &cat::h200}) {
            for (const request_profile& p :
                 {request_profile{512, 256, 0, 0}, request_profile{2048, 256, 0, 0},
                  request_profile{1024, 64, 4096, 512}, request_profile{128, 1024, 0, 0}}) {
                serving_setup s{};
                if (m == &cat::llama_3_70b) s.weights = formats::int4_g128;
                const checked_model cm = check(*m);
                const checked_cluster c = one_gpu(*g);
                const auto stall = replica_capacity(cm, c, s, p, slo, prefill_mode::stall);
                const auto chunked = replica_capacity(cm, c, s, p, slo, prefill_mode::chunked);
                const auto disagg =
                    replica_capacity(cm, c, s, p, slo, prefill_mode::disaggregated);
                CAPTURE(m->name);
                CAPTURE(g->name);
                CAPTURE(p.prompt_mean);
                CHECK(stall.feasible == disagg.feasible);
                if (!stall.feasible || !chunked.feasible) continue;
                CHECK(disagg.capacity >= stall.capacity);
                CHECK(disagg.capacity >= chunked.capacity * (1.0 - 1e-12));
                CHECK(disagg.sustainable_rate >= stall.sustainable_rate);
                // Chunked beats stalling when the chunks can feed the whole batch (C × D ÷ N
                // >= B): its prefill costs N × X ÷ C <= P per request. When they cannot, one
                // chunk per step caps the prompts admitted, and stalling, which admits any
                // number, can sustain more (docs/serving.md).
                const double chunk_fed = 512.0 * static_cast<double>(p.output_mean) /
                                         static_cast<double>(p.prompt_mean);
                if (chunk_fed >= static_cast<double>(chunked.batch)) {
                    ++fed;
                    CHECK(chunked.capacity >= stall.capacity);
                    CHECK(chunked.sustainable_rate >= stall.sustainable_rate);
                } else {
                    ++starved;
                }
            }
        }
    }
    CHECK(fed >= 4);
    CHECK(starved >= 4);
}

TEST_CASE("a tiny chunk makes chunked prefill worse than stalling (documented)") {
    // 64-token chunks of 2,048-token prompts and 32 output tokens: prompts feed only
    // 64 × 32 ÷ 2,048 = 1 running sequence, whose steps each read all the weights.
    replica_assumptions a{};
    a.chunk_tokens = 64;
    const request_profile p{2048, 32, 0, 0};
    const serving_slo slo{5.0_s, make<milliseconds>(50.0)};
    const checked_model m = check(cat::llama_3_8b);
    const checked_cluster c = one_gpu(cat::h100_sxm);
    const auto stall = replica_capacity(m, c, serving_setup{}, p, slo, prefill_mode::stall, a);
    const auto chunked = replica_capacity(m, c, serving_setup{}, p, slo, prefill_mode::chunked, a);
    REQUIRE(stall.feasible);
    REQUIRE(chunked.feasible);
    CHECK(chunked.capacity < stall.capacity);
}

TEST_CASE("an SLO no batch meets, a prefill over the TTFT, a model that does not fit: answers") {
    const checked_model m = check(cat::llama_3_8b);
    const checked_cluster h100 = one_gpu(cat::h100_sxm);
    const auto slow = replica_capacity(m, h100, serving_setup{}, request_profile{},
                                       {500.0_ms, make<milliseconds>(1.0)}, prefill_mode::stall);
    CHECK_FALSE(slow.feasible);
    CHECK(slow.verdict == replica_verdict::tpot_below_batch_one);
    CHECK(slow.batch == 0);
    CHECK(slow.sustainable_rate == request_rate{});
    CHECK(slow.time_per_token_batch_one > make<milliseconds>(1.0));
    const replica_load none = replica_at_rate(slow, make<requests_per_second>(1.0));
    CHECK_FALSE(none.stable);
    CHECK_FALSE(none.slo_met);

    const auto ttft = replica_capacity(m, h100, serving_setup{}, request_profile{},
                                       {make<milliseconds>(1.0), make<milliseconds>(33.0)},
                                       prefill_mode::chunked);
    CHECK(ttft.verdict == replica_verdict::ttft_below_prefill);
    CHECK_FALSE(ttft.feasible);

    const auto big = replica_capacity(check(cat::llama_3_70b), one_gpu(cat::l4), serving_setup{},
                                      request_profile{}, {500.0_ms, 1.0_s},
                                      prefill_mode::disaggregated);
    CHECK(big.verdict == replica_verdict::does_not_fit);
    CHECK(big.memory_batch == 0);
    CHECK(to_string(big.verdict) == "does_not_fit");
    CHECK(to_string(prefill_mode::chunked) == "chunked");
}

TEST_CASE("tensor parallelism: a TP = 2 replica uses the composed multi-GPU step") {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    const checked_cluster node = check(c);
    serving_setup s{};
    s.parallel.tensor = 2;
    const serving_slo slo{500.0_ms, make<milliseconds>(40.0)};
    const auto r = replica_capacity(check(cat::llama_3_70b), node, s, request_profile{}, slo,
                                    prefill_mode::stall);
    REQUIRE(r.feasible);
    CHECK(r.gpus == 2);
    serving_setup at_b = s;
    at_b.batch = r.batch;
    at_b.context = r.decode_context;
    CHECK(r.time_per_token == decode_step_time(check(cat::llama_3_70b), node, at_b).time_per_token);
}
