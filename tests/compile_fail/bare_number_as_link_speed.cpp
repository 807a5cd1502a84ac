// bare_number_as_link_speed.cpp: a bare 400 meant as Gb/s: a link speed needs its unit (bits or bytes).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: conversion from 'double' to non-scalar type 'gpucalc::bandwidth'
// expect-clang: no viable conversion from 'double' to 'gpucalc::bandwidth'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::bandwidth r = 400.0;
#else
    gpucalc::bandwidth r = 400.0_Gb_per_s;
#endif
    (void)r;
}
