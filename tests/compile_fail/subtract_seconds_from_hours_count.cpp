// subtract_seconds_from_hours_count.cpp: bare number − quantity: an hour count needs its unit.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot subtract a quantity and a bare number
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = 24.0 - 1.0_h;
#else
    auto r = 24.0_h - 1.0_h;
#endif
    (void)r;
}
