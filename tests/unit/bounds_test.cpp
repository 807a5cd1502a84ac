// bounds_test.cpp: every input quantity has a stated range (docs/units.md, "Input ranges"):
// positive magnitudes in [1e-30 base units, the dimension's largest], so that a formula of a few
// inputs never overflows to inf or underflows to 0. Outside it is invalid_input, naming the
// function, the field, the value in its display unit and the rule.
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;

TEST_CASE("an input above its dimension's largest magnitude is a broken rule") {
    CHECK_THROWS_WITH_AS(job_cost(8.0_gpu, make<years>(2e6), 2.0_usd_per_gpu_hour),
                         "job_cost: held = 2000000 years must be at most 1e6 years",
                         invalid_input);
    CHECK_THROWS_WITH_AS(job_cost(10.0_gpu_hours, make<usd_per_gpu_hour>(2e9)),
                         "job_cost: price = $2,000,000,000/GPU\xC2\xB7h must be at most "
                         "$1e9/GPU\xC2\xB7h",
                         invalid_input);
    CHECK_THROWS_WITH_AS(per_gpu(make<usd_per_hour>(std::numeric_limits<double>::infinity()), 8.0_gpu),
                         "per_gpu: instance = $inf/h must be at most $1e9/h", invalid_input);
    // Where its display unit would need exponent form ("$3.60000000000000e+18/h"), the value
    // reads in the base unit, in the form the bounds take.
    CHECK_THROWS_WITH_AS(per_gpu(make<usd_per_hour>(3.6e18), 8.0_gpu),
                         "per_gpu: instance = 1e+15 USD/s must be at most $1e9/h", invalid_input);
    CHECK_THROWS_WITH_AS(per_gpu(2.0_usd_per_h, make<gpus>(1e19)),
                         "per_gpu: gpus = 1e+19 GPU must be at most 2^40 GPUs", invalid_input);
    // The largest itself is accepted.
    CHECK(job_cost(8.0_gpu, make<years>(1e6), 2.0_usd_per_gpu_hour) > 0.0_usd);
}

TEST_CASE("a positive input below 1e-30 base units is a broken rule; 0 is 0") {
    CHECK_THROWS_WITH_AS(per_gpu(2.0_usd_per_h, make<gpus>(5e-324)),
                         "per_gpu: gpus = 4.94065645841247e-324 GPU must be at least 1e-30 GPU",
                         invalid_input);
    CHECK_THROWS_WITH_AS(job_cost(10.0_gpu_hours, gpu_price::from_value(1e-40)),
                         doctest::Contains("must be 0 or at least 1e-30 USD/(GPU*s)"), invalid_input);
    CHECK(job_cost(10.0_gpu_hours, 0.0_usd_per_gpu_hour) == 0.0_usd);
}

TEST_CASE("NaN and negative inputs keep their rule") {
    CHECK_THROWS_WITH_AS(per_gpu(make<usd_per_hour>(std::nan("")), 8.0_gpu),
                         "per_gpu: instance = $nan/h must be finite and >= 0", invalid_input);
    CHECK_THROWS_WITH_AS(per_gpu(2.0_usd_per_h, -8.0_gpu),
                         "per_gpu: gpus = -8 GPU must be finite and > 0", invalid_input);
}
