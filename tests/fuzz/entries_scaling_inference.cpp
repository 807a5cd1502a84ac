// entries_scaling_inference.cpp: the fuzz table's entries for scaling/inference.hpp: decode and
// prefill on a replica split across GPUs (checked and validating).
//
// The printing (repr.hpp) and checking (inspect.hpp) of the module's types live here, found by
// argument-dependent lookup through fuzz's own argument types, so this module touches no
// shared harness file but inputs.hpp's draw.
#include <gpucalc/scaling/inference.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

// --- printing ---------------------------------------------------------------------------------
template <>
struct enum_traits<gpucalc::serving_limiter> {
    static constexpr const char* name = "gpucalc::serving_limiter";
    static constexpr int count = 4;
};
template <>
struct enum_traits<gpucalc::communication_regime> {
    static constexpr const char* name = "gpucalc::communication_regime";
    static constexpr int count = 3;
};
template <class F>
void fields(const gpucalc::serving_parallel_assumptions& a,
            const gpucalc::serving_parallel_assumptions& b, F&& f) {
    f("tensor_comm_overlap", a.tensor_comm_overlap, b.tensor_comm_overlap);
    f("pipeline_comm_overlap", a.pipeline_comm_overlap, b.pipeline_comm_overlap);
    f("allow_tensor_parallel_across_nodes", a.allow_tensor_parallel_across_nodes,
      b.allow_tensor_parallel_across_nodes);
    f("micro_batches", a.micro_batches, b.micro_batches);
}
template <>
inline const char* type_name<gpucalc::serving_parallel_assumptions>() {
    return "gpucalc::serving_parallel_assumptions";
}

// --- checking: what each result promises -------------------------------------------------------
inline void inspect_pass(inspector& i, const gpucalc::serving_pass& r) {
    i.count("micro_batches", r.micro_batches);
    i.count("micro_batch", r.micro_batch);
    i.amount("compute_time", r.compute_time);
    i.amount("memory_time", r.memory_time);
    i.amount("roofline_time", r.roofline_time);
    i.enumeration("bound", r.bound, 2);
    i.amount("tensor_comm_time", r.tensor_comm_time);
    i.amount("pipeline_comm_time", r.pipeline_comm_time);
    i.amount("communication_time", r.communication_time);
    i.amount("pass_time", r.pass_time);
    i.amount("stage_time", r.stage_time);
    i.amount("communication_share", r.communication_share);
    i.enumeration("limiter", r.limiter, 4);
    i.enumeration("regime", r.regime, 3);
    i.amount("all_reduce.time", r.all_reduce.time);
    i.amount("all_reduce.latency_term", r.all_reduce.latency_term);
    i.amount("all_reduce.bandwidth_term", r.all_reduce.bandwidth_term);
    i.invariant("pass_time > 0", r.pass_time.value() > 0.0, number_text(r.pass_time.value()));
    i.invariant("pass_time >= roofline_time and >= communication_time",
                r.pass_time >= r.roofline_time && r.pass_time >= r.communication_time,
                number_text(r.pass_time.value()));
    i.invariant("0 <= communication_share <= 1",
                r.communication_share >= 0.0 && r.communication_share <= 1.0,
                number_text(r.communication_share));
    i.invariant("regime none iff no all-reduce",
                (r.regime == gpucalc::communication_regime::none) == (r.all_reduces == 0),
                std::to_string(r.all_reduces));
    i.invariant("micro_batch x micro_batches covers the batch once",
                r.micro_batches >= 1 && r.micro_batch >= 1, std::to_string(r.micro_batches));
}
inline void inspect(inspector& i, const gpucalc::parallel_decode_estimate& r) {
    inspect_pass(i, r);
    i.amount("time_per_token", r.time_per_token);
    i.amount("stream_rate", r.stream_rate);
    i.amount("aggregate_rate", r.aggregate_rate);
    i.invariant("time_per_token >= pass_time", r.time_per_token >= r.pass_time,
                number_text(r.time_per_token.value()));
}
inline void inspect(inspector& i, const gpucalc::parallel_prefill_estimate& r) {
    inspect_pass(i, r);
    i.amount("time_to_first_token", r.time_to_first_token);
    i.amount("prompt_rate", r.prompt_rate);
    i.invariant("time_to_first_token >= pass_time", r.time_to_first_token >= r.pass_time,
                number_text(r.time_to_first_token.value()));
}

void register_scaling_inference(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<serving_limiter>(r, "to_string(serving_limiter)", 4);
    add_enum_to_string<communication_regime>(r, "to_string(communication_regime)", 3);
    const auto args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m, draw::cluster(g), draw::serving(g, m), draw::serving_parallel(g)};
    };
    add(r, "decode_step_time [checked]", "decode_step_time",
        "gpucalc::decode_step_time(gpucalc::check({0}), gpucalc::check({1}), {2}, {3})", args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const serving_parallel_assumptions& a) {
            return decode_step_time(checked(m), checked(c), s, a);
        });
    add(r, "decode_step_time", "decode_step_time", "gpucalc::decode_step_time({0}, {1}, {2}, {3})",
        args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const serving_parallel_assumptions& a) { return decode_step_time(m, c, s, a); });
    add(r, "prefill_time [checked]", "prefill_time",
        "gpucalc::prefill_time(gpucalc::check({0}), gpucalc::check({1}), {2}, {3})", args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const serving_parallel_assumptions& a) {
            return prefill_time(checked(m), checked(c), s, a);
        });
    add(r, "prefill_time", "prefill_time", "gpucalc::prefill_time({0}, {1}, {2}, {3})", args,
        [](const transformer& m, const cluster& c, const serving_setup& s,
           const serving_parallel_assumptions& a) { return prefill_time(m, c, s, a); });
}

}  // namespace fuzz
