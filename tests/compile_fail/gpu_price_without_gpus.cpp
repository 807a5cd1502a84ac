// gpu_price_without_gpus.cpp: $/GPU·h × hours without the GPU count is not money.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: gpu_price_without_gpus\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from '.*' to non-scalar type '.*' requested
// expect-clang: gpu_price_without_gpus\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from '.*' to '.*'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::money r = 2.99_usd_per_gpu_hour * 10.0_h;
#else
    gpucalc::money r = 2.99_usd_per_gpu_hour * 8.0_gpu * 10.0_h;
#endif
    (void)r;
}
