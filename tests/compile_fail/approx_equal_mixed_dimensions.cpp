// approx_equal_mixed_dimensions.cpp: approx_equal(GB, s): a tolerance does not bridge dimensions.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: approx_equal: the two quantities have different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    bool r = gpucalc::approx_equal(1.0_GB, 1.0_s);
#else
    bool r = gpucalc::approx_equal(1.0_GB, 1000.0_MB);
#endif
    (void)r;
}
