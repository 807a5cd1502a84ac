// flop_count_passed_as_rate.cpp: a FLOP count passed to a function that takes FLOP/s.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The patterns name both dimensions: FLOP, against time^-1 x FLOP (FLOP/s).
// expect-gcc: flop_count_passed_as_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: could not convert '[^']*_TFLOP\(long double\)\(\)' from 'quantity<unit<list<dim<gpucalc::flop_base_dimension,static_rational<1>>,boost::units::dimensionless_type>[^']*' to 'quantity<unit<list<dim<boost::units::time_base_dimension,static_rational<-1>>,[^']*gpucalc::flop_base_dimension[^']*'
// expect-clang: flop_count_passed_as_rate\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'utilization'.*note: candidate function not viable: no known conversion from 'quantity<unit<list<dim<gpucalc::flop_base_dimension, static_rational<1, \[\.\.\.\]>>, boost::units::dimensionless_type>[^']*' to 'quantity<unit<list<dim<boost::units::time_base_dimension, static_rational<-1, \[\.\.\.\]>>,[^']*gpucalc::flop_base_dimension[^']*' for 1st argument
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

// A user's function: the fraction of peak achieved.
inline double utilization(gpucalc::flop_rate achieved, gpucalc::flop_rate peak) {
    return achieved / peak;
}

void misuse() {
#ifndef GPUCALC_TWIN
    double r = utilization(400.0_TFLOP, 989.0_TFLOPS);
#else
    double r = utilization(400.0_TFLOPS, 989.0_TFLOPS);
#endif
    (void)r;
}
