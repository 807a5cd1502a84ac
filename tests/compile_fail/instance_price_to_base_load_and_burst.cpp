// instance_price_to_base_load_and_burst.cpp: an instance's $/h passed to base_load_and_burst as the
// cloud's $/GPU·h.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::base_load_and_burst: the cloud price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/base_load.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
    const gpucalc::demand_step steps[] = {{64.0_gpu, 500.0_h}, {16.0_gpu, 8260.0_h}};
    const gpucalc::ownership owned{};
#ifndef GPUCALC_TWIN
    auto r = gpucalc::base_load_and_burst(steps, owned, 98.32_usd_per_h);
#else
    auto r = gpucalc::base_load_and_burst(steps, owned, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
