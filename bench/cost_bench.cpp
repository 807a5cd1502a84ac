// cost_bench.cpp: how fast a planner can price options: rent-vs-buy breakeven and spot cost
// evaluations per second, each beside a raw-double twin that repeats the computation step for
// step, checks included. Both sides are called out of line.
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using namespace gpucalc::literals;
using twin::input_mask;

std::vector<double> varied(double low, double high) { return twin::varied_real(low, high, 20261123); }
inline void raw_fail(const char* what) { twin::fail(what); }
inline void raw_nonneg(double v) { if (!(v >= 0.0 && v <= std::numeric_limits<double>::max())) raw_fail("negative"); }
inline void raw_pos(double v) { if (!(v > 0.0 && v <= std::numeric_limits<double>::max())) raw_fail("not positive"); }
inline void raw_frac(double v) { if (!(v > 0.0 && v <= 1.0)) raw_fail("fraction"); }

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

struct raw_ownership {
    double capex, network_share, installation, life_s, residual, rate, gpus, full_w, idle_fraction, pue,
        usd_per_j, maintenance_per_year, space_per_s, staff_per_s;
};

struct raw_breakeven {
    double utilization, owned_at_full, payback_s;
    bool reached, pays_back;
};

inline void raw_check(const raw_ownership& o) {
    raw_nonneg(o.capex); raw_nonneg(o.network_share); raw_nonneg(o.installation); raw_pos(o.life_s);
    if (!(o.residual >= 0.0 && o.residual < 1.0)) raw_fail("residual");
    raw_nonneg(o.rate); raw_pos(o.gpus); raw_nonneg(o.full_w);
    if (!(o.idle_fraction >= 0.0 && o.idle_fraction <= 1.0)) raw_fail("idle");
    if (!(o.pue >= 1.0 && o.pue <= std::numeric_limits<double>::max())) raw_fail("pue");
    raw_nonneg(o.usd_per_j); raw_nonneg(o.maintenance_per_year); raw_nonneg(o.space_per_s); raw_nonneg(o.staff_per_s);
}

struct raw_hourly { double capital, operations, idle_power, active_power; };

inline raw_hourly raw_owning(const raw_ownership& o, double u) {
    raw_check(o);
    if (!(u >= 0.0 && u <= 1.0)) raw_fail("utilization");
    const double year_s = 31536000.0;
    const double invested = (1.0 + o.network_share) * o.capex + o.installation;
    const double residual = o.residual * o.capex;
    const double life_years = o.life_s / year_s;
    raw_hourly c{};
    if (o.rate > 0.0) {
        const double crf = o.rate / (1.0 - std::pow(1.0 + o.rate, -life_years));
        c.capital = (invested - std::pow(1.0 + o.rate, -life_years) * residual) * crf / year_s;
    } else {
        c.capital = (invested - residual) / o.life_s;
    }
    c.operations = o.maintenance_per_year * o.capex / year_s + o.space_per_s + o.staff_per_s;
    const double idle = o.idle_fraction * o.full_w;
    c.idle_power = o.pue * idle * o.usd_per_j;
    c.active_power = u * o.pue * (o.full_w - idle) * o.usd_per_j;
    return c;
}

[[gnu::noinline]] raw_breakeven raw_rent_vs_buy(const raw_ownership& o, double cloud_per_gpu_s, double u) {
    raw_pos(cloud_per_gpu_s);
    raw_frac(u);
    const raw_hourly full = raw_owning(o, 1.0);
    const double fixed = full.capital + full.operations + full.idle_power;
    const double cloud_full = cloud_per_gpu_s * o.gpus;
    raw_breakeven b{};
    b.owned_at_full = (fixed + full.active_power) / o.gpus;
    const double margin = cloud_full - full.active_power;
    if (margin > 0.0) {
        b.utilization = fixed / margin;
        b.reached = b.utilization <= 1.0;
    }
    const double running = full.operations + full.idle_power + u * full.active_power;
    const double rent = u * cloud_full;
    const double upfront = (1.0 + o.network_share) * o.capex + o.installation;
    if (rent > running) {
        b.payback_s = upfront / (rent - running);
        b.pays_back = true;
    }
    return b;
}

[[gnu::noinline]] gpucalc::breakeven library_rent_vs_buy(const gpucalc::ownership& o, gpucalc::gpu_price cloud, double u) {
    return gpucalc::rent_vs_buy(o, cloud, u);
}

raw_ownership raw_of(const gpucalc::ownership& o) {
    using gpucalc::in;
    return {in<gpucalc::usd>(o.capex), o.network_share, in<gpucalc::usd>(o.installation),
            in<gpucalc::seconds>(o.service_life), o.residual_value, o.cost_of_capital,
            in<gpucalc::gpus>(o.gpus), in<gpucalc::watts>(o.full_power), o.idle_power_fraction, o.pue,
            gpucalc::in<gpucalc::usd_per_kilowatt_hour>(o.electricity) / 3.6e6, o.maintenance_per_year,
            in<gpucalc::usd_per_second>(o.space), in<gpucalc::usd_per_second>(o.staff)};
}

void check_twins() {
    const gpucalc::ownership o = example_server();
    const gpucalc::breakeven lib = library_rent_vs_buy(o, 2.99_usd_per_gpu_hour, 0.7);
    const raw_breakeven raw = raw_rent_vs_buy(raw_of(o), 2.99 / 3600.0, 0.7);
    if (!gpucalc::approx_equal(lib.utilization, raw.utilization, 1e-12) ||
        !gpucalc::approx_equal(gpucalc::in<gpucalc::seconds>(lib.payback), raw.payback_s, 1e-12)) {
        std::fprintf(stderr, "rent-vs-buy twins disagree\n");
        std::abort();
    }
}

void BM_rent_vs_buy_units(benchmark::State& state) {
    check_twins();
    const auto price = varied(1.0, 6.0), use = varied(0.1, 1.0);
    const gpucalc::ownership o = example_server();
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::breakeven b =
            library_rent_vs_buy(o, gpucalc::make<gpucalc::usd_per_gpu_hour>(price[i]), use[i]);
        benchmark::DoNotOptimize(b.utilization);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_rent_vs_buy_units);

void BM_rent_vs_buy_raw(benchmark::State& state) {
    const auto price = varied(1.0, 6.0), use = varied(0.1, 1.0);
    const raw_ownership o = raw_of(example_server());
    std::size_t i = 0;
    for (auto _ : state) {
        const raw_breakeven b = raw_rent_vs_buy(o, price[i] / 3600.0, use[i]);
        benchmark::DoNotOptimize(b.utilization);
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_rent_vs_buy_raw);

}  // namespace

BENCHMARK_MAIN();
