// cost/tco.hpp: what owning GPUs costs per GPU-hour, and when owning beats renting: TCO,
// the breakeven utilization, months to breakeven, cumulative costs (base-load and burst is
// cost/base_load.hpp)
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "energy.hpp"
#include "prices.hpp"

namespace gpucalc {

/// Owning a set of GPU servers. Every assumption is a field; money and power have no defaults
/// (they are the user's quote), the rest have documented ones.
struct ownership {
    money capex{};                         ///< the servers' purchase price
    /// The cluster network as a fraction added to the server capex. Uncertain: Cottier et al.
    /// 2024 (App. A.1, from NVIDIA's H100 SuperPOD reference architecture) put server-to-server
    /// networking at ~19% of a cluster's cost, i.e. 0.19 / 0.81 ≈ 0.23 of the servers'; 0 for a
    /// lone server.
    double network_share = 0.0;
    money installation{};
    /// Depreciation period: 5 years, the US tax recovery period for computers (IRS Publication
    /// 946, MACRS 5-year property); practitioners plan 3–5 years as GPU generations turn over.
    duration service_life = make<years>(5.0);
    double residual_value = 0.0;           ///< fraction of capex recovered at the end, in [0, 1)
    /// Annual cost of capital (discount rate) for the capex; 0 means straight-line only.
    double cost_of_capital = 0.0;
    gpu_count gpus = make<gpucalc::gpus>(8.0);
    power full_power{};                    ///< draw at full load (DGX H100: 10.2 kW max)
    /// Draw when idle, as a fraction of full load. Uncertain: ~0.2–0.4 for GPU servers whose
    /// GPUs idle near 10–20% of TDP while CPUs, fans and NICs keep drawing; 0.3 planned.
    double idle_power_fraction = 0.3;
    /// Power usage effectiveness (energy.hpp's default_pue).
    double pue = default_pue;
    energy_price electricity{};
    double maintenance_per_year = 0.0;     ///< fraction of capex per year (support contracts)
    cost_rate space{};                     ///< rack space / colocation, per hour
    cost_rate staff{};                     ///< operations staff attributable, per hour
};

namespace detail {

/// An ownership's rules. Ranges: the quantities in their dimensions' ranges (capex,
/// installation, full_power, electricity, space and staff 0 or more; service_life and gpus
/// positive); network_share, cost_of_capital and maintenance_per_year in [0, 1e6];
/// residual_value in [0, 1); idle_power_fraction in [0, 1]; pue in [1, 1e6].
GPUCALC_DETAIL_INLINE constexpr void check(const ownership& o, const char* function) {
    require_non_negative(function, "capex", o.capex);
    require_ratio(function, "network_share", o.network_share);
    require_non_negative(function, "installation", o.installation);
    require_positive(function, "service_life", o.service_life);
    require_discount(function, "residual_value", o.residual_value);
    require_ratio(function, "cost_of_capital", o.cost_of_capital);
    require_positive(function, "gpus", o.gpus);
    require_non_negative(function, "full_power", o.full_power);
    if (!(o.idle_power_fraction >= 0.0 && o.idle_power_fraction <= 1.0)) {
        throw_invalid(function, "idle_power_fraction", o.idle_power_fraction, "", "must be in [0, 1]");
    }
    require_pue(function, o.pue);
    require_non_negative(function, "electricity", o.electricity);
    require_ratio(function, "maintenance_per_year", o.maintenance_per_year);
    require_non_negative(function, "space", o.space);
    require_non_negative(function, "staff", o.staff);
}

// Below, y = n·ln(1 + r) for a rate r over n years, so that (1 + r)^−n = e^−y. The annuity and
// payback formulas divide by r. Below tiny_rate that divides one rounded tiny number by another
// (for the smallest denormal r and n = 5.5, n·r rounds to 5 or 6 times r, and the annuity read
// 5 or 6 years): there they are written with the ratios below, each 1 at 0 and taken from its
// series near 0, so that a tiny rate tends to the straight-line limit smoothly. At and above it
// the standard forms are exact to a few ulps and need no extra division.

/// The rate below which the annuity and payback take their series forms.
inline constexpr double tiny_rate = 1e-8;

/// (1 − e^−y) ÷ y for y >= 0; 1 − y/2 below 1e-8 (the next term, y²/6, is under half an ulp).
inline double one_minus_exp_over(double y) {
    return y < 1e-8 ? 1.0 - y / 2.0 : -std::expm1(-y) / y;
}

/// −ln(1 − x) ÷ x for x in [0, 1); 1 + x/2 below 1e-8 (the next term, x²/3, is under half an
/// ulp).
inline double minus_log1p_minus_over(double x) {
    return x < 1e-8 ? 1.0 + x / 2.0 : -std::log1p(-x) / x;
}

/// The annuity factor: the present value of 1 a year for n years at rate r,
/// (1 − (1 + r)^−n) / r (the standard annuity formula), computed with expm1/log1p; below
/// tiny_rate as n · [(1 − e^−y)/y] · [ln(1 + r)/r], the last ratio 1 − r/2 there (the next term,
/// r²/3, is under half an ulp). n when r = 0.
inline double annuity_factor(double rate, double years) {
    if (!(rate > 0.0)) return years;
    const double y = years * std::log1p(rate);
    return rate >= tiny_rate ? -std::expm1(-y) / rate
                             : years * one_minus_exp_over(y) * (1.0 - rate / 2.0);
}

/// The capital recovery factor, 1 ÷ the annuity factor: the annual payment that repays 1 over n
/// years at rate r (CRF(8%, 5 years) = 0.2505 in any annuity table).
inline double capital_recovery_factor(double rate, double years) {
    return 1.0 / annuity_factor(rate, years);
}

/// What owning costs up front: capex with the network's share, plus installation.
GPUCALC_DETAIL_INLINE constexpr money upfront_cost(const ownership& o) {
    return (1.0 + o.network_share) * o.capex + o.installation;
}

}  // namespace detail

/// The hourly cost of ownership, split into what runs whether or not the GPUs work and what
/// depends on their utilization.
struct ownership_cost {
    cost_rate capital{};       ///< capex (+ network, installation, − residual) spread over the life
    cost_rate operations{};    ///< maintenance, space, staff
    cost_rate idle_power{};    ///< facility power at idle draw × PUE
    cost_rate active_power{};  ///< the extra facility power at full load, × utilization
};

namespace detail {
/// owning_cost (documented below), naming the calling function in its error messages.
GPUCALC_DETAIL_INLINE inline ownership_cost owning_cost(const ownership& o, double utilization,
                                                  const char* function) {
    check(o, function);
    if (!(utilization >= 0.0 && utilization <= 1.0)) {
        throw_invalid(function, "utilization", utilization, "", "must be in [0, 1]");
    }
    const money invested = upfront_cost(o);
    const money residual = o.residual_value * o.capex;
    const double life_years = in<years>(o.service_life);
    const duration year = make<years>(1.0);
    ownership_cost c{};
    if (o.cost_of_capital > 0.0) {
        const double discounted_residual = std::exp(-life_years * std::log1p(o.cost_of_capital));
        c.capital = (invested - discounted_residual * residual) *
                    capital_recovery_factor(o.cost_of_capital, life_years) / year;
    } else {
        c.capital = (invested - residual) / o.service_life;
    }
    c.operations = o.maintenance_per_year * o.capex / year + o.space + o.staff;
    const power idle = o.idle_power_fraction * o.full_power;
    c.idle_power = o.pue * idle * o.electricity;
    c.active_power = utilization * o.pue * (o.full_power - idle) * o.electricity;
    return c;
}
}  // namespace detail

/// Hourly cost of owning at `utilization`. Capital: straight-line depreciation of
/// capex·(1 + network share) + installation − residual, or with a cost of capital the annuity
/// that repays it (capital recovery factor; the residual discounted back over the life).
/// Power: draw × PUE × $/kWh, the draw rising linearly from idle to full with utilization
/// (derived). Plain inline, never constexpr: with a cost of capital it calls std::exp,
/// std::expm1 and std::log1p, which are not usable in constant expressions. Ranges: the
/// ownership as its fields state (see detail::check above: ratios at most 1e6, pue in [1, 1e6]);
/// utilization in [0, 1].
inline ownership_cost owning_cost(const ownership& o, double utilization) {
    return detail::owning_cost(o, utilization, "owning_cost");
}

/// The owned cost per GPU-hour actually used at `utilization` in [1e-30, 1] (the ownership as
/// owning_cost states), and the answer 0 or in [1e-30, $1e9/GPU·h] in base units, as every
/// price input is (an ownership at the far ends of its ranges can cost more per GPU-hour).
inline gpu_price owned_price(const ownership& o, double utilization) {
    detail::require_utilization("owned_price", "utilization", utilization);
    const ownership_cost c = detail::owning_cost(o, utilization, "owned_price");
    const gpu_price price =
        (c.capital + c.operations + c.idle_power + c.active_power) / (utilization * o.gpus);
    detail::require_non_negative(  // a price, passed on
        "owned_price", "(capital + operations + power) / (utilization * gpus)", price);
    return price;
}

/// Rent or buy, against renting the same GPUs on demand only for the hours they work.
struct breakeven {
    /// Owning is cheaper above this utilization. Above 1 when owning never pays at any real
    /// use (the use it would need); +inf, with `owning_never_pays`, when no utilization makes it
    /// pay (the cloud costs no more than the power a busy GPU draws).
    double utilization = std::numeric_limits<double>::infinity();
    bool reached = false;           ///< true when the breakeven utilization is at most 1
    bool owning_never_pays = true;  ///< true when `utilization` is +inf: no use makes it pay
    gpu_price owned_at_full{};      ///< owned cost per GPU-hour at 100% utilization
    /// At the utilization asked about: when owning's cumulative cost (capex up front, then
    /// running costs, discounted at the cost of capital) falls below renting's. +inf when it
    /// never does (the running saving is not positive, or discounted it never repays the
    /// upfront cost); `pays_back` says whether it comes within the service life.
    duration payback = make<seconds>(std::numeric_limits<double>::infinity());
    bool pays_back = false;
};

/// Breakeven utilization u*: owning's hourly cost F + E_idle + ΔE·u equals renting's
/// p·GPUs·u, so u* = (F + E_idle) ÷ (p·GPUs − ΔE) (derived; F the capital and operations per
/// hour, E the facility power). Payback at `utilization`: the time t at which the running
/// saving Δ = rent − running costs, accumulated (and discounted at the cost of capital r),
/// repays the upfront cost U: t = U/Δ, or t = −ln(1 − U·r/Δ_year)/ln(1 + r) years when r > 0
/// (derived from the annuity formula), for r below detail::tiny_rate written
/// (U/Δ_year)·[−ln(1 − x)/x]·[r/ln(1 + r)] with x = U·r/Δ_year so that a tiny r tends to U/Δ;
/// it must fall within the service life. Ranges:
/// cloud in [1e-30, $1e9/GPU·h] in base units; utilization in [1e-30, 1]; the ownership as
/// owning_cost states. Every answer is finite but the flagged +inf ones.
GPUCALC_DETAIL_INLINE inline breakeven rent_vs_buy(const ownership& o, gpu_price cloud,
                                                   double utilization = 1.0) {
    constexpr const char* function = "rent_vs_buy";
    detail::require_positive(function, "cloud", cloud);
    detail::require_utilization(function, "utilization", utilization);
    const ownership_cost full = detail::owning_cost(o, 1.0, function);
    // Everything read from `o` is read before the first store to `b`. A breakeven holds
    // quantities, so it is not trivially copyable and is returned through the caller's pointer,
    // which GCC 12 cannot rule out pointing into `o`: read after those stores, o.gpus,
    // o.service_life and the upfront cost were loaded and computed again (rent_vs_buy 190.8
    // instructions a call against its twin's 184.9).
    const gpu_count gpus = o.gpus;
    const duration service_life = o.service_life;
    const double r = o.cost_of_capital;
    const money upfront = detail::upfront_cost(o);
    const cost_rate fixed = full.capital + full.operations + full.idle_power;
    const cost_rate cloud_full = cloud * gpus;
    breakeven b{};
    b.owned_at_full = (fixed + full.active_power) / gpus;
    const cost_rate margin = cloud_full - full.active_power;
    if (margin > cost_rate{}) {
        b.utilization = fixed / margin;
        b.reached = b.utilization <= 1.0;
        b.owning_never_pays = false;
    }
    // At `utilization` only the active power scales; the rest is what `full` already holds.
    const cost_rate running = full.operations + full.idle_power + utilization * full.active_power;
    const cost_rate saving = utilization * cloud_full - running;
    if (saving > cost_rate{}) {
        if (r >= detail::tiny_rate) {
            const double x = in<usd>(upfront) * r / in<usd>(saving * make<years>(1.0));
            if (x < 1.0) {
                b.payback = make<years>(-std::log1p(-x) / std::log1p(r));
                b.pays_back = b.payback <= service_life;
            }
        } else if (r > 0.0) {
            const double cash_years = in<usd>(upfront) / in<usd>(saving * make<years>(1.0));
            const double x = cash_years * r;
            if (x < 1.0) {
                // ln(1 + r)/r is 1 − r/2 below tiny_rate (see annuity_factor).
                b.payback = make<years>(cash_years * detail::minus_log1p_minus_over(x) /
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

/// Net present value of owning for the service life at `utilization`: the upfront cost, plus
/// the running costs (operations and power) as an annuity at the cost of capital, less the
/// residual value discounted from the end of the life (standard discounted cash flow). Ranges:
/// as owning_cost.
inline money owning_npv(const ownership& o, double utilization) {
    constexpr const char* function = "owning_npv";
    const ownership_cost c = detail::owning_cost(o, utilization, function);
    const double n = in<years>(o.service_life);
    const money running_per_year = (c.operations + c.idle_power + c.active_power) * make<years>(1.0);
    return detail::upfront_cost(o) +
           detail::annuity_factor(o.cost_of_capital, n) * running_per_year -
           std::exp(-n * std::log1p(o.cost_of_capital)) * (o.residual_value * o.capex);
}

/// Net present value of renting the same GPUs at `cloud` for the hours used over the same life,
/// discounted at the same rate. Ranges: cloud 0 or in its range; utilization in [0, 1]; the
/// ownership as owning_cost.
inline money renting_npv(const ownership& o, gpu_price cloud, double utilization) {
    constexpr const char* function = "renting_npv";
    detail::check(o, function);
    detail::require_non_negative(function, "cloud", cloud);
    if (!(utilization >= 0.0 && utilization <= 1.0)) {
        detail::throw_invalid(function, "utilization", utilization, "", "must be in [0, 1]");
    }
    const money per_year = utilization * (cloud * o.gpus) * make<years>(1.0);
    return detail::annuity_factor(o.cost_of_capital, in<years>(o.service_life)) * per_year;
}

/// Cumulative cash spent by time `t` at `utilization`: owning pays capex and installation up
/// front, then its running costs; renting pays the cloud price for the hours used.
struct cumulative_cost {
    money owned{};
    money rented{};
};

/// Ranges: cloud and t 0 or in their ranges; utilization in [0, 1]; the ownership as
/// owning_cost.
inline cumulative_cost cumulative_costs(const ownership& o, gpu_price cloud, double utilization,
                                        duration t) {
    constexpr const char* function = "cumulative_costs";
    detail::require_non_negative(function, "cloud", cloud);
    detail::require_non_negative(function, "t", t);
    const ownership_cost c = detail::owning_cost(o, utilization, function);
    cumulative_cost r{};
    r.owned = detail::upfront_cost(o) +
              (c.operations + c.idle_power + c.active_power) * t;
    r.rented = utilization * (cloud * o.gpus) * t;
    return r;
}

// A $/h instance price where these take the cloud's $/GPU·h price: a sentence instead of "no
// matching function" (see prices.hpp).
template <class Price, detail::if_instance_price<Price> misuse = 0>
inline breakeven rent_vs_buy(const ownership&, const Price&, double = 1.0) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("rent_vs_buy", "cloud price");
    return breakeven{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
inline money renting_npv(const ownership&, const Price&, double) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("renting_npv", "cloud price");
    return money{};
}

template <class Price, detail::if_instance_price<Price> misuse = 0>
inline cumulative_cost cumulative_costs(const ownership&, const Price&, double, duration) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("cumulative_costs", "cloud price");
    return cumulative_cost{};
}


}  // namespace gpucalc
