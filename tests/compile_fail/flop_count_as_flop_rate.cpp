// flop_count_as_flop_rate.cpp: a FLOP count where a FLOP/s peak is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: flop_count_as_flop_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from '.*' to non-scalar type '.*' requested
// expect-clang: flop_count_as_flop_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from '.*' to '.*'
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
