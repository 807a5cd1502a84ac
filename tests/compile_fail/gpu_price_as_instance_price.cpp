// gpu_price_as_instance_price.cpp: $/GPU·h where $/h is needed.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// The compilers elide the shared USD and time dimensions; the patterns name the GPU^-1 of
// $/GPU-h against $/h, which has none (Clang shows both as money over a denominator: GPU x
// time against time).
// expect-gcc: gpu_price_as_instance_price\.cpp:@MISUSE_LINE@:[0-9]+: error: could not convert '[^']*_usd_per_gpu_hour\(long double\)\(\)' from 'quantity<unit<list<\[\.\.\.\],list<\[\.\.\.\],boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<-1> >, boost::units::dimensionless_type>>>[^']*' to 'quantity<unit<list<\[\.\.\.\],list<\[\.\.\.\],boost::units::dimensionless_type>>[^']*'
// expect-clang: gpu_price_as_instance_price\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'hourly_bill'.*note: candidate function not viable: no known conversion from 'quotient<\[\.\.\.\], quantity<unit<list<\[\.\.\.\], boost::units::list<boost::units::dim<gpucalc::gpu_base_dimension, boost::units::static_rational<1, 1>>, boost::units::dimensionless_type>>[^']*' to 'quotient<\[\.\.\.\], quantity<unit<list<\[\.\.\.\], boost::units::dimensionless_type>[^']*' for 1st argument
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

// A user's function: the bill for one hour of an instance.
inline gpucalc::money hourly_bill(gpucalc::cost_rate instance) { return instance * 1.0_h; }

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = hourly_bill(2.99_usd_per_gpu_hour);
#else
    auto r = hourly_bill(2.99_usd_per_gpu_hour * 8.0_gpu);
#endif
    (void)r;
}
