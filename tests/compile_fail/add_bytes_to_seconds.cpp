// add_bytes_to_seconds.cpp: bytes + seconds: different dimensions cannot be added.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot add quantities of different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = 80.0_GiB + 1.0_s;
#else
    auto r = 80.0_GiB + 1.0_GiB;
#endif
    (void)r;
}
