// gpu_hours_as_duration.cpp: GPU·h where wall-clock hours are needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: conversion from .quantity<.* to non-scalar type .quantity<
// expect-clang: no viable conversion from .quantity<.* to .quantity<
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
