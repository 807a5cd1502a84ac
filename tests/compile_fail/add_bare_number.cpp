// add_bare_number.cpp: quantity + bare number: the number has no unit.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot add a quantity and a bare number
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = 80.0_GiB + 1.0;
#else
    auto r = 80.0_GiB + 1.0_GiB;
#endif
    (void)r;
}
