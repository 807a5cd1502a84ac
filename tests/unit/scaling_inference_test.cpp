// scaling_inference_test.cpp: decode and prefill on a replica split across GPUs: roofline's time
// exactly at one GPU, the tensor-parallel all-reduces and the pipeline's hops by hand, latency-
// against bandwidth-bound communication, monotonicity in link bandwidth, and a published
// comparison.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/scaling.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
serving_setup layout(std::int64_t tp, std::int64_t pp, std::int64_t batch,
                     std::int64_t context = 4096) {
    serving_setup s{};
    s.batch = batch;
    s.context = context;
    s.prompt = 1024;
    s.parallel.tensor = tp;
    s.parallel.pipeline = pp;
    return s;
}

/// Nodes of 8 H100 SXM whose GPUs are joined by a made-up link: α = 1 µs, 100 GB/s each way,
/// every byte useful, so the all-reduce is 2(n − 1) µs + 2(n − 1)/n × S ÷ 100 GB/s.
checked_cluster test_node(std::int64_t nodes = 1) {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.intra_node = link_spec{"test link", 100.0_GB_per_s, 1.0_us, 0, 1.0};
    c.nodes = nodes;
    c.inter_node = cat::infiniband_ndr;
    return check(c);
}

/// The ring all-reduce of `bytes` among n ranks of test_node(), by hand (seconds).
double ring_by_hand(double n, double bytes) {
    return 2.0 * (n - 1.0) * 1e-6 + 2.0 * (n - 1.0) / n * bytes / 100e9;
}

checked_cluster hgx(std::int64_t nodes = 1) {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = nodes;
    c.inter_node = cat::infiniband_ndr;
    return check(c);
}
}  // namespace

TEST_CASE("one GPU: roofline's decode and prefill exactly, no communication") {
    const checked_model m = check(cat::llama_3_8b);
    for (std::int64_t batch : {1, 7, 64, 1024}) {
        for (std::int64_t context : {1, 4096, 32768}) {
            CAPTURE(batch);
            CAPTURE(context);
            const serving_setup s = layout(1, 1, batch, context);
            const decode_estimate d = decode(m, cat::h100_sxm, s);
            const parallel_decode_estimate r = decode_step_time(m, hgx(), s);
            CHECK(r.time_per_token == d.time_per_token);
            CHECK(r.stream_rate == d.stream_rate);
            CHECK(r.aggregate_rate == d.aggregate_rate);
            CHECK(r.compute_time == d.compute_time);
            CHECK(r.memory_time == d.memory_time);
            CHECK(r.bound == d.bound);
            CHECK(r.communication_time == 0.0_s);
            CHECK(r.communication_share == 0.0);
            CHECK(r.regime == communication_regime::none);
            CHECK(r.all_reduces == 0);
            const prefill_estimate p = prefill(m, cat::h100_sxm, s);
            const parallel_prefill_estimate q = prefill_time(m, hgx(), s);
            CHECK(q.time_to_first_token == p.time_to_first_token);
            CHECK(q.compute_time == p.compute_time);
            CHECK(q.bound == p.bound);
            CHECK(q.communication_time == 0.0_s);
        }
    }
}

TEST_CASE("tensor parallelism by hand: roofline's share plus 2 × layers ring all-reduces") {
    // Llama-3-70B, TP = 8 on the test node, batch 1 and 64: each all-reduce carries batch ×
    // 8,192 bf16 values; within a node NCCL's tree is a chain with the ring's 2(n − 1) steps
    // and more bytes, so `fastest` is the ring.
    const checked_model m = check(cat::llama_3_70b);
    for (std::int64_t batch : {1, 64}) {
        const serving_setup s = layout(8, 1, batch);
        const parallel_decode_estimate r = decode_step_time(m, test_node(), s);
        const double bytes = static_cast<double>(batch) * 8192.0 * 2.0;
        const double comm = 160.0 * ring_by_hand(8.0, bytes);
        const double roof = in<seconds>(decode(m, cat::h100_sxm, s).time_per_token);
        CHECK(r.all_reduces == 160);
        CHECK(r.all_reduce.algorithm == collective_algorithm::ring);
        CHECK(in<seconds>(r.tensor_comm_time) == approx(comm, 1e-9));
        CHECK(in<seconds>(r.time_per_token) == approx(roof + comm, 1e-9));
        CHECK(r.communication_share == approx(comm / (roof + comm), 1e-9));
        CHECK(in<tokens_per_second>(r.aggregate_rate) ==
              approx(static_cast<double>(batch) / (roof + comm), 1e-9));
        CHECK(r.hops_within_node + r.hops_across_nodes == 0);
    }
    // Prefill: the all-reduces carry every prompt token's activations.
    const serving_setup s = layout(4, 1, 2);
    const parallel_prefill_estimate p = prefill_time(m, test_node(), s);
    const double comm = 160.0 * ring_by_hand(4.0, 2.0 * 1024.0 * 8192.0 * 2.0);
    CHECK(in<seconds>(p.tensor_comm_time) == approx(comm, 1e-9));
    CHECK(in<seconds>(p.time_to_first_token) ==
          approx(in<seconds>(prefill(m, cat::h100_sxm, s).time_to_first_token) + comm, 1e-9));
    CHECK(in<tokens_per_second>(p.prompt_rate) ==
          approx(2048.0 / in<seconds>(p.time_to_first_token), 1e-9));
}

TEST_CASE("pipeline by hand: stages in turn, hops between them, micro-batches round the ring") {
    // TP = 2, PP = 4 on one test node (4 stages of 2 GPUs): 3 hops over the node's link, each
    // α + S/B. Batch 8 splits into m = 4 micro-batches of 2 by default.
    const checked_model m = check(cat::llama_3_70b);
    const serving_setup s = layout(2, 4, 8);
    const parallel_decode_estimate r = decode_step_time(m, test_node(), s);
    CHECK(r.micro_batches == 4);
    CHECK(r.micro_batch == 2);
    CHECK(r.hops_within_node == 3);
    CHECK(r.hops_across_nodes == 0);
    serving_setup one = s;
    one.batch = 2;
    const double roof = in<seconds>(decode(m, cat::h100_sxm, one).time_per_token);
    const double bytes = 2.0 * 8192.0 * 2.0;
    const double tensor = 160.0 * ring_by_hand(2.0, bytes);
    const double hops = 3.0 * (1e-6 + bytes / 100e9);
    const double pass = roof + tensor + hops;
    const double stage = (roof + tensor) / 4.0;
    CHECK(in<seconds>(r.pipeline_comm_time) == approx(hops, 1e-9));
    CHECK(in<seconds>(r.pass_time) == approx(pass, 1e-9));
    CHECK(in<seconds>(r.stage_time) == approx(stage, 1e-9));
    // L > 4 × stage: the round is set by a micro-batch's own pass.
    CHECK(in<seconds>(r.time_per_token) == approx(pass, 1e-9));
    CHECK(in<tokens_per_second>(r.aggregate_rate) == approx(8.0 / pass, 1e-9));
    // One micro-batch (no split): the whole batch passes the stages in turn, the same law,
    // and the stages idle 3/4 of the time, so fewer tokens per second.
    serving_parallel_assumptions single{};
    single.micro_batches = 1;
    const parallel_decode_estimate whole = decode_step_time(m, test_node(), s, single);
    CHECK(whole.micro_batch == 8);
    const double roof8 = in<seconds>(decode(m, cat::h100_sxm, s).time_per_token);
    const double pass8 = roof8 + 160.0 * ring_by_hand(2.0, 4.0 * bytes) +
                         3.0 * (1e-6 + 4.0 * bytes / 100e9);
    CHECK(in<seconds>(whole.time_per_token) == approx(pass8, 1e-9));
    CHECK(whole.aggregate_rate < r.aggregate_rate);
    // More micro-batches than fill the ring: the busiest stage binds, T = m × stage.
    serving_parallel_assumptions many{};
    many.micro_batches = 8;
    const parallel_decode_estimate eight = decode_step_time(m, test_node(), s, many);
    CHECK(eight.micro_batch == 1);
    CHECK(eight.time_per_token == 8.0 * eight.stage_time);
    CHECK(eight.time_per_token > eight.pass_time);
    // Prefill: GPipe's forward, L + (m − 1) × stage.
    const parallel_prefill_estimate p = prefill_time(m, test_node(), s);
    CHECK(p.micro_batches == 4);
    CHECK(in<seconds>(p.time_to_first_token) ==
          approx(in<seconds>(p.pass_time) + 3.0 * in<seconds>(p.stage_time), 1e-12));
}

TEST_CASE("stages on two nodes: the hop between them crosses the network") {
    // TP = 8, PP = 2 on two HGX nodes: one hop, one rank per node, at collective_time's
    // point-to-point with ranks_per_node = 1.
    const checked_model m = check(cat::llama_3_70b);
    const serving_setup s = layout(8, 2, 2);
    const checked_cluster c = hgx(2);
    const parallel_decode_estimate r = decode_step_time(m, c, s);
    CHECK(r.hops_across_nodes == 1);
    CHECK(r.hops_within_node == 0);
    const data_size bytes = make<gpucalc::bytes>(1.0 * 8192.0 * 2.0);  // micro-batch of 1
    group_placement apart{};
    apart.ranks_per_node = 1;
    const auto hop = collective_time(
        {collective::point_to_point, bytes, 2, collective_algorithm::direct}, c, apart);
    CHECK(r.pipeline_comm_time == approx(hop.time, 1e-12));
    CHECK(r.all_reduce.nodes == 1);
}

TEST_CASE("the all-reduce is latency-bound at batch 1 and bandwidth-bound at a large batch") {
    const checked_model m = check(cat::llama_3_70b);
    for (const gpu_spec* gpu : {&cat::h100_sxm, &cat::h100_pcie}) {
        CAPTURE(std::string(gpu->name));
        cluster spec{};
        spec.node.gpu = *gpu;
        spec.nodes = 1;
        const checked_cluster c = check(spec);
        const parallel_decode_estimate small = decode_step_time(m, c, layout(8, 1, 1));
        CHECK(small.regime == communication_regime::latency);
        // PCIe, the closer case: NCCL's base and per-hop latency, 6.6 + 14 × 1.0 = 20.6 µs,
        // against 0.6 µs of bytes (catalog/links.hpp).
        CHECK(small.all_reduce.latency_term > 10.0 * small.all_reduce.bandwidth_term);
        const parallel_decode_estimate large = decode_step_time(m, c, layout(8, 1, 4096, 16));
        CHECK(large.regime == communication_regime::bandwidth);
        CHECK(large.all_reduce.bandwidth_term > large.all_reduce.latency_term);
        // Prefill's messages hold whole prompts: bandwidth-bound already at one prompt.
        CHECK(prefill_time(m, c, layout(8, 1, 1)).regime == communication_regime::bandwidth);
    }
}

TEST_CASE("more link bandwidth or less latency is never slower") {
    const checked_model m = check(cat::llama_3_70b);
    for (std::int64_t batch : {1, 64, 1024}) {
        CAPTURE(batch);
        duration previous = 1e9_s;
        for (double gb : {10.0, 50.0, 100.0, 450.0, 900.0, 1e4}) {
            CAPTURE(gb);
            cluster c{};
            c.node.gpu = cat::h100_sxm;
            c.node.intra_node =
                link_spec{"swept", make<gigabytes_per_second>(gb), 2.0_us, 0, 0.8};
            c.nodes = 2;
            c.inter_node = cat::infiniband_ndr;
            const parallel_decode_estimate r = decode_step_time(m, check(c), layout(4, 4, batch));
            CHECK(r.time_per_token <= previous);
            previous = r.time_per_token;
        }
        duration slower = 1e9_s;
        for (double us : {100.0, 10.0, 3.0, 1.0, 0.1}) {
            CAPTURE(us);
            cluster c{};
            c.node.gpu = cat::h100_sxm;
            c.node.intra_node =
                link_spec{"swept", 450.0_GB_per_s, make<microseconds>(us), 0, 0.8};
            const parallel_decode_estimate r = decode_step_time(m, check(c), layout(8, 1, batch));
            CHECK(r.time_per_token <= slower);
            slower = r.time_per_token;
        }
    }
    // NVLink against PCIe, the same GPUs: NVLink's all-reduces are the faster.
    cluster nvl{};
    nvl.node.gpu = cat::h100_sxm;
    cluster pcie = nvl;
    pcie.node.intra_node = cat::pcie_gen5_x16;
    for (std::int64_t batch : {1, 64}) {
        CHECK(decode_step_time(m, check(nvl), layout(8, 1, batch)).tensor_comm_time <
              decode_step_time(m, check(pcie), layout(8, 1, batch)).tensor_comm_time);
    }
}

TEST_CASE("overlap hides its share; the limiter names the largest part") {
    const checked_model m = check(cat::llama_3_70b);
    const serving_setup s = layout(8, 1, 1);
    const parallel_decode_estimate bare = decode_step_time(m, test_node(), s);
    serving_parallel_assumptions half{};
    half.tensor_comm_overlap = 0.5;
    const parallel_decode_estimate r = decode_step_time(m, test_node(), s, half);
    CHECK(r.tensor_comm_time == approx(0.5 * bare.tensor_comm_time, 1e-12));
    half.tensor_comm_overlap = 1.0;
    const parallel_decode_estimate hidden = decode_step_time(m, test_node(), s, half);
    CHECK(hidden.tensor_comm_time == 0.0_s);
    CHECK(hidden.time_per_token == hidden.roofline_time);
    CHECK(bare.limiter == serving_limiter::memory);
    // A slow link: the all-reduces outweigh the weights' read.
    cluster slow{};
    slow.node.gpu = cat::h100_sxm;
    slow.node.intra_node = link_spec{"slow", 1.0_GB_per_s, 100.0_us, 0, 1.0};
    CHECK(decode_step_time(m, check(slow), s).limiter == serving_limiter::tensor_communication);
    CHECK(to_string(serving_limiter::pipeline_communication) == "pipeline_communication");
    CHECK(to_string(communication_regime::latency) == "latency");
}

TEST_CASE("TP across nodes only when the assumptions allow it") {
    const checked_model m = check(cat::llama_3_1_405b);
    serving_parallel_assumptions allow{};
    allow.allow_tensor_parallel_across_nodes = true;
    const parallel_decode_estimate r = decode_step_time(m, hgx(2), layout(16, 1, 1), allow);
    CHECK(r.all_reduce.nodes == 2);
    CHECK(r.all_reduce.time > decode_step_time(m, hgx(2), layout(8, 2, 1)).all_reduce.time);
    CHECK(r.time_per_token > 0.0_s);
}

TEST_CASE("the validating overloads give the checked ones' answers") {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 2;
    c.inter_node = cat::infiniband_ndr;
    const serving_setup s = layout(4, 4, 16);
    CHECK(decode_step_time(cat::llama_3_70b, c, s).time_per_token ==
          decode_step_time(check(cat::llama_3_70b), check(c), s).time_per_token);
    CHECK(prefill_time(cat::llama_3_70b, c, s).time_to_first_token ==
          prefill_time(check(cat::llama_3_70b), check(c), s).time_to_first_token);
}

TEST_CASE("published: TP against PP at minimum latency, Llama 3.1 405B on 8 H200") {
    // NVIDIA Technical Blog, "Boosting Llama 3.1 405B Throughput by Another 1.5x on NVIDIA H200
    // Tensor Core GPUs and NVLink Switch" (Oct 2024), TensorRT-LLM in FP8 on an HGX H200: at
    // minimum latency (batch 1) TP = 8 generates 5.6× as many tokens per second per user as
    // PP = 8. PP's pass reads every layer's weights one GPU at a time (8 × TP's roofline);
    // TP's reads 1/8 of them plus 252 latency-bound all-reduces, each NCCL's base latency and
    // 14 NVLink hops (about 15 µs; TensorRT-LLM's one-shot custom all-reduce is not NCCL's
    // ring). The model gives about 6.1×. Held to [3.5, 7].
    cluster c{};
    c.node.gpu = cat::h200;
    const checked_cluster node = check(c);
    const checked_model m = check(cat::llama_3_1_405b);
    serving_setup s = layout(8, 1, 1, 2048);
    s.weights = formats::fp8_e4m3;
    s.kv_cache = formats::fp8_e4m3;
    s.compute = compute_precision::fp8;
    const duration tp = decode_step_time(m, node, s).time_per_token;
    s.parallel.tensor = 1;
    s.parallel.pipeline = 8;
    const duration pp = decode_step_time(m, node, s).time_per_token;
    const double ratio = pp / tp;
    CAPTURE(ratio);
    CHECK(ratio > 3.5);
    CHECK(ratio < 7.0);
}

namespace {
constexpr checked_cluster one_hgx = [] {
    cluster spec{};
    spec.node.gpu = cat::h100_sxm;
    return check(spec);
}();
constexpr serving_setup tp4_pp2 = [] {
    serving_setup s{};
    s.parallel.tensor = 4;
    s.parallel.pipeline = 2;
    s.batch = 8;
    return s;
}();
constexpr parallel_decode_estimate at_compile_time =
    decode_step_time(check(cat::llama_3_8b), one_hgx, tp4_pp2);
static_assert(at_compile_time.time_per_token > duration{}, "finite and positive");
static_assert(at_compile_time.all_reduces == 64, "2 per layer");
}  // namespace

TEST_CASE("constexpr: a checked model and cluster evaluate at compile time") {
    CHECK(at_compile_time.micro_batches == 2);
    CHECK(at_compile_time.micro_batch == 4);
}
