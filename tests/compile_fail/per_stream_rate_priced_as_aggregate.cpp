// per_stream_rate_priced_as_aggregate.cpp: one stream's decode speed priced as if it were the
// whole replica's output, which would overstate the cost per token by the batch (64× here).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: per_stream_rate_priced_as_aggregate\.cpp:@MISUSE_LINE@:[0-9]+: error: could not convert .d\.gpucalc::decode_estimate::stream_rate. from .*sequence_base_dimension
// expect-clang: per_stream_rate_priced_as_aggregate\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from .*sequence_base_dimension
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/roofline.hpp>

namespace cat = gpucalc::catalog;
using namespace gpucalc::literals;

void misuse() {
    gpucalc::serving_setup serve{};
    serve.batch = 64;
    const gpucalc::decode_estimate d = gpucalc::decode(cat::llama_3_8b, cat::h100_sxm, serve);
#ifndef GPUCALC_TWIN
    auto price = gpucalc::cost_per_million_tokens(2.0_usd_per_gpu_hour, 1.0_gpu, d.stream_rate);
#else
    auto price = gpucalc::cost_per_million_tokens(2.0_usd_per_gpu_hour, 1.0_gpu, d.aggregate_rate);
#endif
    (void)price;
}
