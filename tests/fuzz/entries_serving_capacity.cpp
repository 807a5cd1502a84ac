// entries_serving_capacity.cpp: the fuzz table's entries for serving/capacity.hpp and
// serving/load.hpp: one replica's capacity under continuous batching in each prefill mode
// (checked and validating), and the load model at a rate, from a capacity or a hand-written
// step model.
//
// The printing, drawing and checking of the module's types live in serving_types.hpp, which
// entries_serving_replicas.cpp shares.
#include <gpucalc/serving.hpp>

#include "entry_points.hpp"
#include "serving_types.hpp"

namespace fuzz {

void register_serving_capacity(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<prefill_mode>(r, "to_string(prefill_mode)", 3);
    add_enum_to_string<replica_verdict>(r, "to_string(replica_verdict)", 4);
    const auto args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m,
                          draw::cluster(g),
                          draw::serving(g, m),
                          draw::request_profile(g),
                          draw::serving_slo(g),
                          g.any_enum<prefill_mode>(3, "mode"),
                          draw::replica_assumptions(g)};
    };
    add(r, "replica_capacity [checked]", "replica_capacity",
        "gpucalc::replica_capacity(gpucalc::check({0}), gpucalc::check({1}), {2}, {3}, {4}, {5}, "
        "{6})",
        args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const request_profile& p, const serving_slo& slo, prefill_mode mode,
           const replica_assumptions& a) {
            return replica_capacity(checked(m), checked(c), s, p, slo, mode, a);
        });
    add(r, "replica_capacity", "replica_capacity",
        "gpucalc::replica_capacity({0}, {1}, {2}, {3}, {4}, {5}, {6})", args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const request_profile& p, const serving_slo& slo, prefill_mode mode,
           const replica_assumptions& a) { return replica_capacity(m, c, s, p, slo, mode, a); });
    add(r, "replica_at_rate(replica_step_model)", "replica_at_rate",
        "gpucalc::replica_at_rate({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::replica_step_model(g), g.q_or_zero<request_rate>(10.0)};
        },
        [](const replica_step_model& s, request_rate rate) { return replica_at_rate(s, rate); });
    // The estimate is made while drawing: replica_capacity's own rejections are its entries'
    // business, so an input it rejects leaves the empty (not feasible) estimate, which
    // replica_at_rate must still take; the hostile enums drawn for it are not this call's.
    add(r, "replica_at_rate(replica_capacity_estimate)", "replica_at_rate",
        "gpucalc::replica_at_rate({0}, {1})",
        [args](generator& g) {
            replica_capacity_estimate e{};
            try {
                e = std::apply(
                    [](const auto&... a) { return replica_capacity(a...); }, args(g));
            } catch (const invalid_input&) {
            }
            g.hostile_enum_fields.clear();
            return std::tuple{e, g.q_or_zero<request_rate>(10.0)};
        },
        [](const replica_capacity_estimate& e, request_rate rate) {
            return replica_at_rate(e, rate);
        });
}

}  // namespace fuzz
