// instance_price_to_serving_cost.cpp: an instance's $/h passed to serving_cost_per_million_tokens.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::serving_cost_per_million_tokens: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/cost/run.hpp>
#include <gpucalc/literals.hpp>

namespace cat = gpucalc::catalog;
using namespace gpucalc::literals;

void misuse() {
    const gpucalc::serving_setup serve{};
#ifndef GPUCALC_TWIN
    auto r = gpucalc::serving_cost_per_million_tokens(cat::llama_3_8b, cat::h100_sxm, serve,
                                                      98.32_usd_per_h);
#else
    auto r = gpucalc::serving_cost_per_million_tokens(cat::llama_3_8b, cat::h100_sxm, serve,
                                                      98.32_usd_per_h / 8.0_gpu);
#endif
    (void)r;
}
