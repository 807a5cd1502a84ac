// scaling_laws_static.cpp: Amdahl's, Gustafson's and the USL's closed forms, and the largest GPU
// count at an efficiency floor (a whole-count bisection of + − × ÷ only), are constant
// expressions, so a scaling budget can be a static_assert (C++17 and C++20). usl_peak (its N*
// needs std::sqrt) and the fits (std::sqrt in the error measures) are plain inline
// (docs/scaling.md).
#include <gpucalc/literals.hpp>
#include <gpucalc/scaling/fit.hpp>
#include <gpucalc/scaling/laws.hpp>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;

// Amdahl 1967: 1/(0.05 + 0.95/8) = 1/0.16875; efficiency ÷ 8.
static_assert(approx_equal(amdahl_speedup(0.05, 8), 1.0 / 0.16875), "Amdahl speedup");
static_assert(approx_equal(amdahl_efficiency(0.05, 8), 1.0 / 1.35), "Amdahl efficiency");
static_assert(amdahl_speedup(0.0, 64) == 64.0, "no serial part: exactly N");
// Gustafson 1988: 8 − 0.05 × 7.
static_assert(approx_equal(gustafson_speedup(0.05, 8), 7.65), "Gustafson scaled speedup");
// Gunther's USL: 8 / (1 + 0.05 × 7 + 0.002 × 56).
constexpr usl_parameters measured{0.05, 0.002};
static_assert(approx_equal(usl_capacity(measured, 8), 8.0 / 1.462), "USL capacity");
static_assert(approx_equal(usl_efficiency(measured, 8), 1.0 / 1.462), "USL efficiency");
static_assert(approx_equal(usl_throughput(1000.0_tokens_per_s, measured, 8),
                           (8000.0 / 1.462) * 1.0_tokens_per_s),
              "USL throughput in the caller's unit");
// The decision: 75 % holds to 7 GPUs at s = 0.05 (1 + (1/0.75 − 1)/0.05 = 7.67), 60 % to 14.
static_assert(amdahl_largest_gpus(0.05).gpus == 7, "good scaling ends at 7 GPUs");
static_assert(amdahl_largest_gpus(0.05, wasteful_scaling_efficiency).gpus == 14, "waste past 14");
static_assert(usl_largest_gpus(measured).gpus == 6, "USL: 75 % to 6 GPUs");
static_assert(usl_largest_gpus(measured, wasteful_scaling_efficiency).gpus == 10, "60 % to 10");
static_assert(!usl_largest_gpus({0.0, 0.0}).bounded, "perfect scaling never drops");
// A fit's predictions are constexpr too, for a fit written as a constant.
constexpr usl_fit<> fitted{1000.0, measured, 1.0, 0.0, 4};
static_assert(approx_equal(predicted_throughput(fitted, 8), 8000.0 / 1.462), "predicted X(8)");
static_assert(approx_equal(predicted_efficiency(fitted, 8), 1.0 / 1.462), "predicted E(8)");
static_assert(largest_gpus(fitted).gpus == 6, "the fit's limit");
// A fitted λ beyond the 1e30 a law takes (points falling as 1/N from N = 100 at 1e30 fit
// σ = κ = 1 and λ = 1e32) is still a constant-expression answer: 1e32 × 100 / 10^4.
constexpr usl_fit<> falling{1e32, {1.0, 1.0}, 1.0, 0.0, 3};
static_assert(approx_equal(predicted_throughput(falling, 100), 1e30), "a fitted λ of 1e32");
}  // namespace
