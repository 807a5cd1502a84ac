// bare_number_as_token_rate.cpp: 0.1.0's cost_per_million_tokens took a bare tokens/s, which
// could be one stream's or the batch's. A bare number no longer says which, so it must not
// compile; under GPUCALC_TWIN the rate with its unit must (see tests/CMakeLists.txt).
// expect-gcc: bare_number_as_token_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'cost_per_million_tokens\(gpucalc::gpu_price, gpucalc::gpu_count, double\)'.*no known conversion for argument 3 from 'double' to 'gpucalc::token_rate'
// expect-clang: bare_number_as_token_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'cost_per_million_tokens'.*note: candidate function not viable: no known conversion from 'double' to 'gpucalc::token_rate' \(aka '[^']*'\) for 3rd argument
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto price = gpucalc::cost_per_million_tokens(2.0_usd_per_gpu_hour, 8.0_gpu, 10000.0);
#else
    auto price = gpucalc::cost_per_million_tokens(2.0_usd_per_gpu_hour, 8.0_gpu, 10000.0_tokens_per_s);
#endif
    (void)price;
}
