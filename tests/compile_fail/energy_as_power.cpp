// energy_as_power.cpp: kWh where kW is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// Energy is kg·m²·s⁻² and power kg·m²·s⁻³: the compilers elide the shared length, mass and
// time dimensions, leaving time's exponent (-2 to -3); Clang's note names gpucalc::energy.
// expect-gcc: energy_as_power\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from 'quantity<unit<list<\[\.\.\.\],list<\[\.\.\.\],list<dim<\[\.\.\.\],static_rational<-2>>[^']*' to non-scalar type 'quantity<unit<list<\[\.\.\.\],list<\[\.\.\.\],list<dim<\[\.\.\.\],static_rational<-3>>[^']*' requested
// expect-clang: energy_as_power\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from 'quantity_of<list<\[\.\.\.\], list<\[\.\.\.\], list<dim<\[\.\.\.\], static_rational<-2, \[\.\.\.\]>>[^']*' to 'quantity_of<list<\[\.\.\.\], list<\[\.\.\.\], list<dim<\[\.\.\.\], static_rational<-3, \[\.\.\.\]>>[^']*'.*no known conversion from 'gpucalc::energy' \(aka
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
