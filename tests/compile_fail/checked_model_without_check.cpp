// checked_model_without_check.cpp: a checked model made without check() would carry no proof
// that its shape is valid, and the hot functions trust it. Only check() makes one.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: checked_model_without_check\.cpp:@MISUSE_LINE@:[0-9]+: error: .constexpr gpucalc::checked_model::checked_model\(const gpucalc::transformer&\). is private
// expect-clang: checked_model_without_check\.cpp:@MISUSE_LINE@:[0-9]+: error: calling a private constructor of class 'gpucalc::checked_model'
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/model.hpp>

void misuse() {
#ifndef GPUCALC_TWIN
    const gpucalc::checked_model m(gpucalc::catalog::llama_3_8b);
#else
    const gpucalc::checked_model m = gpucalc::check(gpucalc::catalog::llama_3_8b);
#endif
    (void)m;
}
