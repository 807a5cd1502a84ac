// compare_with_bare_number.cpp: quantity < bare number: a budget needs its currency.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot compare a quantity and a bare number
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    bool r = 2990.0_usd < 5000.0;
#else
    bool r = 2990.0_usd < 5000.0_usd;
#endif
    (void)r;
}
