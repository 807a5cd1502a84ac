// size_as_bandwidth.cpp: a GB value given as bandwidth.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The compilers elide the shared byte dimension; the patterns name the time^-1 the target
// has and the source lacks (and Clang's note names gpucalc::data_size).
// expect-gcc: size_as_bandwidth\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from 'quantity<unit<list<\[\.\.\.\],boost::units::dimensionless_type>[^']*' to non-scalar type 'quantity<unit<list<\[\.\.\.\],boost::units::list<boost::units::dim<boost::units::time_base_dimension, boost::units::static_rational<-1> >, boost::units::dimensionless_type>>[^']*' requested
// expect-clang: size_as_bandwidth\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from 'quantity<unit<list<\[\.\.\.\], boost::units::dimensionless_type>[^']*' to 'quantity<unit<list<\[\.\.\.\], boost::units::list<boost::units::dim<boost::units::time_base_dimension, boost::units::static_rational<-1, 1>>, boost::units::dimensionless_type>>[^']*'.*no known conversion from 'gpucalc::data_size' \(aka
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
