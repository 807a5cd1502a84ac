// add_assign_mixed_dimensions.cpp: size += seconds: compound assignment keeps the dimension.
// Boost's own operator+= rejects it; gpucalc cannot add a clearer overload (it would be
// ambiguous with Boost's member template under Clang), so the pattern is per compiler.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: no match for 'operator\+' \(operand types are 'boost::units::unit<
// expect-clang: invalid operands to binary expression \('boost::units::unit<
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    gpucalc::data_size r = 1.0_GB; r += 1.0_s;
#else
    gpucalc::data_size r = 1.0_GB; r += 1.0_MB;
#endif
    (void)r;
}
