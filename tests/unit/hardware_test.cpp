// hardware_test.cpp: the GPU catalog reproduces the datasheets' figures, dense peaks only,
// rejects a precision a device cannot compute, and treats a spec as a value.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <array>
#include <string>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// The ridge points (peak ÷ bandwidth) are checked against the datasheets in roofline_test.cpp,
// beside ridge_point.

TEST_CASE("peaks are dense: half the datasheets' sparse figures") {
    // H100 datasheet: BF16 1,979 TFLOPS* and FP8 3,958 TFLOPS*, "* with sparsity".
    CHECK(in<teraflops_per_second>(peak(cat::h100_sxm, compute_precision::bf16)) ==
          approx(1979.0 / 2.0, 1e-3));
    CHECK(in<teraflops_per_second>(peak(cat::h100_sxm, compute_precision::fp8)) ==
          approx(3958.0 / 2.0, 1e-3));
    // The common error: A100 TF32 is 156 dense, not 312; H100 SXM TF32 is 494.7, not 989.
    CHECK(peak(cat::a100_80gb_sxm, compute_precision::tf32) == approx(312.0_TFLOPS / 2.0));
    CHECK(peak(cat::h100_sxm, compute_precision::tf32) == approx(989.4_TFLOPS / 2.0));
    // AMD prints dense and sparse: MI300X BF16 1,307.4 dense, 2,614.9 with sparsity.
    CHECK(peak(cat::mi300x, compute_precision::bf16) == approx(2614.9_TFLOPS / 2.0, 1e-4));
}

TEST_CASE("H200 is H100's compute with more, faster memory") {
    // H200 datasheet: same FP8/BF16 tensor figures as H100 SXM; 141 GB at 4.8 TB/s.
    for (compute_precision p : all_compute_precisions) {
        CHECK(supports(cat::h200, p) == supports(cat::h100_sxm, p));
        if (supports(cat::h200, p)) CHECK(peak(cat::h200, p) == peak(cat::h100_sxm, p));
    }
    CHECK(cat::h200.memory > cat::h100_sxm.memory);
    CHECK(cat::h200.memory_bandwidth > cat::h100_sxm.memory_bandwidth);
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
    CHECK(cat::l4.mig == nullptr);
    CHECK(cat::mi300x.mig_count == 0); // nor on AMD
}

TEST_CASE("a GPU spec is a value: copies compare equal, edits do not, whatever the name") {
    gpu_spec copy = cat::h100_sxm;
    CHECK(copy == cat::h100_sxm);
    CHECK(cat::h100_pcie != cat::h100_sxm);  // same MIG table, other peaks and links
    copy.tdp = 600.0_W;                       // a power-capped H100 keeps its name
    CHECK(copy.name == cat::h100_sxm.name);
    CHECK(copy != cat::h100_sxm);
    // MIG profiles compare by content, not by where they are stored.
    const std::array<mig_profile, 6> profiles = {cat::h100_sxm.mig[0], cat::h100_sxm.mig[1],
                                                 cat::h100_sxm.mig[2], cat::h100_sxm.mig[3],
                                                 cat::h100_sxm.mig[4], cat::h100_sxm.mig[5]};
    copy = cat::h100_sxm;
    copy.mig = profiles.data();
    CHECK(copy == cat::h100_sxm);
    copy.mig_count = 5;
    CHECK(copy != cat::h100_sxm);
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
    CHECK_THROWS_WITH_AS(check(g),
                         "check(gpu_spec): dense_peak.fp8 = -1 TFLOP/s must be finite and >= 0",
                         invalid_input);
    g = cat::h100_sxm;
    g.mig_count = 17;
    CHECK_THROWS_WITH_AS(check(g), "check(gpu_spec): mig_count = 17 must be in [0, 16]",
                         invalid_input);
    g = cat::h100_sxm;
    g.mig = nullptr;  // a count with no profiles behind it
    CHECK_THROWS_WITH_AS(check(g),
                         "check(gpu_spec): mig_count = 6 must be 0 when mig points to no profiles",
                         invalid_input);
    const mig_profile too_big[] = {{"7g.81gb", 7, 81.0_GiB, 1}};  // more than the GPU has
    g = cat::h100_sxm;
    g.mig = too_big;
    g.mig_count = 1;
    CHECK_THROWS_WITH_AS(check(g), "check(gpu_spec): mig[0].memory = 81 GiB must not exceed "
                                   "memory = 80 GiB",
                         invalid_input);
    const mig_profile eight_slices[] = {{"8g.80gb", 8, 80.0_GiB, 1}};
    g.mig = eight_slices;
    CHECK_THROWS_WITH_AS(check(g), "check(gpu_spec): mig[0].compute_slices = 8 must be in [1, 7]",
                         invalid_input);
    g = cat::h100_sxm;
    g.scale_up.latency = -1.0_us;
    CHECK_THROWS_WITH_AS(check(g), "check(gpu_spec): scale_up.latency = -1 \xC2\xB5s must be finite and >= 0",
                         invalid_input);
    g = cat::h100_sxm;
    g.host.collective_efficiency = 0.0;
    CHECK_THROWS_WITH_AS(check(g),
                         "check(gpu_spec): host.collective_efficiency = 0 must be in (0, 1]",
                         invalid_input);
}

TEST_CASE("instances: the shapes the providers document") {
    // AWS "Specifications for Amazon EC2 accelerated computing instances"; Google Cloud
    // "Accelerator-optimized machine family"; Azure ND H100 v5 / ND H200 v5 / ND GB200 v6 pages.
    // Only values confirmed there are asserted (uncertain ones are marked so in instances.hpp).
    struct shape {
        const instance_spec* instance;
        const gpu_spec* gpu;
        std::int64_t gpus;
        std::int64_t vcpus;
        data_size host_memory;
    };
    const shape shapes[] = {
        {&cat::aws_p4d_24xlarge, &cat::a100_40gb_sxm, 8, 96, 1152.0_GiB},
        {&cat::aws_p5_48xlarge, &cat::h100_sxm, 8, 192, 2048.0_GiB},
        {&cat::aws_p5e_48xlarge, &cat::h200, 8, 192, 2048.0_GiB},
        {&cat::aws_p6_b200_48xlarge, &cat::b200, 8, 192, 2048.0_GiB},
        {&cat::aws_g5_xlarge, &cat::a10g, 1, 4, 16.0_GiB},
        {&cat::aws_g4dn_xlarge, &cat::t4, 1, 4, 16.0_GiB},
        {&cat::gcp_a3_highgpu_8g, &cat::h100_sxm, 8, 208, 1872.0_GiB},
        {&cat::gcp_a3_megagpu_8g, &cat::h100_sxm, 8, 208, 1872.0_GiB},  // H100, not Blackwell
        {&cat::azure_nd96isr_h100_v5, &cat::h100_sxm, 8, 96, 1900.0_GiB},
        {&cat::azure_nd96isr_h200_v5, &cat::h200, 8, 96, 1850.0_GiB},
        {&cat::azure_nd128isr_gb200_v6, &cat::gb200, 4, 128, 900.0_GiB},
    };
    for (const shape& s : shapes) {
        CAPTURE(std::string(s.instance->name));
        CHECK(s.instance->gpu == *s.gpu);
        CHECK(s.instance->gpus == s.gpus);
        CHECK(s.instance->vcpus == s.vcpus);
        CHECK(s.instance->host_memory == s.host_memory);
    }
    // Network, where confirmed: p5 3,200 Gb/s EFA; Azure ND H100 v5 8 x 400 Gb/s InfiniBand.
    CHECK(cat::aws_p5_48xlarge.network == 3200.0_Gb_per_s);
    CHECK(cat::azure_nd96isr_h100_v5.network == 3200.0_Gb_per_s);
    CHECK(cat::gcp_a3_highgpu_8g.network == 1000.0_Gb_per_s);
    CHECK(cat::all_instances.size() == 13);
    for (const instance_spec* i : cat::all_instances) CHECK_NOTHROW(check(i->gpu));
}
