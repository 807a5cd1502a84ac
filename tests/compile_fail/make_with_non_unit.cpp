// make_with_non_unit.cpp: make<double>: only gpucalc units make quantities.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect: Unit must be a gpucalc unit
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    auto r = gpucalc::make<double>(1.0);
#else
    auto r = gpucalc::make<gpucalc::gibibytes>(1.0);
#endif
    (void)r;
}
