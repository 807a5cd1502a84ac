// energy_as_power.cpp: kWh where kW is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: conversion from .quantity<.* to non-scalar type .quantity<
// expect-clang: no viable conversion from .quantity<.* to .quantity<
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
