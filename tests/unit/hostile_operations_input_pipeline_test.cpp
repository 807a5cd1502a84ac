// hostile_operations_input_pipeline_test.cpp: bad input to the input pipeline's functions is
// invalid_input naming the function, the field, the value and the rule: a bandwidth of zero, a
// negative worker count, a NaN rate, a demand with both rates or an enumerator cast from
// another integer, a fraction of peak of 0; and the extreme inputs give finite answers.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/workloads.hpp>
#include <gpucalc/operations.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace gpucalc;
namespace cat = gpucalc::catalog;

namespace {
input_pipeline good_pipeline() {
    input_pipeline p{};
    p.storage_read = make<gigabytes_per_second>(10.0);
    p.network_per_node = make<gigabits_per_second>(400.0);
    return p;
}
input_demand good_demand() {
    return sample_demand(make<samples_per_second>(16621.0), imagenet_mean_jpeg);
}
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("input_pipeline_verdict: a bandwidth of zero") {
    input_pipeline p = good_pipeline();
    p.storage_read = bandwidth{};
    CHECK_THROWS_WITH_AS(
        input_pipeline_verdict(good_demand(), p),
        doctest::Contains("input_pipeline_verdict: pipeline.storage_read = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("must be finite and > 0"), invalid_input);
    p = good_pipeline();
    p.network_per_node = bandwidth{};
    CHECK_THROWS_WITH_AS(
        input_pipeline_verdict(good_demand(), p),
        doctest::Contains("input_pipeline_verdict: pipeline.network_per_node = 0"),
        invalid_input);
    p.network_per_node = make<bytes_per_second>(-1.0);
    CHECK_THROWS_AS(input_pipeline_verdict(good_demand(), p), invalid_input);
    p.network_per_node = make<bytes_per_second>(not_a_number);
    CHECK_THROWS_AS(input_pipeline_verdict(good_demand(), p), invalid_input);
}

TEST_CASE("input_pipeline_verdict: a negative worker count, and other bad counts") {
    input_pipeline p = good_pipeline();
    p.workers_per_gpu = -4;
    CHECK_THROWS_WITH_AS(
        input_pipeline_verdict(good_demand(), p),
        doctest::Contains("input_pipeline_verdict: pipeline.workers_per_gpu = -4 must be >= 1"),
        invalid_input);
    p.workers_per_gpu = 0;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.workers_per_gpu = 0 must be >= 1"),
                         invalid_input);
    p = good_pipeline();
    p.cores_reserved_per_gpu = -1;
    CHECK_THROWS_WITH_AS(
        input_pipeline_verdict(good_demand(), p),
        doctest::Contains("pipeline.cores_reserved_per_gpu = -1 must be in [0, 2^40]"),
        invalid_input);
    p = good_pipeline();
    p.nodes = 0;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.nodes = 0 must be >= 1"), invalid_input);
    p = good_pipeline();
    p.gpus_per_node = (std::int64_t{1} << 40) + 1;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.gpus_per_node"), invalid_input);
    p = good_pipeline();
    p.cpu_threads_per_node = -96;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.cpu_threads_per_node = -96"), invalid_input);
}

TEST_CASE("input_pipeline_verdict: threads per core and the SMT gain out of range") {
    input_pipeline p = good_pipeline();
    p.threads_per_core = 0;
    CHECK_THROWS_WITH_AS(
        input_pipeline_verdict(good_demand(), p),
        doctest::Contains("input_pipeline_verdict: pipeline.threads_per_core = 0 must be in [1, 8]"),
        invalid_input);
    p.threads_per_core = 9;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.threads_per_core = 9 must be in [1, 8]"),
                         invalid_input);
    p.threads_per_core = 4;
    p.cpu_threads_per_node = 3;
    CHECK_THROWS_WITH_AS(
        input_pipeline_verdict(good_demand(), p),
        doctest::Contains(
            "pipeline.threads_per_core = 4 must be <= pipeline.cpu_threads_per_node"),
        invalid_input);
    p = good_pipeline();
    p.smt_throughput_gain = -0.1;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.smt_throughput_gain = -0.1 must be in [0, 1]"),
                         invalid_input);
    p.smt_throughput_gain = 1.5;
    CHECK_THROWS_AS(input_pipeline_verdict(good_demand(), p), invalid_input);
    p.smt_throughput_gain = not_a_number;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.smt_throughput_gain = nan"), invalid_input);
}

TEST_CASE("input_pipeline_verdict: the demand's GPU count against the pipeline's") {
    input_demand d = good_demand();
    d.gpus = -1;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.gpus = -1 must be in [0, 2^40]"),
                         invalid_input);
    d.gpus = 16;  // the pipeline has 1 node of 8
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.gpus = 16 must equal pipeline.nodes × "
                                           "pipeline.gpus_per_node = 8"),
                         invalid_input);
    d.gpus = 8;
    CHECK_NOTHROW(input_pipeline_verdict(d, good_pipeline()));
}

TEST_CASE("input_pipeline_verdict: a negative preprocessing time, a bad storage scope") {
    input_pipeline p = good_pipeline();
    p.preprocess_time_per_item = make<milliseconds>(-6.7);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.preprocess_time_per_item"), invalid_input);
    p = good_pipeline();
    p.storage = static_cast<storage_scope>(7);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(good_demand(), p),
                         doctest::Contains("pipeline.storage = 7 must be a storage_scope value"),
                         invalid_input);
}

TEST_CASE("input_pipeline_verdict: a demand built by hand must hold one positive rate") {
    input_demand d = good_demand();
    d.item = static_cast<input_item>(9);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.item = 9 must be a input_item value"),
                         invalid_input);
    d = good_demand();
    d.tokens = make<tokens_per_second>(5.0);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.tokens = 5 tokens/s must be 0"),
                         invalid_input);
    d = input_demand{};
    d.bytes_per_item = imagenet_mean_jpeg;
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.samples = 0 samples/s must be in [1e-80, 1e80]"),
                         invalid_input);
    d = good_demand();
    d.bytes_per_item = data_size{};
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.bytes_per_item = 0 B"), invalid_input);
    d = good_demand();
    d.samples = make<samples_per_second>(std::numeric_limits<double>::infinity());
    CHECK_THROWS_AS(input_pipeline_verdict(d, good_pipeline()), invalid_input);
    d.samples = make<samples_per_second>(1e81);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.samples = 1e+81 samples/s must be in"),
                         invalid_input);
    d = good_demand();
    d.bytes_per_item = make<bytes>(1e31);
    CHECK_THROWS_WITH_AS(input_pipeline_verdict(d, good_pipeline()),
                         doctest::Contains("demand.bytes_per_item"), invalid_input);
}

TEST_CASE("the demand functions: zero, negative and NaN inputs") {
    CHECK_THROWS_WITH_AS(sample_demand(make<samples_per_second>(0.0), imagenet_mean_jpeg),
                         doctest::Contains("sample_demand: rate = 0 samples/s must be finite"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(sample_demand(make<samples_per_second>(2e15), imagenet_mean_jpeg),
                         doctest::Contains("sample_demand: rate = 2e+15 samples/s must be in [1e-30, 1e15]"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(sample_demand(make<samples_per_second>(1e-31), imagenet_mean_jpeg),
                         doctest::Contains("sample_demand: rate = 1e-31 samples/s must be in [1e-30, 1e15]"),
                         invalid_input);
    training_step no_gpus{};
    no_gpus.tokens_per_second = make<tokens_per_second>(1e6);
    CHECK_THROWS_WITH_AS(token_demand(no_gpus, make<bytes>(2.0)),
                         doctest::Contains("token_demand: step.gpus = 0 must be >= 1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(sample_demand(make<samples_per_second>(100.0), make<bytes>(-1.0)),
                         doctest::Contains("sample_demand: bytes_per_sample = -1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(token_demand(make<tokens_per_second>(not_a_number), make<bytes>(2.0)),
                         doctest::Contains("token_demand: rate = nan"), invalid_input);
    CHECK_THROWS_WITH_AS(token_demand(make<tokens_per_second>(1e6), data_size{}),
                         doctest::Contains("token_demand: bytes_per_token = 0"), invalid_input);
    CHECK_THROWS_WITH_AS(token_demand(training_step{}, make<bytes>(2.0)),
                         doctest::Contains("token_demand: step.tokens_per_second = 0"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(token_id_bytes(0),
                         doctest::Contains("token_id_bytes: vocabulary = 0 must be >= 1"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(token_id_bytes(-32000), doctest::Contains("vocabulary = -32000"),
                         invalid_input);
    CHECK_THROWS_WITH_AS(token_id_bytes((std::int64_t{1} << 40) + 1),
                         doctest::Contains("token_id_bytes: vocabulary = 1099511627777 must be <= 2^40"),
                         invalid_input);
}

TEST_CASE("item_training_demand: no GPUs, a fraction of 0, a factor below 1, no fp16 peak") {
    CHECK_THROWS_WITH_AS(
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 0, imagenet_mean_jpeg),
        doctest::Contains("item_training_demand: gpus = 0 must be >= 1"), invalid_input);
    item_training_assumptions a{};
    a.achieved_fraction = 0.0;
    CHECK_THROWS_WITH_AS(
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg, a),
        doctest::Contains("assumptions.achieved_fraction = 0 must be in [0.001, 1]"),
        invalid_input);
    a = item_training_assumptions{};
    a.training_flops_per_forward = 0.5;
    CHECK_THROWS_WITH_AS(
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg, a),
        doctest::Contains("assumptions.training_flops_per_forward = 0.5 must be in [1, 10]"),
        invalid_input);
    item_workload w = cat::resnet50;
    w.flops_per_item = flop_count{};
    CHECK_THROWS_WITH_AS(
        item_training_demand(w, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg),
        doctest::Contains("item_training_demand: workload.flops_per_item = 0"), invalid_input);
    w = cat::resnet50;
    w.compute = compute_precision::fp8;  // an A100 has no fp8 peak
    CHECK_THROWS_WITH_AS(item_training_demand(w, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg),
                         doctest::Contains("item_training_demand"), invalid_input);
    CHECK_THROWS_WITH_AS(
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, make<bytes>(not_a_number)),
        doctest::Contains("bytes_per_sample = nan"), invalid_input);
}

TEST_CASE("the extremes give finite answers") {
    // The smallest demand against the largest supply, and the other way round.
    input_pipeline big{};
    big.nodes = std::int64_t{1} << 40;
    big.gpus_per_node = std::int64_t{1} << 40;
    big.cpu_threads_per_node = std::int64_t{1} << 40;
    big.threads_per_core = 8;
    big.smt_throughput_gain = 1.0;
    big.storage_read = make<bytes_per_second>(1e30);
    big.storage = storage_scope::per_node;
    big.network_per_node = make<bytes_per_second>(1e30);
    big.preprocess_time_per_item = make<seconds>(1e-30);
    big.workers_per_gpu = std::int64_t{1} << 40;
    big.cores_reserved_per_gpu = 0;
    const feed_verdict huge =
        input_pipeline_verdict(sample_demand(make<samples_per_second>(1e-30), make<bytes>(1e-30)),
                               big);
    CHECK(std::isfinite(huge.storage.headroom));
    CHECK(std::isfinite(huge.preprocessing.headroom));
    CHECK(huge.gpu_utilization == doctest::Approx(1.0));
    CHECK(huge.workers_per_gpu_needed == 1);
    CHECK(huge.cores_per_gpu_needed == 1);

    input_pipeline small{};
    small.storage_read = make<bytes_per_second>(1e-30);
    small.network_per_node = make<bytes_per_second>(1e-30);
    small.preprocess_time_per_item = make<years>(1e6);
    small.gpus_per_node = 1;
    small.cpu_threads_per_node = 1;
    small.threads_per_core = 1;
    small.cores_reserved_per_gpu = 0;
    small.workers_per_gpu = 1;
    const feed_verdict starved =
        input_pipeline_verdict(token_demand(make<tokens_per_second>(1e20), make<bytes>(1e30)),
                               small);
    CHECK(std::isfinite(starved.gpu_utilization));
    CHECK(starved.gpu_utilization >= 0.0);
    CHECK(starved.input_bound);
    CHECK(starved.workers_per_gpu_needed == 0);
    CHECK(starved.cores_per_gpu_needed == std::int64_t{1} << 40);
    CHECK_FALSE(starved.cores_suffice);
    CHECK(std::isfinite(starved.storage_needed.value()));

    // The largest FLOP rate over the smallest FLOPs per item.
    item_workload w = cat::resnet50;
    w.flops_per_item = make<flops>(1e-30);
    const input_demand fast = item_training_demand(w, cat::a100_40gb_sxm, std::int64_t{1} << 40,
                                                   make<bytes>(1e30));
    CHECK(std::isfinite(fast.bytes.value()));
    input_pipeline all_gpus = good_pipeline();
    all_gpus.nodes = std::int64_t{1} << 37;  // × 8 GPUs a node = 2^40, the demand's count
    CHECK(std::isfinite(input_pipeline_verdict(fast, all_gpus).gpu_utilization));
}
