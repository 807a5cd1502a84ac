// item_workload_test.cpp: workloads that are not transformers. The catalog's ResNet-50 and
// ViT-B/16 counts are re-derived from their papers' layer tables and compared with the
// published figures; the roofline time, the memory fit and the serving plan are checked on cases
// worked by hand; bad input (a negative measured time among it) is invalid_input naming the
// function, the field, the value and the rule.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/workloads.hpp>
#include <gpucalc/memory/item.hpp>
#include <gpucalc/roofline/item.hpp>
#include <gpucalc/serving/items.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;

namespace {

struct resnet_count {
    double macs = 0.0;
    double parameters = 0.0;
};

/// ResNet-50 at a 224×224 input, layer by layer from He et al. 2016, Table 1 (conv1 7×7/2,
/// a 3×3/2 max pool, bottleneck stages of 3, 4, 6 and 3 blocks of widths 64–512, a 1,000-way
/// fully connected layer); `v1_5` puts a downsampling block's stride on its 3×3 convolution
/// (torchvision), else on its first 1×1 (the paper). Batch norm adds 2 parameters a channel.
resnet_count resnet50_count(bool v1_5) {
    resnet_count r{};
    const auto out_side = [](std::int64_t side, std::int64_t kernel, std::int64_t stride) {
        return (side + 2 * (kernel / 2) - kernel) / stride + 1;
    };
    const auto conv = [&](std::int64_t in, std::int64_t out, std::int64_t kernel,
                          std::int64_t stride, std::int64_t side) {
        const std::int64_t s = out_side(side, kernel, stride);
        r.macs += static_cast<double>(s * s * out * in * kernel * kernel);
        r.parameters += static_cast<double>(out * in * kernel * kernel + 2 * out);
        return s;
    };
    std::int64_t side = conv(3, 64, 7, 2, 224);
    side = out_side(side, 3, 2);  // max pool
    std::int64_t in = 64;
    const std::int64_t widths[] = {64, 128, 256, 512}, blocks[] = {3, 4, 6, 3};
    for (int stage = 0; stage < 4; ++stage) {
        for (std::int64_t b = 0; b < blocks[stage]; ++b) {
            const std::int64_t w = widths[stage];
            const std::int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
            const std::int64_t s1 = conv(in, w, 1, v1_5 ? 1 : stride, side);
            const std::int64_t s2 = conv(w, w, 3, v1_5 ? stride : 1, s1);
            const std::int64_t s3 = conv(w, 4 * w, 1, 1, s2);
            if (b == 0) conv(in, 4 * w, 1, stride, side);  // the projection shortcut
            in = 4 * w;
            side = s3;
        }
    }
    r.macs += 2048.0 * 1000.0;
    r.parameters += 2048.0 * 1000.0 + 1000.0;
    return r;
}

gpu_spec simple_gpu() {
    gpu_spec g{};
    g.name = "simple";
    g.memory = make<gibibytes>(8.0);
    g.memory_bandwidth = make<bytes_per_second>(1e12);
    g.dense_peak.fp16 = make<flops_per_second>(100e12);
    return g;
}

item_workload simple_workload() {
    item_workload w{};
    w.name = "simple";
    w.flops_per_item = make<flops>(1e12);
    w.parameters = 1e9;  // 2 GB at fp16
    w.moved_elements_per_item = 1e6;
    w.live_elements_per_item = 1e6;
    return w;
}

}  // namespace

TEST_CASE("ResNet-50: the catalog's count is Table 1's, as torchvision and He et al. publish it") {
    const resnet_count v15 = resnet50_count(true);
    const resnet_count v1 = resnet50_count(false);
    // torchvision, ResNet50_Weights.IMAGENET1K_V1: "GFLOPS 4.09" (multiply-adds), num_params
    // 25,557,032.
    CHECK(v15.macs == doctest::Approx(4.09e9).epsilon(0.001));
    CHECK(v15.parameters == 25557032.0);
    // He et al. 2016, Table 1: 3.8×10⁹ FLOPs (multiply-adds) for the 50-layer net (v1).
    CHECK(v1.macs == doctest::Approx(3.8e9).epsilon(0.02));
    CHECK(v1.parameters == v15.parameters);
    // The catalog counts a multiply-add as 2 FLOPs.
    CHECK(in<flops>(catalog::resnet50.flops_per_item) == 2.0 * v15.macs);
    CHECK(catalog::resnet50.parameters == v15.parameters);
    // 25.6 M parameters at fp16: 51.1 MB.
    CHECK(in<megabytes>(item_weight_bytes(catalog::resnet50)) ==
          doctest::Approx(51.114064).epsilon(1e-9));
}

TEST_CASE("ViT-B/16 and BERT-base: counts as derived, matching the published figures") {
    // Dosovitskiy et al. 2021, Table 1: 86 M parameters; torchvision: 86,567,656 and 17.56
    // GFLOPS (multiply-adds).
    CHECK(catalog::vit_b16.parameters == doctest::Approx(86e6).epsilon(0.01));
    CHECK(in<gigaflops>(catalog::vit_b16.flops_per_item) / 2.0 ==
          doctest::Approx(17.56).epsilon(0.001));
    // Re-derived: 197 tokens, 12 layers of width 768 and MLP 3,072, the patch embedding and head.
    const double t = 197.0, d = 768.0, ff = 3072.0, layers = 12.0;
    const double vit = layers * ((4.0 * d * d + 2.0 * d * ff) * t + 2.0 * t * t * d) +
                       196.0 * d * d + d * 1000.0;
    CHECK(in<flops>(catalog::vit_b16.flops_per_item) == 2.0 * vit);
    // Devlin et al. 2019, §3: 110 M parameters; FLOPs derived the same way at 128 tokens.
    CHECK(catalog::bert_base_128.parameters == 110e6);
    const double bert = layers * ((4.0 * d * d + 2.0 * d * ff) * 128.0 + 2.0 * 128.0 * 128.0 * d);
    CHECK(in<flops>(catalog::bert_base_128.flops_per_item) == 2.0 * bert);
}

TEST_CASE("item_batch_time: the weights once per batch, FLOPs and activations per item") {
    const item_workload w = simple_workload();
    const gpu_spec g = simple_gpu();
    // Batch 1: compute 1e12 ÷ 1e14 = 10 ms; memory (2e9 + 2e6) B ÷ 1e12 B/s = 2.002 ms.
    const op_timing one = item_batch_time(w, g, 1, kernel_efficiency::ideal());
    CHECK(in<milliseconds>(one.compute_time) == doctest::Approx(10.0));
    CHECK(in<milliseconds>(one.memory_time) == doctest::Approx(2.002));
    CHECK(one.bound == bound::compute);
    // Batch 4 at the default efficiencies: 40 ms ÷ 0.8 = 50 ms; (2e9 + 8e6) ÷ 0.85e12.
    const op_timing four = item_batch_time(w, g, 4);
    CHECK(in<milliseconds>(four.time) == doctest::Approx(50.0));
    CHECK(in<milliseconds>(four.memory_time) == doctest::Approx(2008e6 / 0.85e12 * 1e3));
    // ResNet-50 on a T4 at batch 1: (51,114,064 + 2 × 22,378,496) B ÷ (300 GB/s × 0.85).
    const op_timing r = item_batch_time(catalog::resnet50, catalog::t4);
    CHECK(r.bound == bound::memory);
    CHECK(in<milliseconds>(r.time) == doctest::Approx(95871056.0 / 255e9 * 1e3));
}

TEST_CASE("item memory: weights + batch × activations + the runtime overhead; largest batch") {
    const item_workload w = simple_workload();
    const item_memory m = item_memory_per_gpu(w, 10);
    CHECK(in<bytes>(m.weights) == doctest::Approx(2e9));
    CHECK(in<bytes>(m.activations) == doctest::Approx(2e7));
    // 0.5 GiB context + 5 % of the tensors (runtime_overhead's defaults).
    CHECK(in<bytes>(m.overhead) == doctest::Approx(536870912.0 + 0.05 * 2.02e9));
    CHECK(m.total == m.weights + m.activations + m.overhead);
    // 8 GiB: 536,870,912 + 1.05 × (2e9 + 2e6·B) ≤ 8,589,934,592 ⇒ B ≤ 2,834.79.
    const item_batch_fit fit = largest_item_batch(w, simple_gpu());
    CHECK(fit.fits);
    CHECK(fit.batch == 2834);
    CHECK(fit.verdict.ok);
    CHECK_FALSE(fits(item_memory_per_gpu(w, 2835).total, simple_gpu().memory).ok);
    // A cap below that, and a GPU too small for one item.
    CHECK(largest_item_batch(w, simple_gpu(), 0.0, {}, 100).batch == 100);
    gpu_spec small = simple_gpu();
    small.memory = make<gigabytes>(1.0);
    const item_batch_fit none = largest_item_batch(w, small);
    CHECK_FALSE(none.fits);
    CHECK(none.batch == 0);
}

TEST_CASE("largest item batch: exact and quick beside weights that dwarf one item") {
    // 1e15 parameters of 2 bytes beside 1 activation element of 2 bytes: total(2) − total(1)
    // is below the weights' rounding step (2.1e15 × 2^-52 ≈ 0.47 B per ulp, so the 2.1 B per
    // item is a few ulps and cancels unevenly). The answer must still be the exact largest
    // batch, found without stepping down one batch at a time (2^40 steps would take hours).
    item_workload w = simple_workload();
    w.parameters = 1e15;
    w.live_elements_per_item = 1.0;
    gpu_spec big = simple_gpu();
    big.memory = make<bytes>(3e15);
    const std::int64_t limit = std::int64_t{1} << 40;
    const item_batch_fit fit = largest_item_batch(w, big, 0.0, {}, limit);
    REQUIRE(fit.fits);
    // By hand: 536,870,912 + 1.05 × (2e15 + 2B) ≤ 3e15 ⇒ B ≤ (3e15 − 536,870,912) ÷ 2.1 − 1e15
    // ≈ 4.2857e14, far above 2^40 ≈ 1.0995e12: the limit binds.
    CHECK(fit.batch == limit);
    big.memory = make<bytes>(2.1e15 + 1e9);
    const item_batch_fit tight = largest_item_batch(w, big, 0.0, {}, limit);
    REQUIRE(tight.fits);
    // (2.1e15 + 1e9 − 536,870,912 − 2.1e15) ÷ 2.1 ≈ 2.2006e8 items.
    CHECK(static_cast<double>(tight.batch) == doctest::Approx((1e9 - 536870912.0) / 2.1)
                                                   .epsilon(1e-6));
    CHECK(tight.verdict.ok);
    CHECK_FALSE(fits(item_memory_per_gpu(w, tight.batch + 1).total, big.memory).ok);
}

TEST_CASE("item serving: a measured 100 ms at batch 1, M/D/1 by hand") {
    gpu_spec laptop = simple_gpu();
    laptop.name = "laptop";
    item_workload w = catalog::resnet50;
    w.measured.time_per_item = make<milliseconds>(100.0);
    w.measured.device = laptop;
    const request_rate rate = make<requests_per_second>(10000.0 / 3600.0);
    const item_replicas_estimate e =
        item_replicas_for_rate(w, laptop, rate, make<milliseconds>(500.0));
    REQUIRE(e.chosen.verdict == item_verdict::feasible);
    CHECK(e.chosen.source == item_time_source::measured);
    CHECK(e.chosen.gpus == 1);
    CHECK(e.chosen.batch == 1);
    // ρ = 2.778/s × 0.1 s; M/M/1: C = ρ, p99 wait = ln(ρ/0.01) × 0.1 s ÷ (1 − ρ), × 1/2 for
    // deterministic service (Allen–Cunneen), + 0.1 s of service.
    const double rho = 10000.0 / 3600.0 * 0.1;
    const double p99 = 0.5 * std::log(rho / 0.01) * 0.1 / (1.0 - rho) + 0.1;
    CHECK(in<seconds>(e.chosen.latency) == doctest::Approx(p99).epsilon(1e-12));
    CHECK(e.roofline.source == item_time_source::roofline);
    CHECK(e.roofline.service.time < e.chosen.service.time);

    // Held unchanged on a T4 by default: the measured time is taken as overhead the GPU does
    // not cut.
    const item_service held = item_service_time(w, catalog::t4);
    CHECK(held.source == item_time_source::measured_held);
    CHECK(in<milliseconds>(held.time) == doctest::Approx(100.0));
    // Carried to a T4 by the roofline ratio at batch 1 when asked.
    item_serving_assumptions scaled{};
    scaled.transfer = measurement_transfer::scale;
    const item_service t4 = item_service_time(w, catalog::t4, 1, scaled);
    CHECK(t4.source == item_time_source::measured_scaled);
    const double ratio = item_batch_time(w, catalog::t4).time / item_batch_time(w, laptop).time;
    CHECK(in<milliseconds>(t4.time) == doctest::Approx(100.0 * ratio));
    // Not carried when the assumptions say so, nor scaled when the device has no spec.
    item_serving_assumptions none{};
    none.transfer = measurement_transfer::none;
    CHECK(item_service_time(w, catalog::t4, 1, none).source == item_time_source::roofline);
    item_workload named_only = w;
    named_only.measured.device = gpu_spec{};
    named_only.measured.device.name = "somewhere";
    CHECK(item_service_time(named_only, catalog::t4, 1, scaled).source ==
          item_time_source::roofline);
    CHECK(item_service_time(named_only, catalog::t4).source == item_time_source::measured_held);
    // A device spec that is there but invalid is an error, not silently ignored.
    item_workload bad_device = w;
    bad_device.measured.device.memory_bandwidth = make<gigabytes_per_second>(-256.0);
    CHECK_THROWS_WITH_AS(item_service_time(bad_device, catalog::t4, 1, scaled),
                         doctest::Contains("workload.measured.device.memory_bandwidth"),
                         invalid_input);
    // Other batches than the measured one use the roofline.
    CHECK(item_service_time(w, laptop, 2).source == item_time_source::roofline);
}

TEST_CASE("item serving: GPU counts agree with servers_for_wait; batching helps at high rates") {
    const request_rate rate = make<requests_per_second>(2e5);
    const duration slo = make<milliseconds>(100.0);
    const item_replicas_estimate e = item_replicas_for_rate(catalog::resnet50, catalog::t4, rate, slo);
    REQUIRE(e.roofline.verdict == item_verdict::feasible);
    CHECK(e.chosen.gpus == e.roofline.gpus);
    CHECK(e.roofline.batch > 1);
    // At batch 1 each GPU is one server with the batch-1 roofline time.
    const duration t1 = item_batch_time(catalog::resnet50, catalog::t4).time;
    const server_search one = servers_for_wait(rate, t1, {slo - t1, 0.99, {}}, 0.0);
    REQUIRE(one.found);
    CHECK(e.roofline.gpus < one.servers);
    // The chosen batch's plan is servers_for_wait over its slots.
    const duration tb = e.roofline.service.time;
    const server_search at_b = servers_for_wait(rate, tb, {slo - 2.0 * tb, 0.99, {}}, 0.0);
    CHECK(e.roofline.gpus == (at_b.servers + e.roofline.batch - 1) / e.roofline.batch);
    CHECK(e.roofline.latency <= slo);
}

TEST_CASE("item serving: the utilization cap adds GPUs until the plan runs at or under it") {
    // 2e5 images/s on T4s at a 100 ms p99: M/D/c meets the target with the slots nearly all
    // busy, since each batch takes a few milliseconds against 100 ms.
    const request_rate rate = make<requests_per_second>(2e5);
    const duration slo = make<milliseconds>(100.0);
    const item_replicas_estimate free_run =
        item_replicas_for_rate(catalog::resnet50, catalog::t4, rate, slo);
    REQUIRE(free_run.roofline.verdict == item_verdict::feasible);
    CHECK(free_run.roofline.queue.queue.utilization > 0.9);
    item_serving_assumptions capped{};
    capped.max_utilization = 0.6;
    const item_replicas_estimate e =
        item_replicas_for_rate(catalog::resnet50, catalog::t4, rate, slo, capped);
    REQUIRE(e.roofline.verdict == item_verdict::feasible);
    CHECK(e.roofline.queue.queue.utilization <= 0.6);
    CHECK(e.roofline.gpus > free_run.roofline.gpus);
    // At a batch B, the slots are ⌈offered load ÷ 0.6⌉ (more slots only shorten the wait).
    const double offered = 2e5 * in<seconds>(e.roofline.service.time);
    CHECK(e.roofline.queue.servers == static_cast<std::int64_t>(std::ceil(offered / 0.6)));
    CHECK(e.roofline.latency <= slo);
    capped.max_utilization = 0.0;
    CHECK_THROWS_WITH_AS(item_replicas_for_rate(catalog::resnet50, catalog::t4, rate, slo, capped),
                         "item_replicas_for_rate: assumptions.max_utilization = 0 must be in "
                         "[1e-3, 1]",
                         invalid_input);
}

TEST_CASE("item serving: explicit no-answers") {
    item_workload w = catalog::resnet50;
    w.measured.time_per_item = make<milliseconds>(100.0);
    w.measured.device = catalog::t4;
    // A latency target below the measured service time.
    const item_replicas_estimate slow = item_replicas_for_rate(
        w, catalog::t4, make<requests_per_second>(1.0), make<milliseconds>(50.0));
    CHECK(slow.chosen.verdict == item_verdict::latency_below_service);
    CHECK(slow.chosen.gpus == 0);
    CHECK(slow.roofline.verdict == item_verdict::feasible);
    // A GPU too small for the weights.
    gpu_spec tiny = catalog::t4;
    tiny.memory = make<megabytes>(100.0);
    const item_replicas_estimate none =
        item_replicas_for_rate(w, tiny, make<requests_per_second>(1.0), make<seconds>(1.0));
    CHECK(none.roofline.verdict == item_verdict::does_not_fit);
    CHECK(none.chosen.verdict == item_verdict::does_not_fit);
    CHECK_FALSE(none.memory.fits);
}

TEST_CASE("item workloads: bad input is invalid_input naming function, field, value and rule") {
    item_workload w = catalog::resnet50;
    w.measured.time_per_item = make<milliseconds>(-100.0);
    CHECK_THROWS_WITH_AS(item_service_time(w, catalog::t4),
                         "item_service_time: measured.time_per_item = -100 ms must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(item_replicas_for_rate(w, catalog::t4, make<requests_per_second>(1.0),
                                                make<seconds>(1.0)),
                         "item_replicas_for_rate: measured.time_per_item = -100 ms must be finite "
                         "and >= 0",
                         invalid_input);
    item_workload p = catalog::resnet50;
    p.parameters = 0.0;
    CHECK_THROWS_WITH_AS(item_batch_time(p, catalog::t4),
                         "item_batch_time: parameters = 0 must be in [1, 1e15]", invalid_input);
    p = catalog::resnet50;
    p.flops_per_item = make<flops>(std::numeric_limits<double>::quiet_NaN());
    CHECK_THROWS_AS(item_memory_per_gpu(p), invalid_input);
    CHECK_THROWS_WITH_AS(item_memory_per_gpu(catalog::resnet50, 0),
                         "item_memory_per_gpu: batch = 0 must be >= 1", invalid_input);
    p = catalog::resnet50;
    p.measured.batch = 0;
    CHECK_THROWS_WITH_AS(item_weight_bytes(p),
                         "item_weight_bytes: measured.batch = 0 must be >= 1", invalid_input);
    p = catalog::resnet50;
    p.compute = compute_precision::fp8;
    CHECK_THROWS_WITH_AS(item_batch_time(p, catalog::t4),
                         "item_batch_time: workload.compute = fp8 is not supported by T4 (it has "
                         "no dense peak at that precision)",
                         invalid_input);
    item_serving_assumptions a{};
    a.percentile = 1.0;
    CHECK_THROWS_WITH_AS(item_service_time(catalog::resnet50, catalog::t4, 1, a),
                         "item_service_time: assumptions.percentile = 1 must be in (0, 1)",
                         invalid_input);
    a = {};
    a.batch_limit = (std::int64_t{1} << 20) + 1;
    CHECK_THROWS_WITH_AS(item_service_time(catalog::resnet50, catalog::t4, 1, a),
                         "item_service_time: assumptions.batch_limit = 1048577 must be <= 2^20",
                         invalid_input);
    CHECK_THROWS_WITH_AS(item_replicas_for_rate(catalog::resnet50, catalog::t4,
                                                make<requests_per_second>(-1.0),
                                                make<seconds>(1.0)),
                         "item_replicas_for_rate: rate = -1 requests/s must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(item_replicas_for_rate(catalog::resnet50, catalog::t4,
                                                make<requests_per_second>(1.0), duration{}),
                         "item_replicas_for_rate: latency = 0 s must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(largest_item_batch(catalog::resnet50, catalog::t4, 1.0),
                         "largest_item_batch: headroom = 1 must be in [0, 1)", invalid_input);
    // A measuring device whose spec is out of range is named as the caller wrote it, when the
    // measurement is scaled by it (held, the spec is not used).
    item_serving_assumptions scale{};
    scale.transfer = measurement_transfer::scale;
    item_workload m = catalog::resnet50;
    m.measured.time_per_item = make<milliseconds>(100.0);
    m.measured.device = catalog::l4;
    m.measured.device.name = "other";
    m.measured.device.memory_bandwidth = make<bytes_per_second>(1e40);
    CHECK(item_service_time(m, catalog::t4).source == item_time_source::measured_held);
    CHECK_THROWS_WITH_AS(item_service_time(m, catalog::t4, 1, scale),
                         "item_service_time: workload.measured.device.memory_bandwidth = 1e+40 "
                         "B/s must be at most 1e30 B/s",
                         invalid_input);
}
