// entries_operations_feed.cpp: fuzz entries for operations: keeping the GPUs fed by the input pipeline
//
// operations/input_demand.hpp and operations/input_pipeline.hpp: token_id_bytes, sample_demand,
// token_demand (a rate, and a training step), item_training_demand, input_pipeline_verdict and
// the enums' to_string. The new types' printing (fields, type_name) and checking (inspect) live
// here, beside the draws.
#include <gpucalc/catalog/workloads.hpp>
#include <gpucalc/operations/input_demand.hpp>
#include <gpucalc/operations/input_pipeline.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::input_item> {
    static constexpr const char* name = "gpucalc::input_item";
    static constexpr int count = gpucalc::input_item_count;
};
template <>
struct enum_traits<gpucalc::input_stage> {
    static constexpr const char* name = "gpucalc::input_stage";
    static constexpr int count = gpucalc::input_stage_count;
};
template <>
struct enum_traits<gpucalc::storage_scope> {
    static constexpr const char* name = "gpucalc::storage_scope";
    static constexpr int count = gpucalc::storage_scope_count;
};

#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::input_demand& a, const gpucalc::input_demand& b, F&& f) {
    FUZZ_FIELD(item); FUZZ_FIELD(samples); FUZZ_FIELD(tokens); FUZZ_FIELD(bytes_per_item);
    FUZZ_FIELD(bytes); FUZZ_FIELD(gpus);
}
template <class F>
void fields(const gpucalc::item_training_assumptions& a,
            const gpucalc::item_training_assumptions& b, F&& f) {
    FUZZ_FIELD(training_flops_per_forward); FUZZ_FIELD(achieved_fraction);
}
template <class F>
void fields(const gpucalc::input_pipeline& a, const gpucalc::input_pipeline& b, F&& f) {
    FUZZ_FIELD(nodes); FUZZ_FIELD(gpus_per_node); FUZZ_FIELD(cpu_threads_per_node);
    FUZZ_FIELD(threads_per_core); FUZZ_FIELD(smt_throughput_gain);
    FUZZ_FIELD(storage_read); FUZZ_FIELD(storage); FUZZ_FIELD(network_per_node);
    FUZZ_FIELD(preprocess_time_per_item); FUZZ_FIELD(workers_per_gpu);
    FUZZ_FIELD(cores_reserved_per_gpu);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::input_demand>() { return "gpucalc::input_demand"; }
template <>
inline const char* type_name<gpucalc::item_training_assumptions>() {
    return "gpucalc::item_training_assumptions";
}
template <>
inline const char* type_name<gpucalc::input_pipeline>() { return "gpucalc::input_pipeline"; }

namespace draw {
/// A demand as the demand functions return it, or (hostile) one built by hand: both rates, a
/// rate of 0, an out-of-range item.
inline gpucalc::input_demand demand_of(generator& g) {
    using namespace gpucalc;
    const bool samples = g.coin(0.6);
    input_demand d{};
    d.item = g.keep_enum(samples ? input_item::sample : input_item::token, "demand", "item");
    if (samples) {
        d.samples = g.q<sample_rate>(16621.0);
        d.tokens = g.coin(0.9) ? g.keep_q(token_rate{}) : g.q<token_rate>(1e5);
    } else {
        d.tokens = g.q<token_rate>(72400.0);
        d.samples = g.coin(0.9) ? g.keep_q(sample_rate{}) : g.q<sample_rate>(100.0);
    }
    d.bytes_per_item = samples ? g.q<data_size>(115440.0) : g.q<data_size>(2.0);
    d.bytes = g.coin(0.8) ? bandwidth::from_value(d.samples.value() + d.tokens.value())
                          : g.q<bandwidth>(1e9);  // ignored by the verdict: recomputed
    d.gpus = g.coin(0.7) ? g.keep(0) : g.count(8);  // 0: not stated
    return d;
}
inline gpucalc::input_pipeline pipeline_of(generator& g) {
    using namespace gpucalc;
    gpucalc::input_pipeline p{};
    p.nodes = g.count(1);
    p.gpus_per_node = g.count(8);
    p.cpu_threads_per_node = g.count(96);
    static constexpr std::int64_t threads[] = {1, 2, 2, 2, 4, 8};
    p.threads_per_core = g.keep(g.one_of(threads));
    p.smt_throughput_gain = g.coin(0.7) ? g.keep_real(0.25) : g.unit_interval(0.25);
    p.storage_read = g.q<bandwidth>(1e10);
    p.storage = g.any_enum<storage_scope>(storage_scope_count, "pipeline.storage");
    p.network_per_node = g.q<bandwidth>(5e10);
    p.preprocess_time_per_item = g.coin(0.2) ? g.keep_q(duration{}) : g.q<duration>(1.0 / 150.0);
    p.workers_per_gpu = g.count(8);
    // 1 mostly, now and then 0 (no core reserved) or another count; never arithmetic on a draw,
    // which may be hostile (INT64_MIN).
    p.cores_reserved_per_gpu = g.coin(0.8) ? g.keep(1) : g.coin(0.5) ? g.keep(0) : g.count(1);
    return p;
}
inline gpucalc::item_training_assumptions item_training(generator& g) {
    gpucalc::item_training_assumptions a{};
    a.training_flops_per_forward = g.coin(0.8) ? g.keep_real(3.0) : g.real(3.0);
    a.achieved_fraction = g.coin(0.8) ? g.keep_real(0.194) : g.fraction(0.3);
    return a;
}
}  // namespace draw

inline void inspect(inspector& i, const gpucalc::input_demand& d) {
    i.enumeration("item", d.item, gpucalc::input_item_count);
    i.amount("samples", d.samples);
    i.amount("tokens", d.tokens);
    i.amount("bytes_per_item", d.bytes_per_item);
    i.amount("bytes", d.bytes);
    i.count("gpus", d.gpus);
    const bool samples = d.item == gpucalc::input_item::sample;
    const double rate = samples ? d.samples.value() : d.tokens.value();
    const double other = samples ? d.tokens.value() : d.samples.value();
    i.invariant("the item's rate > 0, the other 0", rate > 0.0 && other <= 0.0 && other >= 0.0);
    i.invariant("bytes = rate × bytes_per_item",
                gpucalc::approx_equal(d.bytes.value(), rate * d.bytes_per_item.value(), 1e-12));
}

inline void inspect(inspector& i, const gpucalc::stage_supply& s) {
    i.enumeration("stage", s.stage, gpucalc::input_stage_count);
    i.flag("present", s.present);
    i.amount("samples", s.samples);
    i.amount("tokens", s.tokens);
    i.amount("bytes", s.bytes);
    i.amount("headroom", s.headroom);
    if (!s.present) {
        i.invariant("absent => nothing supplied",
                    s.headroom <= 0.0 && s.bytes.value() <= 0.0 && s.samples.value() <= 0.0 &&
                        s.tokens.value() <= 0.0);
    }
}

inline void inspect(inspector& i, const gpucalc::feed_verdict& v) {
    using gpucalc::input_stage;
    i.nested("demand", [&] { inspect(i, v.demand); });
    i.nested("storage", [&] { inspect(i, v.storage); });
    i.nested("network", [&] { inspect(i, v.network); });
    i.nested("preprocessing", [&] { inspect(i, v.preprocessing); });
    i.flag("input_bound", v.input_bound);
    i.enumeration("binding", v.binding, gpucalc::input_stage_count);
    i.enumeration("tightest", v.tightest, gpucalc::input_stage_count);
    i.amount("gpu_utilization", v.gpu_utilization);
    i.count("usable_cores_per_node", v.usable_cores_per_node);
    i.count("running_workers_per_node", v.running_workers_per_node);
    i.amount("core_equivalents_per_node", v.core_equivalents_per_node);
    i.count("effective_workers_per_gpu", v.effective_workers_per_gpu);
    i.count("workers_per_gpu_needed", v.workers_per_gpu_needed);
    i.count("cores_per_gpu_needed", v.cores_per_gpu_needed);
    i.flag("cores_suffice", v.cores_suffice);
    i.amount("storage_needed", v.storage_needed);
    i.amount("network_needed_per_node", v.network_needed_per_node);
    i.invariant("the stages are named", v.storage.stage == input_stage::storage &&
                                            v.network.stage == input_stage::network &&
                                            v.preprocessing.stage == input_stage::preprocessing);
    i.invariant("storage and network are always present",
                v.storage.present && v.network.present);
    i.invariant("0 <= utilization <= 1", v.gpu_utilization >= 0.0 && v.gpu_utilization <= 1.0);
    i.invariant("input-bound iff a stage binds", v.input_bound == (v.binding != input_stage::none));
    i.invariant("a stage is the tightest", v.tightest != input_stage::none);
    const gpucalc::stage_supply& t = v.tightest == input_stage::storage   ? v.storage
                                     : v.tightest == input_stage::network ? v.network
                                                                          : v.preprocessing;
    i.invariant("the tightest is present", t.present);
    i.invariant("no present stage is tighter",
                v.storage.headroom >= t.headroom && v.network.headroom >= t.headroom &&
                    (!v.preprocessing.present || v.preprocessing.headroom >= t.headroom));
    if (v.input_bound) {
        i.invariant("binding = tightest", v.binding == v.tightest);
        i.invariant("utilization = the binding headroom < 1",
                    v.gpu_utilization <= t.headroom && v.gpu_utilization >= t.headroom &&
                        t.headroom < 1.0);
    } else {
        i.invariant("compute-bound => utilization 1 and headroom >= 1",
                    v.gpu_utilization >= 1.0 && t.headroom >= 1.0);
    }
    i.invariant("counts are not negative",
                v.usable_cores_per_node >= 0 && v.running_workers_per_node >= 0 &&
                    v.effective_workers_per_gpu >= 0);
    const double running = static_cast<double>(v.running_workers_per_node);
    const double cores = static_cast<double>(v.usable_cores_per_node);
    i.invariant("min(running, cores) <= core equivalents <= running",
                v.core_equivalents_per_node <= running &&
                    v.core_equivalents_per_node >= (running < cores ? running : cores));
    if (v.preprocessing.present) {
        i.invariant("needed workers in [1, 2^40] when the cores suffice, else 0",
                    v.cores_suffice ? v.workers_per_gpu_needed >= 1 &&
                                          v.workers_per_gpu_needed <= (std::int64_t{1} << 40)
                                    : v.workers_per_gpu_needed == 0);
        i.invariant("needed cores in [1, 2^40]",
                    v.cores_per_gpu_needed >= 1 &&
                        v.cores_per_gpu_needed <= (std::int64_t{1} << 40));
        i.invariant("no usable core => cores do not suffice",
                    v.usable_cores_per_node > 0 || !v.cores_suffice);
        if (v.preprocessing.headroom >= 1.0) {
            i.invariant("headroom >= 1 => the cores suffice", v.cores_suffice);
            i.invariant("headroom >= 1 => workers_per_gpu_needed <= effective_workers_per_gpu",
                        v.workers_per_gpu_needed <= v.effective_workers_per_gpu);
        }
    } else {
        i.invariant("no CPU stage => no workers or cores needed",
                    v.workers_per_gpu_needed == 0 && v.cores_per_gpu_needed == 0 &&
                        v.cores_suffice);
    }
}

/// A verdict with the inputs it came from, so that inspect can re-evaluate it: the needed
/// workers and cores must be the fewest that keep up.
struct feed_case {
    gpucalc::feed_verdict v;
    gpucalc::input_demand d;
    gpucalc::input_pipeline p;
};

/// The verdict's preprocessing headroom and cores_suffice for a changed pipeline; false when
/// the changed pipeline is rejected (recorded as a broken invariant by the caller).
inline bool reevaluate(const feed_case& c, const gpucalc::input_pipeline& q, double& headroom,
                       bool& suffice) {
    try {
        const gpucalc::feed_verdict w = gpucalc::input_pipeline_verdict(c.d, q);
        headroom = w.preprocessing.headroom;
        suffice = w.cores_suffice;
        return true;
    } catch (const gpucalc::invalid_input&) {
        return false;
    }
}

/// q with `cores` usable physical cores per GPU and a worker on every thread of each.
inline gpucalc::input_pipeline with_cores(const gpucalc::input_pipeline& p, std::int64_t cores) {
    gpucalc::input_pipeline q = p;
    q.cpu_threads_per_node = (cores + p.cores_reserved_per_gpu) * p.gpus_per_node *
                             p.threads_per_core;
    q.workers_per_gpu = cores * p.threads_per_core;
    return q;
}

inline void inspect(inspector& i, const feed_case& c) {
    const gpucalc::feed_verdict& v = c.v;
    inspect(i, v);
    const gpucalc::input_pipeline& p = c.p;
    const double gain = p.threads_per_core > 1 ? p.smt_throughput_gain : 0.0;
    i.invariant("core equivalents <= usable cores × (1 + smt_throughput_gain)",
                v.core_equivalents_per_node <=
                    static_cast<double>(v.usable_cores_per_node) * (1.0 + gain) * (1.0 + 1e-12));
    if (!v.preprocessing.present) return;
    double headroom = 0.0;
    bool suffice = false;
    if (v.cores_suffice) {
        // The fewest workers: needed keeps up, needed − 1 does not.
        gpucalc::input_pipeline q = p;
        q.workers_per_gpu = v.workers_per_gpu_needed;
        i.invariant("workers_per_gpu_needed re-evaluates",
                    reevaluate(c, q, headroom, suffice));
        i.invariant("workers_per_gpu_needed keeps up", headroom >= 1.0);
        if (v.workers_per_gpu_needed > 1) {
            q.workers_per_gpu = v.workers_per_gpu_needed - 1;
            i.invariant("one worker fewer re-evaluates", reevaluate(c, q, headroom, suffice));
            i.invariant("one worker fewer falls short (needed is the fewest)", headroom < 1.0);
        }
    }
    // The fewest cores per GPU, every thread busy, when that host is within the ranges.
    const std::int64_t n = v.cores_per_gpu_needed;
    const double threads = (static_cast<double>(n) + static_cast<double>(p.cores_reserved_per_gpu)) *
                           static_cast<double>(p.gpus_per_node) *
                           static_cast<double>(p.threads_per_core);
    if (n >= 1 && n < (std::int64_t{1} << 40) && threads <= static_cast<double>(std::int64_t{1} << 40)) {
        i.invariant("cores_per_gpu_needed re-evaluates",
                    reevaluate(c, with_cores(p, n), headroom, suffice));
        i.invariant("cores_per_gpu_needed keeps up, and its cores suffice",
                    headroom >= 1.0 && suffice);
        if (n > 1) {
            i.invariant("one core fewer re-evaluates",
                        reevaluate(c, with_cores(p, n - 1), headroom, suffice));
            i.invariant("one core fewer falls short (needed is the fewest)",
                        headroom < 1.0 && !suffice);
        }
    }
}

void register_operations_feed(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<input_stage>(r, "to_string(input_stage)", input_stage_count);
    add_enum_to_string<input_item>(r, "to_string(input_item)", input_item_count);
    add_enum_to_string<storage_scope>(r, "to_string(storage_scope)", storage_scope_count);
    add(r, "token_id_bytes", "token_id_bytes", "gpucalc::token_id_bytes({0})",
        [](generator& g) { return std::tuple{g.count(50257)}; },
        [](std::int64_t vocabulary) { return token_id_bytes(vocabulary); });
    add(r, "sample_demand", "sample_demand", "gpucalc::sample_demand({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<sample_rate>(16621.0), g.q<data_size>(115440.0)};
        },
        [](const sample_rate& rate, const data_size& bytes) { return sample_demand(rate, bytes); });
    add(r, "token_demand", "token_demand", "gpucalc::token_demand({0}, {1})",
        [](generator& g) { return std::tuple{g.q<token_rate>(72400.0), g.q<data_size>(2.0)}; },
        [](const token_rate& rate, const data_size& bytes) { return token_demand(rate, bytes); });
    add(r, "token_demand(step)", "token_demand",
        "gpucalc::token_demand(step, {1}), step.tokens_per_second = {0}, step.gpus = {2}",
        [](generator& g) {
            return std::tuple{g.q<token_rate>(72400.0), g.q<data_size>(4.0), g.count(64)};
        },
        [](const token_rate& rate, const data_size& bytes, std::int64_t gpus) {
            training_step step{};
            step.tokens_per_second = rate;
            step.gpus = gpus;
            return token_demand(step, bytes);
        });
    add(r, "item_training_demand", "item_training_demand",
        "gpucalc::item_training_demand(w, {2}, {3}, {4}, {5}), w = "
        "*gpucalc::catalog::all_item_workloads[{0}] with flops_per_item = {1}",
        [](generator& g) {
            const std::int64_t which = static_cast<std::int64_t>(
                g.r.below(catalog::all_item_workloads.size()));
            return std::tuple{which,
                              g.keep_q(catalog::all_item_workloads[static_cast<std::size_t>(
                                                                       which)]
                                           ->flops_per_item),
                              draw::gpu(g), g.count(8), g.q<data_size>(115440.0),
                              draw::item_training(g)};
        },
        [](std::int64_t which, const flop_count& flops, const gpu_spec& gpu, std::int64_t gpus,
           const data_size& bytes, const item_training_assumptions& a) {
            item_workload w = *catalog::all_item_workloads[static_cast<std::size_t>(which)];
            w.flops_per_item = flops;
            return item_training_demand(w, gpu, gpus, bytes, a);
        });
    add(r, "input_pipeline_verdict", "input_pipeline_verdict",
        "gpucalc::input_pipeline_verdict({0}, {1})",
        [](generator& g) {
            gpucalc::input_pipeline p = draw::pipeline_of(g);
            gpucalc::input_demand d = draw::demand_of(g);
            // Most stated GPU counts match the pipeline's, when that count is in range.
            const double gpus = static_cast<double>(p.nodes) * static_cast<double>(p.gpus_per_node);
            if (d.gpus > 0 && g.coin(0.8) && p.nodes >= 1 && p.gpus_per_node >= 1 &&
                gpus <= static_cast<double>(std::int64_t{1} << 40)) {
                d.gpus = p.nodes * p.gpus_per_node;
            }
            return std::tuple{d, p};
        },
        [](const input_demand& d, const input_pipeline& p) {
            return feed_case{input_pipeline_verdict(d, p), d, p};
        });
}

}  // namespace fuzz
