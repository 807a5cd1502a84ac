// gpu_price_to_per_gpu.cpp: a $/GPU·h price passed to per_gpu, which divides an instance's $/h by
// its GPUs: the price would be divided twice.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::per_gpu: the price is already per GPU-hour \(\$/GPU-h\); per_gpu divides an instance's \$/h price by its GPUs
#include <gpucalc/cost/prices.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::per_gpu(12.29_usd_per_gpu_hour, 8.0_gpu);
#else
    auto r = gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu);
#endif
    (void)r;
}
