// flop_count_as_flop_rate.cpp: a FLOP count where a FLOP/s peak is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The patterns name both dimensions: FLOP, against time^-1 x FLOP (FLOP/s).
// expect-gcc: flop_count_as_flop_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from 'quantity<unit<list<dim<gpucalc::flop_base_dimension,static_rational<1>>,boost::units::dimensionless_type>[^']*' to non-scalar type 'quantity<unit<list<dim<boost::units::time_base_dimension,static_rational<-1>>,[^']*gpucalc::flop_base_dimension[^']*' requested
// expect-clang: flop_count_as_flop_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from 'quantity<unit<list<dim<gpucalc::flop_base_dimension, static_rational<1, \[\.\.\.\]>>, boost::units::dimensionless_type>[^']*' to 'quantity<unit<list<dim<boost::units::time_base_dimension, static_rational<-1, \[\.\.\.\]>>,[^']*gpucalc::flop_base_dimension[^']*'.*no known conversion from 'gpucalc::flop_count' \(aka
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
