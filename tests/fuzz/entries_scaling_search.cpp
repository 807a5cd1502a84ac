// entries_scaling_search.cpp: the fuzz table's entries for scaling/step_search.hpp: the
// smallest GPU count on which a training job fits (checked and validating), and the scaling
// efficiency against it.
//
// The printing (fields, type_name) and checking (inspect) of the module's result live here,
// found by argument-dependent lookup, as entries_scaling_step.cpp does.
#include <gpucalc/scaling/step_search.hpp>

#include <string>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

// --- printing the new result type --------------------------------------------------------------
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::fitting_step& a, const gpucalc::fitting_step& b, F&& f) {
    FUZZ_FIELD(found); FUZZ_FIELD(gpus); FUZZ_FIELD(nodes); FUZZ_FIELD(largest_gpus_tried);
    FUZZ_FIELD(layouts_tried);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::fitting_step>() { return "gpucalc::fitting_step"; }

// --- checking the new result -------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::fitting_step& r) {
    i.count("gpus", r.gpus);
    i.count("nodes", r.nodes);
    i.count("largest_gpus_tried", r.largest_gpus_tried);
    i.count("layouts_tried", r.layouts_tried);
    i.invariant("largest_gpus_tried >= 1", r.largest_gpus_tried >= 1,
                std::to_string(r.largest_gpus_tried));
    if (r.found) {
        // The step's own terms are training_step_time's, inspected by its entries.
        i.amount("step.time", r.step.time);
        i.amount("step.tokens_per_second", r.step.tokens_per_second);
        i.amount("step.mfu", r.step.mfu);
        i.invariant("found: the step fits on the GPUs found",
                    r.step.memory_fit.ok && r.step.gpus == r.gpus &&
                        r.gpus == r.largest_gpus_tried && r.layouts_tried >= 1,
                    std::to_string(r.step.gpus) + " vs " + std::to_string(r.gpus));
    } else {
        i.invariant("not found: gpus 0", r.gpus == 0 && r.nodes == 0, std::to_string(r.gpus));
    }
}

// --- the property: the search's step is the step time's at the layout it returns ------------
/// What smallest_fitting_step found on a cluster, and training_step_time on that cluster at the
/// layout it returned (made only when it found one).
struct search_agrees_probe {
    gpucalc::fitting_step found;
    gpucalc::training_step direct;
};
template <>
inline const char* type_name<search_agrees_probe>() { return "fuzz::search_agrees_probe"; }

inline void inspect(inspector& i, const search_agrees_probe& p) {
    i.nested("found", [&] { inspect(i, p.found); });
    if (!p.found.found) return;
    i.invariant("the search's step equals training_step_time's at the layout it returns",
                same_step(p.found.step, p.direct),
                number_text(p.found.step.time.value()) + " s searched vs " +
                    number_text(p.direct.time.value()) + " s direct");
}

void register_scaling_search(registry& r) {
    using namespace gpucalc;
    const auto search_args = [](generator& g) {
        const transformer m = draw::model(g);
        const training_strategy s = draw::step_strategy(g, m);
        return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s};
    };
    // The assumptions keep their defaults: their ranges are check(step_assumptions)'s, which
    // training_step_time's entries fuzz (and whose printing lives in entries_scaling_step.cpp).
    // Each call evaluates up to a few hundred layouts: a smaller share of the calls.
    add(r, "smallest_fitting_step [checked]", "smallest_fitting_step",
        "gpucalc::smallest_fitting_step(gpucalc::check({0}), gpucalc::check({1}), {2}, {3})",
        search_args,
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s) {
            return smallest_fitting_step(checked(m), checked(c), j, s);
        })
        .weight = 0.3;
    add(r, "smallest_fitting_step [transformer, cluster]", "smallest_fitting_step",
        "gpucalc::smallest_fitting_step({0}, {1}, {2}, {3})", search_args,
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s) {
            return smallest_fitting_step(m, c, j, s);
        })
        .weight = 0.3;
    add(r, "smallest_fitting_step [agrees with training_step_time]", "smallest_fitting_step",
        "gpucalc::smallest_fitting_step({0}, {1}, {2}, {3}) against "
        "gpucalc::training_step_time({0}, {1}, {2}, its strategy)",
        search_args,
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s) {
            search_agrees_probe p{smallest_fitting_step(m, c, j, s), {}};
            if (p.found.found) p.direct = training_step_time(m, c, j, p.found.strategy);
            return p;
        })
        .weight = 0.3;
    add(r, "scaling_efficiency [fitting_step]", "scaling_efficiency",
        "gpucalc::scaling_efficiency(gpucalc::training_step_time({0}, {1}, {2}, {3}), "
        "gpucalc::smallest_fitting_step({0}, {1}, {2}, {3}))",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::step_strategy(g, m);
            return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s};
        },
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s) {
            const training_step step = setup([&] { return training_step_time(m, c, j, s); });
            const fitting_step reference =
                setup([&] { return smallest_fitting_step(m, c, j, s); });
            return scaling_efficiency(step, reference);
        })
        .weight = 0.3;
}

}  // namespace fuzz
