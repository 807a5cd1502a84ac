// quantity_to_double.cpp: a quantity read as a bare double: leave through in<Unit>.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: cannot convert 'gpucalc::data_size' .* to 'double' in initialization
// expect-clang: no viable conversion from 'gpucalc::data_size' .* to 'double'
#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

void misuse() {
#ifndef GPUCALC_TWIN
    double r = 80.0_GiB;
#else
    double r = gpucalc::in<gpucalc::gibibytes>(80.0_GiB);
#endif
    (void)r;
}
