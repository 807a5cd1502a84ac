// cost/base_load.hpp: owning (or reserving) the base load of a demand profile and renting the
// peaks above it: the capacity that minimizes the total, against all-cloud and all-owned
#pragma once

#include <cstddef>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "prices.hpp"
#include "tco.hpp"

namespace gpucalc {

/// One step of a load-duration curve: `gpus` GPUs in demand for `time` of the period.
struct demand_step {
    gpu_count gpus{};
    duration time{};
};

namespace detail {
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_unsorted_steps(const char* function,
                                                                  gpu_count gpus,
                                                                  gpu_count before,
                                                                  std::size_t i) {
    throw_invalid_name(function, indexed_field("steps", i, "gpus").c_str(), value_text(gpus),
                       "must not exceed ", indexed_field("steps", i - 1, "gpus") + " = " +
                           value_text(before),
                       ": the profile must be sorted by decreasing demand");
}
}  // namespace detail

/// The owned capacity that minimizes owned + cloud-burst cost over a demand profile, and what
/// all-cloud and all-owned would cost. Owned capacity costs its capital and operations for the
/// whole period whatever the load, plus power for the hours it works; demand above it rents.
struct hybrid_capacity {
    gpu_count owned{};
    money total{};
    money all_cloud{};
    money all_owned{};
    money saving_vs_cloud{};   ///< all_cloud − total
    money saving_vs_owned{};   ///< all_owned − total
};

namespace detail {

/// How a caller names what base_load_and_burst_of checks: its array of steps, their two
/// members, and the cloud price.
struct base_load_names {
    const char* steps = "steps";
    const char* gpus = "gpus";
    const char* time = "time";
    const char* cloud = "cloud";
};

/// base_load_and_burst over `count` steps, step i being `step_at(i)`, in any order: the
/// optimum sits at one of the steps' levels (the cost is piecewise linear in the owned
/// capacity, with breaks only there), so no sort is needed. Quadratic in the steps.
template <class StepAt>
inline hybrid_capacity base_load_and_burst_of(std::size_t count, StepAt step_at,
                                              const ownership& server, gpu_price cloud,
                                              const char* function,
                                              const base_load_names& names = {}) {
    require_positive(function, names.cloud, cloud);
    gpu_count peak{};
    duration period{};
    for (std::size_t i = 0; i < count; ++i) {
        const demand_step step = step_at(i);
        require_non_negative_at(function, names.steps, i, names.gpus, step.gpus);
        require_positive_at(function, names.steps, i, names.time, step.time);
        if (step.gpus > peak) peak = step.gpus;
        period += step.time;
    }
    const ownership_cost busy = owning_cost(server, 1.0, function);
    const double per_gpu = 1.0 / in<gpus>(server.gpus);
    const money fixed_per_gpu = per_gpu * (busy.capital + busy.operations + busy.idle_power) * period;
    const cost_rate active_per_gpu = per_gpu * busy.active_power;

    auto total_for = [&](gpu_count owned) {
        money total = in<gpus>(owned) * fixed_per_gpu;
        for (std::size_t i = 0; i < count; ++i) {
            const demand_step step = step_at(i);
            const gpu_count from_owned = step.gpus < owned ? step.gpus : owned;
            total += in<gpus>(from_owned) * active_per_gpu * step.time;
            if (step.gpus > owned) total += (step.gpus - owned) * step.time * cloud;
        }
        return total;
    };
    hybrid_capacity best{};
    best.all_cloud = total_for(gpu_count{});
    best.all_owned = total_for(peak);
    best.owned = gpu_count{};
    best.total = best.all_cloud;
    for (std::size_t i = 0; i < count; ++i) {
        const gpu_count level = step_at(i).gpus;
        const money t = total_for(level);
        if (t < best.total || (t == best.total && level < best.owned)) {
            best.total = t;
            best.owned = level;
        }
    }
    best.saving_vs_cloud = best.all_cloud - best.total;
    best.saving_vs_owned = best.all_owned - best.total;
    return best;
}

}  // namespace detail

/// `steps` must be sorted by decreasing GPU count (a load-duration curve). `server` describes
/// owning one server of `server.gpus` GPUs; capacity is owned GPU by GPU at its per-GPU cost
/// (whole servers are not enforced). Reserved cloud capacity is an ownership too
/// (reserved_capacity). Ranges: cloud in [1e-30, $1e9/GPU·h] in base units; `count` in
/// [1, 2^40] and `steps` non-null; each step's gpus 0 or positive and time positive, in their
/// ranges (a step of 0 GPUs is a period nothing runs); the ownership as owning_cost. An error
/// names the step by its index ("steps[1].gpus"). Quadratic in the steps. The core takes steps
/// in any order; this form keeps its sorted-profile rule, which catches a profile built wrong.
inline hybrid_capacity base_load_and_burst(const demand_step* steps, std::size_t count,
                                           const ownership& server, gpu_price cloud) {
    constexpr const char* function = "base_load_and_burst";
    if (steps == nullptr || count == 0) {
        detail::throw_invalid(function, "count", static_cast<double>(count), "",
                              "must be at least 1, with steps non-null: a profile needs a step");
    }
    detail::require_count(function, "count", static_cast<long long>(count));
    for (std::size_t i = 1; i < count; ++i) {
        if (steps[i].gpus > steps[i - 1].gpus) {
            detail::require_non_negative_at(function, "steps", i, "gpus", steps[i].gpus);
            detail::require_non_negative_at(function, "steps", i - 1, "gpus", steps[i - 1].gpus);
            detail::throw_unsorted_steps(function, steps[i].gpus, steps[i - 1].gpus, i);
        }
    }
    return detail::base_load_and_burst_of(
        count, [steps](std::size_t i) { return steps[i]; }, server, cloud, function);
}

/// The same for an array of steps.
template <std::size_t N>
inline hybrid_capacity base_load_and_burst(const demand_step (&steps)[N], const ownership& server,
                                           gpu_price cloud) {
    static_assert(N > 0, "gpucalc::base_load_and_burst needs at least one demand step");
    return base_load_and_burst(&steps[0], N, server, cloud);
}

/// Reserved (committed-use) cloud capacity as the ownership of one GPU, for base_load_and_burst:
/// the upfront payment as capital spread over the term, and the discounted hourly rate as a
/// fixed cost for every hour of the term, used or not; no power (the provider's rate includes
/// it). Per hour it costs what reserved_price(r, 1) says. Ranges: as reserved_price's: term
/// positive, upfront and on_demand 0 or positive, discount in [0, 1); and the discounted rate,
/// (1 − discount) × on_demand, 0 or at least 1e-30 in base units, so that the ownership's
/// `space` is one owning_cost, base_load_and_burst and reserved_base_load accept (the other
/// fields carry the reservation's own values, already in their ranges).
inline ownership reserved_capacity(const reservation& r) {
    constexpr const char* function = "reserved_capacity";
    detail::require_positive(function, "term", r.term);
    detail::require_non_negative(function, "upfront", r.upfront);
    detail::require_non_negative(function, "on_demand", r.on_demand);
    detail::require_discount(function, "discount", r.discount);
    const gpu_price rate = (1.0 - r.discount) * r.on_demand;
    detail::require_non_negative(function, "(1 - discount) * on_demand", rate);  // becomes space
    ownership o{};
    o.gpus = make<gpus>(1.0);
    o.capex = r.upfront;
    o.service_life = r.term;
    o.space = rate * make<gpus>(1.0);  // fixed per hour, as space is
    return o;
}

// A $/h instance price where base_load_and_burst takes the cloud's $/GPU·h price (see
// prices.hpp).
template <std::size_t N, class Price, detail::if_instance_price<Price> misuse = 0>
inline hybrid_capacity base_load_and_burst(const demand_step (&)[N], const ownership&,
                                           const Price&) {
    GPUCALC_DETAIL_REJECT_INSTANCE_PRICE("base_load_and_burst", "cloud price");
    return hybrid_capacity{};
}

}  // namespace gpucalc
