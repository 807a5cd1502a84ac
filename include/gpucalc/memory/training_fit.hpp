// memory/training_fit.hpp: the decisions a scheduler asks of a training job's memory: the
// fewest GPUs a ZeRO-sharded job fits on, and the largest micro-batch
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../parallelism.hpp"
#include "../workload.hpp"
#include "fit.hpp"
#include "training.hpp"

namespace gpucalc {
namespace detail {
/// Calls `visit(d)` for each divisor d of `n` (in [1, 2^40]) in increasing order, up to
/// `limit`, until a call returns true; returns whether one did. Trial division up to √n, then
/// the cofactors of the divisors found, in reverse order: at most 2·min(√n, limit)
/// divisibility tests (2^21 at the extremes, a few milliseconds), no allocation, and one visit
/// per divisor (a number below 2^40 has at most 6,720 divisors).
template <class Visit>
constexpr bool for_each_divisor(std::int64_t n, std::int64_t limit, Visit visit) {
    std::int64_t root = 1;  // the largest d with d² <= n
    for (std::int64_t d = 1; d * d <= n; ++d) {
        root = d;
        if (d > limit) return false;
        if (divides(d, n) && visit(d)) return true;
    }
    for (std::int64_t d = root; d >= 1; --d) {
        if (!divides(d, n)) continue;
        const std::int64_t cofactor = exact_quotient(n, d);
        if (cofactor == d) continue;  // √n, visited above
        if (cofactor > limit) return false;
        if (visit(cofactor)) return true;
    }
    return false;
}
}  // namespace detail

/// The smallest data-parallel degree at which a ZeRO-sharded job fits (tensor, pipeline,
/// context and expert degrees as given): model states shrink with the data-parallel degree
/// under ZeRO, so this is the minimum number of GPUs for that strategy. Without sharding
/// (stage 0) more data-parallel GPUs never help, and the answer is the one degree tried.
/// When the job states a global batch, only degrees that split it into whole micro-batches are
/// tried.
struct training_fit {
    fit_outcome outcome = fit_outcome::too_large_at_limit;
    std::int64_t data_parallel = 0;
    std::int64_t gpus = 0;  ///< data × tensor × pipeline × context_parallel
    fit_verdict verdict{};
};

/// Ranges: the model's (check()); the job's and the strategy's (see training_job and
/// training_strategy; parallel.data is replaced by each degree tried); `gpu.memory` in
/// data_size's input range; `headroom` in [0, 1); `max_data_parallel` in [1, 2^40]. Degrees
/// tried are multiples of parallel.expert up to max_data_parallel, and no more than keep the
/// job's GPUs within 2^40. Without a global batch the search bisects (about 2·log2 of the
/// range evaluations); with one it visits the degrees that split it in increasing order (see
/// detail::for_each_divisor for the bound).
GPUCALC_DETAIL_HOT constexpr training_fit min_gpus_for_training(const checked_model& m, const training_job& job,
                                             training_strategy strategy, const gpu_spec& gpu,
                                             double headroom = 0.0,
                                             std::int64_t max_data_parallel = 1 << 16) {
    constexpr const char* function = "min_gpus_for_training";
    detail::require_count(function, "max_data_parallel", max_data_parallel);
    detail::check_capacity(function, "gpu.memory", gpu.memory, headroom);
    // The search sets parallel.data itself, so a global batch no degree splits is reported
    // against the smallest degree, parallel.expert, not the data degree the caller left in.
    detail::require_count(function, "micro_batch", strategy.micro_batch);
    detail::require_count(function, "parallel.expert", strategy.parallel.expert);
    if (job.global_batch != 0) detail::require_count(function, "global_batch", job.global_batch);
    const std::int64_t step = strategy.parallel.expert;  // data stays a multiple of expert
    // With a global batch, a degree must also divide global_batch ÷ micro_batch. The product is
    // compared in double first, so it is formed as an integer only below the global batch.
    const auto splits_batch = [&](std::int64_t dp) {
        return job.global_batch == 0 ||
               (static_cast<double>(dp) * static_cast<double>(strategy.micro_batch) <=
                    static_cast<double>(job.global_batch) &&
                detail::divides(dp * strategy.micro_batch, job.global_batch));
    };
    if (job.global_batch > 0 && !splits_batch(step)) {
        detail::throw_invalid(function, "global_batch", static_cast<double>(job.global_batch), "",
                              "must be a multiple of micro_batch x parallel.expert = ",
                              static_cast<double>(strategy.micro_batch) * static_cast<double>(step),
                              ", one micro-batch on each rank of the smallest data-parallel degree");
    }
    auto verdict_at = [&](std::int64_t dp) {
        strategy.parallel.data = dp;
        return detail::verdict_unchecked(
            detail::training_memory_of(m, job, strategy, function).total, gpu.memory, headroom);
    };
    // The smallest degree first: it can be the only one that fits (a single GPU needs no
    // communication buffers, and without ZeRO sharding more ranks never help). Evaluating it
    // checks the job and the strategy, so the degrees below are products of checked factors.
    const fit_verdict at_step = verdict_at(step);
    const std::int64_t gpus_per_replica = strategy.parallel.tensor * strategy.parallel.pipeline *
                                          strategy.parallel.context_parallel;
    training_fit found{};
    const auto result = [&](fit_outcome outcome, std::int64_t dp, const fit_verdict& v) {
        found.outcome = outcome;
        found.data_parallel = dp;
        found.gpus = dp * gpus_per_replica;  // dp was evaluated, so this is at most 2^40
        found.verdict = v;
        return found;
    };
    if (at_step.ok) return result(fit_outcome::found, step, at_step);
    if (strategy.parallel.zero_stage == 0) return result(fit_outcome::not_sharded, step, at_step);
    // The most replicas that keep the job's GPUs within 2^40, as a multiple of step.
    const std::int64_t most_replicas = detail::largest_count / gpus_per_replica;
    const std::int64_t reach =
        max_data_parallel < most_replicas ? max_data_parallel : most_replicas;
    const std::int64_t high = (reach / step) * step;
    if (job.global_batch != 0) {
        // Degrees that split the batch are step × j for each divisor j of
        // global_batch ÷ (micro_batch × step): visit them in increasing order from j = 2.
        const std::int64_t units = detail::exact_quotient(
            job.global_batch, strategy.micro_batch * step);  // divides: checked above
        fit_verdict last = at_step;
        std::int64_t last_dp = step;
        const bool fitted = detail::for_each_divisor(units, high / step, [&](std::int64_t j) {
            if (j == 1) return false;
            last_dp = j * step;
            last = verdict_at(last_dp);
            return last.ok;
        });
        return result(fitted ? fit_outcome::found : fit_outcome::too_large_at_limit, last_dp, last);
    }
    const fit_verdict at_high = high > step ? verdict_at(high) : at_step;
    if (!at_high.ok) {
        return result(fit_outcome::too_large_at_limit, high > step ? high : step, at_high);
    }
    // Above the smallest degree, memory falls monotonically with the data-parallel degree
    // (ZeRO divides the model states by it; the communication buffers are constant): bisect
    // on multiples of `step`, where `low` never fits and `high` does.
    std::int64_t low = 1;
    std::int64_t high_units = high / step;
    fit_verdict best = at_high;  // the verdict at high_units, kept so it is not recomputed
    while (high_units - low > 1) {
        const std::int64_t mid = low + (high_units - low) / 2;
        const fit_verdict v = verdict_at(mid * step);
        if (v.ok) {
            high_units = mid;
            best = v;
        } else {
            low = mid;
        }
    }
    return result(fit_outcome::found, high_units * step, best);
}
constexpr training_fit min_gpus_for_training(const transformer& m, const training_job& job,
                                             const training_strategy& strategy,
                                             const gpu_spec& gpu, double headroom = 0.0,
                                             std::int64_t max_data_parallel = 1 << 16) {
    return min_gpus_for_training(check(m, "min_gpus_for_training"), job, strategy, gpu, headroom,
                                 max_data_parallel);
}

/// The largest micro-batch that fits for training, up to `limit`; 0 if not even one.
/// Micro-batches whose micro_batch × sequence × hidden reaches 2^53 count as not fitting. When
/// the job states a global batch, the micro-batch must split it (see min_gpus_for_training),
/// and the answer is the largest such micro-batch that fits. Ranges: the model's, the job's and
/// the strategy's (strategy.micro_batch is replaced by each value tried); `gpu.memory` in
/// data_size's input range; `headroom` in [0, 1); `limit` in [1, 2^40]. Without a global batch
/// the search bisects; with one it visits the micro-batches that split it in increasing order
/// (see detail::for_each_divisor for the bound).
GPUCALC_DETAIL_HOT constexpr std::int64_t max_micro_batch_for_training(const checked_model& m, const training_job& job,
                                                    training_strategy strategy,
                                                    const gpu_spec& gpu, double headroom = 0.0,
                                                    std::int64_t limit = 1 << 16) {
    constexpr const char* function = "max_micro_batch_for_training";
    detail::require_count(function, "limit", limit);
    detail::check_capacity(function, "gpu.memory", gpu.memory, headroom);
    const auto fits_at = [&](std::int64_t b) {
        strategy.micro_batch = b;
        const training_memory need = detail::training_memory_of(m, job, strategy, function);
        return detail::verdict_unchecked(need.total, gpu.memory, headroom).ok;
    };
    if (job.global_batch == 0) {
        return largest_that_fits(
            function, limit,
            [&](std::int64_t b) {
                strategy.micro_batch = b;
                return detail::tokens_by_width(m, job, strategy) < detail::largest_exact_count;
            },
            fits_at);
    }
    // Micro-batches that split the global batch: memory grows with the micro-batch, so the
    // answer is the largest of them below the first that does not fit. Micro-batch 1 always
    // splits a valid job, and probing it checks the job (parallel.data then divides the
    // global batch).
    if (!fits_at(1)) return 0;
    std::int64_t best = 1;
    const std::int64_t per_rank = detail::exact_quotient(job.global_batch, strategy.parallel.data);
    detail::for_each_divisor(per_rank, limit, [&](std::int64_t b) {
        if (b == 1) return false;
        strategy.micro_batch = b;
        if (!(detail::tokens_by_width(m, job, strategy) < detail::largest_exact_count)) return true;
        if (!fits_at(b)) return true;
        best = b;
        return false;
    });
    return best;
}
constexpr std::int64_t max_micro_batch_for_training(const transformer& m, const training_job& job,
                                                    const training_strategy& strategy,
                                                    const gpu_spec& gpu, double headroom = 0.0,
                                                    std::int64_t limit = 1 << 16) {
    return max_micro_batch_for_training(check(m, "max_micro_batch_for_training"), job, strategy,
                                        gpu, headroom, limit);
}

}  // namespace gpucalc
