// instance_price_to_job_cost.cpp: an instance's $/h passed where job_cost needs $/GPU·h: 1,000 GPU-
// hours at an 8-GPU instance's $98.32/h would be billed 8× too much.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::job_cost: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/prices.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::job_cost(1000.0_gpu_hours, 98.32_usd_per_h);
#else
    auto r = gpucalc::job_cost(1000.0_gpu_hours, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
