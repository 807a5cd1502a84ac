// entries_items.cpp: the fuzz table's entries for workloads that are not transformers:
// workload/item.hpp, roofline/item.hpp, memory/item.hpp and serving/items.hpp.
//
// The new types' printing (fields, type_name) and checking (inspect) live here, beside the
// draws, as in entries_scaling_laws.cpp.
#include <gpucalc/catalog/workloads.hpp>
#include <gpucalc/memory/item.hpp>
#include <gpucalc/roofline/item.hpp>
#include <gpucalc/serving/items.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::item_time_source> {
    static constexpr const char* name = "gpucalc::item_time_source";
    static constexpr int count = 4;
};
template <>
struct enum_traits<gpucalc::measurement_transfer> {
    static constexpr const char* name = "gpucalc::measurement_transfer";
    static constexpr int count = 3;
};
template <>
struct enum_traits<gpucalc::item_verdict> {
    static constexpr const char* name = "gpucalc::item_verdict";
    static constexpr int count = 4;
};

#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::item_measurement& a, const gpucalc::item_measurement& b, F&& f) {
    FUZZ_FIELD(time_per_item); FUZZ_FIELD(device); FUZZ_FIELD(batch);
}
template <class F>
void fields(const gpucalc::item_workload& a, const gpucalc::item_workload& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(flops_per_item); FUZZ_FIELD(parameters); FUZZ_FIELD(weights);
    FUZZ_FIELD(moved_elements_per_item); FUZZ_FIELD(live_elements_per_item);
    FUZZ_FIELD(activations); FUZZ_FIELD(compute); FUZZ_FIELD(measured);
}
template <class F>
void fields(const gpucalc::item_serving_assumptions& a, const gpucalc::item_serving_assumptions& b,
            F&& f) {
    FUZZ_FIELD(efficiency); FUZZ_FIELD(overhead); FUZZ_FIELD(memory_headroom);
    FUZZ_FIELD(service_scv); FUZZ_FIELD(percentile); FUZZ_FIELD(batch_limit);
    FUZZ_FIELD(transfer); FUZZ_FIELD(max_utilization);
}
#undef FUZZ_FIELD

template <>
inline const char* type_name<gpucalc::item_measurement>() { return "gpucalc::item_measurement"; }
template <>
inline const char* type_name<gpucalc::item_workload>() { return "gpucalc::item_workload"; }
template <>
inline const char* type_name<gpucalc::item_serving_assumptions>() {
    return "gpucalc::item_serving_assumptions";
}

inline void inspect(inspector& i, const gpucalc::item_memory& m) {
    i.amount("weights", m.weights);
    i.amount("activations", m.activations);
    i.amount("overhead", m.overhead);
    i.amount("total", m.total);
    i.invariant("total >= weights + activations", m.total >= m.weights + m.activations);
}

inline void inspect(inspector& i, const gpucalc::item_batch_fit& f) {
    i.flag("fits", f.fits);
    i.nested("memory", [&] { inspect(i, f.memory); });
    i.nested("verdict", [&] { inspect(i, f.verdict); });
    i.invariant("fits == verdict.ok", f.fits == f.verdict.ok);
    if (!f.fits) {
        i.no_answer("batch");
        i.invariant("!fits => batch == 0", f.batch == 0);
        return;
    }
    i.count("batch", f.batch);
    i.invariant("fits => 1 <= batch <= 2^40", f.batch >= 1 && f.batch <= (std::int64_t{1} << 40));
}

inline void inspect(inspector& i, const gpucalc::item_service& s) {
    i.enumeration("source", s.source, 4);
    i.count("batch", s.batch);
    i.amount("time", s.time);
    i.amount("per_item", s.per_item);
    i.nested("roofline", [&] { inspect(i, s.roofline); });
    i.invariant("roofline source => time == roofline.time",
                s.source != gpucalc::item_time_source::roofline || s.time == s.roofline.time);
}

inline void inspect(inspector& i, const gpucalc::item_gpu_plan& p) {
    i.enumeration("verdict", p.verdict, 4);
    i.enumeration("source", p.source, 4);
    i.nested("service", [&] { inspect(i, p.service); });
    if (p.verdict != gpucalc::item_verdict::feasible) {
        i.no_answer("gpus");
        i.no_answer("batch");
        i.no_answer("queue");
        i.no_answer("latency");
        i.invariant("no answer => gpus == 0", p.gpus == 0);
        return;
    }
    i.count("gpus", p.gpus);
    i.count("batch", p.batch);
    i.amount("latency", p.latency);
    i.flag("queue.found", p.queue.found);
    i.count("queue.servers", p.queue.servers);
    i.invariant("feasible => gpus >= 1 and batch >= 1", p.gpus >= 1 && p.batch >= 1);
    i.invariant("feasible => queue.found", p.queue.found);
    i.invariant("gpus × batch covers the servers",
                static_cast<double>(p.gpus) * static_cast<double>(p.batch) >=
                    static_cast<double>(p.queue.servers));
}

inline void inspect(inspector& i, const gpucalc::item_replicas_estimate& e) {
    i.nested("chosen", [&] { inspect(i, e.chosen); });
    i.nested("roofline", [&] { inspect(i, e.roofline); });
    i.nested("memory", [&] { inspect(i, e.memory); });
    i.invariant("roofline plan's source is the roofline",
                e.roofline.source == gpucalc::item_time_source::roofline);
}

namespace draw {

/// A catalog workload, perturbed; with a measurement (on a catalog GPU, or a device known only
/// by its name) half the time.
inline gpucalc::item_workload item_workload(generator& g) {
    gpucalc::item_workload w =
        *gpucalc::catalog::all_item_workloads[g.r.below(gpucalc::catalog::all_item_workloads.size())];
    w.flops_per_item = g.keep_q(w.flops_per_item);
    w.parameters = g.keep_real(w.parameters);
    w.moved_elements_per_item = g.keep_real(w.moved_elements_per_item);
    w.live_elements_per_item = g.keep_real(w.live_elements_per_item);
    if (g.coin(0.3)) w.weights = storage(g, "weights");
    if (g.coin(0.3)) w.activations = storage(g, "activations");
    if (g.coin(0.3)) w.compute = precision(g, "compute");
    if (g.coin(0.5)) {
        w.measured.time_per_item = g.q_or_zero<gpucalc::duration>(0.1);
        if (g.coin(0.7)) {
            w.measured.device = gpu(g, 1);
        } else {
            w.measured.device.name = "named only";
        }
        w.measured.batch = g.coin(0.7) ? g.keep(1) : g.count(8);
    }
    return w;
}

inline gpucalc::item_serving_assumptions item_assumptions(generator& g) {
    gpucalc::item_serving_assumptions a{};
    if (g.coin(0.3)) a.efficiency = efficiency(g);
    if (g.coin(0.3)) a.overhead = overhead(g);
    a.memory_headroom = g.coin(0.8) ? 0.0 : g.unit_interval(0.1);
    a.service_scv = g.coin(0.8) ? 0.0 : g.keep_real(g.r.unit() * 2.0);
    a.percentile = g.coin(0.8) ? g.keep_real(0.99) : g.unit_interval(0.9);
    a.batch_limit = g.coin(0.8) ? g.keep(a.batch_limit) : g.count(64);
    a.transfer = g.any_enum<gpucalc::measurement_transfer>(3, "transfer");
    a.max_utilization = g.coin(0.7) ? g.keep_real(1.0) : g.unit_interval(0.6);
    return a;
}

}  // namespace draw

void register_items(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<item_time_source>(r, "to_string(item_time_source)", 4);
    add_enum_to_string<measurement_transfer>(r, "to_string(measurement_transfer)", 3);
    add_enum_to_string<item_verdict>(r, "to_string(item_verdict)", 4);

    add(r, "item_weight_bytes", "item_weight_bytes", "gpucalc::item_weight_bytes({0})",
        [](generator& g) { return std::tuple{draw::item_workload(g)}; },
        [](const item_workload& w) { return item_weight_bytes(w); });
    add(r, "has_measurement", "has_measurement", "gpucalc::has_measurement({0})",
        [](generator& g) { return std::tuple{draw::item_workload(g)}; },
        [](const item_workload& w) { return has_measurement(w); })
        .weight = 0.3;
    add(r, "item_batch_time", "item_batch_time", "gpucalc::item_batch_time({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::item_workload(g), draw::gpu(g), g.count(8),
                              draw::efficiency(g)};
        },
        [](const item_workload& w, const gpu_spec& gpu, std::int64_t b,
           const kernel_efficiency& e) { return item_batch_time(w, gpu, b, e); });
    add(r, "item_memory_per_gpu", "item_memory_per_gpu",
        "gpucalc::item_memory_per_gpu({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::item_workload(g), g.count(8), draw::overhead(g)};
        },
        [](const item_workload& w, std::int64_t b, const runtime_overhead& o) {
            return item_memory_per_gpu(w, b, o);
        });
    add(r, "largest_item_batch", "largest_item_batch",
        "gpucalc::largest_item_batch({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{draw::item_workload(g), draw::gpu(g), g.unit_interval(0.0),
                              draw::overhead(g),
                              g.coin(0.8) ? g.keep(std::int64_t{1} << 20) : g.count(64)};
        },
        [](const item_workload& w, const gpu_spec& gpu, double h, const runtime_overhead& o,
           std::int64_t limit) { return largest_item_batch(w, gpu, h, o, limit); });
    add(r, "item_service_time", "item_service_time",
        "gpucalc::item_service_time({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::item_workload(g), draw::gpu(g), g.count(1),
                              draw::item_assumptions(g)};
        },
        [](const item_workload& w, const gpu_spec& gpu, std::int64_t b,
           const item_serving_assumptions& a) { return item_service_time(w, gpu, b, a); });
    add(r, "item_replicas_for_rate", "item_replicas_for_rate",
        "gpucalc::item_replicas_for_rate({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{draw::item_workload(g), draw::gpu(g),
                              g.q_or_zero<request_rate>(30.0), g.q<duration>(0.5),
                              draw::item_assumptions(g)};
        },
        [](const item_workload& w, const gpu_spec& gpu, const request_rate& rate,
           const duration& latency, const item_serving_assumptions& a) {
            return item_replicas_for_rate(w, gpu, rate, latency, a);
        });
}

}  // namespace fuzz
