// entries_scaling_step.cpp: the fuzz table's entries for scaling/step.hpp: the training step
// time of a parallel job (checked and validating), the time to train a token budget and what the
// run costs at the step's pace (cost/run.hpp's training_cost(step, ...)).
//
// The printing (fields, type_name) and checking (inspect) of the module's types live here,
// found by argument-dependent lookup, as entries_collectives.cpp does.
#include <gpucalc/cost/run.hpp>
#include <gpucalc/scaling/step.hpp>

#include <string>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

// --- printing the new input type ---------------------------------------------------------------
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::step_assumptions& a, const gpucalc::step_assumptions& b, F&& f) {
    FUZZ_FIELD(gemm_efficiency); FUZZ_FIELD(memory_efficiency); FUZZ_FIELD(gemm_tile_rows);
    FUZZ_FIELD(gemm_tile_columns); FUZZ_FIELD(attention_forward_efficiency);
    FUZZ_FIELD(attention_backward_efficiency); FUZZ_FIELD(tensor_comm_overlap);
    FUZZ_FIELD(pipeline_comm_overlap); FUZZ_FIELD(expert_comm_overlap);
    FUZZ_FIELD(data_parallel_overlap); FUZZ_FIELD(parameter_gather_overlap);
    FUZZ_FIELD(context_comm_overlap); FUZZ_FIELD(bucket_bytes);
    FUZZ_FIELD(fused_gradient_accumulation); FUZZ_FIELD(gemm_epilogue_overlap);
    FUZZ_FIELD(allow_tensor_parallel_across_nodes);
    FUZZ_FIELD(fused_optimizer_step); FUZZ_FIELD(gradient_clipping);
    FUZZ_FIELD(pipeline_scatter_gather);
    FUZZ_FIELD(loss_forward_bytes_per_logit); FUZZ_FIELD(loss_backward_bytes_per_logit);
}
template <class F>
void fields(const gpucalc::training_step& a, const gpucalc::training_step& b, F&& f) {
    FUZZ_FIELD(time); FUZZ_FIELD(microbatches);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::step_assumptions>() { return "gpucalc::step_assumptions"; }
template <>
inline const char* type_name<gpucalc::training_step>() { return "gpucalc::training_step"; }

// --- checking the new result -------------------------------------------------------------------
inline void inspect(inspector& i, const gpucalc::training_step& s) {
    i.amount("time", s.time);
    i.amount("compute", s.compute);
    i.amount("recompute", s.recompute);
    i.amount("tensor_comm", s.tensor_comm);
    i.amount("pipeline_comm", s.pipeline_comm);
    i.amount("expert_comm", s.expert_comm);
    i.amount("context_comm", s.context_comm);
    i.amount("data_comm", s.data_comm);
    i.amount("bubble", s.bubble);
    i.amount("optimizer", s.optimizer);
    i.count("microbatches", s.microbatches);
    i.amount("bubble_fraction", s.bubble_fraction);
    i.amount("forward_per_microbatch", s.forward_per_microbatch);
    i.amount("backward_per_microbatch", s.backward_per_microbatch);
    i.count("slowest_stage", s.slowest_stage);
    i.count("gpus", s.gpus);
    i.amount("tokens_per_second", s.tokens_per_second);
    i.amount("mfu", s.mfu);
    i.amount("hfu", s.hfu);
    i.nested("memory", [&] { inspect(i, s.memory); });
    i.nested("memory_fit", [&] { inspect(i, s.memory_fit); });
    const double terms = (s.compute + s.recompute + s.tensor_comm + s.pipeline_comm +
                          s.expert_comm + s.context_comm + s.data_comm + s.bubble + s.optimizer)
                             .value();
    i.invariant("time > 0 and the terms sum to it",
                s.time.value() > 0.0 &&
                    !(terms > s.time.value() * (1.0 + 1e-12)) &&
                    !(terms < s.time.value() * (1.0 - 1e-12)),
                number_text(terms) + " vs " + number_text(s.time.value()));
    i.invariant("microbatches >= 1", s.microbatches >= 1, std::to_string(s.microbatches));
    i.invariant("gpus >= 1", s.gpus >= 1, std::to_string(s.gpus));
    i.invariant("hfu >= mfu > 0", s.mfu > 0.0 && s.hfu >= s.mfu,
                number_text(s.mfu) + ", " + number_text(s.hfu));
    i.invariant("compute > 0", s.compute.value() > 0.0);
}

// --- the property: nodes the layout leaves idle change nothing ---------------------------------
/// A step on a cluster just large enough for its layout, and the same step on that cluster
/// with idle nodes added.
struct idle_nodes_probe {
    gpucalc::training_step used;
    gpucalc::training_step with_idle;
};
template <>
inline const char* type_name<idle_nodes_probe>() { return "fuzz::idle_nodes_probe"; }

inline void inspect(inspector& i, const idle_nodes_probe& p) {
    i.nested("used", [&] { inspect(i, p.used); });
    i.invariant("nodes the layout leaves idle change no term of the step",
                same_step(p.used, p.with_idle),
                number_text(p.used.time.value()) + " s vs " +
                    number_text(p.with_idle.time.value()) + " s with idle nodes (data_comm " +
                    number_text(p.used.data_comm.value()) + " vs " +
                    number_text(p.with_idle.data_comm.value()) + ")");
}

void register_scaling_step(registry& r) {
    using namespace gpucalc;
    const auto step_args = [](generator& g) {
        const transformer m = draw::model(g);
        const training_strategy s = draw::step_strategy(g, m);
        return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s,
                          draw::step_assumptions(g)};
    };
    add(r, "training_step_time [checked]", "training_step_time",
        "gpucalc::training_step_time(gpucalc::check({0}), gpucalc::check({1}), {2}, {3}, {4})",
        step_args,
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s, const step_assumptions& a) {
            return training_step_time(checked(m), checked(c), j, s, a);
        });
    add(r, "training_step_time [transformer, cluster]", "training_step_time",
        "gpucalc::training_step_time({0}, {1}, {2}, {3}, {4})", step_args,
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s, const step_assumptions& a) {
            return training_step_time(m, c, j, s, a);
        });
    // The property: the layout's step on the fewest nodes that hold it equals its step on a
    // cluster with 1, 3 or 64 more nodes (the placement follows the rank order alone).
    add(r, "training_step_time [idle nodes]", "training_step_time",
        "gpucalc::training_step_time({0}, {1}, {2}, {3}, {4}) and on {1} with {5} more nodes",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::step_strategy(g, m);
            static constexpr std::int64_t idle[] = {1, 3, 64};
            return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s,
                              draw::step_assumptions(g), g.one_of(idle)};
        },
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s, const step_assumptions& a, std::int64_t idle) {
            (void)checked(c);  // a cluster check() rejects is skipped: its node size is read
            const std::int64_t node_gpus = c.node.gpus_per_node;
            const std::int64_t gpus = setup([&] { return gpus_of(s.parallel); });
            const std::int64_t needed = (gpus + node_gpus - 1) / node_gpus;
            if (needed > (std::int64_t{1} << 20)) throw skip_call{};
            cluster fewest = c;
            fewest.nodes = static_cast<std::int64_t>(needed);
            cluster more = fewest;
            more.nodes += idle;
            return idle_nodes_probe{training_step_time(m, fewest, j, s, a),
                                    setup([&] { return training_step_time(m, more, j, s, a); })};
        });
    add(r, "scaling_efficiency", "scaling_efficiency",
        "gpucalc::scaling_efficiency(gpucalc::training_step_time({0}, {1}, {2}, {3}), "
        "gpucalc::training_step_time({0}, {1}, {2}, {4}))",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::step_strategy(g, m);
            training_strategy half = s;
            if (half.parallel.data % 2 == 0) half.parallel.data /= 2;
            return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s, half};
        },
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s, const training_strategy& half) {
            const training_step step = setup([&] { return training_step_time(m, c, j, s); });
            training_job reference_job = j;
            if (half.parallel.data != s.parallel.data) reference_job.global_batch /= 2;
            const training_step reference =
                setup([&] { return training_step_time(m, c, reference_job, half); });
            return scaling_efficiency(step, reference);
        });
    add(r, "time_to_train [training_step]", "time_to_train",
        "gpucalc::time_to_train(gpucalc::training_step_time({0}, {1}, {2}, {3}), {4})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::step_strategy(g, m);
            return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s,
                              g.q<token_count>(typical::training_tokens)};
        },
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s, const token_count& tokens) {
            const training_step step = setup([&] { return training_step_time(m, c, j, s); });
            return time_to_train(step, tokens);
        });
    add(r, "training_cost [training_step]", "training_cost",
        "gpucalc::training_cost(gpucalc::training_step_time({0}, {1}, {2}, {3}), {4}, {5})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::step_strategy(g, m);
            return std::tuple{m, draw::step_cluster(g, s), draw::step_job(g, s), s,
                              g.q<token_count>(typical::training_tokens),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const transformer& m, const cluster& c, const training_job& j,
           const training_strategy& s, const token_count& tokens, const gpu_price& price) {
            const training_step step = setup([&] { return training_step_time(m, c, j, s); });
            return training_cost(step, tokens, price);
        });
}

}  // namespace fuzz
