// energy_as_power.cpp: kWh where kW is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: energy_as_power\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from '.*' to non-scalar type '.*' requested
// expect-clang: energy_as_power\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from '.*' to '.*'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::power r = 10.0_kWh;
#else
    gpucalc::power r = 10.0_kWh / 1.0_h;
#endif
    (void)r;
}
