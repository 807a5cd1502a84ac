// compare_money_with_cost_rate.cpp: money < $/h: a budget compared with a price per hour.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot compare quantities of different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    bool r = 1000.0_usd < 3.0_usd_per_h;
#else
    bool r = 1000.0_usd < 3.0_usd_per_h * 300.0_h;
#endif
    (void)r;
}
