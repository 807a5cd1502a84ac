// instance_price_to_job_cost.cpp: an instance's $/h passed where job_cost needs $/GPU·h.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: no matching function for call to .job_cost
#include <gpucalc/cost/prices.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::job_cost(1000.0_gpu_hours, 98.32_usd_per_h);
#else
    auto r = gpucalc::job_cost(1000.0_gpu_hours, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
