// cost_static.cpp: price arithmetic, job cost, reservations, regions, energy and rack power are
// constant expressions, so cost budgets can be static_asserts (C++17 and C++20). Owning and
// spot costs use std::exp, std::expm1 and std::log1p and are plain inline (docs/cost.md).
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>

#include <type_traits>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;

// An illustrative budget (1,000 GPU-hours at $2.99/GPU·h stay under $5,000) at compile time.
static_assert(job_cost(1000.0_gpu_hours, 2.99_usd_per_gpu_hour) < 5000.0_usd, "within budget");
static_assert(approx_equal(per_gpu(catalog::prices::aws_p5_48xlarge_on_demand_2024, 8.0_gpu),
                           12.29_usd_per_gpu_hour),
              "AWS p5.48xlarge: $98.32/h over 8 GPUs");
static_assert(approx_equal(reserved_price({1.0_years, 8760.0_usd, 4.0_usd_per_gpu_hour, 0.5}, 1.0),
                           3.0_usd_per_gpu_hour),
              "a reservation's effective price");
static_assert(approx_equal(job_energy(10.0_kW, 2.0_h, 1.5), 30.0_kWh), "facility energy");
static_assert(rack_power(6, 10.2_kW).needs_liquid_cooling, "61.2 kW per rack is past air cooling");
constexpr region_price regions[] = {{"a", 3.0_usd_per_gpu_hour, 0.0_usd_per_GB},
                                    {"b", 2.0_usd_per_gpu_hour, 0.09_usd_per_GB}};
static_assert(cheapest_region(regions, 1000.0_gpu_hours, 5.0_TB).index == 1, "cheaper after transfer");
static_assert(approx_equal(discounted(4.0_usd_per_gpu_hour, 0.75), 1.0_usd_per_gpu_hour), "spot price");
static_assert(approx_equal(flex_start({2.0_usd_per_gpu_hour, 0.5, 10.0_h}, 100.0_gpu_hours).saving, 100.0_usd),
              "flex-start saving");
static_assert(approx_equal(with_premium(2.0_usd_per_gpu_hour, 0.25), 2.5_usd_per_gpu_hour), "premium");
static_assert(approx_equal(egress_cost(1.0_TB, 0.09_usd_per_GB), 90.0_usd), "egress");
static_assert(approx_equal(cost_per_million_tokens(3.6_usd_per_gpu_hour, 1.0_gpu, 1000.0_tokens_per_s),
                           1.0_usd_per_M_tokens),
              "$3.60/h at 1,000 tokens/s is $1 per million");
static_assert(approx_equal(idle_cost(8.0_gpu, 10.0_h, 1.0_usd_per_gpu_hour), 80.0_usd), "idle");
static_assert(approx_equal(emissions(1000.0_kWh, 400.0_g_per_kWh), 400.0_kg), "carbon");

// The overloads that turn a $/h price into a sentence (prices.hpp, run.hpp) are viable only for a
// cost_rate: every correct call still reaches the real function, as a constant expression, with
// its own result type, whether the price is a named constant, an expression or braced.
constexpr gpu_price lambda_h100 = 2.99_usd_per_gpu_hour;  // illustrative
static_assert(std::is_same<decltype(job_cost(1.0_gpu_hours, lambda_h100)), money>::value, "money");
static_assert(approx_equal(job_cost(1000.0_gpu_hours, 98.32_usd_per_h / 8.0_gpu), 12290.0_usd),
              "an instance price divided by its GPUs is a per-GPU price");
static_assert(job_cost(1000.0_gpu_hours, {}) == 0.0_usd, "a braced price picks the real overload");
static_assert(approx_equal(job_cost(8.0_gpu, 10.0_h, lambda_h100), 239.2_usd), "8 GPUs for 10 h");
static_assert(approx_equal(idle_cost(8.0_gpu, 10.0_h, lambda_h100), 239.2_usd), "idle, billed alike");
static_assert(approx_equal(discounted(lambda_h100, 0.5), 1.495_usd_per_gpu_hour), "half off");
static_assert(approx_equal(per_gpu(98.32_usd_per_h, 8.0_gpu), 12.29_usd_per_gpu_hour), "per GPU");
constexpr parallel_layout eight_way = [] {
    parallel_layout l{};
    l.tensor = 8;
    return l;
}();
static_assert(approx_equal(training_cost(10.0_h, eight_way, lambda_h100).cost, 239.2_usd),
              "any duration is priced");
static_assert(approx_equal(job_energy(1.0_kW, 1.0_h, 1e6), 1e6_kWh), "the largest PUE");
}  // namespace
