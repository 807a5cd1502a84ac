// element_count_as_size.cpp: storage_size takes an element count, not bytes.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: cannot convert 'gpucalc::data_size' .* to 'double'
// expect-clang: no viable conversion from 'gpucalc::data_size' .* to 'double'
#include <gpucalc/precision.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::storage_size(14.0_GB, gpucalc::formats::bf16);
#else
    auto r = gpucalc::storage_size(7e9, gpucalc::formats::bf16);
#endif
    (void)r;
}
