// instance_price_to_with_premium.cpp: an instance's $/h passed to with_premium, which takes a
// $/GPU·h raw price.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::with_premium: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/prices.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::with_premium(98.32_usd_per_h, 0.3);
#else
    auto r = gpucalc::with_premium(gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu), 0.3);
#endif
    (void)r;
}
