// instance_price_to_training_cost_of_model.cpp: an instance's $/h passed to training_cost(model,
// gpu, tokens, job, layout, price).
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::training_cost: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/cost/run.hpp>
#include <gpucalc/literals.hpp>

namespace cat = gpucalc::catalog;
using namespace gpucalc::literals;

void misuse() {
    gpucalc::parallel_layout layout{};
    layout.data = 256;
#ifndef GPUCALC_TWIN
    auto r = gpucalc::training_cost(cat::llama_3_8b, cat::h100_sxm, 1.0_T_tokens, gpucalc::training_job{},
                                    layout, 98.32_usd_per_h);
#else
    auto r = gpucalc::training_cost(cat::llama_3_8b, cat::h100_sxm, 1.0_T_tokens, gpucalc::training_job{},
                                    layout, gpucalc::per_gpu(98.32_usd_per_h, 8.0_gpu));
#endif
    (void)r;
}
