// entries_serving_right_size.cpp: the fuzz table's entries for serving/right_size.hpp: right_size
// on drawn deployments (a catalog GPU with its MIG profiles, perturbed; a utilization, a peak
// memory, a queue trend, a batch and the optional rate and replica count) and drawn thresholds,
// and the to_string of its two enums.
#include <gpucalc/serving.hpp>

#include "entry_points.hpp"
#include "serving_types.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::right_size_action> {
    static constexpr const char* name = "gpucalc::right_size_action";
    static constexpr int count = 5;
};
template <>
struct enum_traits<gpucalc::right_size_rule> {
    static constexpr const char* name = "gpucalc::right_size_rule";
    static constexpr int count = 9;
};
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::deployment_measurements& a, const gpucalc::deployment_measurements& b,
            F&& f) {
    FUZZ_FIELD(gpu); FUZZ_FIELD(replicas); FUZZ_FIELD(gpus_per_replica); FUZZ_FIELD(utilization);
    FUZZ_FIELD(peak_memory_per_gpu); FUZZ_FIELD(queue_at_start); FUZZ_FIELD(queue_at_end);
    FUZZ_FIELD(window); FUZZ_FIELD(running_batch); FUZZ_FIELD(batch_limit);
    FUZZ_FIELD(arrival_rate); FUZZ_FIELD(replicas_needed);
}
template <class F>
void fields(const gpucalc::right_size_assumptions& a, const gpucalc::right_size_assumptions& b,
            F&& f) {
    FUZZ_FIELD(over_provisioned_below); FUZZ_FIELD(busy_above); FUZZ_FIELD(target_utilization);
    FUZZ_FIELD(batch_full_at); FUZZ_FIELD(memory_headroom); FUZZ_FIELD(queue_growth_above);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::deployment_measurements>() {
    return "gpucalc::deployment_measurements";
}
template <>
inline const char* type_name<gpucalc::right_size_assumptions>() {
    return "gpucalc::right_size_assumptions";
}

namespace draw {
/// A utilization in [0, 1], often at a threshold, or a hostile value.
inline double utilization(generator& g) {
    static constexpr double at[] = {0.0, 0.25, 0.40, 0.60, 0.80, 0.90, 1.0};
    if (g.coin(0.3)) return g.keep_real(g.one_of(at));
    return g.unit_interval(0.35);
}
inline gpucalc::deployment_measurements deployment(generator& g) {
    gpucalc::deployment_measurements m{};
    m.gpu = gpu(g);
    m.replicas = g.count(4);
    m.gpus_per_replica = g.coin(0.7) ? g.keep(1) : g.count(2);
    m.utilization = utilization(g);
    // A share of the GPU's memory (0 when not measured), or a hostile size.
    const double share = g.coin(0.1) ? 0.0 : 0.05 + 0.9 * g.r.unit();
    m.peak_memory_per_gpu = g.keep_q(share * m.gpu.memory);
    m.queue_at_start = g.coin(0.3) ? g.keep(0) : g.count(20);
    m.queue_at_end = g.coin(0.3) ? g.keep(m.queue_at_start) : g.count(40);
    m.window = g.q<gpucalc::duration>(3600.0);
    m.batch_limit = g.coin(0.3) ? g.keep(0) : g.count(32);
    const double limit = m.batch_limit > 0 && m.batch_limit < (std::int64_t{1} << 40)
                             ? static_cast<double>(m.batch_limit)
                             : 1.0;
    m.running_batch = g.coin(0.2) ? g.keep_real(0.0) : g.keep_real(limit * g.r.unit());
    m.arrival_rate = g.coin(0.5) ? g.keep_q(gpucalc::request_rate{})
                                 : g.q<gpucalc::request_rate>(20.0);
    m.replicas_needed = g.coin(0.6) ? g.keep(0) : g.count(4);
    return m;
}
inline gpucalc::right_size_assumptions right_size_assumptions(generator& g) {
    gpucalc::right_size_assumptions a{};
    if (g.coin(0.6)) return a;
    a.over_provisioned_below = g.fraction(0.40);
    a.busy_above = g.fraction(0.80);
    a.target_utilization = g.coin(0.5) ? g.keep_real(a.target_utilization)
                                       : g.fraction(0.60);
    a.batch_full_at = g.fraction(0.90);
    a.memory_headroom = g.unit_interval(0.10);
    a.queue_growth_above = g.q_or_zero<gpucalc::request_rate>(0.01);
    return a;
}
}  // namespace draw

inline void inspect(inspector& i, const gpucalc::right_size_recommendation& r) {
    using gpucalc::right_size_action;
    i.enumeration("action", r.action, 5);
    i.enumeration("rule", r.rule, 9);
    i.amount("measured", r.measured);
    i.amount("threshold", r.threshold);
    i.finite("queue_growth", r.queue_growth);
    i.flag("queue_growing", r.queue_growing);
    i.amount("batch_fill", r.batch_fill);
    i.count("replicas", r.replicas);
    i.flag("at_largest", r.at_largest);
    i.flag("has_profile", r.has_profile);
    i.text("profile.name", r.profile.name);
    i.amount("utilization_after", r.utilization_after);
    i.amount("gpus_before", r.gpus_before);
    i.amount("gpus_after", r.gpus_after);
    i.invariant("at least one replica", r.replicas >= 1);
    i.invariant("a profile only with a slice",
                !r.has_profile || r.action == right_size_action::smaller_gpu_or_mig_slice);
    i.invariant("keep iff no rule fired",
                (r.action == right_size_action::keep) == (r.rule == gpucalc::right_size_rule::none));
    if (r.action == right_size_action::more_replicas) {
        i.invariant("more replicas run more GPUs (or the count is at its largest)",
                    r.gpus_after > r.gpus_before || r.at_largest);
    }
    if (r.action == right_size_action::fewer_replicas || r.has_profile) {
        i.invariant("fewer GPUs", r.gpus_after < r.gpus_before);
    }
    if (r.action == right_size_action::better_batching || r.action == right_size_action::keep) {
        i.invariant("nothing changes", r.gpus_after == r.gpus_before);
    }
    if (r.has_profile) i.invariant("a slice keeps up", r.utilization_after <= 1.0);
}

void register_serving_right_size(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<right_size_action>(r, "to_string(right_size_action)", 5);
    add_enum_to_string<right_size_rule>(r, "to_string(right_size_rule)", 9);
    add(r, "right_size", "right_size", "gpucalc::right_size({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::deployment(g), draw::right_size_assumptions(g)};
        },
        [](const deployment_measurements& m, const right_size_assumptions& a) {
            return right_size(m, a);
        });
}

}  // namespace fuzz
