// instance_price_to_idle_cost.cpp: an instance's $/h passed to idle_cost, which bills per GPU-hour.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::idle_cost: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/prices.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::idle_cost(64.0_gpu, 10.0_h, 98.32_usd_per_h);
#else
    auto r = gpucalc::idle_cost(64.0_gpu, 10.0_h, 98.32_usd_per_h / 8.0_gpu);
#endif
    (void)r;
}
