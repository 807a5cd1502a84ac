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

/// The prices plan_demand bills at. Ranges: each 0 or in [1e-30, $1e9/GPU·h] in base units;
/// market an enumerator.
struct demand_prices {
    gpu_price instance{};    ///< always-on and autoscaled replicas, per GPU-hour held
    gpu_price serverless{};  ///< serverless, per GPU-second held (cold starts included)
    capacity_market market = capacity_market::on_demand;
};

/// What plan_demand assumes. Ranges: min_replicas in [0, 2^40]; replicas as
/// replicas_assumptions says.
struct demand_assumptions {
    /// The autoscaled deployment never goes below this: 1, the Kubernetes Horizontal Pod
    /// Autoscaler's minReplicas default (Kubernetes API reference, HorizontalPodAutoscalerSpec),
    /// so that the first request after a quiet period finds a warm replica. Serverless scales
    /// to zero whatever this says.
    std::int64_t min_replicas = 1;
    /// The curve is one cycle (a day) that repeats: its first step follows its last, and the
    /// scale-up into the first step counts. False: the first step starts from no replicas.
    bool curve_repeats = true;
    replicas_assumptions replicas{};  ///< replicas_for_rate's, for every step
};

/// Why plan_demand answered, or did not.
enum class demand_verdict {
    found,
    spot_unsuitable,     ///< prices.market is spot: a reclaim drops requests (see capacity_market)
    replica_infeasible,  ///< one replica cannot serve the profile at the SLO
    above_largest,       ///< a step needs more than assumptions.replicas.largest_replicas
};

constexpr std::string_view to_string(demand_verdict v) {
    switch (v) {
        case demand_verdict::found: return "found";
        case demand_verdict::spot_unsuitable: return "spot_unsuitable";
        case demand_verdict::replica_infeasible: return "replica_infeasible";
        case demand_verdict::above_largest: return "above_largest";
    }
    return "unknown";
}

/// One way of running the curve: what it holds, and what that costs.
struct serving_strategy {
    std::int64_t peak_replicas = 0;  ///< the most replicas held at once
    std::int64_t cold_starts = 0;    ///< replicas started over one cycle
    gpu_time held{};                 ///< GPU-time billed: serving, plus cold starts where billed
    money cost{};                    ///< held × the price
    token_price per_million_tokens{};  ///< cost over the output tokens the curve asks for
    /// Whether every request meets the SLO: false when a request can arrive while the replica
    /// it needs is still starting and the cold start then breaks the TTFT SLO.
    bool meets_slo = true;
};

/// One step of the plan, as plan_demand writes it when asked.
struct period_replicas {
    request_rate rate{};
    duration time{};
    std::int64_t replicas = 0;    ///< R: the fewest that meet the SLO at the rate (0 at rate 0)
    std::int64_t autoscaled = 0;  ///< max(R, min_replicas)
};

/// plan_demand's answer. When found is false, failed_period names the step that had no answer
/// (or 0 for spot_unsuitable) and the strategies are empty.
struct demand_plan {
    bool found = false;
    demand_verdict verdict = demand_verdict::replica_infeasible;
    std::size_t failed_period = 0;
    std::size_t periods = 0;
    std::int64_t gpus_per_replica = 1;
    duration cycle{};                ///< the curve's total time
    sequence_count requests{};       ///< Σ rate × time
    token_count output_tokens{};     ///< requests × the profile's output_mean
    duration cold_start{};           ///< as given
    /// The peak's replicas for every step, all cycle long, at prices.instance.
    serving_strategy always_on{};
    /// Each step's replicas (at least min_replicas), at prices.instance; a scale-up starts its
    /// replicas a cold start ahead of the step (the curve is known), so the SLO holds and each
    /// started replica bills its cold start.
    serving_strategy autoscaled{};
    /// Each step's replicas, down to none at rate 0, at prices.serverless by the second; a
    /// scale-up is reactive, so each started replica bills its cold start and a request that
    /// arrives meanwhile waits for it: meets_slo is false when a cold start happens and it plus
    /// the replica's TTFT floor exceeds the TTFT SLO.
    serving_strategy serverless{};
};

namespace detail {

/// The cost per million output tokens of `cost` over `tokens` (0 tokens: 0).
inline token_price per_token(money cost, token_count tokens) {
    if (!(tokens.value() > 0.0)) return token_price{};
    return cost / tokens;
}

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
    require_non_negative(function, "prices.instance", prices.instance);
    require_non_negative(function, "prices.serverless", prices.serverless);
    require_enumerator(function, "prices.market", prices.market, 2, "capacity_market");
    if (!(a.min_replicas >= 0 && a.min_replicas <= largest_count)) {
        throw_invalid(function, "assumptions.min_replicas", static_cast<double>(a.min_replicas),
                      "", "must be in [0, 2^40]");
    }
    check_replicas_inputs(function, profile, route, make<requests_per_second>(1.0), a.replicas);

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
    if (prices.market == capacity_market::spot) {
        plan.verdict = demand_verdict::spot_unsuitable;
        return plan;
    }
    if (!replica.feasible) return plan;  // replica_infeasible, failed_period 0
    // R for step i: the fewest replicas at its rate, 0 at rate 0.
    std::size_t failed = 0;
    demand_verdict why = demand_verdict::found;
    // The first failing step in the curve's order is the one reported (the last step, read
    // first as the one before the first, is reported when the loop reaches it).
    const auto replicas_at = [&](std::size_t i, bool record) -> std::int64_t {
        if (!(curve[i].rate.value() > 0.0)) return 0;
        const replicas_estimate e = replicas_for_rate(replica, profile, route, curve[i].rate,
                                                      a.replicas);
        if (!e.found && record && why == demand_verdict::found) {
            failed = i;
            why = e.verdict == replicas_verdict::above_largest ? demand_verdict::above_largest
                                                               : demand_verdict::replica_infeasible;
        }
        return e.replicas;
    };
    const auto at_least_min = [&](std::int64_t r) { return r > a.min_replicas ? r : a.min_replicas; };
    // The step before the first: the last (a repeating cycle), or nothing running.
    std::int64_t previous = a.curve_repeats ? replicas_at(n - 1, false) : 0;
    std::int64_t previous_auto = a.curve_repeats ? at_least_min(previous) : 0;
    const double g = static_cast<double>(replica.gpus);
    double serving_auto = 0.0;   // replica-seconds
    double serving_sless = 0.0;
    std::int64_t peak = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t r = replicas_at(i, true);
        if (why != demand_verdict::found) break;
        const std::int64_t s = at_least_min(r);
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
    const double start = in<seconds>(cold_start);
    const auto gpu_seconds = [&](double replica_seconds) {
        return make<gpus>(g) * make<seconds>(replica_seconds);
    };
    const auto finish = [&](serving_strategy& s, double replica_seconds, gpu_price price) {
        s.held = gpu_seconds(replica_seconds + static_cast<double>(s.cold_starts) * start);
        s.cost = s.held * price;
        s.per_million_tokens = per_token(s.cost, plan.output_tokens);
    };
    plan.always_on.peak_replicas = at_least_min(peak);
    finish(plan.always_on,
           static_cast<double>(plan.always_on.peak_replicas) * in<seconds>(plan.cycle),
           prices.instance);
    finish(plan.autoscaled, serving_auto, prices.instance);
    plan.serverless.peak_replicas = peak;
    finish(plan.serverless, serving_sless, prices.serverless);
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

/// The same, writing each step's replicas to `per_period` (a contiguous range of
/// period_replicas at least as long as the curve; invalid_input otherwise).
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
/// base_load_and_burst over the autoscaled replicas plan_demand wrote per step, each replica
/// `gpus_per_replica` GPUs (demand_plan's gpus_per_replica). `reserved` is the reserved or owned
/// capacity (reserved_capacity(reservation) for a cloud commitment); `on_demand` the price above
/// it. Over one cycle of the curve: the reservation bills every hour of it. Reserved capacity is
/// counted GPU by GPU (whole replicas are not enforced). Ranges: per_period a non-empty
/// contiguous range of period_replicas, each autoscaled count in [0, 2^40] and time positive;
/// gpus_per_replica in [1, 2^40]; the rest as base_load_and_burst states.
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
        reserved, on_demand, function);
}

}  // namespace gpucalc
