// compare_bandwidth_with_flop_rate.cpp: TB/s == TFLOP/s: bandwidth and compute are different ceilings.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot compare quantities of different dimensions
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    bool r = 3.35_TB_per_s == 989.0_TFLOPS;
#else
    bool r = 3.35_TB_per_s * 295.0_FLOP_per_B < 989.0_TFLOPS;
#endif
    (void)r;
}
