// A test file that sees only units.hpp and literals.hpp: no format.hpp, no umbrella. Its
// failures must still print units, whatever the link order with doctest_umbrella.cpp. Every
// check here fails on purpose.
#include <doctest/doctest.h>

#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

TEST_CASE("units only: a failing comparison of two sizes") {
    CHECK(40.0_GiB + 1.0_MiB == 40.0_GiB);
}

TEST_CASE("units only: a failing ordering of two prices") {
    CHECK(2.99_usd_per_gpu_hour > 12.29_usd_per_gpu_hour);
}
