// gpu_price_without_gpus.cpp: $/GPU·h × hours without the GPU count is not money.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The compilers elide the shared USD dimension; the patterns name the GPU^-1 left over (and
// Clang's note spells the source out: USD x GPU^-1).
// expect-gcc: gpu_price_without_gpus\.cpp:@MISUSE_LINE@:[0-9]+: error: conversion from 'quantity<unit<list<\[\.\.\.\],boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<-1> >, boost::units::dimensionless_type>>[^']*' to non-scalar type 'quantity<unit<list<\[\.\.\.\],boost::units::dimensionless_type>[^']*' requested
// expect-clang: gpu_price_without_gpus\.cpp:@MISUSE_LINE@:[0-9]+: error: no viable conversion from 'quantity<unit<list<\[\.\.\.\], boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<-1, 1>>, boost::units::dimensionless_type>>[^']*' to 'quantity<unit<list<\[\.\.\.\], boost::units::dimensionless_type>[^']*'.*\[with Unit2 = boost::units::unit<boost::units::list<boost::units::dim<gpucalc::currency_base_dimension, boost::units::static_rational<1, 1>>, boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<-1, 1>>, boost::units::dimensionless_type>>
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::money r = 2.99_usd_per_gpu_hour * 10.0_h;
#else
    gpucalc::money r = 2.99_usd_per_gpu_hour * 8.0_gpu * 10.0_h;
#endif
    (void)r;
}
