// flop_count_as_flop_rate.cpp: a FLOP count where a FLOP/s peak is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: conversion from .quantity<.* to non-scalar type .quantity<
// expect-clang: no viable conversion from .quantity<.* to .quantity<
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::flop_rate r = 989.0_TFLOP;
#else
    gpucalc::flop_rate r = 989.0_TFLOPS;
#endif
    (void)r;
}
