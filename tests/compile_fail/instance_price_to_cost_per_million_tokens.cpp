// instance_price_to_cost_per_million_tokens.cpp: an instance's $/h passed to
// cost_per_million_tokens, which multiplies a $/GPU·h price by the GPUs: the instance would be
// counted 8 times over.
// gpucalc's overload for the mistake says so in a sentence (both compilers print it).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: gpucalc::cost_per_million_tokens: the price is per instance-hour \(\$/h\), not per GPU-hour; divide it by the instance's GPUs with per_gpu\(price, gpus\) for a \$/GPU-h price
#include <gpucalc/cost/prices.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::cost_per_million_tokens(98.32_usd_per_h, 8.0_gpu, 10000.0_tokens_per_s);
#else
    auto r = gpucalc::cost_per_million_tokens(98.32_usd_per_h / 8.0_gpu, 8.0_gpu,
                                              10000.0_tokens_per_s);
#endif
    (void)r;
}
