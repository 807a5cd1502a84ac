// hardware_test.cpp: the catalog reproduces the datasheets' figures, dense peaks only, and
// rejects a precision a device cannot compute.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/format.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
double ridge(const gpu_spec& gpu) {
    return in<flops_per_byte>(peak(gpu, compute_precision::bf16) / gpu.memory_bandwidth);
}
}  // namespace

TEST_CASE("BF16 ridge points match the reference table to its printed precision") {
    // reference/hardware-and-models.md, "Ridge points (dense BF16 FLOPs / BW)", printed as
    // integers, so compared to +-0.5 FLOP/B. Only P-sourced (non-uncertain) devices.
    CHECK(ridge(cat::a100_80gb_sxm) == doctest::Approx(153.0).epsilon(0.5 / 153.0));
    CHECK(ridge(cat::a100_40gb_sxm) == doctest::Approx(201.0).epsilon(0.5 / 201.0));
    CHECK(ridge(cat::h100_sxm) == doctest::Approx(295.0).epsilon(0.5 / 295.0));
    CHECK(ridge(cat::h100_pcie) == doctest::Approx(378.0).epsilon(0.5 / 378.0));
    CHECK(ridge(cat::h200) == doctest::Approx(206.0).epsilon(0.5 / 206.0));
    CHECK(ridge(cat::mi300x) == doctest::Approx(247.0).epsilon(0.5 / 247.0));
    CHECK(ridge(cat::mi325x) == doctest::Approx(218.0).epsilon(0.5 / 218.0));
    CHECK(ridge(cat::l4) == doctest::Approx(403.0).epsilon(0.5 / 403.0));
    // 197 / 0.819 = 240.5: the table truncates this one rather than rounding, so +-1.
    CHECK(ridge(cat::tpu_v5e) == doctest::Approx(240.0).epsilon(1.0 / 240.0));
    CHECK(ridge(cat::tpu_v5p) == doctest::Approx(166.0).epsilon(0.5 / 166.0));
}

TEST_CASE("peaks are dense: half the datasheets' sparse figures") {
    // H100 datasheet: BF16 1,979 TFLOPS* and FP8 3,958 TFLOPS*, "* with sparsity".
    CHECK(approx_equal(in<teraflops_per_second>(peak(cat::h100_sxm, compute_precision::bf16)),
                       1979.0 / 2.0, 1e-3));
    CHECK(approx_equal(in<teraflops_per_second>(peak(cat::h100_sxm, compute_precision::fp8)),
                       3958.0 / 2.0, 1e-3));
    // The common error: A100 TF32 is 156 dense, not 312; H100 SXM TF32 is 494.7, not 989.
    CHECK(peak(cat::a100_80gb_sxm, compute_precision::tf32) == 156.0_TFLOPS);
    CHECK(peak(cat::h100_sxm, compute_precision::tf32) == 494.7_TFLOPS);
    // AMD prints dense and sparse: MI300X BF16 1,307.4 dense.
    CHECK(peak(cat::mi300x, compute_precision::bf16) == 1307.4_TFLOPS);
}

TEST_CASE("no device's catalogued peak exceeds its successor's in the same line") {
    for (compute_precision p : {compute_precision::bf16, compute_precision::fp16}) {
        CHECK(peak(cat::a100_80gb_sxm, p) < peak(cat::h100_sxm, p));
        CHECK(peak(cat::h100_sxm, p) < peak(cat::b200, p));
    }
}

TEST_CASE("asking for a precision the device lacks is invalid_input naming it") {
    CHECK_THROWS_WITH_AS(peak(cat::a100_80gb_sxm, compute_precision::fp8),
                         "peak: precision = fp8 is not supported by A100 80GB SXM (it has no "
                         "dense peak at that precision)",
                         invalid_input);
    CHECK_THROWS_AS(peak(cat::t4, compute_precision::bf16), invalid_input);
    CHECK_THROWS_AS(peak(cat::h100_sxm, compute_precision::fp4), invalid_input);
    CHECK_NOTHROW(peak(cat::b200, compute_precision::fp4));
}

TEST_CASE("every catalogued GPU passes its own sanity check") {
    for (const gpu_spec* gpu : cat::all_gpus) {
        CAPTURE(std::string(gpu->name));
        CHECK_NOTHROW(check(*gpu));
        CHECK(gpu->memory > 0.0_GiB);
        CHECK(gpu->memory_bandwidth > 0.0_GB_per_s);
        for (std::int32_t i = 0; i < gpu->mig_count; ++i) {
            // A MIG instance never gets more memory than the GPU has.
            CHECK(gpu->mig[static_cast<std::size_t>(i)].memory <= gpu->memory);
            CHECK(gpu->mig[static_cast<std::size_t>(i)].compute_slices <= 7);
        }
    }
}

TEST_CASE("MIG profiles follow the user guide") {
    // MIG user guide: A100/H100 80GB profiles 1g.10gb ... 7g.80gb; 1g gives 7 instances.
    CHECK(cat::h100_sxm.mig_count == 6);
    CHECK(cat::h100_sxm.mig[0].name == "1g.10gb");
    CHECK(cat::h100_sxm.mig[0].max_instances == 7);
    CHECK(cat::h100_sxm.mig[5].name == "7g.80gb");
    CHECK(cat::a100_40gb_sxm.mig[0].name == "1g.5gb");
    CHECK(cat::l4.mig_count == 0);     // no MIG on Ada PCIe parts
    CHECK(cat::mi300x.mig_count == 0); // nor on AMD
}

TEST_CASE("a hand-written spec with a broken field is rejected") {
    gpu_spec g = cat::h100_sxm;
    g.memory = 0.0_GiB;
    CHECK_THROWS_WITH_AS(check(g), "check(gpu_spec): memory = 0 B must be finite and > 0",
                         invalid_input);
    g = cat::h100_sxm;
    g.memory_bandwidth = make<bytes_per_second>(std::numeric_limits<double>::infinity());
    CHECK_THROWS_AS(check(g), invalid_input);
    g = cat::h100_sxm;
    g.dense_peak.fp8 = -1.0_TFLOPS;
    CHECK_THROWS_AS(check(g), invalid_input);
    g = cat::h100_sxm;
    g.mig_count = 7;
    CHECK_THROWS_WITH_AS(check(g), "check(gpu_spec): mig_count = 7 must be in [0, 6]",
                         invalid_input);
}

TEST_CASE("links: datasheet aggregates are halved, network bits become bytes") {
    // H100 datasheet: NVLink 900 GB/s (18 links x 50 GB/s, both directions).
    CHECK(cat::nvlink4.per_direction == 450.0_GB_per_s);
    CHECK(cat::nvlink3.per_direction == 300.0_GB_per_s);
    CHECK(cat::nvlink5.per_direction == 900.0_GB_per_s);
    // domain.md: InfiniBand NDR 400 Gb/s = 50 GB/s; Ethernet 100 Gb/s = 12.5 GB/s.
    CHECK(cat::infiniband_ndr.per_direction == 50.0_GB_per_s);
    CHECK(cat::ethernet_100g.per_direction == 12.5_GB_per_s);
}

TEST_CASE("clusters: GPU totals and scale-out bandwidth; bad counts rejected") {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 4;
    c.inter_node = cat::infiniband_ndr;
    CHECK(total_gpus(c) == 32);
    CHECK(node_network_bandwidth(c) == 400.0_GB_per_s);
    c.nodes = 0;
    CHECK_THROWS_WITH_AS(total_gpus(c), "total_gpus: nodes = 0 must be >= 1", invalid_input);
    c.nodes = 1;
    c.nics_per_node = 0;
    CHECK_THROWS_AS(node_network_bandwidth(c), invalid_input);
}

TEST_CASE("instances: GPU count and type from the providers' documentation") {
    // AWS EC2 accelerated-computing specifications: p5.48xlarge 8 x H100, 192 vCPU, 2 TiB.
    CHECK(cat::aws_p5_48xlarge.gpus == 8);
    CHECK(cat::aws_p5_48xlarge.gpu.name == cat::h100_sxm.name);
    CHECK(cat::aws_p5_48xlarge.vcpus == 192);
    CHECK(cat::aws_p5_48xlarge.host_memory == 2.0_TiB);
    // AWS: p4d.24xlarge 8 x A100 40GB, 96 vCPU, 1,152 GiB.
    CHECK(cat::aws_p4d_24xlarge.gpu.name == cat::a100_40gb_sxm.name);
    CHECK(cat::aws_p4d_24xlarge.host_memory == 1152.0_GiB);
    for (const instance_spec* i : cat::all_instances) {
        CAPTURE(std::string(i->name));
        CHECK(i->gpus >= 1);
        CHECK_NOTHROW(check(i->gpu));
    }
}
