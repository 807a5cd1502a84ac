// Bring your own hardware: the NVIDIA L40S, which the catalog does not list, as a gpu_spec.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

using namespace gpucalc::literals;

// NVIDIA L40S datasheet (2023). Dense peaks only: the starred "with sparsity" figures are
// twice these. A precision left at zero has no peak; the datasheet prints no FP64 figure.
constexpr gpucalc::gpu_spec l40s{
    .name = "L40S",
    .memory = 48.0_GiB,  // "48 GB GDDR6 with ECC": DRAM is binary, as in the catalog
    .memory_bandwidth = 864.0_GB_per_s,
    .dense_peak = {.fp32 = 91.6_TFLOPS, .tf32 = 183.0_TFLOPS, .bf16 = 362.05_TFLOPS,
                   .fp16 = 362.05_TFLOPS, .fp8 = 733.0_TFLOPS},
    .tdp = 350.0_W,                           // "Max Power Consumption"
    .host = gpucalc::catalog::pcie_gen4_x16,  // "PCIe Gen4 x16: 64 GB/s bidirectional"; no NVLink
};

// check() rejects a spec no device could have. In a constant expression its throw is a
// compile error, so this line fails the build if the spec above breaks a rule.
static_assert((gpucalc::check(l40s), true));

int main() {
    namespace cat = gpucalc::catalog;
    using gpucalc::compute_precision;

    const auto bf16 = gpucalc::peak(l40s, compute_precision::bf16);
    std::cout << l40s.name << ": " << l40s.memory << ", " << l40s.memory_bandwidth << ", bf16 "
              << bf16 << ", fp8 " << gpucalc::peak(l40s, compute_precision::fp8) << ", ridge "
              << bf16 / l40s.memory_bandwidth << "\n";

    // A field left out is zero, and check() says which one.
    const gpucalc::gpu_spec unfinished{.name = "L40S", .memory_bandwidth = 864.0_GB_per_s};
    try {
        gpucalc::check(unfinished);
    } catch (const gpucalc::invalid_input& e) {
        std::cout << e.what() << "\n";
    }

    // The spec works wherever a catalog entry does: decoding Llama-2-7B at batch 1.
    for (const gpucalc::gpu_spec* gpu : {&cat::l4, &l40s, &cat::a100_80gb_sxm}) {
        const auto d = gpucalc::decode(cat::llama_2_7b, *gpu, {.batch = 1, .context = 4096});
        std::cout << gpu->name << ": " << d.stream_rate << " on Llama-2-7B, " << d.bound
                  << "-bound\n";
    }
}
