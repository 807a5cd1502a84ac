// instance_price_to_renting_npv.cpp: an instance's $/h passed to renting_npv as the cloud's
// $/GPU·h.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::renting_npv: the cloud price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/tco.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
    const gpucalc::ownership owned{};
#ifndef GPUCALC_TWIN
    auto r = gpucalc::renting_npv(owned, 98.32_usd_per_h, 0.7);
#else
    auto r = gpucalc::renting_npv(owned, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu), 0.7);
#endif
    (void)r;
}
