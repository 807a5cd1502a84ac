// scaling_step_test.cpp: the training step time of a parallel job: a tiny model worked by hand
// term by term, a GEMM's tile and wave quantization, the 1F1B bubble equal to (p − 1)/v × the
// micro-batch time and to (p − 1)/(v·m) of the ideal, TP's four collectives a layer, the
// matmul shapes summing to the per-layer costs; and properties: more link bandwidth never
// slows a step, DP never beats linear at fixed per-GPU work, recompute never speeds a step, a
// layout that does not fit is an answer.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/scaling/step.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include "step_fixtures.hpp"

#include <cstdint>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;
using step_fixtures::job_of;
using step_fixtures::tiny;

namespace {

/// A GPU of 100 TFLOP/s bf16 and 1 TB/s, 80 GB, no SM count (no wave quantization).
constexpr gpu_spec toy_gpu = [] {
    gpu_spec g = cat::h100_sxm;
    g.name = "toy";
    g.dense_peak.bf16 = make<flops_per_second>(1e14);
    g.memory_bandwidth = make<bytes_per_second>(1e12);
    g.memory = make<bytes>(80e9);
    g.mig = nullptr;
    g.mig_count = 0;
    g.multiprocessors = 0;
    return g;
}();

cluster one_node(const gpu_spec& gpu, std::int64_t nodes = 1) {
    cluster c{};
    c.node.gpu = gpu;
    c.node.gpus_per_node = 8;
    c.nodes = nodes;
    c.inter_node = cat::infiniband_ndr;
    c.nics_per_node = 8;
    return c;
}

step_assumptions hand_assumptions() {
    step_assumptions a{};
    a.gemm_efficiency = 1.0;
    a.memory_efficiency = 1.0;
    a.attention_forward_efficiency = 0.5;
    a.attention_backward_efficiency = 0.5;
    a.gemm_epilogue_overlap = 1.0;  // the hand-worked GEMMs: compute or memory, no epilogue
    return a;
}

double sum_of_terms(const training_step& r) {
    return (r.compute + r.recompute + r.tensor_comm + r.pipeline_comm + r.expert_comm +
            r.context_comm + r.data_comm + r.bubble + r.optimizer)
        .value();
}

cluster h100_cluster(std::int64_t nodes) { return one_node(cat::h100_sxm, nodes); }

}  // namespace

TEST_CASE("a tiny model on one GPU, every term worked by hand") {
    // s = 512 tokens, b = 1, m = global 4 ÷ (1 × DP 1) = 4 micro-batches, GEMM efficiency 1,
    // 100 TFLOP/s, 1 TB/s. Layer weights: Q, K, V, O 4·256² = 262,144 and MLP 2·256·1,024 =
    // 524,288: 786,432; forward matmuls 2 × 512 × 786,432 = 805,306,368 FLOPs. Every GEMM is
    // compute-bound: the thinnest, the output projection (512, 256, 256), takes 0.671 µs of
    // compute and 655,360 B ÷ 1 TB/s = 0.655 µs of memory; its weight gradient (256, 256, 512)
    // the same. Backward: twice the forward. Attention (FlashAttention, causal): 512·513/2 =
    // 131,328 pairs × 4 × 256 = 134,479,872 FLOPs forward at 0.5 × peak, twice that backward.
    // The head (512, 1,024, 256): 268,435,456 FLOPs forward, compute-bound, twice backward.
    // (The full-precision check: the terms below to 1e-9.)
    // Element-wise kernels at 1 TB/s, a token: 2 LayerNorms read and write 256 (1,024), 2
    // residual adds read 2 × 256 and write 256 (1,536), GeLU reads and writes 1,024 (2,048),
    // rotary reads and writes Q and K, 2 × (256 + 256) (1,024): 5,632 elements × 512 tokens × 2
    // bytes = 5,767,168 B forward, twice backward.
    // The loss on 512 × 1,024 logits at 1 TB/s: 38 bytes each forward, 14 backward
    // (step_assumptions::loss_forward_bytes_per_logit's passes).
    const double layer_f = 805306368.0 / 1e14;
    const double attention_f = 134479872.0 / 5e13;
    const double elementwise_f = 5767168.0 / 1e12;
    const double loss_f = 512.0 * 1024.0 * 38.0 / 1e12;
    const double loss_b = 512.0 * 1024.0 * 14.0 / 1e12;
    const double head_f = 268435456.0 / 1e14 + loss_f;
    const double per_mb = 4.0 * (3.0 * layer_f + 3.0 * attention_f + 3.0 * elementwise_f) +
                          3.0 * 268435456.0 / 1e14 + loss_f + loss_b;
    // Optimizer: 4 × (786,432 + 2 LayerNorms × 512) + embedding 262,144 + head 262,144 + final
    // norm 512 = 3,674,624 parameters, AdamW in separate passes: the bf16 gradient converted
    // to fp32 (read 2, write 4), its norm (read 4), the update (read and write 12 bytes of
    // state, read the fp32 gradient: 28), the master copied into the bf16 weights (read 4,
    // write 2): 44 bytes each, at 1 TB/s.
    const double optimizer = 3674624.0 * 44.0 / 1e12;
    const training_step r = training_step_time(tiny, one_node(toy_gpu), job_of(512, 4),
                                               training_strategy{}, hand_assumptions());
    CHECK(r.microbatches == 4);
    CHECK(r.gpus == 1);
    CHECK(scaling_efficiency(r, r) == 1.0);
    CHECK(r.compute.value() == approx(4.0 * per_mb, 1e-9));
    CHECK(r.forward_per_microbatch.value() ==
          approx(4.0 * (layer_f + attention_f + elementwise_f) + head_f, 1e-9));
    CHECK(r.optimizer.value() == approx(optimizer, 1e-9));
    CHECK(r.bubble.value() == 0.0);
    CHECK(r.bubble_fraction == 0.0);
    CHECK(r.tensor_comm.value() == 0.0);
    CHECK(r.pipeline_comm.value() == 0.0);
    CHECK(r.data_comm.value() == 0.0);
    CHECK(r.recompute.value() == 0.0);
    CHECK(r.time.value() == approx(4.0 * per_mb + optimizer, 1e-9));
    CHECK(r.time.value() == approx(sum_of_terms(r), 1e-12));
    // MFU: a sequence's model FLOPs, all keys counted: 4 × (805,306,368 + 4·512²·256) + the
    // head 268,435,456 = 4,563,402,752 forward, × 3 × 4 sequences ÷ (100 TFLOP/s × time).
    CHECK(r.mfu == approx(3.0 * 4.0 * 4563402752.0 / (1e14 * r.time.value()), 1e-9));
    CHECK(r.hfu == approx(r.mfu, 1e-12));
    CHECK(r.tokens_per_second == approx(make<tokens_per_second>(2048.0 / r.time.value()), 1e-12));
    CHECK(r.memory_fit.ok);
    CHECK(r.memory.total == approx(training_memory_per_gpu(tiny, job_of(512, 4),
                                                           training_strategy{}).total, 1e-12));

    SUBCASE("full recompute adds one forward of the layers; HFU counts it") {
        training_strategy s{};
        s.recompute = recompute::full;
        const training_step f = training_step_time(tiny, one_node(toy_gpu), job_of(512, 4), s,
                                                   hand_assumptions());
        CHECK(f.recompute.value() ==
              approx(4.0 * 4.0 * (layer_f + attention_f + elementwise_f), 1e-9));
        // HFU adds what the time model recomputes: the 4 layers' forward (pass_forward_flops
        // less the head, by layer_forward_flops), 4 × (805,306,368 + 4·512²·256) =
        // 4,294,967,296 FLOPs a sequence, not the head's 268,435,456. HFU/MFU = (3·F_total +
        // F_layers_fwd)/(3·F_total), F_total = 4,563,402,752 the forward with the head.
        CHECK(f.hfu == approx(f.mfu * (3.0 * 4563402752.0 + 4294967296.0) /
                                  (3.0 * 4563402752.0), 1e-9));
        CHECK((f.hfu - f.mfu) * 1e14 * f.time.value() == approx(4.0 * 4294967296.0, 1e-9));
    }
    SUBCASE("selective recompute adds the attention core's forward") {
        training_strategy s{};
        s.recompute = recompute::selective;
        const training_step f = training_step_time(tiny, one_node(toy_gpu), job_of(512, 4), s,
                                                   hand_assumptions());
        CHECK(f.recompute.value() == approx(4.0 * 4.0 * attention_f, 1e-9));
        // HFU: + 4 layers × 4·512²·256 attention FLOPs forward per sequence.
        CHECK(f.hfu == approx(f.mfu * (3.0 * 4563402752.0 + 4.0 * 268435456.0) /
                                  (3.0 * 4563402752.0), 1e-9));
    }
}


TEST_CASE("the optimizer step's passes over the gradient and the state, worked by hand") {
    // The tiny model's 3,674,624 parameters at 1 TB/s, one GPU: the optimizer term is the
    // bytes a parameter times 3.674624 µs. AdamW keeps 8 bytes of moments, 12 with the fp32
    // master copy. Each case counts the passes step_assumptions::fused_optimizer_step lists.
    const double per_byte = 3674624.0 / 1e12;
    const auto optimizer_of = [](const training_job& j, const step_assumptions& a) {
        return training_step_time(tiny, one_node(toy_gpu), j, training_strategy{}, a)
            .optimizer.value();
    };
    step_assumptions a = hand_assumptions();
    training_job j = job_of(512, 4);

    SUBCASE("fp16 with loss scaling, as Megatron-LM's mixed-precision optimizer runs it") {
        // Convert (2 + 4), unscale (4 + 4), norm (4), update (24 + 4), copy out (4 + 2): 52.
        j.parameters = formats::fp16;
        j.gradients = formats::fp16;
        j.compute = compute_precision::fp16;
        CHECK(optimizer_of(j, a) == approx(52.0 * per_byte, 1e-12));
        a.gradient_clipping = false;  // the norm pass goes
        CHECK(optimizer_of(j, a) == approx(48.0 * per_byte, 1e-12));
        a.fused_optimizer_step = true;  // the overflow check's read (2), the update (24 + 2 + 2)
        CHECK(optimizer_of(j, a) == approx(30.0 * per_byte, 1e-12));
    }
    SUBCASE("fp16 with fp32 gradients: no conversion, the unscale on the fp32 gradient") {
        // Unscale (4 + 4), norm (4), update (24 + 4), copy out (4 + 2): 46.
        j.parameters = formats::fp16;
        j.gradients = formats::fp32;
        j.compute = compute_precision::fp16;
        CHECK(optimizer_of(j, a) == approx(46.0 * per_byte, 1e-12));
    }
    SUBCASE("fp16 without a master copy: the stored gradient unscaled, the weights updated") {
        // Unscale (2 + 2), norm (2), update (16 + 2, and the weights 2 + 2): 28.
        j.parameters = formats::fp16;
        j.gradients = formats::fp16;
        j.compute = compute_precision::fp16;
        j.fp32_master_weights = false;
        CHECK(optimizer_of(j, a) == approx(28.0 * per_byte, 1e-12));
        a.fused_optimizer_step = true;  // overflow check and norm in one read (2), update (22)
        CHECK(optimizer_of(j, a) == approx(24.0 * per_byte, 1e-12));
    }
    SUBCASE("the earlier single pass: fused, no clipping, bf16 with a master copy") {
        // Update (24 + 2), the weights written (2): 28, the figure before the passes counted.
        a.fused_optimizer_step = true;
        a.gradient_clipping = false;
        CHECK(optimizer_of(j, a) == approx(28.0 * per_byte, 1e-12));
    }
    SUBCASE("bf16 with fp32 gradients: nothing to convert, no loss scale") {
        // Norm (4), update (24 + 4), copy out (4 + 2): 38.
        j.gradients = formats::fp32;
        CHECK(optimizer_of(j, a) == approx(38.0 * per_byte, 1e-12));
        a.fused_optimizer_step = true;  // norm (4), update (24 + 4 + 2)
        CHECK(optimizer_of(j, a) == approx(34.0 * per_byte, 1e-12));
    }
    SUBCASE("bf16 without a master copy: the update reads and writes the weights") {
        // Norm (2), update (16 of moments read and written, 2 of gradient, 2 + 2 of weights).
        j.fp32_master_weights = false;
        CHECK(optimizer_of(j, a) == approx(24.0 * per_byte, 1e-12));
        a.fused_optimizer_step = true;  // nothing to fuse: the same passes
        CHECK(optimizer_of(j, a) == approx(24.0 * per_byte, 1e-12));
        a.gradient_clipping = false;  // the norm's read goes
        CHECK(optimizer_of(j, a) == approx(22.0 * per_byte, 1e-12));
    }
}
TEST_CASE("attention dropout without FlashAttention costs its memory passes") {
    // Unfused attention, s = 512, b = 1, TP 1: 4 heads × 512² = 1,048,576 score elements a
    // layer (all keys). The dropout adds, an element, forward: read the probabilities (2 B),
    // write the dropped ones (2 B), write the 1-byte mask: 5 B; backward: read the mask (1 B)
    // and the incoming gradient (2 B), write the outgoing gradient (2 B): 5 B. The residual
    // dropouts' masks are in the element-wise kernels: compare against the same job with flash
    // on to isolate the attention term. At 1 TB/s × memory efficiency 1, a layer-pass costs
    // 5 × 1,048,576 B ÷ 1e12 B/s; 4 layers, forward and backward, 4 micro-batches: no
    // recompute, so 4 × 4 × 2 layer-passes.
    const double pass = 5.0 * 1048576.0 / 1e12;
    auto step = [](bool flash, bool dropout, recompute rc) {
        training_job j = job_of(512, 4);
        j.flash_attention = flash;
        j.dropout = dropout;
        training_strategy s{};
        s.recompute = rc;
        return training_step_time(tiny, one_node(toy_gpu), j, s, hand_assumptions());
    };
    const training_step off = step(false, false, recompute::none);
    const training_step on = step(false, true, recompute::none);
    const training_step flash_off = step(true, false, recompute::none);
    const training_step flash_on = step(true, true, recompute::none);
    // The element-wise (residual-dropout) bytes are the same with and without flash.
    const double residual = flash_on.compute.value() - flash_off.compute.value();
    CHECK(on.compute.value() - off.compute.value() ==
          approx(residual + 4.0 * 4.0 * 2.0 * pass, 1e-9));
    CHECK(on.time.value() - off.time.value() == approx(residual + 4.0 * 4.0 * 2.0 * pass, 1e-9));
    // FlashAttention fuses the dropout into its kernel (Dao et al. 2022 §3.1): its attention
    // term is unchanged; only the residual dropouts' masks (4 layers × 2 × 512 tokens × 256 B,
    // forward, twice backward, 4 micro-batches) move the step.
    CHECK(residual == approx(4.0 * 4.0 * 3.0 * 2.0 * 512.0 * 256.0 / 1e12, 1e-9));
    const checked_model ct = check(tiny);
    const detail::gemm_machine g{1e14, 1e12, 0.0, 128.0, 128.0, 2.0};
    auto attention = [&](bool flash, bool dropout) {
        training_job j = job_of(512, 4);
        j.flash_attention = flash;
        j.dropout = dropout;
        return detail::attention_seconds(ct, parallel_layout{}, j, 1, g, 1e14, hand_assumptions());
    };
    CHECK(attention(true, true).forward == attention(true, false).forward);
    CHECK(attention(true, true).backward == attention(true, false).backward);
    CHECK(attention(false, true).forward - attention(false, false).forward ==
          approx(pass, 1e-9));
    CHECK(attention(false, true).backward - attention(false, false).backward ==
          approx(pass, 1e-9));
    // Full recompute repeats the forward: one more layer-pass each layer and micro-batch.
    const double rc_off = step(false, false, recompute::full).recompute.value();
    const double rc_on = step(false, true, recompute::full).recompute.value();
    const double residual_rc = step(true, true, recompute::full).recompute.value() -
                               step(true, false, recompute::full).recompute.value();
    CHECK(rc_on - rc_off == approx(residual_rc + 4.0 * 4.0 * pass, 1e-9));
}

TEST_CASE("a GEMM runs in whole waves of whole tiles") {
    // 1 SM, 128 × 128 tiles: C[130 × 128] needs ⌈130/128⌉ × 1 = 2 tiles, 2 waves, each a full
    // 128·128·64 tile: 2 × 2·128·128·64 FLOPs at the rate, not 2·130·128·64.
    const detail::gemm_machine one_sm{1e12, 1e30, 1.0, 128.0, 128.0, 2.0};
    CHECK(detail::gemm_seconds(one_sm, 130.0, 128.0, 64.0) ==
          approx(2.0 * 2.0 * 128.0 * 128.0 * 64.0 / 1e12, 1e-12));
    // 3 SMs: 2 tiles fit one wave.
    const detail::gemm_machine three{1e12, 1e30, 3.0, 128.0, 128.0, 2.0};
    CHECK(detail::gemm_seconds(three, 130.0, 128.0, 64.0) ==
          approx(3.0 * 2.0 * 128.0 * 128.0 * 64.0 / 1e12, 1e-12));
    // Unknown SMs: FLOPs over the rate; memory-bound when the bytes take longer.
    const detail::gemm_machine plain{1e12, 1e30, 0.0, 128.0, 128.0, 2.0};
    CHECK(detail::gemm_seconds(plain, 130.0, 128.0, 64.0) ==
          approx(2.0 * 130.0 * 128.0 * 64.0 / 1e12, 1e-12));
    const detail::gemm_machine slow_memory{1e15, 1e9, 0.0, 128.0, 128.0, 2.0};
    CHECK(detail::gemm_seconds(slow_memory, 8.0, 4096.0, 4096.0) ==
          approx((8.0 * 4096.0 + 4096.0 * 4096.0 + 8.0 * 4096.0) * 2.0 / 1e9, 1e-12));
    // The H100's 132 SMs make a shape that quantizes badly slower per FLOP than one that does not.
    const detail::gemm_machine h100{8e14, 2.8e12, 132.0, 128.0, 128.0, 2.0};
    const double good = detail::gemm_seconds(h100, 128.0 * 12.0, 128.0 * 11.0, 8192.0);  // 132 tiles
    const double bad = detail::gemm_seconds(h100, 128.0 * 12.0, 128.0 * 11.0 + 1.0, 8192.0);
    CHECK(bad > 1.9 * good);
}

TEST_CASE("the matmuls at their shapes are the per-layer costs' FLOPs") {
    // At 1 FLOP/s, no memory roof and no waves, a GEMM's seconds are its FLOPs.
    const detail::gemm_machine count{1.0, 1e300, 0.0, 128.0, 128.0, 2.0};
    for (const transformer* m : {&cat::llama_2_70b, &cat::llama_3_70b, &cat::mixtral_8x7b}) {
        const checked_model cm = check(*m);
        parallel_layout par{};
        par.tensor = 8;
        par.data = 8;
        par.expert = m->experts > 1 ? 8 : 1;
        const pass_shape pass{2, 4096, 4096, 4096, pair_count::causal};
        const layer_cost one = layer_cost_of(cm, par, pass);
        const detail::pass_seconds s = detail::layer_gemm_seconds(cm, par, 2.0 * 4096.0, count);
        CHECK(s.forward == approx(one.forward_gemm.value(), 1e-9));
        CHECK(s.backward == approx(one.backward_gemm.value(), 1e-9));
    }
}

TEST_CASE("the bubble is (p - 1)/v of the slowest stage's micro-batch, (p - 1)/(v m) of ideal") {
    const cluster c = h100_cluster(4);
    for (std::int64_t v : {1, 2, 5}) {
        for (std::int64_t global : {16, 64, 256}) {
            training_strategy s{};
            s.parallel.tensor = 8;
            s.parallel.pipeline = 4;
            s.parallel.interleave = v;
            const training_step r =
                training_step_time(cat::llama_2_70b, c, job_of(4096, global), s);
            const double m = static_cast<double>(global);
            CHECK(r.microbatches == global);
            CHECK(r.bubble_fraction == approx(3.0 / (static_cast<double>(v) * m), 1e-12));
            const double per_mb = (r.forward_per_microbatch + r.backward_per_microbatch).value();
            CHECK(r.bubble.value() == approx(3.0 / static_cast<double>(v) * per_mb, 1e-12));
            CHECK(r.compute + r.recompute + r.tensor_comm + r.pipeline_comm + r.expert_comm ==
                  approx(m * (r.forward_per_microbatch + r.backward_per_microbatch), 1e-9));
            CHECK(r.time.value() == approx(sum_of_terms(r), 1e-12));
        }
    }
}

TEST_CASE("tensor parallelism: two all-reduces forward and two backward a layer") {
    // Llama-2-70B, TP 8 in one H100 node, 80 layers, m = 2: the tensor term is 2 × 80 × 4 all-
    // reduces of half the layer's buffer (b·s·h·2 bytes), contiguous on the node's NVLink.
    const checked_cluster c = check(h100_cluster(1));
    training_strategy s{};
    s.parallel.tensor = 8;
    const training_step r = training_step_time(check(cat::llama_2_70b), c, job_of(4096, 2), s);
    const double buffer = 4096.0 * 8192.0 * 2.0;
    const duration one = collective_time({collective::all_reduce, make<bytes>(buffer), 8}, c).time;
    CHECK(r.tensor_comm == approx(2.0 * 80.0 * 4.0 * one, 1e-9));
    SUBCASE("with sequence parallelism: all-gathers and reduce-scatters of the same volume") {
        s.parallel.sequence_parallel = true;
        const training_step sp =
            training_step_time(check(cat::llama_2_70b), c, job_of(4096, 2), s);
        const duration ag = collective_time({collective::all_gather, make<bytes>(buffer), 8}, c).time;
        const duration rs =
            collective_time({collective::reduce_scatter, make<bytes>(buffer), 8}, c).time;
        CHECK(sp.tensor_comm == approx(2.0 * 80.0 * 2.0 * 2.0 * (ag + rs), 1e-9));
    }
    SUBCASE("an overlap hides its share") {
        step_assumptions a{};
        a.tensor_comm_overlap = 0.25;
        const training_step h =
            training_step_time(check(cat::llama_2_70b), c, job_of(4096, 2), s, a);
        CHECK(h.tensor_comm == approx(0.75 * r.tensor_comm, 1e-9));
    }
}

TEST_CASE("the loss streams each GPU's vocab/TP logits, 38 bytes forward and 14 backward") {
    // Llama-2-70B (32,000-token vocabulary), TP 8 in one H100 node, s = 4,096, m = 2: each
    // GPU holds 4,096 × 4,000 logits a micro-batch; at 52 bytes each over HBM × 0.85 the loss
    // adds 2 × 4,096 × 4,000 × 52 ÷ (3.35 TB/s × 0.85) to the compute term.
    const checked_cluster c = check(h100_cluster(1));
    const checked_model m = check(cat::llama_2_70b);
    training_strategy s{};
    s.parallel.tensor = 8;
    step_assumptions none{};
    none.loss_forward_bytes_per_logit = 0.0;
    none.loss_backward_bytes_per_logit = 0.0;
    const training_step with_loss = training_step_time(m, c, job_of(4096, 2), s);
    const training_step without = training_step_time(m, c, job_of(4096, 2), s, none);
    const double byte_rate = cat::h100_sxm.memory_bandwidth.value() * 0.85;
    const double loss = 2.0 * 4096.0 * (32000.0 / 8.0) * (38.0 + 14.0) / byte_rate;
    CHECK((with_loss.compute - without.compute).value() == approx(loss, 1e-6));
    CHECK((with_loss.forward_per_microbatch - without.forward_per_microbatch).value() ==
          approx(4096.0 * 4000.0 * 38.0 / byte_rate, 1e-6));
}

TEST_CASE("pipeline parallelism: each boundary a scattered send and a gather") {
    // Llama-2-70B, TP 4 × PP 2 in one H100 node, s = 4,096, m = 2: each TP rank sends its
    // quarter of the boundary tensor (4,096 × 8,192 × 2 bytes = 64 MiB, so 16 MiB) to the next
    // stage, and the receiving TP group all-gathers the whole 64 MiB before it computes
    // (Narayanan et al. 2021 §4.1). One boundary crossing a pass, forward and backward, for each
    // micro-batch: 2 × 2 × (send + gather).
    const checked_cluster c = check(h100_cluster(1));
    const checked_model m = check(cat::llama_2_70b);
    training_strategy s{};
    s.parallel.tensor = 4;
    s.parallel.pipeline = 2;
    const double whole = 4096.0 * 8192.0 * 2.0;
    const duration send =
        collective_time({collective::point_to_point, make<bytes>(whole / 4.0), 2}, c).time;
    const duration gather = collective_time({collective::all_gather, make<bytes>(whole), 4}, c).time;
    const training_step r = training_step_time(m, c, job_of(4096, 2), s);
    CHECK(r.pipeline_comm == approx(2.0 * 2.0 * (send + gather), 1e-9));
    SUBCASE("with sequence parallelism each rank keeps its share of the sequence: no gather") {
        s.parallel.sequence_parallel = true;
        const training_step sp = training_step_time(m, c, job_of(4096, 2), s);
        CHECK(sp.pipeline_comm == approx(2.0 * 2.0 * send, 1e-9));
    }
    SUBCASE("without scatter/gather every TP rank sends the whole tensor, and none gathers") {
        step_assumptions a{};
        a.pipeline_scatter_gather = false;
        const duration whole_send =
            collective_time({collective::point_to_point, make<bytes>(whole), 2}, c).time;
        const training_step full = training_step_time(m, c, job_of(4096, 2), s, a);
        CHECK(full.pipeline_comm == approx(2.0 * 2.0 * whole_send, 1e-9));
    }
    SUBCASE("v chunks cross v boundaries a pass") {
        s.parallel.interleave = 2;
        const training_step v2 = training_step_time(m, c, job_of(4096, 2), s);
        CHECK(v2.pipeline_comm == approx(2.0 * 2.0 * 2.0 * (send + gather), 1e-9));
    }
}

TEST_CASE("more link bandwidth never slows a step") {
    for (std::int64_t tp : {2, 8}) {
        for (std::int64_t zero : {0, 1, 3}) {
            training_strategy s{};
            s.parallel.tensor = tp;
            s.parallel.pipeline = 2;
            s.parallel.data = 16 / tp;
            s.parallel.zero_stage = zero;
            cluster slow = h100_cluster(4);
            const training_step base = training_step_time(cat::llama_2_13b, slow, job_of(4096, 64), s);
            for (double k : {1.5, 2.0, 8.0}) {
                cluster fast = slow;
                fast.inter_node.per_direction = k * slow.inter_node.per_direction;
                CHECK(training_step_time(cat::llama_2_13b, fast, job_of(4096, 64), s).time <=
                      base.time);
                fast = slow;
                fast.node.intra_node = cat::nvlink4;
                fast.node.intra_node.per_direction = k * cat::nvlink4.per_direction;
                CHECK(training_step_time(cat::llama_2_13b, fast, job_of(4096, 64), s).time <=
                      base.time);
            }
        }
    }
}

TEST_CASE("data parallelism never beats linear at fixed per-GPU work") {
    // Same micro-batch, same micro-batches per rank: the global batch grows with DP.
    for (std::int64_t tp : {1, 4, 8}) {
        double previous_per_gpu = 0.0;
        for (std::int64_t dp : {1, 2, 4, 8, 16}) {
            if (tp * dp > 64) continue;
            training_strategy s{};
            s.parallel.tensor = tp;
            s.parallel.data = dp;
            const training_step r =
                training_step_time(cat::llama_2_7b, h100_cluster(8), job_of(2048, 8 * dp), s);
            const double per_gpu = in<tokens_per_second>(r.tokens_per_second) /
                                   static_cast<double>(tp * dp);
            if (dp > 1) CHECK(per_gpu <= previous_per_gpu * (1.0 + 1e-12));
            previous_per_gpu = per_gpu;
            if (dp == 1) continue;
            // The same as a scaling efficiency against DP 1, the job's smallest here.
            training_strategy one = s;
            one.parallel.data = 1;
            const training_step reference =
                training_step_time(cat::llama_2_7b, h100_cluster(8), job_of(2048, 8), one);
            const double e = scaling_efficiency(r, reference);
            CHECK(e <= 1.0 + 1e-12);
            CHECK(e == approx((in<tokens_per_second>(r.tokens_per_second) /
                               static_cast<double>(tp * dp)) /
                                  (in<tokens_per_second>(reference.tokens_per_second) /
                                   static_cast<double>(tp)),
                              1e-12));
        }
    }
}

TEST_CASE("recompute never speeds a step") {
    for (std::int64_t pp : {1, 4}) {
        training_strategy s{};
        s.parallel.tensor = 8;
        s.parallel.pipeline = pp;
        s.parallel.data = 2;
        const training_step none = training_step_time(cat::llama_2_70b, h100_cluster(8),
                                                      job_of(4096, 64), s);
        s.recompute = recompute::selective;
        const training_step selective = training_step_time(cat::llama_2_70b, h100_cluster(8),
                                                           job_of(4096, 64), s);
        s.recompute = recompute::full;
        const training_step full = training_step_time(cat::llama_2_70b, h100_cluster(8),
                                                      job_of(4096, 64), s);
        CHECK(none.time <= selective.time);
        CHECK(selective.time <= full.time);
        CHECK(full.hfu > full.mfu);
    }
}

TEST_CASE("a layout that does not fit is a result, with its memory breakdown") {
    // Llama-2-70B with TP 8 alone: 16 bytes a parameter of ~8.6 B parameters a GPU is far above
    // 80 GB.
    training_strategy s{};
    s.parallel.tensor = 8;
    const training_step r =
        training_step_time(cat::llama_2_70b, h100_cluster(1), job_of(4096, 8), s);
    CHECK_FALSE(r.memory_fit.ok);
    CHECK(r.memory_fit.margin < data_size{});
    CHECK(r.memory.optimizer_states > 80.0_GB);
    CHECK(r.time > duration{});
    CHECK(r.mfu > 0.0);
}

TEST_CASE("data parallelism: the gradient reduction after the last backward, bucketed") {
    // Llama-2-7B, DP 8 in one node, no overlap: the whole all-reduce of the 2-byte gradients is
    // exposed; with full overlap, only what the last backward cannot hide, at least the last
    // 25 MB bucket.
    const checked_cluster c = check(h100_cluster(1));
    const checked_model m = check(cat::llama_2_7b);
    training_strategy s{};
    s.parallel.data = 8;
    const training_step r = training_step_time(m, c, job_of(4096, 8), s);
    const double params = static_cast<double>(m.parameters().total);
    const duration reduce =
        collective_time({collective::all_reduce, make<bytes>(2.0 * params), 8}, c).time;
    CHECK(r.data_comm == approx(reduce, 1e-9));
    step_assumptions a{};
    a.data_parallel_overlap = 1.0;
    const training_step o = training_step_time(m, c, job_of(4096, 8), s, a);
    const duration bucket =
        collective_time({collective::all_reduce, make<bytes>(25e6), 8}, c).time;
    CHECK(o.data_comm >= bucket * (1.0 - 1e-12));
    CHECK(o.data_comm <= r.data_comm);
    const duration hidden = reduce - o.backward_per_microbatch;
    CHECK(o.data_comm == approx(hidden > bucket ? hidden : bucket, 1e-9));
}

TEST_CASE("time to train a token budget at the step's throughput") {
    const training_step r =
        training_step_time(tiny, one_node(toy_gpu), job_of(512, 4), training_strategy{});
    CHECK(time_to_train(r, make<tokens>(2048.0 * 1000.0)) == approx(1000.0 * r.time, 1e-12));
}

TEST_CASE("context parallelism: each rank computes s/CP tokens, balanced") {
    // The tiny model on the toy GPU (no SM count, so no wave quantization), s = 1,024: each CP
    // rank holds 512 tokens, where every GEMM is still compute-bound (the hand-worked case
    // above), so every compute term scales with the rank's tokens or, for attention, with its
    // 1/CP of the causal pairs, and CP 2 halves the compute of each micro-batch exactly.
    training_strategy one{};
    training_strategy two{};
    two.parallel.context_parallel = 2;
    const training_step r1 =
        training_step_time(tiny, one_node(toy_gpu), job_of(1024, 4), one, hand_assumptions());
    const training_step r2 =
        training_step_time(tiny, one_node(toy_gpu), job_of(1024, 4), two, hand_assumptions());
    CHECK(r2.gpus == 2);
    CHECK(r2.microbatches == 4);
    CHECK(r2.compute.value() == approx(0.5 * r1.compute.value(), 1e-12));
    CHECK(r2.time.value() == approx(sum_of_terms(r2), 1e-12));
    // The same sequences on twice the GPUs: MFU counts the same model FLOPs.
    CHECK(r2.mfu * 2.0 * r2.time.value() == approx(r1.mfu * r1.time.value(), 1e-12));
}

TEST_CASE("context parallelism: the K/V ring, once forward and twice backward") {
    // Llama-3-8B (8 KV heads of 128: K and V 2 × 1,024 wide a token), CP 2 in one H100 node, no
    // TP, b = 1, s = 4,096, m = 2: each rank holds 2,048 tokens' K and V, 2 × 2,048 × 1,024 × 2
    // bytes = 8 MiB; the ring's CP − 1 = 1 step sends it to the other rank, point to point.
    // Forward once, backward twice (K and V again, and their gradients), 32 layers, 2
    // micro-batches. With no overlap all of it is exposed; with the default overlap, whatever
    // the attention core cannot hide.
    const checked_cluster c = check(h100_cluster(1));
    const checked_model m = check(cat::llama_3_8b);
    training_strategy s{};
    s.parallel.context_parallel = 2;
    step_assumptions a{};
    a.context_comm_overlap = 0.0;
    const training_step r = training_step_time(m, c, job_of(4096, 2), s, a);
    const double kv = 2.0 * 2048.0 * 1024.0 * 2.0;
    const duration ring =
        collective_time({collective::point_to_point, make<bytes>(kv), 2}, c).time;
    CHECK(r.context_comm == approx(2.0 * 32.0 * 3.0 * ring, 1e-9));
    SUBCASE("selective recompute reruns the forward ring") {
        s.recompute = recompute::selective;
        const training_step sel = training_step_time(m, c, job_of(4096, 2), s, a);
        CHECK(sel.context_comm == approx(2.0 * 32.0 * 4.0 * ring, 1e-9));
    }
    SUBCASE("the ring hides behind a long sequence's attention") {
        const training_step hidden = training_step_time(m, c, job_of(32768, 2), s);
        CHECK(hidden.context_comm.value() == 0.0);
        CHECK(hidden.time.value() == approx(sum_of_terms(hidden), 1e-12));
    }
    SUBCASE("more overlap never exposes more") {
        step_assumptions half{};
        half.context_comm_overlap = 0.5;
        const training_step h = training_step_time(m, c, job_of(4096, 2), s, half);
        CHECK(h.context_comm <= r.context_comm);
        CHECK(training_step_time(m, c, job_of(4096, 2), s).context_comm <= h.context_comm);
    }
}

TEST_CASE("context parallelism: the gradients are reduced over DP x CP ranks") {
    // Llama-2-7B on one H100 node: CP 2 × DP 4 reduces its gradients over the same 8 ranks as
    // DP 8, so the exposed reduction is the same all-reduce of the 2-byte gradients.
    const checked_cluster c = check(h100_cluster(1));
    const checked_model m = check(cat::llama_2_7b);
    training_strategy s{};
    s.parallel.context_parallel = 2;
    s.parallel.data = 4;
    const training_step r = training_step_time(m, c, job_of(4096, 8), s);
    const double params = static_cast<double>(m.parameters().total);
    const duration reduce =
        collective_time({collective::all_reduce, make<bytes>(2.0 * params), 8}, c).time;
    CHECK(r.data_comm == approx(reduce, 1e-9));
    CHECK(r.gpus == 8);
}

TEST_CASE("unfused attention: the batched score matmuls run in whole waves of whole tiles") {
    // The tiny model without FlashAttention, s = 512, b = 1, TP 1: 4 heads of d = 64, one
    // batched call of 4 GEMMs each. On 4 SMs with 128 × 128 tiles: QKᵀ [512 × 64]·[64 × 512]
    // is 4 × 4 tiles a head, 64 in all, 16 waves of 2·128·128·64 FLOPs a tile; ·V
    // [512 × 512]·[512 × 64] is 4 × 1 tiles a head (64 columns padded to a 128-wide tile), 16
    // in all, 4 waves of 2·128·128·512. Backward: dS at QKᵀ's shape, dV, dQ, dK at ·V's. The
    // score streams (4 forward, 8 backward, 2 bytes × 4 × 512² elements) at 1 TB/s.
    const checked_model ct = check(tiny);
    const detail::gemm_machine g{1e14, 1e12, 4.0, 128.0, 128.0, 2.0};
    training_job j = job_of(512, 4);
    j.flash_attention = false;
    j.dropout = false;
    const detail::pass_seconds t =
        detail::attention_seconds(ct, parallel_layout{}, j, 1, g, 1e14, hand_assumptions());
    const double scores = 16.0 * 4.0 * 2.0 * 128.0 * 128.0 * 64.0 / 1e14;
    const double values = 4.0 * 4.0 * 2.0 * 128.0 * 128.0 * 512.0 / 1e14;
    const double stream = 2.0 * 4.0 * 512.0 * 512.0 / 1e12;
    CHECK(t.forward == approx(scores + values + 4.0 * stream, 1e-12));
    CHECK(t.backward == approx(scores + 3.0 * values + 8.0 * stream, 1e-12));
    // ·V's padding doubles its FLOPs: the same call with the SM count unknown runs the FLOPs
    // as they are.
    const detail::gemm_machine plain{1e14, 1e12, 0.0, 128.0, 128.0, 2.0};
    const detail::pass_seconds p =
        detail::attention_seconds(ct, parallel_layout{}, j, 1, plain, 1e14, hand_assumptions());
    CHECK(p.forward == approx(2.0 * 4.0 * 2.0 * 512.0 * 512.0 * 64.0 / 1e14 + 4.0 * stream,
                              1e-12));
}

TEST_CASE("unfused gradient accumulation streams the gradients once a micro-batch") {
    // The tiny model on the toy GPU, 4 micro-batches, the GEMMs' output write hidden (the hand
    // assumptions): without the fusion each micro-batch reads its fresh bf16 gradients and
    // reads and writes the bf16 buffer, 6 bytes a parameter (the fresh gradient's write is
    // the GEMM's own), for the 3,674,624 parameters the GPU holds, at 1 TB/s; with it, the
    // GEMM's own write is all.
    step_assumptions a = hand_assumptions();
    const training_step fused =
        training_step_time(tiny, one_node(toy_gpu), job_of(512, 4), training_strategy{}, a);
    a.fused_gradient_accumulation = false;
    const training_step unfused =
        training_step_time(tiny, one_node(toy_gpu), job_of(512, 4), training_strategy{}, a);
    const double per_mb = 3674624.0 * 6.0 / 1e12;
    CHECK(unfused.compute.value() - fused.compute.value() == approx(4.0 * per_mb, 1e-9));
    CHECK(unfused.backward_per_microbatch.value() - fused.backward_per_microbatch.value() ==
          approx(per_mb, 1e-9));
    CHECK(unfused.time.value() == approx(sum_of_terms(unfused), 1e-12));
    SUBCASE("fused into an fp32 buffer: the GEMM reads and writes 4-byte gradients") {
        // The output write exposed (gemm_epilogue_overlap 0): the weight-gradient GEMM's
        // epilogue writes a 2-byte element; fused, it reads and writes the buffer instead:
        // bf16, 2 + 2 bytes, 2 more; fp32, 4 + 4, 6 more. 4 bytes a parameter and micro-batch
        // apart.
        step_assumptions e = hand_assumptions();
        e.gemm_epilogue_overlap = 0.0;
        training_job j = job_of(512, 4);
        const training_step bf16 =
            training_step_time(tiny, one_node(toy_gpu), j, training_strategy{}, e);
        j.gradients = formats::fp32;
        const training_step fp32 =
            training_step_time(tiny, one_node(toy_gpu), j, training_strategy{}, e);
        CHECK(fp32.compute.value() - bf16.compute.value() ==
              approx(4.0 * 3674624.0 * 4.0 / 1e12, 1e-9));
    }
}

TEST_CASE("a GEMM's output write adds to its compute, so short-K GEMMs run further from peak") {
    // Unknown SMs, 1e14 FLOP/s, 1e12 B/s, 2-byte elements, the epilogue exposed: C[4096 × 4096]
    // = A[4096 × K]·B[K × 4096] takes 2·4096²·K/1e14 + 4096²·2/1e12 s while compute-bound, so its
    // efficiency is K/(K + K0) of the rate with K0 = 1e14 × 2 ÷ (2 × 1e12) = 100.
    const detail::gemm_machine g{1e14, 1e12, 0.0, 128.0, 128.0, 2.0, 1.0};
    const double n = 4096.0;
    for (double k : {256.0, 1024.0, 8192.0}) {
        const double t = detail::gemm_seconds(g, n, n, k);
        CHECK(t == approx(2.0 * n * n * k / 1e14 + n * n * 2.0 / 1e12, 1e-12));
        CHECK(2.0 * n * n * k / 1e14 / t == approx(k / (k + 100.0), 1e-12));
    }
    // Half the epilogue hidden: half the write added.
    const detail::gemm_machine half{1e14, 1e12, 0.0, 128.0, 128.0, 2.0, 0.5};
    CHECK(detail::gemm_seconds(half, n, n, 256.0) ==
          approx(2.0 * n * n * 256.0 / 1e14 + 0.5 * n * n * 2.0 / 1e12, 1e-12));
    // A memory-bound GEMM keeps its memory time: the write is part of it.
    const detail::gemm_machine slow{1e15, 1e9, 0.0, 128.0, 128.0, 2.0, 1.0};
    CHECK(detail::gemm_seconds(slow, 8.0, n, n) ==
          approx((8.0 * n + n * n + 8.0 * n) * 2.0 / 1e9, 1e-12));
    // Through the step: the default (epilogue exposed) is never faster than a hidden one.
    step_assumptions hidden{};
    hidden.gemm_epilogue_overlap = 1.0;
    const checked_cluster c = check(h100_cluster(1));
    training_strategy s{};
    s.parallel.tensor = 8;
    const training_step exposed = training_step_time(check(cat::llama_2_70b), c, job_of(4096, 2), s);
    const training_step free = training_step_time(check(cat::llama_2_70b), c, job_of(4096, 2), s, hidden);
    CHECK(exposed.compute > free.compute);
}

TEST_CASE("context parallelism: a ring that spans nodes steps at its network hop") {
    // Llama-3-8B, TP 4 × CP 4 on two H100 nodes: the CP group's ranks are 4 apart, so the ring
    // crosses between the nodes, and each of its CP − 1 = 3 steps waits for a send from one
    // node to the other: s/CP = 1,024 tokens' K and V on a TP rank, 2 × 1,024 × (1,024 ÷ 4) ×
    // 2 bytes. Forward once, backward twice, 32 layers, 2 micro-batches, no overlap.
    const checked_cluster c = check(h100_cluster(2));
    training_strategy s{};
    s.parallel.tensor = 4;
    s.parallel.context_parallel = 4;
    step_assumptions a{};
    a.context_comm_overlap = 0.0;
    const training_step r = training_step_time(check(cat::llama_3_8b), c, job_of(4096, 2), s, a);
    const double kv = 2.0 * 1024.0 * 256.0 * 2.0;
    group_placement across{};
    across.ranks_per_node = 1;
    const duration hop =
        collective_time({collective::point_to_point, make<bytes>(kv), 2}, c, across).time;
    CHECK(r.context_comm == approx(2.0 * 32.0 * 3.0 * 3.0 * hop, 1e-9));
    // Within one node (TP 2 × CP 4) the hop is NVLink's, far quicker per byte.
    const duration nvlink =
        collective_time({collective::point_to_point, make<bytes>(kv), 2}, c).time;
    CHECK(hop > nvlink);
}
