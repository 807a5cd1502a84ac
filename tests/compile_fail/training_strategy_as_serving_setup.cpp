// training_strategy_as_serving_setup.cpp: a training job's choices passed where a serving
// replica's setup is needed. One layout type serves both, but the setups around it are distinct.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: training_strategy_as_serving_setup\.cpp:@MISUSE_LINE@:[0-9]+: error: (invalid initialization of reference of type 'const gpucalc::serving_setup&' from expression of type 'gpucalc::training_strategy'|could not convert '[^']*' from 'gpucalc::training_strategy' to '(const )?gpucalc::serving_setup')
// expect-clang: no viable conversion from 'gpucalc::training_strategy' to 'const gpucalc::serving_setup'
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/roofline.hpp>

namespace cat = gpucalc::catalog;

void misuse() {
    gpucalc::training_strategy strategy{};
    strategy.parallel.tensor = 2;
    gpucalc::serving_setup serve{};
    serve.parallel = strategy.parallel;  // the layout itself is shared
#ifndef GPUCALC_TWIN
    auto d = gpucalc::decode(cat::llama_3_8b, cat::h100_sxm, strategy);
#else
    auto d = gpucalc::decode(cat::llama_3_8b, cat::h100_sxm, serve);
#endif
    (void)d;
}
