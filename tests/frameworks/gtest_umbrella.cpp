// Google Test's twin of doctest_umbrella.cpp: linked, in both orders, with
// gtest_units_only.cpp. Every expectation here fails on purpose.
#include <gtest/gtest.h>

#include <gpucalc/gpucalc.hpp>
#include <gpucalc/testing.hpp>

using namespace gpucalc::literals;

TEST(Umbrella, FailingComparisonOfTwoSizes) { EXPECT_EQ(80.0_GiB, 80.0_GiB + 1.0_MiB); }

TEST(Umbrella, FailingApproximateComparison) {
    EXPECT_EQ(2.99_usd_per_gpu_hour, gpucalc::approx(3.09_usd_per_gpu_hour, 0.01));
}

TEST(Umbrella, Enum) {
    EXPECT_EQ(gpucalc::compute_precision::bf16, gpucalc::compute_precision::fp8);
}
