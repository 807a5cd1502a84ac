// cost/spot.hpp: running on preemptible (spot) capacity: the optimal checkpoint interval, the
// expected wall-clock time with preemptions, and the job's effective cost
#pragma once

#include <cmath>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "prices.hpp"

namespace gpucalc {

/// Young 1974, "A first order approximation to the optimum checkpoint interval": with a
/// checkpoint taking δ and failures (here, preemptions) arriving with mean time M,
/// τ = √(2·δ·M). Not constexpr (std::sqrt). Ranges: both durations in [1e-30 s, 1e6 years],
/// and τ at most 1e6 years, so that spot_job::interval takes it (√2 × 1e6 years would not).
inline duration young_interval(duration checkpoint_time, duration mean_time_between_preemptions) {
    detail::require_positive("young_interval", "checkpoint_time", checkpoint_time);
    detail::require_positive("young_interval", "mean_time_between_preemptions",
                             mean_time_between_preemptions);
    const double d = in<seconds>(checkpoint_time);
    const double m = in<seconds>(mean_time_between_preemptions);
    const duration tau = make<seconds>(std::sqrt(2.0 * d * m));
    detail::require_positive("young_interval",  // an interval, passed on to spot_cost
                             "sqrt(2 * checkpoint_time * mean_time_between_preemptions)", tau);
    return tau;
}

namespace detail {
/// daly_interval() for durations already checked, in seconds.
inline double daly_interval_seconds(double d, double m) {
    if (d >= 2.0 * m) return m;
    const double x = d / (2.0 * m);
    return std::sqrt(2.0 * d * m) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - d;
}

/// How an error names Daly's interval, a value the caller did not write but derived from two
/// fields they did.
inline constexpr const char* daly_interval_text =
    "Daly's interval for checkpoint_time and mean_time_between_preemptions";
}  // namespace detail

/// Daly 2006, "A higher order estimate of the optimum checkpoint interval for restart dumps",
/// Eq. 37: τ = √(2δM)·[1 + ⅓·√(δ/(2M)) + (1/9)·(δ/(2M))] − δ for δ < 2M, and τ = M otherwise.
/// Ranges: both durations in [1e-30 s, 1e6 years], and τ at least 1e-30 s, so that
/// spot_job::interval takes it (τ ≤ M always; below 1e-30 s only when both are within a few
/// times 1e-30 s: δ = M = 1e-30 s gives 8.26e-31 s).
inline duration daly_interval(duration checkpoint_time, duration mean_time_between_preemptions) {
    detail::require_positive("daly_interval", "checkpoint_time", checkpoint_time);
    detail::require_positive("daly_interval", "mean_time_between_preemptions",
                             mean_time_between_preemptions);
    const double d = in<seconds>(checkpoint_time);
    const double m = in<seconds>(mean_time_between_preemptions);
    if (d >= 2.0 * m) return mean_time_between_preemptions;
    const duration tau = make<seconds>(detail::daly_interval_seconds(d, m));
    detail::require_positive("daly_interval", detail::daly_interval_text, tau);  // passed on
    return tau;
}

/// The mean time between preemptions for a preemption rate (reclaims per hour): its inverse.
/// Ranges: preemptions_per_hour in [1e-9, 1e9] (from one reclaim in 114,000 years to one
/// every 3.6 µs), so the answer is a duration spot_job takes.
constexpr duration mean_time_between(double preemptions_per_hour) {
    if (!(preemptions_per_hour >= 1e-9 && preemptions_per_hour <= 1e9)) {
        detail::throw_invalid("mean_time_between", "preemptions_per_hour", preemptions_per_hour,
                              "", "must be in [1e-9, 1e9]");
    }
    return make<hours>(1.0 / preemptions_per_hour);
}

/// A job on preemptible capacity.
struct spot_job {
    duration work{};                          ///< the job's useful compute time, T_s
    gpu_count gpus{};
    gpu_price on_demand{};
    double discount = 0.0;                    ///< spot discount on the on-demand price, [0, 1)
    duration mean_time_between_preemptions{}; ///< M (reclaims arrive as a Poisson process)
    duration checkpoint_time{};               ///< δ: writing one checkpoint
    /// R: getting capacity back and reloading. Billed in full (conservative: providers do not
    /// bill while capacity is unavailable, so part of R may in fact be free).
    duration restart_time{};
    /// The checkpoint interval; zero means Daly's optimum.
    duration interval{};
};

struct spot_estimate {
    duration interval{};       ///< the checkpoint interval used
    duration wall_time{};      ///< expected wall-clock time, preemptions included
    double overhead = 0.0;     ///< wall_time ÷ work − 1: checkpoints, lost work and restarts
    /// Expected preemptions, those that strike during a restart included: wall_time ÷ M.
    double preemptions = 0.0;
    /// The three parts of the overhead, each ≥ 0, which add up with the work to wall_time
    /// (derived from Daly's renewal model; see spot_cost and docs/cost.md):
    duration checkpointing{};  ///< checkpoints that complete: (work ÷ interval) × δ
    /// Restarts, those cut short by another preemption included: (work ÷ τ)·M·(e^{s/M} − 1)·
    /// (e^{R/M} − 1), with s = τ + δ.
    duration restarting{};
    /// Rework: segments (computing or checkpointing) cut short by a preemption and run again:
    /// (work ÷ τ)·M·(e^{s/M} − 1 − s/M).
    duration lost_work{};
    money spot_cost{};         ///< discounted price × GPUs × wall time
    money on_demand_cost{};    ///< on-demand price × GPUs × work (no preemptions, no checkpoints)
    bool spot_is_cheaper = false;
};

namespace detail {
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_never_finishes(const char* function,
                                                                  duration attempt,
                                                                  duration between) {
    throw_invalid_name(function, "interval + checkpoint_time + restart_time", value_text(attempt),
                       "must be under 500 x mean_time_between_preemptions = ",
                       value_text(between), " (the job would practically never finish)");
}

/// e^x − 1 − x for x ≥ 0, without the cancellation of the direct form for small x: its Taylor
/// series x²/2 + x³/6 + x⁴/24 + x⁵/120 + x⁶/720 below 10⁻³, where the next term is under 10⁻¹⁸
/// of the sum. Never negative, so rework computed from it never is either.
inline double expm1_minus_x(double x) {
    constexpr double series_below = 1e-3;
    if (x < series_below) {
        return x * x * (1.0 / 2.0 + x * (1.0 / 6.0 + x * (1.0 / 24.0 + x * (1.0 / 120.0 + x / 720.0))));
    }
    return std::expm1(x) - x;
}
}  // namespace detail

/// Daly 2006, Eq. 20: the expected wall-clock time of T_s of work checkpointed every τ, with
/// checkpoint time δ, restart time R and exponentially distributed interrupts of mean M:
/// T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ. The cost is the spot price over that time.
///
/// The breakdown follows from the same model (derived here; docs/cost.md gives the steps). The
/// work runs as T_s/τ segments of s = τ + δ, each retried until it runs s without a preemption,
/// and every preemption is followed by a restart of R that is itself retried when preempted.
/// Per segment, with x = s/M: e^x − 1 failed attempts, which run M·(e^x − 1) − s in all
/// (rework); each is followed by a restart phase of expected length M·(e^{R/M} − 1); and the
/// successful attempt runs τ of work and δ of checkpoint. These sum to Eq. 20's
/// M·e^{R/M}·(e^x − 1) exactly.
///
/// Ranges: work, mean_time_between_preemptions and checkpoint_time positive, restart_time and
/// interval 0 or more, each in [1e-30 s, 1e6 years]; gpus in [1e-30, 2^40]; on_demand 0 or in
/// its range; discount in [0, 1); with interval 0, Daly's interval at least 1e-30 s (as
/// daly_interval requires, so that the estimate's interval is one spot_job takes back); and
/// interval + checkpoint_time + restart_time under 500 ×
/// mean_time_between_preemptions (past it the expected attempts, e^((τ+δ+R)/M), exceed 1e217: the
/// job would practically never finish), which keeps every answer finite.
inline spot_estimate spot_cost(const spot_job& job) {
    constexpr const char* function = "spot_cost";
    detail::require_positive(function, "work", job.work);
    detail::require_positive(function, "gpus", job.gpus);
    detail::require_non_negative(function, "on_demand", job.on_demand);
    detail::require_discount(function, "discount", job.discount);
    detail::require_positive(function, "mean_time_between_preemptions",
                             job.mean_time_between_preemptions);
    detail::require_positive(function, "checkpoint_time", job.checkpoint_time);
    detail::require_non_negative(function, "restart_time", job.restart_time);
    detail::require_non_negative(function, "interval", job.interval);
    spot_estimate e{};
    const double m = in<seconds>(job.mean_time_between_preemptions);
    const double delta = in<seconds>(job.checkpoint_time);
    const double r = in<seconds>(job.restart_time);
    const double ts = in<seconds>(job.work);
    const double tau = job.interval > duration{} ? in<seconds>(job.interval)
                                                 : detail::daly_interval_seconds(delta, m);
    e.interval = make<seconds>(tau);
    if (!(job.interval > duration{})) {
        detail::require_positive(function, detail::daly_interval_text, e.interval);  // passed on
    }
    // exp() overflows past ~709, and the wall time multiplies e^{R/M}·(e^x − 1) by M and by up
    // to 3e43 segments: at most 500 in the exponents keeps it below 1e274.
    constexpr double largest_exponent = 500.0;
    if (!((tau + delta + r) / m < largest_exponent)) {
        detail::throw_never_finishes(function, e.interval + job.checkpoint_time + job.restart_time,
                                     job.mean_time_between_preemptions);
    }
    const double segments = ts / tau;
    const double x = (tau + delta) / m;
    const double failed_attempts = std::expm1(x);  // per segment: e^x − 1
    // expm1 keeps e^x − 1 exact when preemptions are rare (x ≪ 1), where exp(x) − 1 cancels.
    // Exactly, T_w ≥ T_s (e^{R/M} ≥ 1 and M·(e^x − 1) ≥ M·x = τ + δ > τ), but when preemptions
    // are rare and δ ≪ τ the product rounds to within an ulp of T_s, and can land below it
    // (T_s = 100 h, M = 4.9 h, δ = 1e-30 s gave T_s less an ulp): the wall time is at least
    // the work it contains.
    const double product = m * std::exp(r / m) * failed_attempts * segments;
    e.wall_time = make<seconds>(product < ts ? ts : product);
    e.overhead = in<seconds>(e.wall_time) / ts - 1.0;
    e.preemptions = in<seconds>(e.wall_time) / m;
    e.checkpointing = make<seconds>(segments * delta);
    e.restarting = make<seconds>(segments * failed_attempts * m * std::expm1(r / m));
    e.lost_work = make<seconds>(segments * m * detail::expm1_minus_x(x));
    // job_cost's arithmetic without its checks: the wall time is an answer, not an input, and
    // may exceed the longest duration an input may have.
    e.spot_cost = (job.gpus * e.wall_time) * ((1.0 - job.discount) * job.on_demand);
    e.on_demand_cost = (job.gpus * job.work) * job.on_demand;
    e.spot_is_cheaper = e.spot_cost < e.on_demand_cost;
    return e;
}

}  // namespace gpucalc
