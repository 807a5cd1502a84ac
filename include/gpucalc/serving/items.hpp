// serving/items.hpp: serving a workload that is not a transformer (workload/item.hpp): an
// item's service time from a measurement or the roofline, the largest batch meeting a latency
// target, and the GPUs for a request rate at a percentile latency (M/G/c, serving/queueing.hpp)
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../memory/item.hpp"
#include "../roofline/item.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "../workload/item.hpp"
#include "queueing.hpp"

namespace gpucalc {

/// Where a service time came from.
enum class item_time_source {
    roofline,         ///< item_batch_time at the assumptions' efficiency: a bound, no overheads
    measured,         ///< the workload's measurement, on the device it was measured on
    /// the measurement carried to another GPU unchanged (assumes the measured time is overhead
    /// the GPU does not cut: framework dispatch, preprocessing; see measurement_transfer)
    measured_held,
    /// the measurement carried to another GPU by the ratio of the two GPUs' roofline times at
    /// the measured batch (derived; assumes the whole measured time scales with the hardware)
    measured_scaled,
};

constexpr std::string_view to_string(item_time_source s) {
    switch (s) {
        case item_time_source::roofline: return "roofline";
        case item_time_source::measured: return "measured";
        case item_time_source::measured_held: return "measured_held";
        case item_time_source::measured_scaled: return "measured_scaled";
    }
    return "unknown";
}

/// How a measurement taken on one device applies on another GPU.
enum class measurement_transfer {
    /// The measured time unchanged: right when it is mostly overhead a faster GPU does not cut
    /// (a measurement far above the roofline, as in docs/serving.md's example, is), and
    /// conservative when the other GPU is faster.
    hold,
    /// Scaled by the ratio of the two GPUs' roofline times at the measured batch: right when
    /// the measured time is kernel time; needs the measuring device's peak and bandwidth.
    scale,
    /// Not at all: the roofline plan on every GPU but the measuring one.
    none,
};

constexpr std::string_view to_string(measurement_transfer t) {
    switch (t) {
        case measurement_transfer::hold: return "hold";
        case measurement_transfer::scale: return "scale";
        case measurement_transfer::none: return "none";
    }
    return "unknown";
}

/// Why a plan has or has no answer.
enum class item_verdict {
    feasible,
    does_not_fit,       ///< not one batch (the measured batch, or 1) fits the GPU's memory
    /// the latency target leaves no time to wait: it is not above one batch's service time
    /// (twice that for a batch above 1, which may wait for the running batch to end)
    latency_below_service,
    no_gpu_count,       ///< no GPU count up to 2^40 meets the target
};

constexpr std::string_view to_string(item_verdict v) {
    switch (v) {
        case item_verdict::feasible: return "feasible";
        case item_verdict::does_not_fit: return "does_not_fit";
        case item_verdict::latency_below_service: return "latency_below_service";
        case item_verdict::no_gpu_count: return "no_gpu_count";
    }
    return "unknown";
}

/// The assumptions of item serving. Ranges: efficiency each in [1e-30, 1]; overhead as
/// runtime_overhead says; memory_headroom in [0, 1); service_scv in [0, 1e6]; percentile in
/// (0, 1); max_utilization in [1e-3, 1]; batch_limit in [1, 2^20].
struct item_serving_assumptions {
    kernel_efficiency efficiency{};  ///< for the roofline times (defaults: kernel_efficiency)
    runtime_overhead overhead{};     ///< for the memory fit (defaults: runtime_overhead)
    /// Memory kept free: 0, since runtime_overhead already counts the context and fragmentation.
    double memory_headroom = 0.0;
    /// The service time's squared coefficient of variation: 0 (M/D/c) since a fixed-size item
    /// (a 224² image, a padded sequence) runs the same kernels every time. Measure it where the
    /// inputs vary (C_s² = variance ÷ mean²).
    double service_scv = 0.0;
    double percentile = 0.99;  ///< the latency target is for this percentile
    /// The highest utilization a plan may run its GPUs at: 1, the queueing model alone decides.
    /// With a service time far below the latency target (the roofline's sub-millisecond batch
    /// against a 500 ms target) M/D/c meets the target near 100 % busy, which holds only for
    /// Poisson arrivals; set 0.6–0.8 (the autoscaling targets of right_size_assumptions) to
    /// keep headroom for bursts the Poisson model leaves out.
    double max_utilization = 1.0;
    /// The largest batch the roofline plan tries: 1,024, a planning cap (uncertain: a
    /// latency-bound service rarely gains past a few hundred items per batch; raise it for
    /// offline throughput). At most 2^20.
    std::int64_t batch_limit = 1024;
    /// How a measurement carries to a GPU other than the one it was taken on: held unchanged
    /// by default (derived: a time far above the roofline is mostly overhead that does not
    /// scale with the GPU; see measurement_transfer).
    measurement_transfer transfer = measurement_transfer::hold;
};

/// One batch's service time on a GPU, and the roofline bound beside it.
struct item_service {
    item_time_source source = item_time_source::roofline;
    std::int64_t batch = 1;
    duration time{};      ///< the batch's service time the plans use
    duration per_item{};  ///< time ÷ batch
    op_timing roofline{};  ///< item_batch_time at this batch
};

namespace detail {

inline constexpr std::int64_t largest_item_batch_limit = std::int64_t{1} << 20;

constexpr void check(const item_serving_assumptions& a, const char* function) {
    check(a.efficiency, function);
    check(a.overhead, function);
    if (!(a.memory_headroom >= 0.0 && a.memory_headroom < 1.0)) {
        throw_invalid(function, "assumptions.memory_headroom", a.memory_headroom, "",
                      "must be in [0, 1)");
    }
    if (!(a.service_scv >= 0.0 && a.service_scv <= largest_service_scv)) {
        throw_invalid(function, "assumptions.service_scv", a.service_scv, "",
                      "must be in [0, 1e6]");
    }
    if (!(a.percentile > 0.0 && a.percentile < 1.0)) {
        throw_invalid(function, "assumptions.percentile", a.percentile, "", "must be in (0, 1)");
    }
    require_enumerator(function, "assumptions.transfer", a.transfer, 3, "measurement_transfer");
    if (!(a.max_utilization >= 1e-3 && a.max_utilization <= 1.0)) {
        throw_invalid(function, "assumptions.max_utilization", a.max_utilization, "",
                      "must be in [1e-3, 1]");
    }
    require_count(function, "assumptions.batch_limit", a.batch_limit);
    if (a.batch_limit > largest_item_batch_limit) {
        throw_invalid(function, "assumptions.batch_limit", static_cast<double>(a.batch_limit),
                      "", "must be <= 2^20");
    }
}

/// How a measurement applies on `gpu`: measured on it (same name), else as assumptions.transfer
/// says. Scaling needs the measuring device's spec: a device with a peak or bandwidth of exactly
/// 0 has none (the roofline is used), and any other value must be a valid peak and bandwidth.
constexpr item_time_source measurement_use(const item_workload& w, const gpu_spec& gpu,
                                           const item_serving_assumptions& a,
                                           const char* function) {
    if (!has_measurement(w)) return item_time_source::roofline;
    const gpu_spec& d = w.measured.device;
    if (!d.name.empty() && d.name == gpu.name) return item_time_source::measured;
    if (a.transfer == measurement_transfer::none) return item_time_source::roofline;
    if (a.transfer == measurement_transfer::hold) return item_time_source::measured_held;
    if (exactly_equal(peak_entry(d.dense_peak, w.compute).value(), 0.0) ||
        exactly_equal(d.memory_bandwidth.value(), 0.0)) {
        return item_time_source::roofline;
    }
    peak_of(d, w.compute, function, "workload.compute", "workload.measured.device.");
    require_positive(function, "workload.measured.device.memory_bandwidth", d.memory_bandwidth);
    return item_time_source::measured_scaled;
}

/// item_service_time for checked input, with the measurement's use already decided.
constexpr item_service item_service_checked(const item_workload& w, const gpu_spec& gpu,
                                            std::int64_t batch, const item_serving_assumptions& a,
                                            item_time_source use, const char* function) {
    item_service s{};
    s.batch = batch;
    s.roofline = item_batch_time_checked(w, gpu, batch, a.efficiency, function);
    s.source = batch == w.measured.batch ? use : item_time_source::roofline;
    const double b = static_cast<double>(batch);
    switch (s.source) {
        case item_time_source::measured:
        case item_time_source::measured_held: s.time = b * w.measured.time_per_item; break;
        case item_time_source::measured_scaled: {
            // Derived: t_gpu = t_device × R_gpu(B) ÷ R_device(B), R the roofline batch time.
            const op_timing there =
                item_batch_time_checked(w, w.measured.device, batch, a.efficiency, function);
            s.time = b * w.measured.time_per_item * (s.roofline.time / there.time);
            break;
        }
        case item_time_source::roofline: s.time = s.roofline.time; break;
    }
    s.per_item = s.time / b;
    return s;
}

}  // namespace detail

/// The service time of one batch of `batch` items on `gpu`: the measurement when the batch is
/// the measured one (on its own device as measured; elsewhere held, scaled by the roofline
/// ratio, or not used, as assumptions.transfer says), else the roofline bound
/// (item_batch_time). A measurement at one batch says nothing of another, so other batches use
/// the roofline. Ranges: workload as item_workload says; batch in [1, 2^40]; the GPU as
/// item_batch_time says; the assumptions as item_serving_assumptions says.
constexpr item_service item_service_time(const item_workload& workload, const gpu_spec& gpu,
                                         std::int64_t batch = 1,
                                         const item_serving_assumptions& assumptions = {}) {
    constexpr const char* function = "item_service_time";
    detail::check(workload, function);
    detail::require_count(function, "batch", batch);
    detail::check(assumptions, function);
    const item_time_source use = detail::measurement_use(workload, gpu, assumptions, function);
    return detail::item_service_checked(workload, gpu, batch, assumptions, use, function);
}

/// The GPUs for a request rate: item_replicas_for_rate's plan for one time source.
struct item_gpu_plan {
    item_verdict verdict = item_verdict::feasible;
    item_time_source source = item_time_source::roofline;
    /// GPUs serving the rate at the latency target; 0 when the verdict is not feasible.
    std::int64_t gpus = 0;
    std::int64_t batch = 0;  ///< items per batch on each GPU (0 without an answer)
    item_service service{};  ///< at that batch (at the first batch tried without an answer)
    /// The queue of batch slots, each a server of the batch's service time: servers_for_wait's
    /// answer, whose `servers` may be below gpus × batch (the last GPU's batch is not full), or
    /// the count the utilization cap raised it to (empty without an answer).
    server_search queue{};
    duration latency{};  ///< the percentile's wait + the batch boundary + service; 0 without
};

/// item_replicas_for_rate's answer: the plan the capacity uses, and the roofline's beside it.
struct item_replicas_estimate {
    item_gpu_plan chosen{};    ///< from the measurement when it applies, else = roofline
    item_gpu_plan roofline{};  ///< from the roofline bound, always
    item_batch_fit memory{};   ///< the largest batch that fits the GPU
};

namespace detail {

/// The plan at one batch: servers_for_wait over gpus × batch slots (the "slots as servers"
/// model of docs/serving.md: each of a GPU's batch slots serves an item in the batch's time),
/// with the wait target the latency less the service time and, for batch > 1, less one more
/// batch time: an item that arrives while a batch runs waits for it to end before a new one
/// starts (a batch runs to completion; derived, conservative).
inline item_gpu_plan item_plan_at(const item_service& s, const request_rate& rate,
                                  const duration& latency, const item_serving_assumptions& a) {
    item_gpu_plan p{};
    p.source = s.source;
    p.service = s;
    const duration boundary = s.batch > 1 ? s.time : duration{};
    const duration wait_budget = latency - s.time - boundary;
    if (!(wait_budget.value() >= smallest_input)) {
        p.verdict = item_verdict::latency_below_service;
        return p;
    }
    wait_target target{};
    target.percentile_wait = wait_budget;
    target.percentile = a.percentile;
    const std::int64_t most_slots = (largest_count / s.batch) * s.batch;
    // A service time below the queue's input range (1e-30 s, from extreme FLOP and byte
    // counts) is taken as 1e-30 s: rounded up, so the answer errs towards more GPUs.
    const duration service = s.time.value() < smallest_input
                                 ? duration::from_value(smallest_input) : s.time;
    server_search q = servers_for_wait(rate, service, target, a.service_scv, most_slots);
    if (!q.found) {
        p.verdict = item_verdict::no_gpu_count;
        return p;
    }
    if (q.queue.utilization > a.max_utilization) {
        // The fewest slots at or under the utilization cap: ⌈offered load ÷ cap⌉; more servers
        // only shorten the wait, so the target still holds.
        const double needed = std::ceil(q.queue.offered_load / a.max_utilization);
        if (!(needed <= static_cast<double>(most_slots))) {
            p.verdict = item_verdict::no_gpu_count;
            return p;
        }
        q.servers = static_cast<std::int64_t>(needed);
        q.queue = queue_wait_checked(rate.value(), service.value(), q.servers, a.service_scv,
                                     a.percentile);
    }
    p.batch = s.batch;
    p.gpus = ceil_div(q.servers, s.batch);
    p.queue = q;
    p.latency = q.queue.percentile_wait + boundary + s.time;
    return p;
}

/// The fewest GPUs over the batches 1, 2, 4, ... and the largest that fits and meets the
/// latency alone (ties go to the smaller batch, which has the lower latency).
inline item_gpu_plan item_roofline_plan(const item_workload& w, const gpu_spec& gpu,
                                        const request_rate& rate, const duration& latency,
                                        const item_serving_assumptions& a, std::int64_t largest,
                                        const char* function) {
    item_gpu_plan best{};
    bool have = false;
    const auto consider = [&](std::int64_t b) {
        const item_service s =
            item_service_checked(w, gpu, b, a, item_time_source::roofline, function);
        const item_gpu_plan p = item_plan_at(s, rate, latency, a);
        if (!have) {
            best = p;
            have = true;
        } else if (p.verdict == item_verdict::feasible &&
                   (best.verdict != item_verdict::feasible || p.gpus < best.gpus)) {
            best = p;
        }
    };
    for (std::int64_t b = 1; b <= largest; b *= 2) consider(b);
    if ((largest & (largest - 1)) != 0) consider(largest);
    return best;
}

}  // namespace detail

/// The fewest GPUs of one type that serve `rate` requests (one item each, Poisson arrivals) with
/// the assumptions' percentile of latency (queue wait + service) at most `latency`.
/// Model: M/G/c (serving/queueing.hpp's servers_for_wait, Allen–Cunneen for service_scv ≠ 1)
/// with each GPU's batch slots as servers; with batch 1 each GPU is one server.
/// - With a measurement that applies on `gpu` (item_service_time), `chosen` serves at the
///   measured batch with the measured (or scaled) time; else `chosen` is the roofline plan.
/// - The roofline plan tries the batches 1, 2, 4, ... up to the largest that fits
///   (largest_item_batch, capped at assumptions.batch_limit), and keeps the fewest GPUs.
/// Cost: up to 22 servers_for_wait searches. Ranges: workload as item_workload says; the GPU as
/// item_batch_time and largest_item_batch say; rate 0 or in [1e-30, 1e15] requests/s; latency
/// in [1e-30 s, 1e6 years]; the assumptions as item_serving_assumptions says. Every answer is
/// finite, or a verdict that says why there is none.
inline item_replicas_estimate item_replicas_for_rate(
    const item_workload& workload, const gpu_spec& gpu, const request_rate& rate,
    const duration& latency, const item_serving_assumptions& assumptions = {}) {
    constexpr const char* function = "item_replicas_for_rate";
    detail::check(workload, function);
    detail::check(assumptions, function);
    detail::require_non_negative(function, "rate", rate);
    detail::require_positive(function, "latency", latency);
    detail::check_capacity(function, "gpu.memory", gpu.memory, assumptions.memory_headroom);
    const item_time_source use = detail::measurement_use(workload, gpu, assumptions, function);
    item_replicas_estimate e{};
    e.memory = detail::largest_item_batch_checked(workload, gpu, assumptions.memory_headroom,
                                                  assumptions.overhead, assumptions.batch_limit);
    const auto no_fit = [&](std::int64_t batch, item_time_source source) {
        item_gpu_plan p{};
        p.verdict = item_verdict::does_not_fit;
        p.source = source;
        p.service = detail::item_service_checked(workload, gpu, batch, assumptions, source,
                                                 function);
        return p;
    };
    e.roofline = e.memory.fits ? detail::item_roofline_plan(workload, gpu, rate, latency,
                                                            assumptions, e.memory.batch, function)
                               : no_fit(1, item_time_source::roofline);
    e.chosen = e.roofline;
    if (use != item_time_source::roofline) {
        const std::int64_t b = workload.measured.batch;
        const item_memory at_b = detail::item_memory_checked(workload, b, assumptions.overhead);
        if (!detail::verdict_unchecked(at_b.total, gpu.memory, assumptions.memory_headroom).ok) {
            e.chosen = no_fit(b, use);
        } else {
            e.chosen = detail::item_plan_at(
                detail::item_service_checked(workload, gpu, b, assumptions, use, function), rate,
                latency, assumptions);
        }
    }
    return e;
}

}  // namespace gpucalc
