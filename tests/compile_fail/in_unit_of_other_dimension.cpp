// in_unit_of_other_dimension.cpp: in<gibibytes>(seconds): the unit must measure the quantity's dimension.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: Unit measures a different dimension than q
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    double r = gpucalc::in<gpucalc::gibibytes>(1.0_s);
#else
    double r = gpucalc::in<gpucalc::seconds>(1.0_s);
#endif
    (void)r;
}
