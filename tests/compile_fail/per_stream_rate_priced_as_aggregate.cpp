// per_stream_rate_priced_as_aggregate.cpp: one stream's decode speed priced as if it were the
// whole replica's output, which would overstate the cost per token by the batch (64× here).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: per_stream_rate_priced_as_aggregate\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'cost_per_million_tokens\(gpucalc::gpu_price, gpucalc::gpu_count, const gpucalc::stream_token_rate&\)'.*no known conversion for argument 3 from '[^']*gpucalc::sequence_base_dimension, boost::units::static_rational<-1> [^']*' to '[^']*'
// expect-clang: per_stream_rate_priced_as_aggregate\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'cost_per_million_tokens'.*note: candidate function not viable: no known conversion from 'const quotient<[^']*gpucalc::sequence_base_dimension[^']*' to 'quotient<quantity<unit<list<dim<gpucalc::token_base_dimension[^']*' for 3rd argument
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
