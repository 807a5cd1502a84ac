// scaling/step_search.hpp: the reference of a scaling efficiency: the fewest GPUs of a cluster
// on which a training job fits, and the fastest layout that fits there
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware/cluster.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../workload.hpp"
#include "step.hpp"
#include "step_compute.hpp"
#include "step_layout.hpp"

namespace gpucalc {

/// What smallest_fitting_step found. `found` false is an answer, not an error: no layout fits
/// on any GPU count the cluster offers (its `nodes` is the cap).
struct fitting_step {
    bool found = false;
    std::int64_t gpus = 0;           ///< the smallest count tried on which a layout fits; 0 if none
    std::int64_t nodes = 0;          ///< the nodes those GPUs occupy (1 below a whole node)
    training_strategy strategy{};    ///< the fastest fitting layout at that count
    training_step step{};            ///< its step (training_step_time); zero if none
    std::int64_t largest_gpus_tried = 0;  ///< the last count searched: the cap when none fits
    std::int64_t layouts_tried = 0;       ///< layouts evaluated (fitting or not)
};

namespace detail {

/// The next GPU count smallest_fitting_step tries after `n` on nodes of `node_gpus` GPUs and a
/// cluster of `all` GPUs: powers of two below a node, then a whole node, then whole nodes
/// doubling, then the whole cluster; 0 past it (derived: the counts Megatron-LM's layouts
/// divide evenly, as every degree there is a power of two or a divisor of the node).
constexpr std::int64_t next_search_count(std::int64_t n, std::int64_t node_gpus,
                                         std::int64_t all) {
    std::int64_t next = 0;
    if (n < node_gpus) {
        next = 2 * n < node_gpus ? 2 * n : node_gpus;
    } else {
        next = 2 * n;
    }
    if (n >= all) return 0;
    return next < all ? next : all;
}

/// Whether the searched layout `par` on `gpus` GPUs passes every rule training_step_time
/// applies that the search's own choices could break (the template's fields were checked
/// once): TP splits the heads and divides the node's GPUs, PP divides the layers, EP divides
/// DP, interleaving leaves a layer a chunk, and the global batch is whole micro-batches on
/// every DP rank.
constexpr bool searched_layout_ok(const checked_model& cm, const training_job& job,
                                  const training_strategy& s, std::int64_t node_gpus) {
    const parallel_layout& p = s.parallel;
    const std::int64_t layers = cm.spec().layers;
    if (!tensor_parallel_allowed(cm, p.tensor) || !divides(p.tensor, node_gpus)) return false;
    if (!divides(p.pipeline, layers) || !divides(p.expert, p.data)) return false;
    if (p.interleave > 1 && (p.pipeline == 1 || p.interleave > layers / p.pipeline)) return false;
    // micro_batch × data, formed only once it is known not to exceed the global batch.
    if (s.micro_batch > job.global_batch / p.data) return false;
    return job.global_batch % (s.micro_batch * p.data) == 0;
}

/// The template's fields the search keeps, checked once as training_step_time would check
/// them on the smallest layout (TP 1, PP 1, DP = EP), naming `function`.
constexpr void check_search_template(const checked_model& cm, const training_job& job,
                                     const training_strategy& s, const step_assumptions& a,
                                     const char* function) {
    check_step_batch(job, s, function);
    require_degree(layout_path{function, "strategy.parallel."}, "@context_parallel",
                   s.parallel.context_parallel);
    require_degree(layout_path{function, "strategy.parallel."}, "@expert", s.parallel.expert);
    training_strategy probe = s;
    probe.parallel.tensor = 1;
    probe.parallel.pipeline = 1;
    probe.parallel.data = s.parallel.expert;
    probe.parallel.interleave = 1;
    training_job unbatched = job;
    unbatched.global_batch = 0;  // the search keeps it whole per layout (searched_layout_ok)
    check(cm, unbatched, probe, function);
    check(job.overhead, function);
    if (s.parallel.interleave < 1 || s.parallel.interleave > largest_count) {
        throw_invalid(function, "strategy.parallel.interleave",
                      static_cast<double>(s.parallel.interleave), "", "must be in [1, 2^40]");
    }
    check_step_modelled(job, s, function);
    check(a, function);
}

/// Calls visit(d) for each divisor d of `n` >= 1: d = 1, n, 2, n ÷ 2, ... (pairs up to √n).
template <class Visit>
constexpr void for_each_divisor(std::int64_t n, Visit&& visit) {
    for (std::int64_t d = 1; d <= n / d; ++d) {
        if (!divides(d, n)) continue;
        visit(d);
        if (d != n / d) visit(n / d);
    }
}

/// The fastest fitting layout on exactly `gpus` GPUs of `sub` (a cluster of just enough
/// nodes), written into `best`; false when none fits. TP runs over the divisors of
/// gcd(gpus_per_node, gpus), PP over the divisors of gcd(layers, gpus ÷ TP), DP is the rest;
/// ties keep the first found, in for_each_divisor's order.
GPUCALC_DETAIL_INLINE constexpr bool fastest_fitting_at(const checked_model& cm,
                                                        const checked_cluster& sub,
                                                        const training_job& job,
                                                        const training_strategy& s,
                                                        const step_assumptions& a,
                                                        std::int64_t gpus, fitting_step& best,
                                                        const char* function) {
    const std::int64_t node_gpus = sub.spec().node.gpus_per_node;
    const std::int64_t tp_span = common_divisor(node_gpus, gpus);
    bool any = false;
    const std::int64_t cp = s.parallel.context_parallel;
    const auto try_layout = [&](std::int64_t tp, std::int64_t pp) {
        training_strategy c = s;
        c.parallel.tensor = tp;
        c.parallel.pipeline = pp;
        c.parallel.data = gpus / (tp * pp * cp);
        if (pp == 1) c.parallel.interleave = 1;
        if (!searched_layout_ok(cm, job, c, node_gpus)) return;
        training_step step = step_time_of(cm, sub, job, c, a, function);
        ++best.layouts_tried;
        if (!step.memory_fit.ok) return;
        if (!any || step.time < best.step.time) {
            best.strategy = c;
            best.step = step;
            any = true;
        }
    };
    // Divisors in pairs (d, span ÷ d), d up to √span: O(√span) trials each.
    // The template's CP is kept: it must divide what TP leaves.
    for_each_divisor(tp_span, [&](std::int64_t tp) {
        if (!divides(cp, gpus / tp)) return;
        const std::int64_t pp_span = common_divisor(cm.spec().layers, gpus / (tp * cp));
        for_each_divisor(pp_span, [&](std::int64_t pp) { try_layout(tp, pp); });
    });
    return any;
}

/// smallest_fitting_step for a checked model and cluster.
GPUCALC_DETAIL_INLINE constexpr fitting_step smallest_fitting_of(const checked_model& cm,
                                                                 const checked_cluster& c,
                                                                 const training_job& job,
                                                                 const training_strategy& s,
                                                                 const step_assumptions& a,
                                                                 const char* function) {
    check_search_template(cm, job, s, a, function);
    const std::int64_t node_gpus = c.spec().node.gpus_per_node;
    const std::int64_t all = total_gpus(c);
    fitting_step r{};
    for (std::int64_t n = 1; n != 0; n = next_search_count(n, node_gpus, all)) {
        r.largest_gpus_tried = n;
        cluster part = c.spec();
        const std::int64_t nodes = n <= node_gpus ? 1 : n / node_gpus;
        part.nodes = nodes;
        const checked_cluster sub = check_cluster(part, function);
        if (fastest_fitting_at(cm, sub, job, s, a, n, r, function)) {
            r.found = true;
            r.gpus = n;
            r.nodes = nodes;
            return r;
        }
    }
    return r;
}

}  // namespace detail

/// The reference of a scaling efficiency (the smallest number of GPUs on which the job fits, at
/// the same micro-batch per GPU, since one GPU cannot hold a large model): the
/// fewest GPUs of `cluster` on which some layout of `job` fits in memory (training_step's
/// memory_fit.ok), and the fastest such layout there. Counts tried, in order: powers of two
/// below a node (on one node), one node, whole nodes doubling, then the whole cluster (its
/// `nodes` is the cap). At each count: TP over the divisors of gpus_per_node, PP over the
/// divisors of the layers, DP the rest; the template's micro-batch, recompute, ZeRO stage,
/// sequence parallelism, CP, EP and interleave are kept (CP only where it divides what TP
/// leaves of the count; interleave only with PP > 1, a layer a chunk); its tensor, pipeline
/// and data are ignored. The global batch stays the job's: a
/// layout whose micro_batch × DP does not divide it is skipped (derived). No heap allocation.
/// Ranges: the model's; the cluster's; the job's and template's as training_step_time's, with
/// job.global_batch stated and strategy.micro_batch at most it, no LoRA or offload; the
/// assumptions'. found false when
/// nothing fits up to the whole cluster.
GPUCALC_DETAIL_HOT constexpr fitting_step smallest_fitting_step(const checked_model& m,
                                                                const checked_cluster& cluster,
                                                                const training_job& job,
                                                                const training_strategy& strategy,
                                                                const step_assumptions& a = {}) {
    return detail::smallest_fitting_of(m, cluster, job, strategy, a, "smallest_fitting_step");
}

/// The same for a model and cluster not yet checked: checks them first.
constexpr fitting_step smallest_fitting_step(const transformer& m, const cluster& cluster,
                                             const training_job& job,
                                             const training_strategy& strategy,
                                             const step_assumptions& a = {}) {
    constexpr const char* function = "smallest_fitting_step";
    return detail::smallest_fitting_of(check(m, function),
                                       detail::check_cluster(cluster, function), job, strategy,
                                       a, function);
}

/// scaling_efficiency(step, reference.step) for a reference smallest_fitting_step found.
/// Ranges: reference.found true (invalid_input otherwise: there is no reference); the steps as
/// scaling_efficiency(training_step, training_step) takes them.
constexpr double scaling_efficiency(const training_step& step, const fitting_step& reference) {
    if (!reference.found) {
        detail::throw_invalid("scaling_efficiency", "reference.found", 0.0, "",
                              "must be true: no layout fits, so there is no reference");
    }
    return scaling_efficiency(step, reference.step);
}

}  // namespace gpucalc
