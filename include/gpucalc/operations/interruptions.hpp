// operations/interruptions.hpp: interruptions from spot reclaims and hardware failures, chained to the checkpoint interval and the bill
#pragma once

#include <cstdint>

#include "../cost/spot.hpp"
#include "../detail/checks.hpp"
#include "../units.hpp"
#include "checkpoint.hpp"

namespace gpucalc {

/// Unexpected interruptions per GPU-hour of a large synchronous training job: 1.97e-5, derived
/// from the Llama 3 report (Dubey et al. 2024, "The Llama 3 Herd of Models", §3.3.4, Table 5):
/// 419 unexpected interruptions in a 54-day snapshot of pre-training on up to 16,384 H100 GPUs,
/// 419 ÷ (16,384 × 54 × 24 GPU-hours). Every cause counts (78% were hardware, 58.7% GPU
/// issues), as each stopped the job. Uncertain: "up to" 16,384 GPUs makes this a lower bound
/// on the per-GPU rate; a fleet with older or hotter parts may fail more often.
inline constexpr double llama3_interruptions_per_gpu_hour = 419.0 / (16384.0 * 54.0 * 24.0);

/// The fixed part of a restart, besides reading the checkpoint back: rescheduling, replacing the
/// failed node, process and communicator start, data-loader warm-up. 10 minutes, an assumption:
/// uncertain, from under 30 s for a job start tuned for it to about 17 minutes untuned (MegaScale,
/// Jiang et al. 2024, NSDI, §3.5: initialization of a 2,048-GPU job cut from 1,047 s to under
/// 30 s); waiting for spare capacity, if any, comes on top.
inline constexpr duration default_restart_overhead = make<minutes>(10.0);

namespace detail {
/// mean_time_between_interruptions, naming `function` in its errors.
constexpr duration interruptions_mean(double failures_per_gpu_hour, std::int64_t gpus,
                                      double preemptions_per_hour, const char* function) {
    constexpr double largest_rate = 1e9;
    if (!(exactly_equal(failures_per_gpu_hour, 0.0) ||
          (failures_per_gpu_hour >= smallest_input && failures_per_gpu_hour <= largest_rate))) {
        throw_invalid(function, "failures_per_gpu_hour", failures_per_gpu_hour, "",
                      "must be 0 or in [1e-30, 1e9]");
    }
    if (!(exactly_equal(preemptions_per_hour, 0.0) ||
          (preemptions_per_hour >= smallest_input && preemptions_per_hour <= largest_rate))) {
        throw_invalid(function, "preemptions_per_hour", preemptions_per_hour, "",
                      "must be 0 or in [1e-30, 1e9]");
    }
    require_count(function, "gpus", gpus);
    const double rate = failures_per_gpu_hour * static_cast<double>(gpus) + preemptions_per_hour;
    constexpr double smallest_rate = 1e-9;  // mean_time_between's range
    if (!(rate >= smallest_rate && rate <= largest_rate)) {
        throw_invalid(function, "failures_per_gpu_hour x gpus + preemptions_per_hour", rate, "",
                      "must be in [1e-9, 1e9] per hour");
    }
    return make<hours>(1.0 / rate);  // mean_time_between(rate), its range checked here
}
}  // namespace detail

/// The job-level mean time between interruptions (derived): failures strike each GPU as an
/// independent Poisson process, so the job's rate is failures_per_gpu_hour × gpus, and spot
/// reclaims of the job, a further independent Poisson process, add theirs (the superposition of
/// independent Poisson processes is a Poisson process whose rate is the sum: Kingman 1993,
/// "Poisson Processes", §2.2). The mean is the inverse of the total (mean_time_between).
/// Ranges: failures_per_gpu_hour and preemptions_per_hour 0 or in [1e-30, 1e9] (a negative rate
/// is invalid_input); gpus in [1, 2^40]; the total rate in [1e-9, 1e9] per hour (a job never
/// interrupted needs no checkpoint: invalid_input).
constexpr duration mean_time_between_interruptions(double failures_per_gpu_hour,
                                                   std::int64_t gpus,
                                                   double preemptions_per_hour = 0.0) {
    return detail::interruptions_mean(failures_per_gpu_hour, gpus, preemptions_per_hour,
                                      "mean_time_between_interruptions");
}

/// A training job whose checkpoints follow from its storage, run on spot or on demand.
struct checkpointed_run {
    duration work{};                    ///< useful compute time, T_s
    gpu_count gpus{};
    gpu_price on_demand{};
    bool spot = false;                  ///< on spot capacity (else on demand)
    double discount = 0.0;              ///< spot discount on the on-demand price, [0, 1); spot only
    double preemptions_per_hour = 0.0;  ///< spot reclaims of the whole job; spot only
    /// Unexpected interruptions per GPU-hour; the Llama 3 report's (derived) by default.
    double failures_per_gpu_hour = llama3_interruptions_per_gpu_hour;
    duration restart_overhead = default_restart_overhead;  ///< besides the restore
    duration interval{};                ///< the checkpoint interval; zero means Daly's optimum
};

/// The chain's answer.
struct checkpointed_estimate {
    duration mean_time_between_interruptions{};  ///< M: failures, plus reclaims on spot
    duration restart_time{};                     ///< R: the restore plus restart_overhead
    /// Daly's optimum for the stall was shorter than the full write; the interval was raised to
    /// the write time (a checkpoint cannot start before the previous one is written).
    bool interval_raised = false;
    spot_estimate run{};  ///< spot_cost's answer (its spot_cost is this run's bill; see cost)
    money cost{};         ///< the bill: at the spot price on spot, the on-demand one otherwise
};

/// A run checkpointed as `io` says (derived chain). M = mean_time_between_interruptions: hardware
/// failures on demand, failures and spot reclaims on spot. δ = io.stall (the time training stops:
/// the whole write when synchronous, the host copy when asynchronous); R = io.restore +
/// restart_overhead. The interval is Daly's optimum for δ and M (daly_interval), raised to
/// io.write when shorter, since a checkpoint cannot start before the previous one is written; a
/// caller's interval must be at least io.write. Then spot_cost (Daly 2006, Eq. 20) gives the
/// wall-clock time and its breakdown, at the discounted price on spot and the full one on
/// demand. Not modelled: an interruption during an asynchronous write loses that checkpoint too.
/// Ranges: io.stall, io.write positive and io.restore 0 or more, each in [1e-30 s, 1e6 years],
/// with stall <= write; run.work positive and run.interval 0 or more in the same range;
/// run.restart_overhead 0 or in it; gpus in [1, 2^40] whole; on_demand 0 or in its range;
/// discount in [0, 1); the rates as mean_time_between_interruptions says (preemptions read only
/// on spot); interval + stall + restart under 500 × M (spot_cost's limit).
inline checkpointed_estimate checkpointed_run_cost(const checkpoint_io& io, const checkpointed_run& run) {
    constexpr const char* function = "checkpointed_run_cost";
    detail::require_positive(function, "io.stall", io.stall);
    detail::require_positive(function, "io.write", io.write);
    detail::require_non_negative(function, "io.restore", io.restore);
    if (!(io.stall <= io.write)) {
        detail::throw_invalid_name(function, "io.stall", detail::value_text(io.stall),
                                   "must not exceed io.write = ", detail::value_text(io.write), "");
    }
    detail::require_positive(function, "work", run.work);
    const double gpus = run.gpus.value();
    if (!(gpus >= 1.0 && gpus <= static_cast<double>(detail::largest_count) && detail::is_whole(gpus))) {
        detail::throw_invalid(function, "gpus", gpus, "", "must be a whole count in [1, 2^40]");
    }
    detail::require_non_negative(function, "on_demand", run.on_demand);
    detail::require_discount(function, "discount", run.discount);
    detail::require_non_negative(function, "restart_overhead", run.restart_overhead);
    detail::require_non_negative(function, "interval", run.interval);
    if (run.interval > duration{} && run.interval < io.write) {
        detail::throw_invalid_name(function, "interval", detail::value_text(run.interval),
                                   "must be at least the checkpoint's write time io.write = ",
                                   detail::value_text(io.write),
                                   " (the next checkpoint cannot start before it is written)");
    }
    checkpointed_estimate e{};
    e.mean_time_between_interruptions = detail::interruptions_mean(
        run.failures_per_gpu_hour, static_cast<std::int64_t>(gpus),
        run.spot ? run.preemptions_per_hour : 0.0, function);
    e.restart_time = io.restore + run.restart_overhead;
    duration interval = run.interval;
    if (!(interval > duration{})) {
        interval = daly_interval(io.stall, e.mean_time_between_interruptions);
        e.interval_raised = interval < io.write;
        if (e.interval_raised) interval = io.write;
    }
    const duration attempt = interval + io.stall + e.restart_time;
    constexpr double largest_exponent = 500.0;  // spot_cost's bound on (τ + δ + R) ÷ M
    if (!(attempt / e.mean_time_between_interruptions < largest_exponent)) {
        detail::throw_invalid_name(function, "interval + io.stall + restart_time",
                                   detail::value_text(attempt),
                                   "must be under 500 x the mean time between interruptions, ",
                                   detail::value_text(e.mean_time_between_interruptions),
                                   " (the job would practically never finish)");
    }
    spot_job job{};
    job.work = run.work;
    job.gpus = run.gpus;
    job.on_demand = run.on_demand;
    job.discount = run.spot ? run.discount : 0.0;
    job.mean_time_between_preemptions = e.mean_time_between_interruptions;
    job.checkpoint_time = io.stall;
    job.restart_time = e.restart_time;
    job.interval = interval;
    e.run = spot_cost(job);
    e.cost = e.run.spot_cost;
    return e;
}

}  // namespace gpucalc
