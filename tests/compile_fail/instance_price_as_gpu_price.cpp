// instance_price_as_gpu_price.cpp: $/h where $/GPU·h is needed: an 8-GPU instance price is not a per-GPU price.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The compilers elide the shared USD and time dimensions; the patterns name the GPU^-1 the
// target has and the source lacks (and Clang's note names gpucalc::cost_rate).
// expect-gcc: instance_price_as_gpu_price\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from 'quantity<unit<list<\[\.\.\.\],list<\[\.\.\.\],boost::units::dimensionless_type>>[^']*' to non-scalar type 'quantity<unit<list<\[\.\.\.\],list<\[\.\.\.\],boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<-1> >, boost::units::dimensionless_type>>>[^']*' requested
// expect-clang: instance_price_as_gpu_price\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from 'quotient<\[\.\.\.\], quantity<unit<list<\[\.\.\.\], boost::units::dimensionless_type>[^']*' to 'quotient<\[\.\.\.\], quantity<unit<list<\[\.\.\.\], boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<1, 1>>, boost::units::dimensionless_type>>[^']*'.*no known conversion from 'gpucalc::cost_rate' \(aka
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::gpu_price r = 98.32_usd_per_h;
#else
    gpucalc::gpu_price r = 98.32_usd_per_h / 8.0_gpu;
#endif
    (void)r;
}
