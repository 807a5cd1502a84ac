// inspect.hpp: what each result of the library promises, field by field: which fields are sizes,
// durations, costs or counts (finite and >= 0), which are documented signed margins (finite),
// which are meaningful only when a flag in the same result says so, and the few relations
// between fields that the results document.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <typeinfo>

#include "fuzz.hpp"
#include "repr.hpp"

namespace fuzz {

/// "std::length_error: basic_string::_M_create", the exception's type demangled.
inline std::string exception_text(const std::exception& e) {
    const char* mangled = typeid(e).name();
    int status = 0;
    char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string text = status == 0 && demangled != nullptr ? demangled : mangled;
    std::free(demangled);
    return text + ": " + e.what();
}

// ---------------------------------------------------------------------------------------------
// Plain values.
// ---------------------------------------------------------------------------------------------
inline void inspect(inspector& i, double v) { i.amount("result", v); }
inline void inspect(inspector& i, std::int64_t v) { i.count("result", v); }
inline void inspect(inspector& i, bool v) { i.flag("result", v); }
/// An enum's to_string: "unknown" is its explicit answer for a value outside the enum.
inline void inspect(inspector& i, std::string_view v) {
    i.text("result", v);
    if (v == "unknown") i.explicit_unknown = true;
}
inline void inspect(inspector& i, const std::string& v) { inspect(i, std::string_view(v)); }
template <class Unit>
void inspect(inspector& i, const boost::units::quantity<Unit, double>& q) {
    i.amount("result", q);
}
/// Printed text: a finite value never reads "nan" or "inf".
inline void inspect(inspector& i, const printed& p) {
    i.text("text", p.text);
    if (p.finite_input && (p.text.find("nan") != std::string::npos ||
                           p.text.find("inf") != std::string::npos)) {
        i.add("prints nan or inf for a finite value", p.what, "\"" + p.text + "\"");
    }
    if (p.text.empty()) i.add("prints nothing", p.what, "");
}
inline void inspect(inspector& i, const gpucalc::kernel_efficiency& e) {
    i.amount("compute", e.compute);
    i.amount("memory", e.memory);
}
inline double raw_value(double v) { return v; }
template <class Unit>
double raw_value(const boost::units::quantity<Unit, double>& q) {
    return q.value();
}
/// approx(): the expected value is the caller's, whatever it is; the tolerance was checked.
template <class T>
void inspect(inspector& i, const gpucalc::approx_value<T>& a) {
    i.word(bits_of(raw_value(a.expected())));
    i.amount("relative_tolerance", a.relative_tolerance());
}

// ---------------------------------------------------------------------------------------------
// Hardware.
// ---------------------------------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::link_spec& l) {
    i.text("name", l.name);
    i.amount("per_direction", l.per_direction);
    i.amount("latency", l.latency);
    i.count("span", l.span);
    i.amount("collective_efficiency", l.collective_efficiency);
    i.amount("base_latency", l.base_latency);
}
inline void inspect(inspector& i, const gpucalc::checked_cluster& c) {
    i.count("total_gpus", gpucalc::total_gpus(c));
    i.nested("intra_node_link", [&] { inspect(i, gpucalc::intra_node_link(c)); });
    i.amount("node_network_bandwidth", gpucalc::node_network_bandwidth(c));
}

// ---------------------------------------------------------------------------------------------
// Model.
// ---------------------------------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::parameter_counts& c) {
    i.count("embedding", c.embedding);
    i.count("attention", c.attention);
    i.count("mlp", c.mlp);
    i.count("router", c.router);
    i.count("norms", c.norms);
    i.count("lm_head", c.lm_head);
    i.count("total", c.total);
    i.count("active", c.active);
    i.count("per_layer", c.per_layer);
    i.invariant("active <= total", c.active <= c.total,
                std::to_string(c.active) + " > " + std::to_string(c.total));
    // check(transformer) documents that it rejects a model whose count would pass 2^53.
    i.invariant("total < 2^53 (check's documented bound)", c.total < (std::int64_t{1} << 53),
                std::to_string(c.total));
}
inline void inspect(inspector& i, const gpucalc::layer_parameters& p) {
    i.count("attention_weights", p.attention_weights);
    i.count("attention_biases", p.attention_biases);
    i.count("expert_weights", p.expert_weights);
    i.count("expert_biases", p.expert_biases);
    i.count("router", p.router);
    i.count("norm", p.norm);
}
inline void inspect(inspector& i, const gpucalc::checked_model& m) {
    i.count("kv_heads()", m.kv_heads());
    i.count("head_dim()", m.head_dim());
    i.count("q_width()", m.q_width());
    i.count("kv_width()", m.kv_width());
    i.nested("layer()", [&] { inspect(i, m.layer()); });
    i.nested("parameters()", [&] { inspect(i, m.parameters()); });
}
inline void inspect(inspector& i, const gpucalc::forward_flops& f) {
    i.amount("layers", f.layers);
    i.amount("attention", f.attention);
    i.amount("lm_head", f.lm_head);
    i.amount("total", f.total);
}
inline void inspect(inspector& i, const gpucalc::training_flops& f) {
    i.amount("model", f.model);
    i.amount("hardware", f.hardware);
}
inline void inspect_work(inspector& i, const gpucalc::work_cost& w) {
    i.amount("forward_gemm", w.forward_gemm);
    i.amount("forward_attention", w.forward_attention);
    i.amount("backward_gemm", w.backward_gemm);
    i.amount("backward_attention", w.backward_attention);
    i.amount("weights", w.weights);
    i.amount("gradients", w.gradients);
    i.amount("expert_gradients", w.expert_gradients);
    i.amount("tensor_all_reduce", w.tensor_all_reduce);
    i.amount("sequence_all_gather", w.sequence_all_gather);
    i.amount("sequence_reduce_scatter", w.sequence_reduce_scatter);
    i.amount("expert_all_to_all", w.expert_all_to_all);
}
inline void inspect(inspector& i, const gpucalc::layer_cost& c) {
    inspect_work(i, c);
    i.amount("output_activations", c.output_activations);
}
inline void inspect(inspector& i, const gpucalc::stage_cost& c) {
    inspect_work(i, c);
    i.count("layers", c.layers);
    i.amount("weights_read", c.weights_read);
    i.amount("boundary_activations", c.boundary_activations);
}

// ---------------------------------------------------------------------------------------------
// Memory.
// ---------------------------------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::inference_memory& m) {
    i.amount("weights", m.weights);
    i.amount("kv_cache", m.kv_cache);
    i.amount("activations", m.activations);
    i.amount("overhead", m.overhead);
    i.amount("total", m.total);
    i.amount("kv_cache_per_token", m.kv_cache_per_token);
    i.count("cached_tokens_per_sequence", m.cached_tokens_per_sequence);
}
inline void inspect(inspector& i, const gpucalc::training_memory& m) {
    i.amount("weights", m.weights);
    i.amount("gradients", m.gradients);
    i.amount("optimizer_states", m.optimizer_states);
    i.amount("activations", m.activations);
    i.amount("overhead", m.overhead);
    i.amount("total", m.total);
    i.amount("host_memory", m.host_memory);
    i.amount("activations_per_layer", m.activations_per_layer);
}
inline void inspect(inspector& i, const gpucalc::model_states& m) {
    i.amount("weights", m.weights);
    i.amount("gradients", m.gradients);
    i.amount("optimizer_states", m.optimizer_states);
}
/// fit_verdict: the margin is signed by definition; `ok` says whether it is >= 0.
inline void inspect(inspector& i, const gpucalc::fit_verdict& v) {
    i.flag("ok", v.ok);
    i.finite("margin", v.margin);
    i.amount("usable", v.usable);
    i.amount("required", v.required);
    i.invariant("ok == (margin >= 0)", v.ok == (v.margin.value() >= 0.0),
                "ok = " + std::string(v.ok ? "true" : "false") + ", margin = " +
                    number_text(v.margin.value()));
}
inline void inspect(inspector& i, const gpucalc::serving_fit& f) {
    i.enumeration("outcome", f.outcome, 3);
    i.count("tensor_parallel", f.tensor_parallel);
    i.count("gpus", f.gpus);
    i.nested("verdict", [&] { inspect(i, f.verdict); });
    i.invariant("outcome == found implies verdict.ok",
                f.outcome != gpucalc::fit_outcome::found || f.verdict.ok);
}
inline void inspect(inspector& i, const gpucalc::training_fit& f) {
    i.enumeration("outcome", f.outcome, 3);
    i.count("data_parallel", f.data_parallel);
    i.count("gpus", f.gpus);
    i.nested("verdict", [&] { inspect(i, f.verdict); });
    i.invariant("outcome == found implies verdict.ok",
                f.outcome != gpucalc::fit_outcome::found || f.verdict.ok);
}
/// smallest_mig_profile's answer, with the GPU it chose from: null ("none holds it") or one of
/// the GPU's own profiles.
struct mig_choice {
    const gpucalc::mig_profile* chosen;
    const gpucalc::gpu_spec* gpu;
};
inline void inspect(inspector& i, const mig_choice& c) {
    if (c.chosen == nullptr) {
        i.no_answer("result");
        return;
    }
    const std::ptrdiff_t index = c.gpu->mig == nullptr ? -1 : c.chosen - c.gpu->mig;
    i.count("result - gpu.mig", index);
    i.invariant("result points into gpu.mig[0 .. mig_count)",
                index >= 0 && index < c.gpu->mig_count, std::to_string(index));
}

// ---------------------------------------------------------------------------------------------
// Roofline.
// ---------------------------------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::op_cost& c) {
    i.amount("flops", c.flops);
    i.amount("bytes", c.bytes);
}
inline void inspect(inspector& i, const gpucalc::op_timing& t) {
    i.amount("time", t.time);
    i.amount("compute_time", t.compute_time);
    i.amount("memory_time", t.memory_time);
    i.enumeration("bound", t.bound, 2);
    i.amount("intensity", t.intensity);
    i.amount("attained", t.attained);
}
inline void inspect(inspector& i, const gpucalc::decode_estimate& d) {
    i.amount("time_per_token", d.time_per_token);
    i.amount("stream_rate", d.stream_rate);
    i.amount("aggregate_rate", d.aggregate_rate);
    i.enumeration("bound", d.bound, 2);
    i.amount("flops", d.flops);
    i.amount("bytes", d.bytes);
    i.amount("weight_bytes", d.weight_bytes);
    i.amount("kv_bytes", d.kv_bytes);
    i.amount("compute_time", d.compute_time);
    i.amount("memory_time", d.memory_time);
    i.invariant("time_per_token > 0", d.time_per_token.value() > 0.0,
                number_text(d.time_per_token.value()));
}
inline void inspect(inspector& i, const gpucalc::compute_bound_crossover& c) {
    i.flag("reached", c.reached);
    if (c.reached) {
        i.count("batch", c.batch);
        i.invariant("reached implies batch >= 1", c.batch >= 1, std::to_string(c.batch));
    } else {
        i.no_answer("batch");
    }
}
inline void inspect(inspector& i, const gpucalc::prefill_estimate& p) {
    i.amount("time_to_first_token", p.time_to_first_token);
    i.enumeration("bound", p.bound, 2);
    i.amount("flops", p.flops);
    i.amount("bytes", p.bytes);
    i.amount("compute_time", p.compute_time);
    i.amount("memory_time", p.memory_time);
    i.invariant("time_to_first_token > 0", p.time_to_first_token.value() > 0.0,
                number_text(p.time_to_first_token.value()));
}
inline void inspect(inspector& i, const gpucalc::model_utilization& u) {
    i.amount("mbu", u.mbu);
    i.amount("mfu", u.mfu);
}
inline void inspect(inspector& i, const gpucalc::plausibility& p) {
    i.flag("possible", p.possible);
    i.amount("claimed", p.claimed);
    i.amount("ceiling", p.ceiling);
    i.amount("fraction_of_ceiling", p.fraction_of_ceiling);
    i.enumeration("bound", p.bound, 2);
}

// ---------------------------------------------------------------------------------------------
// Cost.
// ---------------------------------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::rack_density& r) {
    i.amount("per_rack", r.per_rack);
    i.flag("needs_liquid_cooling", r.needs_liquid_cooling);
}
/// flex_start_verdict: breakeven_delay_cost is meaningful only when `delayed`.
inline void inspect(inspector& i, const gpucalc::flex_start_verdict& v) {
    i.amount("saving", v.saving);
    i.flag("delayed", v.delayed);
    if (v.delayed) {
        i.amount("breakeven_delay_cost", v.breakeven_delay_cost);
    } else {
        i.no_answer("breakeven_delay_cost");
    }
}
inline void inspect(inspector& i, const gpucalc::region_choice& c) {
    i.count("index", static_cast<std::int64_t>(c.index));
    i.amount("total", c.total);
}
inline void inspect(inspector& i, const gpucalc::training_cost_estimate& e) {
    i.amount("time", e.time);
    i.amount("usage", e.usage);
    i.amount("cost", e.cost);
}
/// spot_cost's answer with the job it was asked about: the wall time includes the work.
struct spot_answer {
    gpucalc::spot_estimate estimate;
    gpucalc::duration work;
};
inline void inspect(inspector& i, const spot_answer& a) {
    const gpucalc::spot_estimate& e = a.estimate;
    i.amount("interval", e.interval);
    i.amount("wall_time", e.wall_time);
    i.amount("overhead", e.overhead);
    i.amount("preemptions", e.preemptions);
    i.amount("checkpointing", e.checkpointing);
    i.amount("restarting", e.restarting);
    i.amount("lost_work", e.lost_work);
    i.amount("spot_cost", e.spot_cost);
    i.amount("on_demand_cost", e.on_demand_cost);
    i.flag("spot_is_cheaper", e.spot_is_cheaper);
    i.invariant("wall_time >= work", e.wall_time >= a.work,
                number_text(e.wall_time.value()) + " s < " + number_text(a.work.value()) + " s");
}
inline void inspect(inspector& i, const gpucalc::ownership_cost& c) {
    i.amount("capital", c.capital);
    i.amount("operations", c.operations);
    i.amount("idle_power", c.idle_power);
    i.amount("active_power", c.active_power);
}
/// breakeven: `utilization` is +inf or above 1 when not `reached` (documented), and `payback`
/// is meaningful only when `pays_back`.
inline void inspect(inspector& i, const gpucalc::breakeven& b) {
    i.flag("reached", b.reached);
    if (b.reached) {
        i.amount("utilization", b.utilization);
        i.invariant("reached implies utilization <= 1", b.utilization <= 1.0,
                    number_text(b.utilization));
    } else {
        i.word(bits_of(b.utilization));
        i.invariant("not reached implies utilization > 1 or +inf", b.utilization > 1.0,
                    number_text(b.utilization));
    }
    i.amount("owned_at_full", b.owned_at_full);
    i.flag("pays_back", b.pays_back);
    if (b.pays_back) {
        i.amount("payback", b.payback);
    } else {
        i.no_answer("payback");
    }
}
inline void inspect(inspector& i, const gpucalc::cumulative_cost& c) {
    i.amount("owned", c.owned);
    i.amount("rented", c.rented);
}
/// hybrid_capacity: the two savings are documented differences (all_cloud − total, all_owned −
/// total), signed.
inline void inspect(inspector& i, const gpucalc::hybrid_capacity& h) {
    i.amount("owned", h.owned);
    i.amount("total", h.total);
    i.amount("all_cloud", h.all_cloud);
    i.amount("all_owned", h.all_owned);
    i.finite("saving_vs_cloud", h.saving_vs_cloud);
    i.finite("saving_vs_owned", h.saving_vs_owned);
}

/// Every term of two training steps, bit for bit: the step, its parts, its rates and its memory.
inline bool same_step(const gpucalc::training_step& a, const gpucalc::training_step& b) {
    const auto same = [](double x, double y) { return bits_of(x) == bits_of(y); };
    return same(a.time.value(), b.time.value()) && same(a.compute.value(), b.compute.value()) &&
           same(a.recompute.value(), b.recompute.value()) &&
           same(a.tensor_comm.value(), b.tensor_comm.value()) &&
           same(a.pipeline_comm.value(), b.pipeline_comm.value()) &&
           same(a.expert_comm.value(), b.expert_comm.value()) &&
           same(a.context_comm.value(), b.context_comm.value()) &&
           same(a.data_comm.value(), b.data_comm.value()) &&
           same(a.bubble.value(), b.bubble.value()) &&
           same(a.optimizer.value(), b.optimizer.value()) &&
           same(a.forward_per_microbatch.value(), b.forward_per_microbatch.value()) &&
           same(a.backward_per_microbatch.value(), b.backward_per_microbatch.value()) &&
           same(a.tokens_per_second.value(), b.tokens_per_second.value()) &&
           same(a.mfu, b.mfu) && same(a.hfu, b.hfu) &&
           same(a.memory.total.value(), b.memory.total.value()) &&
           a.memory_fit.ok == b.memory_fit.ok && a.microbatches == b.microbatches &&
           a.slowest_stage == b.slowest_stage && a.gpus == b.gpus;
}

}  // namespace fuzz
