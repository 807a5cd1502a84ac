// subtract_cost_rate_from_money.cpp: money − $/h: a price per hour is not an amount of money.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot subtract quantities of different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = 100.0_usd - 2.0_usd_per_h;
#else
    auto r = 100.0_usd - 2.0_usd_per_h * 1.0_h;
#endif
    (void)r;
}
