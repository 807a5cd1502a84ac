// instance_price_as_gpu_price.cpp: $/h where $/GPU·h is needed: an 8-GPU instance price is not a per-GPU price.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: instance_price_as_gpu_price\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from '.*' to non-scalar type '.*' requested
// expect-clang: instance_price_as_gpu_price\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from '.*' to '.*'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::gpu_price r = 98.32_usd_per_h;
#else
    gpucalc::gpu_price r = 98.32_usd_per_h / 8.0_gpu;
#endif
    (void)r;
}
