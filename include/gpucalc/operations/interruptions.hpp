// operations/interruptions.hpp: interruptions from spot reclaims and hardware failures, chained to the checkpoint interval and the bill
#pragma once

#include <cstdint>
#include <string_view>

#include "../cost/spot.hpp"
#include "../detail/checks.hpp"
#include "../units.hpp"
#include "checkpoint.hpp"

namespace gpucalc {

/// Unexpected interruptions per GPU-hour of a large synchronous training job: 1.97e-5, derived
/// from the Llama 3 report (Dubey et al. 2024, "The Llama 3 Herd of Models", §3.3.4, Table 5):
/// 419 unexpected interruptions in a 54-day snapshot of pre-training on up to 16,384 H100 GPUs,
/// 419 ÷ (16,384 × 54 × 24 GPU-hours). Every cause counts (about 78% were attributed to
/// confirmed or suspected hardware issues, 58.7% to GPU issues), as each stopped the job.
/// Uncertain: "up to" 16,384 GPUs makes this a lower bound on the per-GPU rate; a fleet with
/// older or hotter parts may fail more often.
inline constexpr double llama3_interruptions_per_gpu_hour = 419.0 / (16384.0 * 54.0 * 24.0);

/// The fixed part of a restart, besides reading the checkpoint back: rescheduling, replacing the
/// failed node, process and communicator start, data-loader warm-up. 10 minutes, an assumption:
/// uncertain, from well under a minute for a job start tuned for it to about 17 minutes untuned
/// (MegaScale, Jiang et al. 2024, NSDI, §3.5, reports a 2,048-GPU job's initialization cut from
/// 1,047 s to a figure between under 5 s and under 30 s, the exact figure and scale not
/// verified); waiting for spare capacity, if any, comes on top.
inline constexpr duration default_restart_overhead = make<minutes>(10.0);

namespace detail {
/// mean_time_between_interruptions, naming `function` in its errors; `of_run` names the fields
/// as checkpointed_run_cost's caller writes them ("run.gpus"), and `counts_preemptions` says
/// whether the reclaims join the total (they are checked either way).
constexpr duration interruptions_mean(double failures_per_gpu_hour, std::int64_t gpus,
                                      double preemptions_per_hour, const char* function,
                                      bool of_run = false, bool counts_preemptions = true) {
    constexpr double largest_rate = 1e9;
    if (!(exactly_equal(failures_per_gpu_hour, 0.0) ||
          (failures_per_gpu_hour >= smallest_input && failures_per_gpu_hour <= largest_rate))) {
        throw_invalid(function, of_run ? "run.failures_per_gpu_hour" : "failures_per_gpu_hour",
                      failures_per_gpu_hour, "", "must be 0 or in [1e-30, 1e9]");
    }
    if (!(exactly_equal(preemptions_per_hour, 0.0) ||
          (preemptions_per_hour >= smallest_input && preemptions_per_hour <= largest_rate))) {
        throw_invalid(function, of_run ? "run.preemptions_per_hour" : "preemptions_per_hour",
                      preemptions_per_hour, "", "must be 0 or in [1e-30, 1e9]");
    }
    require_count(function, of_run ? "run.gpus" : "gpus", gpus);
    const double rate = failures_per_gpu_hour * static_cast<double>(gpus) +
                        (counts_preemptions ? preemptions_per_hour : 0.0);
    constexpr double smallest_rate = 1e-9;  // mean_time_between's range
    if (!(rate >= smallest_rate && rate <= largest_rate)) {
        const char* total =
            of_run ? (counts_preemptions
                          ? "run.failures_per_gpu_hour x run.gpus + run.preemptions_per_hour"
                          : "run.failures_per_gpu_hour x run.gpus")
                   : (counts_preemptions ? "failures_per_gpu_hour x gpus + preemptions_per_hour"
                                         : "failures_per_gpu_hour x gpus");
        throw_invalid(function, total, rate, "", "must be in [1e-9, 1e9] per hour");
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
    double preemptions_per_hour = 0.0;  ///< spot reclaims of the whole job; counted on spot only
    /// Unexpected interruptions per GPU-hour; the Llama 3 report's (derived) by default.
    double failures_per_gpu_hour = llama3_interruptions_per_gpu_hour;
    duration restart_overhead = default_restart_overhead;  ///< besides the restore
    duration interval{};                ///< the checkpoint interval; zero means Daly's optimum
};

/// Why checkpointed_run_cost answers no: nothing (it can restore), checkpoints nothing durable
/// holds, or a checkpoint training cannot resume from (weights only).
enum class restore_refusal { none, not_durable, not_resumable };

/// The refusal's name ("none", "not_durable", "not_resumable"); "unknown" for a value cast from
/// another integer.
constexpr std::string_view to_string(restore_refusal r) {
    switch (r) {
        case restore_refusal::none: return "none";
        case restore_refusal::not_durable: return "not_durable";
        case restore_refusal::not_resumable: return "not_resumable";
    }
    return "unknown";
}

/// The chain's answer.
struct checkpointed_estimate {
    /// Whether a restart can resume training from the checkpoints: false, an explicit "no", when
    /// io.resumable is false (a weights-only export lacks the optimizer states and master copy)
    /// or io.durable is false (local storage with no durable tier: a spot reclaim wipes it and a
    /// failed node takes its shards along, on spot and on demand alike); then only M and
    /// `refusal` are filled, the rest zero.
    bool restorable = true;
    restore_refusal refusal = restore_refusal::none;  ///< why not (not_resumable checked first)
    duration mean_time_between_interruptions{};  ///< M: failures, plus reclaims on spot
    /// What an interruption during a write loses besides the work since the last checkpoint:
    /// io.write − io.stall (derived; zero for a synchronous write to durable storage).
    duration in_flight_loss{};
    duration restart_time{};  ///< R: the restore, restart_overhead and in_flight_loss
    /// Daly's optimum was too short for the period (interval + io.stall) to cover io.write; the
    /// interval was raised to io.write − io.stall (a checkpoint cannot start before the previous
    /// one is durable).
    bool interval_raised = false;
    /// spot_cost's answer for this run. Its spot_cost is this run's bill: at the discounted price
    /// with failures and reclaims on spot; on demand at the full price with failures only (the
    /// discount taken as 0), when spot_is_cheaper is always false. Its on_demand_cost is the
    /// failure-free baseline, work × gpus × price, with no checkpoints or interruptions, so on
    /// spot spot_is_cheaper compares against a baseline that pays for neither: compare two
    /// checkpointed_run_cost answers (spot and on demand) for a like-for-like choice.
    spot_estimate run{};
    money cost{};  ///< the bill: at the spot price on spot, the on-demand one otherwise
};

/// A run checkpointed as `io` says (derived chain). M = mean_time_between_interruptions: hardware
/// failures on demand, failures and spot reclaims on spot. δ = io.stall (the time training stops:
/// the fast write when synchronous, the host copy when asynchronous). An interruption during the
/// part of the write that runs alongside training (io.write − δ: an asynchronous write, a drain
/// to the durable tier) loses that checkpoint too, and the previous one is restored: with
/// interruptions uniform over a period of τ + δ, one lands there with probability
/// (io.write − δ) ÷ (τ + δ) and then loses τ + δ more, io.write − δ per interruption in
/// expectation (derived), charged to R = io.restore + restart_overhead + (io.write − δ). The
/// period τ + δ must cover io.write (the next checkpoint cannot start before the previous one is
/// durable): the interval is Daly's optimum for δ and M (daly_interval), raised to io.write − δ
/// when shorter; a caller's interval must satisfy interval + io.stall >= io.write. Then spot_cost
/// (Daly 2006, Eq. 20) gives the wall-clock time and its breakdown, at the discounted price on
/// spot and the full one on demand. io.resumable or io.durable false: restorable is false, with
/// the refusal, and no bill is computed. Ranges: io.stall, io.write positive and io.restore 0 or
/// more, each in [1e-30 s, 1e6 years], with stall <= write; run.work positive and run.interval 0
/// or more in the same range;
/// run.restart_overhead 0 or in it; run.gpus in [1, 2^40] whole; run.on_demand 0 or in its range;
/// run.discount in [0, 1); the rates as mean_time_between_interruptions says (preemptions checked
/// always, counted only on spot; on demand the failure rate × gpus alone must be in range);
/// the interval (the caller's or Daly's) + io.stall + R under 500 × M (spot_cost's limit).
inline checkpointed_estimate checkpointed_run_cost(const checkpoint_io& io, const checkpointed_run& run) {
    constexpr const char* function = "checkpointed_run_cost";
    detail::require_positive(function, "io.stall", io.stall);
    detail::require_positive(function, "io.write", io.write);
    detail::require_non_negative(function, "io.restore", io.restore);
    if (!(io.stall <= io.write)) {
        detail::throw_invalid_name(function, "io.stall", detail::value_text(io.stall),
                                   "must not exceed io.write = ", detail::value_text(io.write), "");
    }
    detail::require_positive(function, "run.work", run.work);
    const double gpus = run.gpus.value();
    if (!(gpus >= 1.0 && gpus <= static_cast<double>(detail::largest_count) && detail::is_whole(gpus))) {
        detail::throw_invalid(function, "run.gpus", gpus, "", "must be a whole count in [1, 2^40]");
    }
    detail::require_non_negative(function, "run.on_demand", run.on_demand);
    detail::require_discount(function, "run.discount", run.discount);
    detail::require_non_negative(function, "run.restart_overhead", run.restart_overhead);
    detail::require_non_negative(function, "run.interval", run.interval);
    if (run.interval > duration{} && run.interval + io.stall < io.write) {
        detail::throw_invalid_name(function, "run.interval", detail::value_text(run.interval),
                                   "must be at least the checkpoint's write time less its stall, "
                                   "io.write - io.stall = ",
                                   detail::value_text(io.write - io.stall),
                                   " (interval + stall must cover the write: the next checkpoint "
                                   "cannot start before the previous one is written)");
    }
    checkpointed_estimate e{};
    e.mean_time_between_interruptions = detail::interruptions_mean(
        run.failures_per_gpu_hour, static_cast<std::int64_t>(gpus), run.preemptions_per_hour,
        function, true, run.spot);
    if (!io.resumable || !io.durable) {
        e.restorable = false;
        e.refusal = !io.resumable ? restore_refusal::not_resumable : restore_refusal::not_durable;
        return e;
    }
    e.in_flight_loss = io.write - io.stall;
    e.restart_time = io.restore + run.restart_overhead + e.in_flight_loss;
    duration interval = run.interval;
    if (!(interval > duration{})) {
        interval = daly_interval(io.stall, e.mean_time_between_interruptions);
        e.interval_raised = interval + io.stall < io.write;
        if (e.interval_raised) interval = io.write - io.stall;
    }
    const duration attempt = interval + io.stall + e.restart_time;
    constexpr double largest_exponent = 500.0;  // spot_cost's bound on (τ + δ + R) ÷ M
    if (!(attempt / e.mean_time_between_interruptions < largest_exponent)) {
        detail::throw_invalid_name(
            function, "run.interval (or Daly's) + io.stall + R", detail::value_text(attempt),
            "must be under 500 x the mean time between interruptions, ",
            detail::value_text(e.mean_time_between_interruptions),
            " (R = io.restore + run.restart_overhead + io.write - io.stall; the job would "
            "practically never finish)");
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
