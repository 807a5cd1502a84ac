// instance_price_to_training_cost_of_step.cpp: an instance's $/h passed to training_cost(step,
// tokens, price), which prices a composed step's GPUs per GPU-hour.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::training_cost: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/run.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
    gpucalc::training_step step{};
    step.tokens_per_second = 500000.0_tokens_per_s;
    step.gpus = 1024;
#ifndef GPUCALC_TWIN
    auto r = gpucalc::training_cost(step, 1.0_T_tokens, 98.32_usd_per_h);
#else
    auto r = gpucalc::training_cost(step, 1.0_T_tokens, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
