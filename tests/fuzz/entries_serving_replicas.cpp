// entries_serving_replicas.cpp: the fuzz table's entries for serving/replicas.hpp: the fewest
// replicas for a request rate (checked, validating, and from a capacity estimate) and the cost
// per million output tokens at that size.
#include <gpucalc/serving.hpp>

#include "entry_points.hpp"
#include "serving_types.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::replicas_verdict> {
    static constexpr const char* name = "gpucalc::replicas_verdict";
    static constexpr int count = 4;
};
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
// The nested load and queue member by member (their fields() live in other entries files).
template <class F>
void fields(const gpucalc::replicas_estimate& a, const gpucalc::replicas_estimate& b, F&& f) {
    FUZZ_FIELD(found); FUZZ_FIELD(verdict); FUZZ_FIELD(mode); FUZZ_FIELD(route); FUZZ_FIELD(rate);
    FUZZ_FIELD(percentile); FUZZ_FIELD(replicas); FUZZ_FIELD(gpus_per_replica); FUZZ_FIELD(gpus);
    FUZZ_FIELD(prefill_servers); FUZZ_FIELD(prefill_gpus); FUZZ_FIELD(total_gpus);
    FUZZ_FIELD(utilization);
    FUZZ_FIELD(load.mode); FUZZ_FIELD(load.rate); FUZZ_FIELD(load.stable);
    FUZZ_FIELD(load.slo_met); FUZZ_FIELD(load.capacity); FUZZ_FIELD(load.utilization);
    FUZZ_FIELD(load.prefill_busy); FUZZ_FIELD(load.running_batch);
    FUZZ_FIELD(load.time_per_token);
    FUZZ_FIELD(service_scv); FUZZ_FIELD(slot_time);
    FUZZ_FIELD(slot_queue.offered_load); FUZZ_FIELD(slot_queue.utilization);
    FUZZ_FIELD(slot_queue.stable); FUZZ_FIELD(slot_queue.wait_probability);
    FUZZ_FIELD(slot_queue.service_factor); FUZZ_FIELD(slot_queue.mean_wait);
    FUZZ_FIELD(slot_queue.percentile); FUZZ_FIELD(slot_queue.percentile_wait);
    FUZZ_FIELD(prefill_wait); FUZZ_FIELD(time_to_first_token); FUZZ_FIELD(time_per_token);
    FUZZ_FIELD(break_rate); FUZZ_FIELD(headroom); FUZZ_FIELD(replica); FUZZ_FIELD(largest_batch);
    FUZZ_FIELD(evaluations);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::replicas_estimate>() { return "gpucalc::replicas_estimate"; }


inline void inspect(inspector& i, const gpucalc::replicas_estimate& r) {
    using gpucalc::replicas_verdict;
    i.flag("found", r.found);
    i.enumeration("verdict", r.verdict, 4);
    i.enumeration("mode", r.mode, 3);
    i.enumeration("route", r.route, 2);
    i.amount("rate", r.rate);
    i.amount("percentile", r.percentile);
    i.count("gpus_per_replica", r.gpus_per_replica);
    i.count("largest_batch", r.largest_batch);
    i.count("evaluations", r.evaluations);
    // r.replica is the estimate passed in, echoed (a hand-made one need not be consistent).
    i.invariant("found iff the verdict says so", r.found == (r.verdict == replicas_verdict::found));
    i.invariant("an infeasible replica is never found", r.replica.feasible || !r.found);
    if (!r.found) {
        i.invariant("no replicas when not found", r.replicas == 0 && r.gpus == 0,
                    std::to_string(r.replicas));
        return;
    }
    i.count("replicas", r.replicas);
    i.count("gpus", r.gpus);
    i.count("total_gpus", r.total_gpus);
    i.amount("prefill_servers", static_cast<double>(r.prefill_servers));
    i.amount("utilization", r.utilization);
    i.nested("load", [&] { inspect(i, r.load); });
    i.amount("service_scv", r.service_scv);
    i.amount("slot_time", r.slot_time);
    i.amount("slot_queue.percentile_wait", r.slot_queue.percentile_wait);
    i.amount("prefill_wait", r.prefill_wait);
    i.amount("time_to_first_token", r.time_to_first_token);
    i.amount("time_per_token", r.time_per_token);
    i.amount("break_rate", r.break_rate);
    i.amount("headroom", r.headroom);
    i.invariant("gpus = replicas x gpus_per_replica", r.gpus == r.replicas * r.gpus_per_replica);
    i.invariant("total_gpus = gpus + prefill_gpus", r.total_gpus == r.gpus + r.prefill_gpus);
    i.invariant("the batch chosen is at most the largest", r.replica.batch <= r.largest_batch,
                std::to_string(r.replica.batch) + " > " + std::to_string(r.largest_batch));
    i.invariant("stable and within the SLO", r.load.slo_met && r.slot_queue.stable &&
                                                 r.utilization < 1.0);
    i.invariant("break_rate >= rate", r.break_rate >= r.rate);
    i.invariant("TTFT within the SLO",
                r.time_to_first_token <= r.replica.step.slo.time_to_first_token);
}

void register_serving_replicas(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<routing>(r, "to_string(routing)", 2);
    add_enum_to_string<replicas_verdict>(r, "to_string(replicas_verdict)", 4);
    const auto args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m,
                          draw::cluster(g),
                          draw::serving(g, m),
                          draw::request_profile(g),
                          draw::serving_slo(g),
                          g.any_enum<prefill_mode>(3, "mode"),
                          g.any_enum<routing>(2, "route"),
                          g.q<request_rate>(20.0),
                          draw::replicas_assumptions(g)};
    };
    add(r, "replicas_for_rate [checked]", "replicas_for_rate",
        "gpucalc::replicas_for_rate(gpucalc::check({0}), gpucalc::check({1}), {2}, {3}, {4}, {5}, "
        "{6}, {7}, {8})",
        args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const request_profile& p, const serving_slo& slo, prefill_mode mode, routing route,
           request_rate rate, const replicas_assumptions& a) {
            return replicas_for_rate(checked(m), checked(c), s, p, slo, mode, route, rate, a);
        });
    add(r, "replicas_for_rate", "replicas_for_rate",
        "gpucalc::replicas_for_rate({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8})", args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const request_profile& p, const serving_slo& slo, prefill_mode mode, routing route,
           request_rate rate, const replicas_assumptions& a) {
            return replicas_for_rate(m, c, s, p, slo, mode, route, rate, a);
        });
    // The estimate is made while drawing (draw::replica_estimate).
    const auto from_estimate = [](generator& g) {
        const request_profile p = draw::request_profile(g);
        const replica_capacity_estimate e = draw::replica_estimate(g, p);
        return std::tuple{e, p, g.any_enum<routing>(2, "route"), g.q<request_rate>(20.0),
                          draw::replicas_assumptions(g)};
    };
    add(r, "replicas_for_rate(replica_capacity_estimate)", "replicas_for_rate",
        "gpucalc::replicas_for_rate({0}, {1}, {2}, {3}, {4})", from_estimate,
        [](const replica_capacity_estimate& e, const request_profile& p, routing route,
           request_rate rate, const replicas_assumptions& a) {
            return replicas_for_rate(e, p, route, rate, a);
        });
    add(r, "replicas_cost_per_million_tokens", "replicas_cost_per_million_tokens",
        "gpucalc::replicas_cost_per_million_tokens({0}, {1}, {2})",
        [from_estimate](generator& g) {
            replicas_estimate e{};
            try {
                e = std::apply(
                    [](const auto&... a) { return replicas_for_rate(a...); }, from_estimate(g));
            } catch (const invalid_input&) {
            }
            g.hostile_enum_fields.clear();
            return std::tuple{e, g.count(256), g.q_or_zero<gpu_price>(3.0)};
        },
        [](const replicas_estimate& e, std::int64_t output_tokens, gpu_price price) {
            return replicas_cost_per_million_tokens(e, output_tokens, price);
        });
}

}  // namespace fuzz
