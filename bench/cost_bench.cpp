// cost_bench.cpp: how fast a planner can price options: rent-vs-buy breakeven evaluations per
// second beside its raw-double twin (twin_support.hpp says how a twin is written), so the ratio
// is the price of gpucalc's unit types. Both sides are called out of line.
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using namespace gpucalc::literals;
namespace detail = gpucalc::detail;
using twin::input_mask;

std::vector<double> varied(double low, double high) { return twin::varied_real(low, high, 20261123); }

gpucalc::ownership example_server() {
    gpucalc::ownership o{};
    o.capex = 333000.0_usd;
    o.gpus = 8.0_gpu;
    o.full_power = 10.2_kW;
    o.electricity = 0.0806_usd_per_kWh;
    o.maintenance_per_year = 0.1;
    o.space = 1.5_usd_per_h;
    return o;
}

// --- rent vs buy, in base units (USD, seconds, watts, joules) -------------------------------------

/// cost/tco.hpp's ownership, in base units.
struct raw_ownership {
    double capex, network_share, installation, service_life, residual_value, cost_of_capital, gpus,
        full_power, idle_power_fraction, pue, electricity, maintenance_per_year, space, staff;
};

constexpr double seconds_per_year = 31536000.0;  // units.hpp's years: 8,760 h

/// detail::check(ownership), transliterated.
GPUCALC_DETAIL_INLINE inline void raw_check(const raw_ownership& o, const char* function) {
    twin::require_non_negative<gpucalc::money>(function, "capex", o.capex);
    detail::require_ratio(function, "network_share", o.network_share);
    twin::require_non_negative<gpucalc::money>(function, "installation", o.installation);
    twin::require_positive<gpucalc::duration>(function, "service_life", o.service_life);
    detail::require_discount(function, "residual_value", o.residual_value);
    detail::require_ratio(function, "cost_of_capital", o.cost_of_capital);
    twin::require_positive<gpucalc::gpu_count>(function, "gpus", o.gpus);
    twin::require_non_negative<gpucalc::power>(function, "full_power", o.full_power);
    if (!(o.idle_power_fraction >= 0.0 && o.idle_power_fraction <= 1.0)) {
        detail::throw_invalid(function, "idle_power_fraction", o.idle_power_fraction, "", "must be in [0, 1]");
    }
    detail::require_pue(function, o.pue);
    twin::require_non_negative<gpucalc::energy_price>(function, "electricity", o.electricity);
    detail::require_ratio(function, "maintenance_per_year", o.maintenance_per_year);
    twin::require_non_negative<gpucalc::cost_rate>(function, "space", o.space);
    twin::require_non_negative<gpucalc::cost_rate>(function, "staff", o.staff);
}

GPUCALC_DETAIL_INLINE inline double raw_upfront_cost(const raw_ownership& o) { return (1.0 + o.network_share) * o.capex + o.installation; }

/// cost/tco.hpp's ownership_cost, in USD per second.
struct raw_ownership_cost {
    double capital, operations, idle_power, active_power;
};

/// detail::owning_cost(), transliterated.
GPUCALC_DETAIL_INLINE inline raw_ownership_cost raw_owning_cost(const raw_ownership& o, double utilization, const char* function) {
    raw_check(o, function);
    if (!(utilization >= 0.0 && utilization <= 1.0)) {
        detail::throw_invalid(function, "utilization", utilization, "", "must be in [0, 1]");
    }
    const double invested = raw_upfront_cost(o);
    const double residual = o.residual_value * o.capex;
    const double life_years = o.service_life / seconds_per_year;
    const double year = seconds_per_year;
    raw_ownership_cost c{};
    if (o.cost_of_capital > 0.0) {
        const double discounted_residual = std::exp(-life_years * std::log1p(o.cost_of_capital));
        c.capital = (invested - discounted_residual * residual) *
                    detail::capital_recovery_factor(o.cost_of_capital, life_years) / year;
    } else {
        c.capital = (invested - residual) / o.service_life;
    }
    c.operations = o.maintenance_per_year * o.capex / year + o.space + o.staff;
    const double idle = o.idle_power_fraction * o.full_power;
    c.idle_power = o.pue * idle * o.electricity;
    c.active_power = utilization * o.pue * (o.full_power - idle) * o.electricity;
    return c;
}

/// cost/tco.hpp's breakeven, with the payback in seconds and owned_at_full in USD/(GPU·s).
struct raw_breakeven {
    double utilization = std::numeric_limits<double>::infinity();
    bool reached = false;
    bool owning_never_pays = true;
    double owned_at_full = 0.0;
    double payback = std::numeric_limits<double>::infinity();
    bool pays_back = false;
};

/// rent_vs_buy(), transliterated; `cloud` in USD per GPU-second.
[[gnu::noinline]] raw_breakeven raw_rent_vs_buy(const raw_ownership& o, double cloud, double utilization) {
    constexpr const char* function = "rent_vs_buy";
    twin::require_positive<gpucalc::gpu_price>(function, "cloud", cloud);
    detail::require_utilization(function, "utilization", utilization);
    const raw_ownership_cost full = raw_owning_cost(o, 1.0, function);
    const double gpus = o.gpus;
    const double service_life = o.service_life;
    const double r = o.cost_of_capital;
    const double upfront = raw_upfront_cost(o);
    const double fixed = full.capital + full.operations + full.idle_power;
    const double cloud_full = cloud * gpus;
    raw_breakeven b{};
    b.owned_at_full = (fixed + full.active_power) / gpus;
    const double margin = cloud_full - full.active_power;
    if (margin > 0.0) {
        b.utilization = fixed / margin;
        b.reached = b.utilization <= 1.0;
        b.owning_never_pays = false;
    }
    const double running = full.operations + full.idle_power + utilization * full.active_power;
    const double saving = utilization * cloud_full - running;
    if (saving > 0.0) {
        if (r >= detail::tiny_rate) {
            const double x = upfront * r / (saving * seconds_per_year);
            if (x < 1.0) {
                b.payback = seconds_per_year * (-std::log1p(-x) / std::log1p(r));
                b.pays_back = b.payback <= service_life;
            }
        } else if (r > 0.0) {
            const double cash_years = upfront / (saving * seconds_per_year);
            const double x = cash_years * r;
            if (x < 1.0) {
                b.payback = seconds_per_year * (cash_years * detail::minus_log1p_minus_over(x) /
                                                (1.0 - r / 2.0));
                b.pays_back = b.payback <= service_life;
            }
        } else {
            b.payback = upfront / saving;
            b.pays_back = b.payback <= service_life;
        }
    }
    return b;
}

[[gnu::noinline]] gpucalc::breakeven library_rent_vs_buy(const gpucalc::ownership& o, gpucalc::gpu_price cloud, double u) {
    return gpucalc::rent_vs_buy(o, cloud, u);
}

raw_ownership raw_of(const gpucalc::ownership& o) {
    using gpucalc::in;
    return {in<gpucalc::usd>(o.capex),         o.network_share,
            in<gpucalc::usd>(o.installation),  in<gpucalc::seconds>(o.service_life),
            o.residual_value,                  o.cost_of_capital,
            in<gpucalc::gpus>(o.gpus),         in<gpucalc::watts>(o.full_power),
            o.idle_power_fraction,             o.pue,
            o.electricity.value(),             o.maintenance_per_year,
            in<gpucalc::usd_per_second>(o.space), in<gpucalc::usd_per_second>(o.staff)};
}

void check_rent_vs_buy(const gpucalc::ownership& o, gpucalc::gpu_price cloud, double u) {
    const gpucalc::breakeven lib = library_rent_vs_buy(o, cloud, u);
    const raw_breakeven raw = raw_rent_vs_buy(raw_of(o), cloud.value(), u);
    twin::expect_same("breakeven utilization", lib.utilization, raw.utilization);
    twin::expect_same("reached", lib.reached, raw.reached);
    twin::expect_same("owning never pays", lib.owning_never_pays, raw.owning_never_pays);
    twin::expect_same("owned at full", lib.owned_at_full, raw.owned_at_full);
    twin::expect_same("payback", lib.payback, raw.payback);
    twin::expect_same("pays back", lib.pays_back, raw.pays_back);
}

// The twin must agree with the library before it is timed: straight-line, and with a cost of
// capital, a residual value and a network share.
void check_twins() {
    gpucalc::ownership o = example_server();
    check_rent_vs_buy(o, 2.99_usd_per_gpu_hour, 0.7);
    o.cost_of_capital = 0.08;
    o.residual_value = 0.1;
    o.network_share = 0.23;
    check_rent_vs_buy(o, 4.5_usd_per_gpu_hour, 0.9);
    o.cost_of_capital = 1e-300;  // the series forms a tiny rate takes
    check_rent_vs_buy(o, 4.5_usd_per_gpu_hour, 0.9);
}

// Both loops take their prices already in their own representation, so neither converts
// $/GPU-h inside the timed loop.
void BM_rent_vs_buy_units(benchmark::State& state) {
    std::vector<gpucalc::gpu_price> price;
    for (double p : varied(1.0, 6.0)) price.push_back(gpucalc::make<gpucalc::usd_per_gpu_hour>(p));
    const auto use = varied(0.1, 1.0);
    const gpucalc::ownership o = example_server();
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::breakeven b = library_rent_vs_buy(o, price[i], use[i]);
        benchmark::DoNotOptimize(b.utilization);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_rent_vs_buy_units);

void BM_rent_vs_buy_raw(benchmark::State& state) {
    std::vector<double> price;  // USD per GPU-second
    for (double p : varied(1.0, 6.0)) price.push_back(gpucalc::make<gpucalc::usd_per_gpu_hour>(p).value());
    const auto use = varied(0.1, 1.0);
    const raw_ownership o = raw_of(example_server());
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_breakeven b = raw_rent_vs_buy(o, price[i], use[i]);
        benchmark::DoNotOptimize(b.utilization);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_rent_vs_buy_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
