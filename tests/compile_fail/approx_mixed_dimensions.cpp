// approx_mixed_dimensions.cpp: seconds == approx(GB): a tolerance does not bridge dimensions.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: approx: the value compared and the expected value have different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/testing.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    bool r = 1.0_s != gpucalc::approx(1.0_GB, 0.01);
#else
    bool r = 1000.0_MB != gpucalc::approx(1.0_GB, 0.01);
#endif
    (void)r;
}
