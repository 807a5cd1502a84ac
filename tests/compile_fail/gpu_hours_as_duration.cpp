// gpu_hours_as_duration.cpp: GPU·h where wall-clock hours are needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: gpu_hours_as_duration\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from '.*' to non-scalar type '.*' requested
// expect-clang: gpu_hours_as_duration\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from '.*' to '.*'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::duration r = 1000.0_gpu_hours;
#else
    gpucalc::duration r = 1000.0_gpu_hours / 8.0_gpu;
#endif
    (void)r;
}
