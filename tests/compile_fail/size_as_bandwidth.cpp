// size_as_bandwidth.cpp: a GB value given as bandwidth.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: size_as_bandwidth\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from '.*' to non-scalar type '.*' requested
// expect-clang: size_as_bandwidth\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from '.*' to '.*'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::bandwidth r = 3.35_TB;
#else
    gpucalc::bandwidth r = 3.35_TB_per_s;
#endif
    (void)r;
}
