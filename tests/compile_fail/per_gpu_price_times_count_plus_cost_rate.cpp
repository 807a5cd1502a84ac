// per_gpu_price_times_count_plus_cost_rate.cpp: $/GPU·h × a plain 8 + $/h: a plain number keeps
// the per-GPU dimension, so eight GPUs' price is still $/GPU·h and does not add to a $/h price.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc: cannot add a per-GPU price \(\$/GPU-h\) and a price per hour \(\$/h\); a per-GPU price times a plain number is still per GPU
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
    const int gpus = 8;
#ifndef GPUCALC_TWIN
    auto r = 2.99_usd_per_gpu_hour * gpus + 98.32_usd_per_h;
#else
    auto r = 2.99_usd_per_gpu_hour * gpucalc::as_gpus(gpus) + 98.32_usd_per_h;
#endif
    (void)r;
}
