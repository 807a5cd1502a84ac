// add_gpu_price_to_money.cpp: $ + $/GPU·h: a rate is not an amount.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot add quantities of different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = 1.0_usd + 2.99_usd_per_gpu_hour;
#else
    auto r = 1.0_usd + 2.99_usd_per_gpu_hour * 1.0_gpu_hours;
#endif
    (void)r;
}
