// serving/demand.hpp: a demand curve (hourly request rates over a day, or any step function) to
// replicas per step, GPU-hours and cost, three ways: always on at the peak, autoscaled, and
// serverless billing by the second with cold starts; and the reserved base load below it
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "../cost/prices.hpp"
#include "../cost/base_load.hpp"
#include "../detail/checks.hpp"
#include "../units.hpp"
#include "capacity.hpp"
#include "replicas.hpp"

namespace gpucalc {

/// One step of a demand curve: requests arrive at `rate` (Poisson) for `time`.
/// Ranges: rate 0 or in [1e-30, 1e15] requests/s; time in [1e-30 s, 1e6 years].
struct demand_period {
    request_rate rate{};
    duration time = make<hours>(1.0);
};

/// Which capacity serves the curve.
enum class capacity_market {
    on_demand,
    /// Preemptible capacity: unsuitable for latency-bound serving, because a reclaim drops the
    /// requests in flight (AWS gives 2 minutes' notice, Google Cloud and Azure 30 s: EC2 User
    /// Guide, "Spot Instance interruption notices"; Google Cloud, "Spot VMs"; Azure, "Spot
    /// Virtual Machines"). plan_demand answers spot_unsuitable; batch_inference prices it.
    spot,
};

constexpr std::string_view to_string(capacity_market m) {
    switch (m) {
        case capacity_market::on_demand: return "on_demand";
        case capacity_market::spot: return "spot";
    }
    return "unknown";
}

/// The prices plan_demand bills at. Ranges: instance and serverless in [1e-30, $1e9/GPU·h] in
/// base units (each strategy is priced, so each needs its price); market an enumerator.
struct demand_prices {
    gpu_price instance{};    ///< always-on and autoscaled replicas, per GPU-hour held
    gpu_price serverless{};  ///< serverless, per GPU-second held
    capacity_market market = capacity_market::on_demand;
};

/// What plan_demand assumes. Ranges: min_replicas in [0, 2^40]; replicas as
/// replicas_assumptions says.
struct demand_assumptions {
    /// The autoscaled deployment never goes below this many replicas (and, when prefill is
    /// disaggregated, this many prefill servers): 1, the Kubernetes Horizontal Pod Autoscaler's
    /// minReplicas default (Kubernetes API reference, HorizontalPodAutoscalerSpec), so that the
    /// first request after a quiet period finds a warm replica. Serverless scales to zero
    /// whatever this says.
    std::int64_t min_replicas = 1;
    /// The curve is one cycle (a day) that repeats: its first step follows its last, and the
    /// scale-up into the first step counts. False: the first step starts from nothing running,
    /// so every strategy starts its first replicas (always-on its peak) with a cold start.
    bool curve_repeats = true;
    replicas_assumptions replicas{};  ///< replicas_for_rate's, for every step
};

/// Why plan_demand answered, or did not.
enum class demand_verdict {
    found,
    spot_unsuitable,     ///< prices.market is spot: a reclaim drops requests (see capacity_market)
    replica_infeasible,  ///< one replica cannot serve the profile at the SLO
    above_largest,       ///< a step needs more than assumptions.replicas.largest_replicas
    /// the profile's p90s put the lengths' C_s² beyond the queueing approximation's range
    /// (replicas_verdict::service_scv_out_of_range)
    service_scv_out_of_range,
};

constexpr std::string_view to_string(demand_verdict v) {
    switch (v) {
        case demand_verdict::found: return "found";
        case demand_verdict::spot_unsuitable: return "spot_unsuitable";
        case demand_verdict::replica_infeasible: return "replica_infeasible";
        case demand_verdict::above_largest: return "above_largest";
        case demand_verdict::service_scv_out_of_range: return "service_scv_out_of_range";
    }
    return "unknown";
}

/// One way of running the curve: what it holds, and what that costs. Counts are servers of the
/// replica's layout: decode replicas plus, when prefill is disaggregated, prefill servers.
struct serving_strategy {
    std::int64_t peak_replicas = 0;  ///< the most servers held at once
    std::int64_t cold_starts = 0;    ///< servers started over one cycle
    gpu_time held{};                 ///< GPU-time billed
    money cost{};                    ///< held × the price
    /// cost over the output tokens the curve asks for; 0 when it asks for none (demand_plan's
    /// has_tokens is false).
    token_price per_million_tokens{};
    /// Whether every request meets the SLO: false when a request can arrive while the server
    /// it needs is still starting and the cold start then breaks the TTFT SLO.
    bool meets_slo = true;
};

/// One step of the plan, as plan_demand writes it when asked.
struct period_replicas {
    request_rate rate{};
    duration time{};
    /// The fewest servers that meet the SLO at the rate: replicas_for_rate's replicas plus its
    /// prefill_servers (0 at rate 0).
    std::int64_t replicas = 0;
    std::int64_t autoscaled = 0;  ///< what the autoscaled deployment holds: at least its minimum
};

/// plan_demand's answer. When found is false, failed_period names the step that had no answer
/// (or 0 for spot_unsuitable and an infeasible replica) and the strategies are empty.
struct demand_plan {
    bool found = false;
    demand_verdict verdict = demand_verdict::replica_infeasible;
    std::size_t failed_period = 0;
    std::size_t periods = 0;
    std::int64_t gpus_per_replica = 1;  ///< GPUs in each server (the replica's layout)
    duration cycle{};                ///< the curve's total time
    sequence_count requests{};       ///< Σ rate × time
    token_count output_tokens{};     ///< requests × the profile's output_mean
    bool has_tokens = false;         ///< output_tokens > 0: the per-token prices mean something
    duration cold_start{};           ///< as given
    /// The peak's servers for every step, all cycle long, at prices.instance; started once (a
    /// cold start each, billed, only when the curve does not repeat).
    serving_strategy always_on{};
    /// Each step's servers (at least the minimum), at prices.instance; a scale-up starts its
    /// servers a cold start ahead of the step (the curve is known), so the SLO holds and each
    /// started server bills its cold start on top of the step.
    serving_strategy autoscaled{};
    /// Each step's servers, down to none at rate 0, at prices.serverless by the second; a
    /// scale-up is reactive: a started server is billed from the step's start, its cold start
    /// inside the step, and a request that arrives meanwhile waits for it, so meets_slo is false
    /// when a cold start happens and it plus the replica's TTFT floor exceeds the TTFT SLO.
    /// Platforms' idle timeouts after a request (billed) are not modelled.
    serving_strategy serverless{};
};

namespace detail {

inline demand_plan plan_demand_core(const replica_capacity_estimate& replica,
                                    const request_profile& profile, routing route,
                                    const demand_period* curve, std::size_t n,
                                    duration cold_start, const demand_prices& prices,
                                    const demand_assumptions& a, period_replicas* out,
                                    std::size_t out_size) {
    constexpr const char* function = "plan_demand";
    if (curve == nullptr || n == 0) {
        throw_invalid(function, "curve", 0.0, "periods",
                      "must hold at least one period: an empty demand curve has no answer");
    }
    require_count(function, "curve's size", static_cast<long long>(n));
    if (out != nullptr && out_size < n) {
        throw_invalid(function, "per_period's size", static_cast<double>(out_size), "",
                      "must be at least the curve's size, ", static_cast<double>(n), "");
    }
    for (std::size_t i = 0; i < n; ++i) {
        require_non_negative_at(function, "curve", i, "rate", curve[i].rate);
        require_positive_at(function, "curve", i, "time", curve[i].time);
    }
    require_non_negative(function, "cold_start", cold_start);
    require_positive(function, "prices.instance", prices.instance);
    require_positive(function, "prices.serverless", prices.serverless);
    require_enumerator(function, "prices.market", prices.market, 2, "capacity_market");
    if (!(a.min_replicas >= 0 && a.min_replicas <= largest_count)) {
        throw_invalid(function, "assumptions.min_replicas", static_cast<double>(a.min_replicas),
                      "", "must be in [0, 2^40]");
    }
    check_replicas_inputs(function, profile, route, make<requests_per_second>(1.0), a.replicas,
                          true);
    check_replica_estimate(replica, function);

    demand_plan plan{};
    plan.periods = n;
    plan.gpus_per_replica = replica.gpus;
    plan.cold_start = cold_start;
    for (std::size_t i = 0; i < n; ++i) {
        plan.cycle += curve[i].time;
        plan.requests += curve[i].rate * curve[i].time;
    }
    plan.output_tokens =
        make<tokens>(in<sequences>(plan.requests) * static_cast<double>(profile.output_mean));
    plan.has_tokens = plan.output_tokens.value() > 0.0;
    if (prices.market == capacity_market::spot) {
        plan.verdict = demand_verdict::spot_unsuitable;
        return plan;
    }
    if (!replica.feasible) return plan;  // replica_infeasible, failed_period 0
    // The autoscaled floor: min_replicas replicas, and as many prefill servers when prefill is
    // disaggregated (a request needs one of each).
    const bool disaggregated = replica.mode == prefill_mode::disaggregated;
    const std::int64_t floor = disaggregated && a.min_replicas <= largest_count / 2
                                   ? 2 * a.min_replicas
                                   : a.min_replicas;
    // The servers for step i: replicas_for_rate's replicas and prefill servers, 0 at rate 0.
    // The first failing step in the curve's order is the one reported (the last step, read
    // first as the one before the first, is reported when the loop reaches it).
    std::size_t failed = 0;
    demand_verdict why = demand_verdict::found;
    const auto servers_at = [&](std::size_t i, bool record) -> std::int64_t {
        if (!(curve[i].rate.value() > 0.0)) return 0;
        const replicas_estimate e = replicas_for_rate(replica, profile, route, curve[i].rate,
                                                      a.replicas);
        if (!e.found && record && why == demand_verdict::found) {
            failed = i;
            why = e.verdict == replicas_verdict::above_largest ? demand_verdict::above_largest
                  : e.verdict == replicas_verdict::service_scv_out_of_range
                      ? demand_verdict::service_scv_out_of_range
                      : demand_verdict::replica_infeasible;
        }
        return servers_of(e);
    };
    const auto at_least_floor = [&](std::int64_t r) { return r > floor ? r : floor; };
    // The step before the first: the last (a repeating cycle), or nothing running.
    std::int64_t previous = a.curve_repeats ? servers_at(n - 1, false) : 0;
    std::int64_t previous_auto = a.curve_repeats ? at_least_floor(previous) : 0;
    double serving_auto = 0.0;   // server-seconds
    double serving_sless = 0.0;
    std::int64_t peak = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t r = servers_at(i, true);
        if (why != demand_verdict::found) break;
        const std::int64_t s = at_least_floor(r);
        const double t = in<seconds>(curve[i].time);
        serving_auto += static_cast<double>(s) * t;
        serving_sless += static_cast<double>(r) * t;
        if (s > previous_auto) plan.autoscaled.cold_starts += s - previous_auto;
        if (r > previous) plan.serverless.cold_starts += r - previous;
        if (r > peak) peak = r;
        if (s > plan.autoscaled.peak_replicas) plan.autoscaled.peak_replicas = s;
        if (out != nullptr) out[i] = period_replicas{curve[i].rate, curve[i].time, r, s};
        previous = r;
        previous_auto = s;
    }
    if (why != demand_verdict::found) {
        plan.verdict = why;
        plan.failed_period = failed;
        return plan;
    }
    plan.found = true;
    plan.verdict = demand_verdict::found;
    const double g = static_cast<double>(replica.gpus);
    const double start = in<seconds>(cold_start);
    // Billed server-seconds → GPU-time, cost and the price per million output tokens.
    const auto bill = [&](serving_strategy& s, double server_seconds, gpu_price price) {
        s.held = make<gpus>(g) * make<seconds>(server_seconds);
        s.cost = s.held * price;
        if (plan.has_tokens) s.per_million_tokens = s.cost / plan.output_tokens;
    };
    plan.always_on.peak_replicas = at_least_floor(peak);
    plan.always_on.cold_starts = a.curve_repeats ? 0 : plan.always_on.peak_replicas;
    bill(plan.always_on,
         static_cast<double>(plan.always_on.peak_replicas) * in<seconds>(plan.cycle) +
             static_cast<double>(plan.always_on.cold_starts) * start,
         prices.instance);
    // Autoscaled: started a cold start ahead of its step, billed for it on top.
    bill(plan.autoscaled,
         serving_auto + static_cast<double>(plan.autoscaled.cold_starts) * start,
         prices.instance);
    // Serverless: started reactively inside its step, whose time already bills the start.
    plan.serverless.peak_replicas = peak;
    bill(plan.serverless, serving_sless, prices.serverless);
    plan.serverless.meets_slo = plan.serverless.cold_starts == 0 ||
                                cold_start + replica.time_to_first_token <=
                                    replica.step.slo.time_to_first_token;
    return plan;
}

}  // namespace detail

/// The replicas a demand curve needs step by step, and what running it costs three ways
/// (derived; each step from replicas_for_rate at its rate, which says what the queueing
/// assumes): always on at the peak's replicas; autoscaled, each step's replicas (at least
/// assumptions.min_replicas) started a cold start ahead; serverless, scaled to zero and billed by
/// the second, cold starts reactive (see demand_plan). `curve` is any contiguous range of
/// demand_period (an array, std::array, std::vector). Spot capacity is refused for latency-bound
/// serving (verdict spot_unsuitable; batch_inference prices spot). No answer (found = false)
/// when a step has none from replicas_for_rate. One replicas_for_rate call per step with a
/// rate, plus one for the last step when the curve repeats; nothing allocated.
/// Ranges: the replica, profile, route and assumptions as replicas_for_rate states; the curve
/// non-empty (invalid_input when empty), at most 2^40 steps, each as demand_period states;
/// cold_start 0 or in [1e-30 s, 1e6 years]; prices as demand_prices states.
template <class Curve>
inline demand_plan plan_demand(const replica_capacity_estimate& replica,
                               const request_profile& profile, routing route, const Curve& curve,
                               duration cold_start, const demand_prices& prices,
                               const demand_assumptions& assumptions = {}) {
    return detail::plan_demand_core(replica, profile, route, std::data(curve), std::size(curve),
                                    cold_start, prices, assumptions, nullptr, 0);
}

/// The same, writing each step's servers to `per_period` (a contiguous range of
/// period_replicas at least as long as the curve; invalid_input otherwise). When no answer is
/// found, the steps before the failing one are written and the rest left as they were.
template <class Curve, class Out>
inline demand_plan plan_demand(const replica_capacity_estimate& replica,
                               const request_profile& profile, routing route, const Curve& curve,
                               duration cold_start, const demand_prices& prices,
                               const demand_assumptions& assumptions, Out& per_period) {
    return detail::plan_demand_core(replica, profile, route, std::data(curve), std::size(curve),
                                    cold_start, prices, assumptions, std::data(per_period),
                                    std::size(per_period));
}

/// Reserve (or own) the base load of a planned curve and burst the rest on demand: cost's
/// base_load_and_burst over the autoscaled servers plan_demand wrote per step, each server
/// `gpus_per_replica` GPUs (demand_plan's gpus_per_replica). `reserved` is the reserved or owned
/// capacity (reserved_capacity(reservation) for a cloud commitment); `on_demand` the price above
/// it. Over one cycle of the curve: the reservation bills every hour of it. Serving time only:
/// the autoscaled plan's cold starts are not in the split, so its all_cloud is the autoscaled
/// cost less the cold starts' GPU-time. Ranges: per_period a non-empty contiguous range of
/// period_replicas, each autoscaled count in [0, 2^40] and time positive; gpus_per_replica in
/// [1, 2^40]; the ownership as owning_cost and on_demand positive (errors name the ownership's
/// fields as owning_cost does).
template <class PerPeriod>
inline hybrid_capacity reserved_base_load(const PerPeriod& per_period,
                                          std::int64_t gpus_per_replica,
                                          const ownership& reserved, gpu_price on_demand) {
    constexpr const char* function = "reserved_base_load";
    const period_replicas* p = std::data(per_period);
    const std::size_t n = std::size(per_period);
    if (p == nullptr || n == 0) {
        detail::throw_invalid(function, "per_period", 0.0, "periods",
                              "must hold at least one period: an empty plan has no base load");
    }
    detail::require_count(function, "gpus_per_replica", gpus_per_replica);
    for (std::size_t i = 0; i < n; ++i) {
        if (!(p[i].autoscaled >= 0 && p[i].autoscaled <= detail::largest_count)) {
            detail::throw_invalid_name(
                function, detail::indexed_field("per_period", i, "autoscaled").c_str(),
                detail::number_text(static_cast<double>(p[i].autoscaled)).c_str(),
                "must be in [0, 2^40]");
        }
    }
    const double g = static_cast<double>(gpus_per_replica);
    return detail::base_load_and_burst_of(
        n,
        [p, g](std::size_t i) {
            return demand_step{make<gpus>(static_cast<double>(p[i].autoscaled) * g), p[i].time};
        },
        reserved, on_demand, function,
        detail::base_load_names{"per_period", "autoscaled", "time", "on_demand"});
}

}  // namespace gpucalc
