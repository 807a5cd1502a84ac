// operations_input_pipeline_test.cpp: the input pipeline's demand, supply and verdict pinned to
// hand-worked examples and to the sourced figures: ImageNet's mean JPEG from its archive size
// and image count, ResNet-50 on a DGX A100 from NVIDIA's published throughput, the token-id
// width from the vocabulary, and a language model that nothing on the input side binds.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/catalog/workloads.hpp>
#include <gpucalc/operations.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace gpucalc;
namespace cat = gpucalc::catalog;

namespace {
/// The p4d.24xlarge of the docs' example: 8 A100s, 96 vCPUs, 400 Gb/s, 10 GB/s shared storage,
/// 11 workers per GPU (12 vCPUs per GPU, one kept for the training process).
input_pipeline p4d_pipeline() {
    input_pipeline p{};
    p.nodes = 1;
    p.gpus_per_node = cat::aws_p4d_24xlarge.gpus;
    p.cpu_cores_per_node = cat::aws_p4d_24xlarge.vcpus;
    p.storage_read = make<gigabytes_per_second>(10.0);
    p.storage = storage_scope::shared;
    p.network_per_node = cat::aws_p4d_24xlarge.network;
    p.preprocess_time_per_item = imagenet_preprocess_time_per_image;
    p.workers_per_gpu = 11;
    return p;
}
}  // namespace

TEST_CASE("ImageNet's mean training JPEG: 138 GB over 1,281,167 images") {
    // 138e9 / 1,281,167 = 107,714.29 B (image-net.org; Russakovsky et al. 2015).
    CHECK(approx_equal(in<bytes>(imagenet_mean_jpeg), 107714.29, 1e-6));
    CHECK(approx_equal(in<kilobytes>(imagenet_mean_jpeg), 107.714, 1e-5));
    // 150 images/s per core is 6.67 ms a core per image.
    CHECK(approx_equal(in<milliseconds>(imagenet_preprocess_time_per_image), 1000.0 / 150.0));
}

TEST_CASE("token_id_bytes: 2 bytes up to 65,536 ids, 4 above") {
    CHECK(in<bytes>(token_id_bytes(50257)) == doctest::Approx(2.0));   // GPT-2
    CHECK(in<bytes>(token_id_bytes(32000)) == doctest::Approx(2.0));   // Llama 2
    CHECK(in<bytes>(token_id_bytes(65536)) == doctest::Approx(2.0));   // ids 0 … 65,535
    CHECK(in<bytes>(token_id_bytes(65537)) == doctest::Approx(4.0));
    CHECK(in<bytes>(token_id_bytes(128256)) == doctest::Approx(4.0));  // Llama 3
    CHECK(in<bytes>(token_id_bytes(cat::llama_3_70b.vocab)) == doctest::Approx(4.0));
    CHECK(in<bytes>(token_id_bytes(cat::llama_2_70b.vocab)) == doctest::Approx(2.0));
    CHECK(in<bytes>(token_id_bytes(1)) == doctest::Approx(2.0));
}

TEST_CASE("sample_demand and token_demand: rate × bytes per item") {
    const input_demand d = sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg);
    CHECK(d.item == input_item::sample);
    CHECK(in<samples_per_second>(d.samples) == doctest::Approx(16621.0));
    CHECK(d.tokens.value() == doctest::Approx(0.0));
    // 16,621 × 107,714.29 B = 1.7903 GB/s.
    CHECK(approx_equal(in<gigabytes_per_second>(d.bytes), 16621.0 * 107714.29e-9, 1e-6));

    const input_demand t = token_demand(make<tokens_per_second>(1e6), make<bytes>(4.0));
    CHECK(t.item == input_item::token);
    CHECK(in<tokens_per_second>(t.tokens) == doctest::Approx(1e6));
    CHECK(t.samples.value() == doctest::Approx(0.0));
    CHECK(in<megabytes_per_second>(t.bytes) == doctest::Approx(4.0));
}

TEST_CASE("item_training_demand: gpus × fraction × peak ÷ (3 × forward FLOPs)") {
    // ResNet-50: 2 × 4,089,184,256 = 8,178,368,512 FLOP forward; training 3× that; A100 fp16
    // dense 312 TFLOP/s. At 0.16 of peak on 8 GPUs: 8 × 0.16 × 312e12 / 24,535,105,536
    // = 16,277.1 images/s.
    const input_demand d =
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg);
    const double expected = 8.0 * 0.16 * 312e12 / (3.0 * 8178368512.0);
    CHECK(approx_equal(in<samples_per_second>(d.samples), expected));
    CHECK(in<samples_per_second>(d.samples) == doctest::Approx(16277.1).epsilon(1e-5));
    // The fraction NVIDIA's 16,621 images/s implies reproduces it: 16,621 × 24.535 GFLOP ÷
    // (8 × 312 TFLOP/s) = 0.16338.
    item_training_assumptions a{};
    a.achieved_fraction = 16621.0 * 3.0 * 8178368512.0 / (8.0 * 312e12);
    CHECK(a.achieved_fraction == doctest::Approx(0.16338).epsilon(1e-4));
    const input_demand measured =
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg, a);
    CHECK(approx_equal(in<samples_per_second>(measured.samples), 16621.0));
    // Twice the GPUs, twice the demand; a factor of 2 instead of 3, 1.5× the demand.
    CHECK(approx_equal(
        in<samples_per_second>(
            item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 16, imagenet_mean_jpeg)
                .samples),
        2.0 * expected));
    item_training_assumptions two{};
    two.training_flops_per_forward = 2.0;
    CHECK(approx_equal(
        in<samples_per_second>(
            item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg, two)
                .samples),
        1.5 * expected));
}

TEST_CASE("ResNet-50 on a p4d.24xlarge: CPU decode binds, and even every core is not enough") {
    const input_demand d = sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg);
    const feed_verdict v = input_pipeline_verdict(d, p4d_pipeline());
    // 96 vCPUs ÷ 8 GPUs = 12, one for the training process: 11 usable, 11 workers run.
    CHECK(v.usable_cores_per_gpu == 11);
    CHECK(v.effective_workers_per_gpu == 11);
    // Preprocessing: 8 × 11 × 150 = 13,200 images/s; 13,200 ÷ 16,621 = 0.79418.
    CHECK(approx_equal(in<samples_per_second>(v.preprocessing.samples), 13200.0));
    CHECK(approx_equal(v.preprocessing.headroom, 13200.0 / 16621.0));
    // Storage: 10 GB/s ÷ 107,714 B = 92,838 images/s, 5.59× the demand.
    CHECK(approx_equal(in<samples_per_second>(v.storage.samples), 1e10 / (138e9 / 1281167.0)));
    CHECK(v.storage.headroom == doctest::Approx(5.5856).epsilon(1e-4));
    // Network: 400 Gb/s = 50 GB/s ÷ 107,714 B = 464,188 images/s, 27.9×.
    CHECK(v.network.headroom == doctest::Approx(27.928).epsilon(1e-4));
    CHECK(approx_equal(in<gigabytes_per_second>(v.network.bytes), 50.0));
    CHECK(v.input_bound);
    CHECK(v.binding == input_stage::preprocessing);
    CHECK(v.tightest == input_stage::preprocessing);
    CHECK(approx_equal(v.gpu_utilization, 13200.0 / 16621.0));
    // Needed: 16,621 ÷ 8 = 2,077.6 images/s a GPU × 6.67 ms = 13.85 → 14 workers > 11: no.
    CHECK(v.workers_per_gpu_needed == 14);
    CHECK_FALSE(v.cores_suffice);
    CHECK(approx_equal(v.storage_needed, d.bytes));
    CHECK(approx_equal(v.network_needed_per_node, d.bytes));
}

TEST_CASE("more cores per GPU: 14 workers keep up, and the job is compute-bound") {
    input_pipeline p = p4d_pipeline();
    p.cpu_cores_per_node = 8 * 16;  // 16 per GPU, 15 usable
    p.workers_per_gpu = 14;
    const feed_verdict v = input_pipeline_verdict(
        sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg), p);
    CHECK(v.usable_cores_per_gpu == 15);
    CHECK(v.effective_workers_per_gpu == 14);
    // 8 × 14 × 150 = 16,800 ≥ 16,621.
    CHECK(v.preprocessing.headroom == doctest::Approx(16800.0 / 16621.0));
    CHECK_FALSE(v.input_bound);
    CHECK(v.binding == input_stage::none);
    CHECK(v.tightest == input_stage::preprocessing);
    CHECK(v.gpu_utilization == doctest::Approx(1.0));
    CHECK(v.workers_per_gpu_needed == 14);
    CHECK(v.cores_suffice);
    // 13 workers fall just short: 8 × 13 × 150 = 15,600, 93.9%.
    p.workers_per_gpu = 13;
    const feed_verdict short_by_one = input_pipeline_verdict(
        sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg), p);
    CHECK(short_by_one.binding == input_stage::preprocessing);
    CHECK(approx_equal(short_by_one.gpu_utilization, 15600.0 / 16621.0));
    CHECK(short_by_one.cores_suffice);  // 14 ≤ 15: add one worker
}

TEST_CASE("workers beyond the cores add nothing; cores all reserved supply nothing") {
    input_pipeline p = p4d_pipeline();
    p.workers_per_gpu = 32;  // 32 processes on 11 usable cores
    const input_demand d = sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg);
    CHECK(input_pipeline_verdict(d, p).effective_workers_per_gpu == 11);
    p.cores_reserved_per_gpu = 12;
    const feed_verdict none = input_pipeline_verdict(d, p);
    CHECK(none.usable_cores_per_gpu == 0);
    CHECK(none.preprocessing.headroom == doctest::Approx(0.0));
    CHECK(none.gpu_utilization == doctest::Approx(0.0));
    CHECK(none.binding == input_stage::preprocessing);
    CHECK_FALSE(none.cores_suffice);
}

TEST_CASE("storage binds: shared against per-node bandwidth") {
    input_pipeline p = p4d_pipeline();
    p.nodes = 4;
    p.cpu_cores_per_node = 8 * 32;
    p.workers_per_gpu = 31;
    p.storage_read = make<gigabytes_per_second>(5.0);
    // 4 nodes × 8 GPUs at 2,077.6 images/s: 66,484 images/s, 7.161 GB/s.
    const input_demand d =
        sample_demand(make<samples_per_second>(4.0 * 16621.0), imagenet_mean_jpeg);
    CHECK(in<gigabytes_per_second>(d.bytes) == doctest::Approx(7.1613).epsilon(1e-4));
    const feed_verdict shared = input_pipeline_verdict(d, p);
    CHECK(shared.binding == input_stage::storage);
    CHECK(approx_equal(shared.gpu_utilization, 5e9 / d.bytes.value()));
    CHECK(approx_equal(shared.storage_needed, d.bytes));
    CHECK(approx_equal(shared.network_needed_per_node.value(), d.bytes.value() / 4.0));
    // The same 5 GB/s on each node: 20 GB/s in all, 2.79× the demand.
    p.storage = storage_scope::per_node;
    const feed_verdict local = input_pipeline_verdict(d, p);
    CHECK_FALSE(local.input_bound);
    CHECK(approx_equal(local.storage.headroom, 20e9 / d.bytes.value()));
    CHECK(approx_equal(local.storage_needed.value(), d.bytes.value() / 4.0));
}

TEST_CASE("a 70B language model on 64 H100s: tokens are tiny, nothing on the input side binds") {
    const auto model = check(cat::llama_2_70b);
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 8;
    c.inter_node = cat::infiniband_ndr;
    training_job job{};
    job.sequence = 4096;
    job.global_batch = 512;
    training_strategy s{};
    s.parallel.tensor = 8;
    s.parallel.pipeline = 4;
    s.parallel.data = 2;
    s.parallel.sequence_parallel = true;
    s.parallel.zero_stage = 1;
    s.micro_batch = 1;
    s.recompute = recompute::selective;
    const training_step step = training_step_time(model, check(c), job, s);
    // Llama 2's 32,000-token vocabulary: 2 bytes a token.
    const input_demand d = token_demand(step, token_id_bytes(cat::llama_2_70b.vocab));
    CHECK(approx_equal(d.tokens, step.tokens_per_second));
    CHECK(approx_equal(d.bytes.value(), 2.0 * step.tokens_per_second.value()));
    input_pipeline p{};
    p.nodes = 8;
    p.gpus_per_node = 8;
    p.cpu_cores_per_node = 192;
    p.storage_read = make<gigabytes_per_second>(1.0);
    p.network_per_node = make<gigabits_per_second>(100.0);
    p.preprocess_time_per_item = duration{};  // pre-tokenized, read as is
    const feed_verdict v = input_pipeline_verdict(d, p);
    CHECK_FALSE(v.input_bound);
    CHECK(v.binding == input_stage::none);
    CHECK(v.tightest == input_stage::storage);
    CHECK_FALSE(v.preprocessing.present);
    CHECK(v.workers_per_gpu_needed == 0);
    CHECK(v.cores_suffice);
    // ~72,400 tokens/s × 2 B = ~145 kB/s: 1 GB/s is ~6,900× that.
    CHECK(approx_equal(v.storage.headroom, 1e9 / (2.0 * step.tokens_per_second.value())));
    CHECK(v.storage.headroom > 1000.0);
    CHECK(v.gpu_utilization == doctest::Approx(1.0));
}

TEST_CASE("to_string(input_stage)") {
    CHECK(std::string(to_string(input_stage::none)) == "none");
    CHECK(std::string(to_string(input_stage::storage)) == "storage");
    CHECK(std::string(to_string(input_stage::network)) == "network");
    CHECK(std::string(to_string(input_stage::preprocessing)) == "preprocessing");
}
