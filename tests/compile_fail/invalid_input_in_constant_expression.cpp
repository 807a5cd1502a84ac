// invalid_input_in_constant_expression.cpp: a broken rule inside static_assert is a compile
// error, which is what a static_assert user wants (the throw cannot be constant-evaluated).
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: (non-constant condition for static assertion|is not a constant expression)
// expect-clang: static_assert expression is not an integral constant expression
#include <gpucalc/precision.hpp>

void misuse() {
#ifndef GPUCALC_TWIN
    static_assert(gpucalc::bits_per_element({gpucalc::number_format::int4, -128,
                                             gpucalc::number_format::fp16}) > 4.0,
                  "a negative block size");
#else
    static_assert(gpucalc::bits_per_element({gpucalc::number_format::int4, 128,
                                             gpucalc::number_format::fp16}) > 4.0,
                  "int4 with an fp16 scale per 128 values");
#endif
}
