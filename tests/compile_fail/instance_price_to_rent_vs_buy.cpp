// instance_price_to_rent_vs_buy.cpp: an instance's $/h passed to rent_vs_buy as the cloud's
// $/GPU·h.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::rent_vs_buy: the cloud price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/tco.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
    const gpucalc::ownership owned{};
#ifndef GPUCALC_TWIN
    auto r = gpucalc::rent_vs_buy(owned, 98.32_usd_per_h);
#else
    auto r = gpucalc::rent_vs_buy(owned, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
