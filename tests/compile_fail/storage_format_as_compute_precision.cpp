// storage_format_as_compute_precision.cpp: a storage format where a compute precision selects the peak.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: no known conversion for argument 2 from 'gpucalc::number_format' to 'gpucalc::compute_precision'
// expect-clang: no known conversion from 'gpucalc::number_format' to 'gpucalc::compute_precision' for 2nd argument
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::peak(gpucalc::catalog::h100_sxm, gpucalc::number_format::fp8_e4m3);
#else
    auto r = gpucalc::peak(gpucalc::catalog::h100_sxm, gpucalc::compute_precision::fp8);
#endif
    (void)r;
}
