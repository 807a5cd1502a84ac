#include <gpucalc/gpucalc.hpp>
#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;

    // An 8-GPU instance is priced per hour; divided by its GPUs it becomes a per-GPU price.
    gpucalc::gpu_price per_gpu = 98.32_usd_per_h / 8.0_gpu;
    std::cout << per_gpu << "\n";                                    // $12.3/GPU·h

    // Streaming 7B fp16 weights once on an A100 80GB takes bytes / bandwidth: a duration.
    gpucalc::duration t = 13.48_GB / cat::a100_80gb_sxm.memory_bandwidth;
    std::cout << t << ", " << 1.0 / gpucalc::in<gpucalc::seconds>(t) << " tokens/s\n";

    // Dense peaks only; fp8 on an A100 is an error, not a number.
    std::cout << gpucalc::peak(cat::h100_sxm, gpucalc::compute_precision::bf16) << "\n";  // 989 TFLOP/s

    // Budgets as assertions, at compile time where the inputs are constant.
    static_assert(2.99_usd_per_gpu_hour * 1000.0_gpu_hours < 5000.0_usd);
    // auto oops = 80.0_GiB + 1.0_h;   // error: gpucalc: cannot add quantities of different dimensions
}
