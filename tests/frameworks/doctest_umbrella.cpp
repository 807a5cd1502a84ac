// A test file that includes the umbrella header and testing.hpp. Linked, in both orders, with
// doctest_units_only.cpp, which sees only units.hpp: both files' failures must print units,
// with the digits that tell the two sides apart. Every check here fails on purpose.
#include <doctest/doctest.h>

#include <gpucalc/gpucalc.hpp>
#include <gpucalc/testing.hpp>

using namespace gpucalc::literals;

TEST_CASE("umbrella: a failing comparison of two sizes") {
    CHECK(80.0_GiB == 80.0_GiB + 1.0_MiB);
}

TEST_CASE("umbrella: a failing approximate comparison") {
    CHECK(2.99_usd_per_gpu_hour == gpucalc::approx(3.09_usd_per_gpu_hour, 0.01));
}

