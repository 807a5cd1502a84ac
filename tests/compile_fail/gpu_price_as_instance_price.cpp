// gpu_price_as_instance_price.cpp: $/GPU·h where $/h is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: gpu_price_as_instance_price\.cpp:@MISUSE_LINE@:[0-9]+: error: could not convert '.*' from '.*' to '.*'
// expect-clang: no matching function for call to 'hourly_bill'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

// A user's function: the bill for one hour of an instance.
inline gpucalc::money hourly_bill(gpucalc::cost_rate instance) { return instance * 1.0_h; }

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = hourly_bill(2.99_usd_per_gpu_hour);
#else
    auto r = hourly_bill(2.99_usd_per_gpu_hour * 8.0_gpu);
#endif
    (void)r;
}
