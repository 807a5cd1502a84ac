// entries_serving_demand.cpp: the fuzz table's entries for serving/cold_start.hpp,
// serving/demand.hpp and serving/batch.hpp: cold starts, warm replicas for a ramp, a demand
// curve's plan (with and without its per-step output), the reserved base load, batch inference on
// spot, and cost's reserved_capacity and base_load_and_burst(pointer, count).
#include <gpucalc/serving.hpp>

#include <array>

#include "entry_points.hpp"
#include "serving_types.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::capacity_market> {
    static constexpr const char* name = "gpucalc::capacity_market";
    static constexpr int count = 2;
};
template <>
struct enum_traits<gpucalc::batch_verdict> {
    static constexpr const char* name = "gpucalc::batch_verdict";
    static constexpr int count = 4;
};
template <>
struct enum_traits<gpucalc::demand_verdict> {
    static constexpr const char* name = "gpucalc::demand_verdict";
    static constexpr int count = 5;
};
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::load_path& a, const gpucalc::load_path& b, F&& f) {
    FUZZ_FIELD(read); FUZZ_FIELD(per_gpu);
}
template <class F>
void fields(const gpucalc::cold_start_estimate& a, const gpucalc::cold_start_estimate& b, F&& f) {
    FUZZ_FIELD(load); FUZZ_FIELD(start); FUZZ_FIELD(total);
}
template <class F>
void fields(const gpucalc::demand_ramp& a, const gpucalc::demand_ramp& b, F&& f) {
    FUZZ_FIELD(rise); FUZZ_FIELD(over);
}
template <class F>
void fields(const gpucalc::ramp_assumptions& a, const gpucalc::ramp_assumptions& b, F&& f) {
    FUZZ_FIELD(scale_up_delay); FUZZ_FIELD(replicas);
}
template <class F>
void fields(const gpucalc::ramp_estimate& a, const gpucalc::ramp_estimate& b, F&& f) {
    FUZZ_FIELD(found); FUZZ_FIELD(lead_time); FUZZ_FIELD(rate); FUZZ_FIELD(rate_ahead);
    FUZZ_FIELD(replicas); FUZZ_FIELD(replicas_ahead); FUZZ_FIELD(warm_replicas);
}
template <class F>
void fields(const gpucalc::demand_period& a, const gpucalc::demand_period& b, F&& f) {
    FUZZ_FIELD(rate); FUZZ_FIELD(time);
}
template <class F>
void fields(const gpucalc::demand_prices& a, const gpucalc::demand_prices& b, F&& f) {
    FUZZ_FIELD(instance); FUZZ_FIELD(serverless); FUZZ_FIELD(market);
}
template <class F>
void fields(const gpucalc::demand_assumptions& a, const gpucalc::demand_assumptions& b, F&& f) {
    FUZZ_FIELD(min_replicas); FUZZ_FIELD(curve_repeats); FUZZ_FIELD(replicas);
}
template <class F>
void fields(const gpucalc::period_replicas& a, const gpucalc::period_replicas& b, F&& f) {
    FUZZ_FIELD(rate); FUZZ_FIELD(time); FUZZ_FIELD(replicas); FUZZ_FIELD(autoscaled);
}
template <class F>
void fields(const gpucalc::batch_job& a, const gpucalc::batch_job& b, F&& f) {
    FUZZ_FIELD(requests); FUZZ_FIELD(replicas); FUZZ_FIELD(on_demand); FUZZ_FIELD(spot_discount);
    FUZZ_FIELD(mean_time_between_preemptions); FUZZ_FIELD(restart_time);
    FUZZ_FIELD(default_output_scv);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::load_path>() { return "gpucalc::load_path"; }
template <>
inline const char* type_name<gpucalc::demand_ramp>() { return "gpucalc::demand_ramp"; }
template <>
inline const char* type_name<gpucalc::ramp_assumptions>() { return "gpucalc::ramp_assumptions"; }
template <>
inline const char* type_name<gpucalc::demand_period>() { return "gpucalc::demand_period"; }
template <>
inline const char* type_name<gpucalc::demand_prices>() { return "gpucalc::demand_prices"; }
template <>
inline const char* type_name<gpucalc::demand_assumptions>() {
    return "gpucalc::demand_assumptions";
}
template <>
inline const char* type_name<gpucalc::period_replicas>() { return "gpucalc::period_replicas"; }
template <>
inline const char* type_name<gpucalc::batch_job>() { return "gpucalc::batch_job"; }

namespace draw {
inline gpucalc::load_path load_path(generator& g) {
    return {g.q<gpucalc::bandwidth>(6.5e9), g.coin(0.5)};
}
/// A day of hourly steps (rates near 20 requests/s, some idle) or a shorter curve.
template <std::size_t N>
inline carray<gpucalc::demand_period, N> curve(generator& g) {
    carray<gpucalc::demand_period, N> c{};
    for (std::size_t i = 0; i < N; ++i) {
        c.v[i].rate = g.coin(0.2) ? g.keep_q(gpucalc::request_rate{})
                                  : g.q<gpucalc::request_rate>(20.0);
        c.v[i].time = g.coin(0.8) ? g.keep_q(gpucalc::make<gpucalc::hours>(1.0))
                                  : g.q<gpucalc::duration>(600.0);
    }
    return c;
}
inline gpucalc::demand_prices demand_prices(generator& g) {
    gpucalc::demand_prices p{};
    p.instance = g.q<gpucalc::gpu_price>(typical::gpu_price);
    p.serverless = g.q<gpucalc::gpu_price>(1.4 * typical::gpu_price);
    p.market = g.coin(0.9) ? g.keep_enum(gpucalc::capacity_market::on_demand, "prices", "market")
                           : g.any_enum<gpucalc::capacity_market>(2, "prices.market");
    return p;
}
inline gpucalc::demand_assumptions demand_assumptions(generator& g) {
    gpucalc::demand_assumptions a{};
    a.min_replicas = g.coin(0.8) ? g.keep(a.min_replicas) : g.keep(0);
    a.curve_repeats = g.coin(0.7);
    a.replicas = replicas_assumptions(g);
    return a;
}
inline carray<gpucalc::period_replicas, 4> per_period(generator& g) {
    carray<gpucalc::period_replicas, 4> p{};
    for (auto& step : p.v) {
        step.time = g.q<gpucalc::duration>(3600.0);
        step.replicas = g.coin(0.2) ? g.keep(0) : g.count(4);
        const bool small = step.replicas >= 0 && step.replicas < (std::int64_t{1} << 40);
        step.autoscaled = g.coin(0.8) || !small ? step.replicas : g.keep(step.replicas + 1);
    }
    return p;
}
inline gpucalc::batch_job batch_job(generator& g) {
    gpucalc::batch_job j{};
    j.requests = g.count(100000);
    j.replicas = g.count(4);
    j.on_demand = g.q<gpucalc::gpu_price>(typical::gpu_price);
    j.spot_discount = g.unit_interval(0.6);
    j.mean_time_between_preemptions = g.q<gpucalc::duration>(7200.0);  // no default: drawn
    j.restart_time = g.q_or_zero<gpucalc::duration>(60.0);
    j.default_output_scv = g.coin(0.8) ? g.keep_real(1.0) : g.real(1.0);
    return j;
}
}  // namespace draw

inline void inspect(inspector& i, const gpucalc::cold_start_estimate& c) {
    i.amount("load", c.load);
    i.amount("start", c.start);
    i.amount("total", c.total);
    i.invariant("total = load + start", c.total == c.load + c.start);
}

inline void inspect(inspector& i, const gpucalc::ramp_estimate& r) {
    i.flag("found", r.found);
    i.enumeration("verdict", r.verdict, 4);
    i.amount("lead_time", r.lead_time);
    i.amount("rate", r.rate);
    i.amount("rate_ahead", r.rate_ahead);
    i.count("replicas", r.replicas);
    i.count("replicas_ahead", r.replicas_ahead);
    i.count("warm_replicas", r.warm_replicas);
    i.invariant("rate_ahead >= rate", r.rate_ahead >= r.rate);
    if (r.found) {
        i.invariant("warm = ahead - now", r.warm_replicas == r.replicas_ahead - r.replicas);
    } else {
        i.invariant("no counts when not found", r.replicas == 0 && r.warm_replicas == 0);
    }
}

inline void inspect(inspector& i, const gpucalc::serving_strategy& s) {
    i.count("peak_replicas", s.peak_replicas);
    i.count("cold_starts", s.cold_starts);
    i.amount("held", s.held);
    i.amount("cost", s.cost);
    i.amount("per_million_tokens", s.per_million_tokens);
    i.flag("meets_slo", s.meets_slo);
}

inline void inspect(inspector& i, const gpucalc::demand_plan& p) {
    using gpucalc::demand_verdict;
    i.flag("found", p.found);
    i.enumeration("verdict", p.verdict, 5);
    i.count("failed_period", static_cast<std::int64_t>(p.failed_period));
    i.count("periods", static_cast<std::int64_t>(p.periods));
    i.count("gpus_per_replica", p.gpus_per_replica);
    i.amount("cycle", p.cycle);
    i.amount("requests", p.requests);
    i.amount("output_tokens", p.output_tokens);
    i.amount("cold_start", p.cold_start);
    i.flag("has_tokens", p.has_tokens);
    i.invariant("found iff the verdict says so", p.found == (p.verdict == demand_verdict::found));
    i.invariant("failed_period within the curve", p.failed_period < p.periods);
    i.nested("always_on", [&] { inspect(i, p.always_on); });
    i.nested("autoscaled", [&] { inspect(i, p.autoscaled); });
    i.nested("serverless", [&] { inspect(i, p.serverless); });
    if (!p.found) return;
    i.invariant("always on holds the most replicas",
                p.always_on.peak_replicas >= p.autoscaled.peak_replicas &&
                    p.autoscaled.peak_replicas >= p.serverless.peak_replicas);
    i.invariant("always on starts at most its peak once",
                p.always_on.cold_starts == 0 || p.always_on.cold_starts == p.always_on.peak_replicas);
    i.invariant("a price per token only with tokens",
                p.has_tokens || p.autoscaled.per_million_tokens.value() == 0.0);
}

inline void inspect(inspector& i, const gpucalc::ownership& o) {
    i.amount("capex", o.capex);
    i.amount("service_life", o.service_life);
    i.amount("gpus", o.gpus);
    i.amount("full_power", o.full_power);
    i.amount("space", o.space);
    i.invariant("one GPU", o.gpus == gpucalc::make<gpucalc::gpus>(1.0));
}

inline void inspect(inspector& i, const gpucalc::batch_estimate& b) {
    i.flag("found", b.found);
    i.enumeration("verdict", b.verdict, 4);
    i.invariant("found iff the verdict says so",
                b.found == (b.verdict == gpucalc::batch_verdict::found));
    i.count("prefill_servers", b.prefill_servers);
    i.amount("gpus", b.gpus);
    i.amount("rate", b.rate);
    i.amount("work", b.work);
    i.amount("on_demand_cost", b.on_demand_cost);
    i.amount("lost_per_reclaim", b.lost_per_reclaim);
    i.amount("spot_wall_time", b.spot_wall_time);
    i.amount("spot_overhead", b.spot_overhead);
    i.amount("spot_cost", b.spot_cost);
    i.finite("spot_saving", b.spot_saving);
    if (b.found) i.invariant("spot takes at least the work", b.spot_wall_time >= b.work);
}

void register_serving_demand(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<capacity_market>(r, "to_string(capacity_market)", 2);
    add_enum_to_string<demand_verdict>(r, "to_string(demand_verdict)", 5);
    add_enum_to_string<batch_verdict>(r, "to_string(batch_verdict)", 4);
    add(r, "cold_start", "cold_start", "gpucalc::cold_start({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{g.q<data_size>(16e9), g.count(1), draw::load_path(g),
                              g.q_or_zero<duration>(30.0)};
        },
        [](const data_size& w, std::int64_t gpus, const load_path& p, const duration& start) {
            return cold_start(w, gpus, p, start);
        });
    add(r, "cold_start(model, setup)", "cold_start",
        "gpucalc::cold_start(gpucalc::check({0}), {1}, {2}, {3})",
        [](generator& g) {
            const transformer m = draw::model(g);
            return std::tuple{m, draw::serving(g, m), draw::load_path(g),
                              g.q_or_zero<duration>(30.0)};
        },
        [](const transformer& m, const serving_setup& s, const load_path& p,
           const duration& start) { return cold_start(checked(m), s, p, start); });
    add(r, "warm_replicas_for_ramp", "warm_replicas_for_ramp",
        "gpucalc::warm_replicas_for_ramp({0}, {1}, {2}, {3}, {4}, {5}, {6})",
        [](generator& g) {
            const request_profile p = draw::request_profile(g);
            const replica_capacity_estimate e = draw::replica_estimate(g, p);
            ramp_assumptions a{};
            a.scale_up_delay = g.q_or_zero<duration>(15.0);
            a.replicas = draw::replicas_assumptions(g);
            return std::tuple{e, p, g.any_enum<routing>(2, "route"), g.q<request_rate>(20.0),
                              demand_ramp{g.q_or_zero<request_rate>(5.0), g.q<duration>(60.0)},
                              g.q_or_zero<duration>(30.0), a};
        },
        [](const replica_capacity_estimate& e, const request_profile& p, routing route,
           const request_rate& rate, const demand_ramp& ramp, const duration& start,
           const ramp_assumptions& a) {
            return warm_replicas_for_ramp(e, p, route, rate, ramp, start, a);
        });
    const auto plan_args = [](generator& g) {
        const request_profile p = draw::request_profile(g);
        const replica_capacity_estimate e = draw::replica_estimate(g, p);
        return std::tuple{e, p, g.any_enum<routing>(2, "route"), draw::curve<6>(g),
                          g.q_or_zero<duration>(30.0), draw::demand_prices(g),
                          draw::demand_assumptions(g)};
    };
    add(r, "plan_demand", "plan_demand", "gpucalc::plan_demand({0}, {1}, {2}, {3}, {4}, {5}, {6})",
        plan_args,
        [](const replica_capacity_estimate& e, const request_profile& p, routing route,
           const carray<demand_period, 6>& curve, const duration& start,
           const demand_prices& prices, const demand_assumptions& a) {
            return plan_demand(e, p, route, curve.v, start, prices, a);
        });
    add(r, "plan_demand(per_period)", "plan_demand",
        "gpucalc::plan_demand({0}, {1}, {2}, {3}, {4}, {5}, {6}, per_period)", plan_args,
        [](const replica_capacity_estimate& e, const request_profile& p, routing route,
           const carray<demand_period, 6>& curve, const duration& start,
           const demand_prices& prices, const demand_assumptions& a) {
            std::array<period_replicas, 6> per_period{};
            return plan_demand(e, p, route, curve.v, start, prices, a, per_period);
        });
    add(r, "reserved_capacity", "reserved_capacity", "gpucalc::reserved_capacity({0})",
        [](generator& g) { return std::tuple{draw::reservation(g)}; },
        [](const reservation& res) { return reserved_capacity(res); });
    add(r, "reserved_base_load", "reserved_base_load",
        "gpucalc::reserved_base_load({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::per_period(g), g.count(2), draw::ownership(g),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const carray<period_replicas, 4>& per, std::int64_t gpus_per_replica,
           const ownership& reserved, const gpu_price& on_demand) {
            return reserved_base_load(per.v, gpus_per_replica, reserved, on_demand);
        });
    add(r, "batch_inference", "batch_inference", "gpucalc::batch_inference({0}, {1}, {2})",
        [](generator& g) {
            const request_profile p = draw::request_profile(g);
            const replica_capacity_estimate e = draw::replica_estimate(g, p);
            return std::tuple{e, p, draw::batch_job(g)};
        },
        [](const replica_capacity_estimate& e, const request_profile& p, const batch_job& j) {
            return batch_inference(e, p, j);
        });
    add(r, "base_load_and_burst(pointer, count)", "base_load_and_burst",
        "gpucalc::base_load_and_burst({0}, 3, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::demand(g), draw::ownership(g),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const carray<demand_step, 3>& steps, const ownership& server, const gpu_price& cloud) {
            return base_load_and_burst(&steps.v[0], 3, server, cloud);
        });
}

}  // namespace fuzz
