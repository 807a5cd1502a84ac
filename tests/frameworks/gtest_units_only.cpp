// Google Test's twin of doctest_units_only.cpp: sees only units.hpp and literals.hpp. Every
// expectation here fails on purpose.
#include <gtest/gtest.h>

#include <gpucalc/literals.hpp>
#include <gpucalc/units.hpp>

using namespace gpucalc::literals;

TEST(UnitsOnly, FailingComparisonOfTwoSizes) { EXPECT_EQ(40.0_GiB + 1.0_MiB, 40.0_GiB); }

TEST(UnitsOnly, FailingOrderingOfTwoPrices) {
    EXPECT_GT(2.99_usd_per_gpu_hour, 12.29_usd_per_gpu_hour);
}
