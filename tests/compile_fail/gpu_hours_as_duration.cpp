// gpu_hours_as_duration.cpp: GPU·h where wall-clock hours are needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The compilers elide the shared time dimension; the patterns name the GPU^1 the source has
// and the target lacks (and Clang's note names gpucalc::gpu_time).
// expect-gcc: gpu_hours_as_duration\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from 'quantity<unit<list<\[\.\.\.\],boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<1> >, boost::units::dimensionless_type>>[^']*' to non-scalar type 'quantity<unit<list<\[\.\.\.\],boost::units::dimensionless_type>[^']*' requested
// expect-clang: gpu_hours_as_duration\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from 'quantity<unit<list<\[\.\.\.\], boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<1, 1>>, boost::units::dimensionless_type>>[^']*' to 'quantity<unit<list<\[\.\.\.\], boost::units::dimensionless_type>[^']*'.*no known conversion from 'gpucalc::gpu_time' \(aka
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
