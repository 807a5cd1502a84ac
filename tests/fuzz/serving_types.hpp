// serving_types.hpp: the fuzz harness's printing, drawing and checking of serving/capacity.hpp's
// and serving/load.hpp's types, shared by entries_serving_capacity.cpp and
// entries_serving_replicas.cpp (found by argument-dependent lookup).
#pragma once

#include <gpucalc/serving.hpp>

#include <cstdint>
#include <string>

#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

// --- printing ---------------------------------------------------------------------------------
template <>
struct enum_traits<gpucalc::prefill_mode> {
    static constexpr const char* name = "gpucalc::prefill_mode";
    static constexpr int count = 3;
};
template <>
struct enum_traits<gpucalc::replica_verdict> {
    static constexpr const char* name = "gpucalc::replica_verdict";
    static constexpr int count = 4;
};
template <>
struct enum_traits<gpucalc::routing> {
    static constexpr const char* name = "gpucalc::routing";
    static constexpr int count = 2;
};
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::request_profile& a, const gpucalc::request_profile& b, F&& f) {
    FUZZ_FIELD(prompt_mean); FUZZ_FIELD(output_mean); FUZZ_FIELD(prompt_p90);
    FUZZ_FIELD(output_p90);
}
template <class F>
void fields(const gpucalc::serving_slo& a, const gpucalc::serving_slo& b, F&& f) {
    FUZZ_FIELD(time_to_first_token); FUZZ_FIELD(time_per_output_token);
}
template <class F>
void fields(const gpucalc::replica_assumptions& a, const gpucalc::replica_assumptions& b, F&& f) {
    FUZZ_FIELD(chunk_tokens); FUZZ_FIELD(memory_headroom); FUZZ_FIELD(batch_limit);
    // The nested assumptions member by member (their fields() lives in another entries file).
    FUZZ_FIELD(parallel.tensor_comm_overlap); FUZZ_FIELD(parallel.pipeline_comm_overlap);
    FUZZ_FIELD(parallel.allow_tensor_parallel_across_nodes); FUZZ_FIELD(parallel.micro_batches);
}
template <class F>
void fields(const gpucalc::replica_step_model& a, const gpucalc::replica_step_model& b, F&& f) {
    FUZZ_FIELD(mode); FUZZ_FIELD(slo); FUZZ_FIELD(batch); FUZZ_FIELD(prompt_tokens);
    FUZZ_FIELD(output_tokens); FUZZ_FIELD(chunk_tokens); FUZZ_FIELD(step_fixed);
    FUZZ_FIELD(step_per_sequence); FUZZ_FIELD(prefill_time); FUZZ_FIELD(chunk_step_extra);
}
template <class F>
void fields(const gpucalc::replica_capacity_estimate& a, const gpucalc::replica_capacity_estimate& b,
            F&& f) {
    FUZZ_FIELD(mode); FUZZ_FIELD(verdict); FUZZ_FIELD(feasible); FUZZ_FIELD(gpus);
    FUZZ_FIELD(decode_context); FUZZ_FIELD(memory_context); FUZZ_FIELD(memory_batch);
    FUZZ_FIELD(batch); FUZZ_FIELD(time_per_token_batch_one); FUZZ_FIELD(time_per_token);
    FUZZ_FIELD(prefill_time); FUZZ_FIELD(chunk_step_extra); FUZZ_FIELD(time_to_first_token);
    FUZZ_FIELD(longest_token_gap); FUZZ_FIELD(decode_only_rate); FUZZ_FIELD(capacity);
    FUZZ_FIELD(sustainable_rate); FUZZ_FIELD(output_token_rate);
    FUZZ_FIELD(time_per_token_at_rate); FUZZ_FIELD(prefill_replicas_per_decode_replica);
    FUZZ_FIELD(step);
}
template <class F>
void fields(const gpucalc::replicas_assumptions& a, const gpucalc::replicas_assumptions& b,
            F&& f) {
    FUZZ_FIELD(ttft_percentile); FUZZ_FIELD(default_service_scv); FUZZ_FIELD(largest_replicas);
    FUZZ_FIELD(replica);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::replica_capacity_estimate>() {
    return "gpucalc::replica_capacity_estimate";
}
template <>
inline const char* type_name<gpucalc::request_profile>() { return "gpucalc::request_profile"; }
template <>
inline const char* type_name<gpucalc::serving_slo>() { return "gpucalc::serving_slo"; }
template <>
inline const char* type_name<gpucalc::replica_assumptions>() {
    return "gpucalc::replica_assumptions";
}
template <>
inline const char* type_name<gpucalc::replica_step_model>() {
    return "gpucalc::replica_step_model";
}
template <>
inline const char* type_name<gpucalc::replicas_assumptions>() {
    return "gpucalc::replicas_assumptions";
}

// --- drawing ----------------------------------------------------------------------------------
namespace draw {
inline gpucalc::request_profile request_profile(generator& g) {
    gpucalc::request_profile p{};
    p.prompt_mean = g.count(1024);
    p.output_mean = g.count(256);
    // The p90s derive from the means, which may be hostile: only in-range means are scaled,
    // so the draw itself never overflows (the library's checks see the hostile means).
    constexpr std::int64_t small = std::int64_t{1} << 40;
    const auto in_range = [](std::int64_t v) { return v > 0 && v < small; };
    const std::int64_t extra = g.count(64);
    // Realistic extremes inside the documented range too: a p90 10×, 1,000×, 3,000× (a C²
    // beyond the queueing model's 1e6 from about 1,300×) or 10^6× its mean, at most 2^40.
    const auto spread = [&](std::int64_t mean) {
        static constexpr std::int64_t factors[] = {10, 1000, 3000, 1000000};
        const std::int64_t k = g.one_of(factors);
        return mean <= small / k ? k * mean : small;
    };
    const bool wide_prompt = g.coin(0.15);
    p.prompt_p90 = g.coin(0.5) ? g.keep(0)
                   : wide_prompt && in_range(p.prompt_mean)
                       ? g.keep(spread(p.prompt_mean))
                       : g.keep(in_range(p.prompt_mean) ? 2 * p.prompt_mean : p.prompt_mean);
    const bool wide_output = g.coin(0.1);
    p.output_p90 = g.coin(0.5) ? g.keep(0)
                   : wide_output && in_range(p.output_mean)
                       ? g.keep(spread(p.output_mean))
                       : g.keep(in_range(p.output_mean) && in_range(extra)
                                    ? p.output_mean + extra
                                    : p.output_mean);
    return p;
}
inline gpucalc::serving_slo serving_slo(generator& g) {
    return {g.q<gpucalc::duration>(0.5), g.q<gpucalc::duration>(0.033)};
}
inline gpucalc::replica_assumptions replica_assumptions(generator& g) {
    gpucalc::replica_assumptions a{};
    // Tiny chunk budgets too (a prompt then takes hundreds of steps to enter).
    static constexpr std::int64_t tiny_chunks[] = {1, 2, 18, 32};
    a.chunk_tokens = g.coin(0.15) ? g.keep(g.one_of(tiny_chunks)) : g.count(512);
    a.memory_headroom = g.unit_interval(0.1);
    a.batch_limit = g.coin(0.8) ? g.keep(a.batch_limit) : g.count(64);
    a.parallel = serving_parallel(g);
    return a;
}
inline gpucalc::replica_step_model replica_step_model(generator& g) {
    gpucalc::replica_step_model s{};
    s.mode = g.any_enum<gpucalc::prefill_mode>(3, "model.mode");
    s.slo = serving_slo(g);
    s.batch = g.count(64);
    s.prompt_tokens = g.count(1024);
    s.output_tokens = g.count(256);
    s.chunk_tokens = g.count(512);
    s.step_fixed = g.q_or_zero<gpucalc::duration>(0.01);
    s.step_per_sequence = g.q_or_zero<gpucalc::duration>(5e-5);
    s.prefill_time = g.q_or_zero<gpucalc::duration>(0.05);
    s.chunk_step_extra = g.q_or_zero<gpucalc::duration>(0.002);
    return s;
}
/// A replica_capacity estimate for `profile`, made while drawing: an input replica_capacity
/// rejects leaves the empty (not feasible) estimate, which the functions taking an estimate
/// must still take; the hostile enums drawn for it are not the caller's, so they are cleared.
inline gpucalc::replica_capacity_estimate replica_estimate(generator& g,
                                                           const gpucalc::request_profile& profile) {
    const gpucalc::transformer m = model(g);
    gpucalc::replica_capacity_estimate e{};
    try {
        e = gpucalc::replica_capacity(m, cluster(g), serving(g, m), profile, serving_slo(g),
                                      g.any_enum<gpucalc::prefill_mode>(3, "mode"),
                                      replica_assumptions(g));
    } catch (const gpucalc::invalid_input&) {
    }
    g.hostile_enum_fields.clear();
    // An estimate made by hand may break its rules: the functions taking one check it.
    e.gpus = g.keep(e.gpus);
    e.batch = g.keep(e.batch);
    e.capacity = g.keep_q(e.capacity);
    e.sustainable_rate = g.keep_q(e.sustainable_rate);
    e.step.output_tokens = g.keep(e.step.output_tokens);
    return e;
}
inline gpucalc::replicas_assumptions replicas_assumptions(generator& g) {
    gpucalc::replicas_assumptions a{};
    a.ttft_percentile = g.unit_interval(0.99);
    a.default_service_scv = g.coin(0.8) ? a.default_service_scv : g.real(1.0);
    a.largest_replicas = g.coin(0.8) ? g.keep(a.largest_replicas) : g.count(64);
    a.replica = replica_assumptions(g);
    return a;
}
}  // namespace draw

// --- checking: what each result promises -------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::replica_load& l) {
    i.enumeration("mode", l.mode, 3);
    i.amount("rate", l.rate);
    i.flag("stable", l.stable);
    i.flag("slo_met", l.slo_met);
    i.amount("capacity", l.capacity);
    i.amount("utilization", l.utilization);
    i.amount("prefill_busy", l.prefill_busy);
    i.amount("running_batch", l.running_batch);
    i.amount("time_per_token", l.time_per_token);
    i.invariant("slo_met implies stable", !l.slo_met || l.stable);
    i.invariant("prefill_busy < 1 or nothing is served", l.prefill_busy < 1.0 || !l.stable,
                number_text(l.prefill_busy));
}

inline void inspect(inspector& i, const gpucalc::replica_capacity_estimate& r) {
    using gpucalc::replica_verdict;
    i.enumeration("mode", r.mode, 3);
    i.enumeration("verdict", r.verdict, 4);
    i.flag("feasible", r.feasible);
    i.count("gpus", r.gpus);
    i.count("decode_context", r.decode_context);
    i.count("memory_context", r.memory_context);
    i.count("memory_batch", r.memory_batch);
    i.count("batch", r.batch);
    i.amount("time_per_token_batch_one", r.time_per_token_batch_one);
    i.amount("time_per_token", r.time_per_token);
    i.amount("prefill_time", r.prefill_time);
    i.amount("chunk_step_extra", r.chunk_step_extra);
    i.amount("time_to_first_token", r.time_to_first_token);
    i.amount("longest_token_gap", r.longest_token_gap);
    i.amount("decode_only_rate", r.decode_only_rate);
    i.amount("capacity", r.capacity);
    i.amount("sustainable_rate", r.sustainable_rate);
    i.amount("output_token_rate", r.output_token_rate);
    i.amount("time_per_token_at_rate", r.time_per_token_at_rate);
    i.amount("prefill_replicas_per_decode_replica", r.prefill_replicas_per_decode_replica);
    i.invariant("feasible iff the verdict says so",
                r.feasible == (r.verdict == replica_verdict::feasible));
    if (!r.feasible) {
        i.invariant("no batch when not feasible", r.batch == 0, std::to_string(r.batch));
        return;
    }
    i.invariant("1 <= batch <= memory_batch", r.batch >= 1 && r.batch <= r.memory_batch,
                std::to_string(r.batch));
    i.invariant("T(1) <= T(B)", r.time_per_token_batch_one <= r.time_per_token);
    i.invariant("sustainable_rate <= capacity <= decode_only_rate",
                r.sustainable_rate <= r.capacity &&
                    r.capacity.value() <= r.decode_only_rate.value() * (1.0 + 1e-12),
                number_text(r.capacity.value()));
    i.invariant("sustainable_rate > 0", r.sustainable_rate.value() > 0.0,
                number_text(r.sustainable_rate.value()));
}

}  // namespace fuzz
