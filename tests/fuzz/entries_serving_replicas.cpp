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

/// Two answers of replicas_for_rate that must be ordered (the metamorphic checks): `next` is at a
/// looser SLO than `first` (it never needs more GPUs, and never says "no" where `first` said
/// "yes"), or, `looser` false, at a higher rate (it never needs fewer GPUs, and says "yes" only
/// where `first` did).
struct replicas_pair {
    gpucalc::replicas_estimate first{};
    gpucalc::replicas_estimate next{};
    bool looser = true;
};

inline void inspect(inspector& i, const replicas_pair& p) {
    i.nested("first", [&] { inspect(i, p.first); });
    i.nested("next", [&] { inspect(i, p.next); });
    const bool both = p.first.found && p.next.found;
    const std::string gpus =
        std::to_string(p.first.total_gpus) + " then " + std::to_string(p.next.total_gpus) +
        " GPUs (verdicts " + std::string(gpucalc::to_string(p.first.verdict)) + ", " +
        std::string(gpucalc::to_string(p.next.verdict)) + ")";
    if (p.looser) {
        i.invariant("a looser SLO never turns a yes into a no", !p.first.found || p.next.found,
                    gpus);
        i.invariant("a looser SLO never needs more GPUs",
                    !both || p.next.total_gpus <= p.first.total_gpus, gpus);
    } else {
        i.invariant("a higher rate never turns a no into a yes", !p.next.found || p.first.found,
                    gpus);
        i.invariant("a higher rate never needs fewer GPUs",
                    !both || p.next.total_gpus >= p.first.total_gpus, gpus);
    }
}

namespace draw {
/// `d` × a factor in [1, 4] (1 a third of the time), kept within the durations' range when `d`
/// is: a looser target than `d`, whatever `d` is (a hostile `d` stays hostile).
inline gpucalc::duration looser(generator& g, gpucalc::duration d) {
    const double f = g.coin(1.0 / 3.0) ? 1.0 : 1.0 + 3.0 * g.r.unit();
    const double top = gpucalc::detail::input_range<gpucalc::duration>::largest;
    const double v = d.value() * f;
    return gpucalc::duration::from_value(d.value() <= top && v > top ? top : v);
}
/// `rate` × a factor in (1, 8], kept within the rates' range when `rate` is.
inline gpucalc::request_rate higher(generator& g, gpucalc::request_rate rate) {
    const double f = 1.0 + 7.0 * (1.0 - g.r.unit());
    const double top = gpucalc::detail::input_range<gpucalc::request_rate>::largest;
    const double v = rate.value() * f;
    return gpucalc::request_rate::from_value(rate.value() <= top && v > top ? top : v);
}
}  // namespace draw

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
    // The metamorphic checks: the same call at a looser SLO (TTFT, TPOT or both, 1 to 4 ×)
    // and at a higher rate (1 to 8 ×), both answers inspected and their order checked.
    // The properties need answers, so three calls in four are realistic (no hostile field; a
    // percentile in (0, 1); micro-batches one per stage), the rest drawn as the others.
    const auto probe_args = [args](generator& g) {
        const bool realistic = g.coin(0.75);
        if (realistic) g.hostility = 0.0;
        auto a = args(g);
        if (realistic) {
            static constexpr double percentiles[] = {0.5, 0.9, 0.99, 0.999};
            std::get<8>(a).ttft_percentile = g.one_of(percentiles);
            std::get<8>(a).replica.parallel.micro_batches = 0;
        }
        return a;
    };
    const auto at_looser = [probe_args](generator& g) {
        auto a = probe_args(g);
        const serving_slo slo = std::get<4>(a);
        serving_slo loose = slo;
        switch (g.r.below(3)) {
            case 0: loose.time_to_first_token = draw::looser(g, slo.time_to_first_token); break;
            case 1: loose.time_per_output_token = draw::looser(g, slo.time_per_output_token); break;
            default:
                loose.time_to_first_token = draw::looser(g, slo.time_to_first_token);
                loose.time_per_output_token = draw::looser(g, slo.time_per_output_token);
        }
        return std::tuple_cat(a, std::tuple{loose});
    };
    add(r, "replicas_for_rate [looser SLO]", "replicas_for_rate",
        "const gpucalc::replicas_estimate first = gpucalc::replicas_for_rate(gpucalc::check({0}), "
        "gpucalc::check({1}), {2}, {3}, {4}, {5}, {6}, {7}, {8});\n"
        "    gpucalc::replicas_for_rate(gpucalc::check({0}), gpucalc::check({1}), {2}, {3}, {9}, "
        "{5}, {6}, {7}, {8})",
        at_looser,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const request_profile& p, const serving_slo& slo, prefill_mode mode, routing route,
           request_rate rate, const replicas_assumptions& a, const serving_slo& loose) {
            const checked_model cm = checked(m);
            const checked_cluster cc = checked(c);
            replicas_pair pair{};
            pair.first = replicas_for_rate(cm, cc, s, p, slo, mode, route, rate, a);
            pair.next = replicas_for_rate(cm, cc, s, p, loose, mode, route, rate, a);
            return pair;
        });
    const auto at_higher = [probe_args](generator& g) {
        auto a = probe_args(g);
        return std::tuple_cat(a, std::tuple{draw::higher(g, std::get<7>(a))});
    };
    add(r, "replicas_for_rate [higher rate]", "replicas_for_rate",
        "const gpucalc::replicas_estimate first = gpucalc::replicas_for_rate(gpucalc::check({0}), "
        "gpucalc::check({1}), {2}, {3}, {4}, {5}, {6}, {7}, {8});\n"
        "    gpucalc::replicas_for_rate(gpucalc::check({0}), gpucalc::check({1}), {2}, {3}, {4}, "
        "{5}, {6}, {9}, {8})",
        at_higher,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const request_profile& p, const serving_slo& slo, prefill_mode mode, routing route,
           request_rate rate, const replicas_assumptions& a, request_rate more) {
            const checked_model cm = checked(m);
            const checked_cluster cc = checked(c);
            replicas_pair pair{};
            pair.looser = false;
            pair.first = replicas_for_rate(cm, cc, s, p, slo, mode, route, rate, a);
            pair.next = replicas_for_rate(cm, cc, s, p, slo, mode, route, more, a);
            return pair;
        });
    add(r, "replicas_for_rate(replica_capacity_estimate) [higher rate]", "replicas_for_rate",
        "const gpucalc::replicas_estimate first = gpucalc::replicas_for_rate({0}, {1}, {2}, {3}, "
        "{4});\n    gpucalc::replicas_for_rate({0}, {1}, {2}, {5}, {4})",
        [from_estimate](generator& g) {
            auto a = from_estimate(g);
            return std::tuple_cat(a, std::tuple{draw::higher(g, std::get<3>(a))});
        },
        [](const replica_capacity_estimate& e, const request_profile& p, routing route,
           request_rate rate, const replicas_assumptions& a, request_rate more) {
            replicas_pair pair{};
            pair.looser = false;
            pair.first = replicas_for_rate(e, p, route, rate, a);
            pair.next = replicas_for_rate(e, p, route, more, a);
            return pair;
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
