// instance_price_to_training_cost.cpp: an instance's $/h passed to training_cost(time, layout,
// price).
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::training_cost: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/run.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
    gpucalc::parallel_layout layout{};
    layout.tensor = 8;
#ifndef GPUCALC_TWIN
    auto r = gpucalc::training_cost(10.0_days, layout, 98.32_usd_per_h);
#else
    auto r = gpucalc::training_cost(10.0_days, layout, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
