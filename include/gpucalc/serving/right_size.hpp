// serving/right_size.hpp: right-sizing a running deployment from what it measured (its GPUs'
// sustained utilization, their peak memory and the trend of its request queue): keep it, move a
// replica to a smaller GPU or a MIG slice, run fewer or more replicas, or batch better, with the
// rule that fired, the value it compared and its threshold, and the target where one follows
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware/device.hpp"
#include "../memory/fit.hpp"
#include "../units.hpp"

namespace gpucalc {

/// What right_size recommends: one action.
enum class right_size_action {
    keep,                      ///< no rule fired: the deployment is sized for what it serves
    smaller_gpu_or_mig_slice,  ///< each replica fits a MIG slice (or, with none, a smaller GPU)
    fewer_replicas,            ///< the fleet is over-provisioned and fewer replicas carry it
    more_replicas,             ///< the queue grows and the GPUs are busy: capacity is short
    better_batching,           ///< the queue grows while the GPUs idle or the batch is not full
};

constexpr std::string_view to_string(right_size_action a) {
    switch (a) {
        case right_size_action::keep: return "keep";
        case right_size_action::smaller_gpu_or_mig_slice: return "smaller_gpu_or_mig_slice";
        case right_size_action::fewer_replicas: return "fewer_replicas";
        case right_size_action::more_replicas: return "more_replicas";
        case right_size_action::better_batching: return "better_batching";
    }
    return "unknown";
}

/// Which rule decided, in right_size's order of precedence (see right_size).
enum class right_size_rule {
    none,                   ///< nothing fired: keep
    queue_growing_busy,     ///< queue grows, utilization >= busy_above: more replicas
    queue_growing_batch_not_full,  ///< queue grows, batch fill < batch_full_at: better batching
    queue_growing_gpu_idle,  ///< queue grows, utilization < over_provisioned_below: batching
    queue_growing,          ///< queue grows, batch full or unknown: more replicas
    /// the queue stands (requests wait at the window's end) while utilization is under
    /// over_provisioned_below: better batching, never less capacity
    queue_standing_gpu_idle,
    over_provisioned_mig,   ///< utilization < over_provisioned_below, a MIG slice holds a replica
    over_provisioned_fewer,  ///< utilization < over_provisioned_below, fewer replicas carry it
    over_provisioned_smaller_gpu,  ///< utilization low, no slice and no fewer: a smaller GPU
};

constexpr std::string_view to_string(right_size_rule r) {
    switch (r) {
        case right_size_rule::none: return "none";
        case right_size_rule::queue_growing_busy: return "queue_growing_busy";
        case right_size_rule::queue_growing_batch_not_full: return "queue_growing_batch_not_full";
        case right_size_rule::queue_growing_gpu_idle: return "queue_growing_gpu_idle";
        case right_size_rule::queue_growing: return "queue_growing";
        case right_size_rule::queue_standing_gpu_idle: return "queue_standing_gpu_idle";
        case right_size_rule::over_provisioned_mig: return "over_provisioned_mig";
        case right_size_rule::over_provisioned_fewer: return "over_provisioned_fewer";
        case right_size_rule::over_provisioned_smaller_gpu: return "over_provisioned_smaller_gpu";
    }
    return "unknown";
}

/// What a deployment measured over a window long enough to be sustained (an hour of steady
/// traffic, not a spike). Ranges: gpu as check(gpu_spec) states; replicas and gpus_per_replica in
/// [1, 2^40]; utilization in [0, 1]; peak_memory_per_gpu 0 (not measured) or in [1e-30 B, the
/// GPU's memory]; queue_at_start and queue_at_end in [0, 2^40]; window in [1e-30 s, 1e6 years];
/// running_batch in [0, batch_limit]; batch_limit 0 (unknown) or in [1, 2^40]; arrival_rate 0
/// (unknown) or in [1e-30, 1e15] requests/s, and at least the queue's growth; replicas_needed
/// 0 (unknown) or in [1, 2^40].
struct deployment_measurements {
    gpu_spec gpu{};                     ///< the GPU type each replica runs on (with its MIG table)
    std::int64_t replicas = 1;
    std::int64_t gpus_per_replica = 1;  ///< tensor × pipeline
    /// The sustained fraction of time the GPUs were busy, averaged over the fleet: what nvidia-smi
    /// reports as utilization.gpu and DCGM as DCGM_FI_DEV_GPU_UTIL (NVML's nvmlUtilization_t.gpu:
    /// the percent of time over the sample period during which one or more kernels was
    /// executing). Caveat: one kernel on one SM counts as busy, so this overstates the compute
    /// used; DCGM's profiling field DCGM_FI_PROF_SM_ACTIVE (NVML_GPM_METRIC_SM_UTIL, "Percentage
    /// of SMs that were busy") is the closer measure when available, and either may be given.
    /// NVML does not report device utilization on MIG-enabled GPUs: there, use
    /// DCGM_FI_PROF_GR_ENGINE_ACTIVE (NVML_GPM_METRIC_GRAPHICS_UTIL) or SM_ACTIVE per instance.
    double utilization = 0.0;
    /// The most memory a GPU held: what the model needs (weights, the KV cache its batch uses,
    /// activations), not what the engine reserves. vLLM reserves gpu_memory_utilization = 0.9 of
    /// the device by default whatever the load; read its own KV-cache usage instead. 0: not
    /// measured, and then no MIG slice is recommended (its memory could not be checked).
    data_size peak_memory_per_gpu{};
    std::int64_t queue_at_start = 0;  ///< requests waiting at the window's start
    std::int64_t queue_at_end = 0;    ///< requests waiting at its end
    duration window = make<hours>(1.0);
    double running_batch = 0.0;       ///< the mean number of requests in the running batch
    std::int64_t batch_limit = 0;     ///< the engine's batch limit (vLLM max_num_seqs); 0: unknown
    /// The measured arrival rate; 0 when unknown. With it, more_replicas' target grows by
    /// λ ÷ (λ − queue growth), the demand the fleet falls short of.
    request_rate arrival_rate{};
    /// The replicas replicas_for_rate finds at the measured rate (its `replicas`); 0 when not
    /// computed. A target never goes below it.
    std::int64_t replicas_needed = 0;
};

/// right_size's thresholds: the domain's rules of thumb, each a named default. Ranges: each in
/// (0, 1], with over_provisioned_below <= target_utilization <= busy_above; memory_headroom in
/// [0, 1); queue_growth_above 0 or in [1e-30, 1e15] requests/s.
struct right_size_assumptions {
    /// Sustained utilization below this means over-provisioned: 40 %, the rule of thumb.
    /// Uncertain: no primary source was found for the figure; cloud cost guides and GPU-fleet
    /// surveys report fleets averaging 15–30 % and treat well under half as waste.
    double over_provisioned_below = 0.40;
    /// Utilization at or above this, with a growing queue, means capacity is short: 80 %.
    /// Uncertain: a rule of thumb (70–85 %), the busy fraction beyond which queueing delay
    /// grows quickly (an M/M/1 queue's wait is ρ ÷ (1 − ρ) service times: 4 at 80 %; Gross et al.
    /// 2008 §2.2).
    double busy_above = 0.80;
    /// The utilization a new replica count or slice is chosen for: 60 %. Uncertain (50–70 %):
    /// between the two thresholds, leaving a third of the capacity for peaks.
    double target_utilization = 0.60;
    /// A batch at least this full counts as full: 90 % of the batch limit. Uncertain.
    double batch_full_at = 0.90;
    /// The share of a slice's memory kept free: 10 %, so the peak may use 90 % of it, the share
    /// vLLM's engine takes by default (gpu_memory_utilization = 0.9, vLLM engine arguments).
    double memory_headroom = 0.10;
    /// The queue grows when (queue_at_end − queue_at_start) ÷ window exceeds this: any net
    /// growth over a sustained window (0 requests/s). Two samples are noisy: pass queue depths
    /// smoothed over the window, or raise this.
    request_rate queue_growth_above{};
};

/// right_size's answer: the action, the rule that fired, the value it compared and its
/// threshold, and the target. measured and threshold are the utilization and the threshold it
/// crossed (for queue_growing, busy_above, which it is below; for keep, over_provisioned_below),
/// except for queue_growing_batch_not_full, where they are the batch fill and batch_full_at.
struct right_size_recommendation {
    right_size_action action = right_size_action::keep;
    right_size_rule rule = right_size_rule::none;
    double measured = 0.0;          ///< the value the deciding rule compared
    double threshold = 0.0;         ///< the threshold it compared it with
    request_rate queue_growth{};    ///< (queue_at_end − queue_at_start) ÷ window; may be < 0
    bool queue_growing = false;     ///< queue_growth > queue_growth_above
    double batch_fill = 0.0;        ///< running_batch ÷ batch_limit; 0 when the limit is unknown
    std::int64_t replicas = 0;      ///< the replica count to run (the current one when unchanged)
    /// The replica target reached 2^40, the most a count holds: more_replicas may then leave
    /// the count where it is, and the fleet needs more than the answer can say.
    bool at_largest = false;
    bool has_profile = false;       ///< a MIG profile was chosen (smaller_gpu_or_mig_slice)
    mig_profile profile{};          ///< that profile; empty when has_profile is false
    /// The utilization expected at the target (derived: the busy time scales with the load per
    /// replica and inversely with the slice's share of the GPU, the smaller of its compute and
    /// memory shares); the measured one when nothing changes, and for better_batching. Beyond 1
    /// only when at_largest (the fleet needs more replicas than a count holds).
    double utilization_after = 0.0;
    double gpus_before = 0.0;       ///< replicas × gpus_per_replica
    /// GPUs at the target: replicas × gpus_per_replica, or, on MIG slices, the GPUs they take
    /// (replicas ÷ the profile's max_instances: 1/2 GPU for a 3g slice, 1/7 for a 1g.10gb).
    double gpus_after = 0.0;
};

namespace detail {

/// The compute slices of a full GPU in MIG (NVIDIA Multi-Instance GPU User Guide, "Supported
/// MIG Profiles": 7 compute slices on A100, H100, H200 and B200).
inline constexpr double mig_compute_slices = 7.0;

inline void check(const deployment_measurements& m, const right_size_assumptions& a,
                  const char* function) {
    detail::check(m.gpu, field_path{function, "measured.gpu."});
    require_count(function, "measured.replicas", m.replicas);
    require_count(function, "measured.gpus_per_replica", m.gpus_per_replica);
    if (!(m.utilization >= 0.0 && m.utilization <= 1.0)) {
        throw_invalid(function, "measured.utilization", m.utilization, "", "must be in [0, 1]");
    }
    require_non_negative(function, "measured.peak_memory_per_gpu", m.peak_memory_per_gpu);
    if (m.peak_memory_per_gpu > m.gpu.memory) {
        throw_invalid_name(function, "measured.peak_memory_per_gpu",
                           to_string(m.peak_memory_per_gpu), "must not exceed measured.gpu.memory = ",
                           to_string(m.gpu.memory));
    }
    if (m.queue_at_start < 0 || m.queue_at_start > largest_count) {
        throw_invalid(function, "measured.queue_at_start", static_cast<double>(m.queue_at_start),
                      "", "must be in [0, 2^40]");
    }
    if (m.queue_at_end < 0 || m.queue_at_end > largest_count) {
        throw_invalid(function, "measured.queue_at_end", static_cast<double>(m.queue_at_end), "",
                      "must be in [0, 2^40]");
    }
    require_positive(function, "measured.window", m.window);
    if (m.batch_limit != 0) require_count(function, "measured.batch_limit", m.batch_limit);
    const double limit = m.batch_limit == 0 ? static_cast<double>(largest_count)
                                            : static_cast<double>(m.batch_limit);
    if (!(m.running_batch >= 0.0 && m.running_batch <= limit)) {
        throw_invalid(function, "measured.running_batch", m.running_batch, "",
                      "must be in [0, measured.batch_limit = ", static_cast<double>(m.batch_limit),
                      "] (2^40 when the limit is 0, unknown)");
    }
    require_non_negative(function, "measured.arrival_rate", m.arrival_rate);
    // The queue grows by what arrives and is not served: by less than what arrives.
    const double growth = static_cast<double>(m.queue_at_end - m.queue_at_start) /
                          in<seconds>(m.window);
    if (m.arrival_rate.value() > 0.0 && !(growth < in<requests_per_second>(m.arrival_rate))) {
        throw_invalid(function, "measured.arrival_rate", in<requests_per_second>(m.arrival_rate),
                      "requests/s",
                      "must exceed the queue's growth (queue_at_end − queue_at_start) ÷ window = ",
                      growth, " requests/s");
    }
    if (m.replicas_needed != 0) require_count(function, "measured.replicas_needed", m.replicas_needed);
    require_fraction(function, "assumptions.over_provisioned_below", a.over_provisioned_below);
    require_fraction(function, "assumptions.busy_above", a.busy_above);
    require_fraction(function, "assumptions.target_utilization", a.target_utilization);
    require_fraction(function, "assumptions.batch_full_at", a.batch_full_at);
    if (!(a.over_provisioned_below <= a.target_utilization)) {
        throw_invalid(function, "assumptions.target_utilization", a.target_utilization, "",
                      "must be >= assumptions.over_provisioned_below = ",
                      a.over_provisioned_below, "");
    }
    if (!(a.target_utilization <= a.busy_above)) {
        throw_invalid(function, "assumptions.target_utilization", a.target_utilization, "",
                      "must be <= assumptions.busy_above = ", a.busy_above, "");
    }
    if (!(a.memory_headroom >= 0.0 && a.memory_headroom < 1.0)) {
        throw_invalid(function, "assumptions.memory_headroom", a.memory_headroom, "",
                      "must be in [0, 1)");
    }
    require_non_negative(function, "assumptions.queue_growth_above", a.queue_growth_above);
}

/// The fewest replicas that bring a fleet of `replicas` at utilization `u` to `target` when
/// `scale` times the load it serves now must be served (derived: the busy time is proportional
/// to the load a replica serves), at least `floor`, at most 2^40.
inline double replicas_for_target(std::int64_t replicas, double u, double scale,
                                double target, std::int64_t floor) {
    const double r = std::ceil(static_cast<double>(replicas) * u * scale / target);
    const double at_least = r > static_cast<double>(floor) ? r : static_cast<double>(floor);
    const double cap = static_cast<double>(largest_count);
    return at_least < cap ? at_least : cap;
}

}  // namespace detail

/// Recommends one action for a deployment from its measurements (rules of thumb, each a named
/// threshold in `assumptions`), in this order of precedence:
/// 1. The queue grows (queue_growth > queue_growth_above): capacity or batching is short, and
///    nothing is taken away while it grows.
///    a. the batch limit is known, running_batch ÷ batch_limit < batch_full_at and memory is not
///       full (the peak within memory_headroom of the GPU's): better_batching
///       (queue_growing_batch_not_full): requests wait while the batch has room. First, because
///       the busy fraction reads near 1 for a decoding engine at any batch;
///    b. else utilization >= busy_above: more_replicas (queue_growing_busy);
///    c. else utilization < over_provisioned_below: better_batching (queue_growing_gpu_idle): the
///       GPUs idle while requests wait, so the scheduler holds them back or the batch limit,
///       reached, is too small;
///    d. else more_replicas (queue_growing).
///    more_replicas' target: ceil(R × u × g ÷ target_utilization), g = λ ÷ (λ − growth) when the
///    arrival rate λ is known (else 1), at least R + 1 and replicas_needed.
/// 2. Else utilization < over_provisioned_below:
///    a. requests still wait at the window's end: better_batching (queue_standing_gpu_idle),
///       never less capacity;
///    b. replicas_needed > R: keep (the capacity model says the fleet is short, not idle);
///    c. else over-provisioned. Two remedies are weighed by the GPUs they free, the larger
///       winning (a tie goes to fewer replicas, which needs no reconfiguration):
///       - a MIG slice (one-GPU replicas, a measured peak, a GPU with MIG profiles: MIG instances
///         have no peer-to-peer path between them, NVIDIA MIG user guide): among the profiles
///         whose memory holds the peak with memory_headroom kept free (fits()'s test) and where
///         u ÷ share <= target_utilization (share: the smaller of compute slices ÷ 7 and the
///         slice's memory ÷ the GPU's, its bandwidth share), the one needing the fewest GPUs,
///         R ÷ max_instances (a GPU holds at most max_instances of a profile), then the fewest
///         compute slices; frees R − that;
///       - fewer replicas: ceil(R × u ÷ target_utilization), at least replicas_needed and 1;
///         frees the difference × gpus_per_replica.
///       Neither frees anything: smaller_gpu_or_mig_slice with no profile
///       (over_provisioned_smaller_gpu): a smaller GPU type, which this function cannot name
///       (for a tensor-parallel replica, fewer GPUs per replica is the first thing to try).
/// 3. Else keep.
/// Limits: fewer replicas each serve more and hold a larger KV cache: check the target with
/// inference_memory_per_gpu and replicas_for_rate. A target may land below
/// over_provisioned_below (the ceiling rounds to whole replicas); re-running on it is stable
/// only once measured there.
/// Ranges: as deployment_measurements and right_size_assumptions state.
inline right_size_recommendation right_size(const deployment_measurements& measured,
                                            const right_size_assumptions& assumptions = {}) {
    constexpr const char* function = "right_size";
    detail::check(measured, assumptions, function);
    const deployment_measurements& m = measured;
    const right_size_assumptions& a = assumptions;
    right_size_recommendation out{};
    out.queue_growth = make<requests_per_second>(
        static_cast<double>(m.queue_at_end - m.queue_at_start) / in<seconds>(m.window));
    out.queue_growing = out.queue_growth > a.queue_growth_above;
    out.batch_fill = m.batch_limit == 0 ? 0.0 : m.running_batch / static_cast<double>(m.batch_limit);
    out.replicas = m.replicas;
    out.utilization_after = m.utilization;
    const double gpus_per_replica = static_cast<double>(m.gpus_per_replica);
    out.gpus_before = static_cast<double>(m.replicas) * gpus_per_replica;
    out.gpus_after = out.gpus_before;
    const auto decide = [&](right_size_action action, right_size_rule rule, double value,
                            double threshold) {
        out.action = action;
        out.rule = rule;
        out.measured = value;
        out.threshold = threshold;
    };
    const auto set_replicas = [&](double r) {
        out.replicas = static_cast<std::int64_t>(r);
        out.at_largest = out.replicas == detail::largest_count;
        out.gpus_after = r * gpus_per_replica;
        out.utilization_after = m.utilization * out.gpus_before / out.gpus_after;
    };
    if (out.queue_growing) {
        const bool batch_known = m.batch_limit != 0;
        // A batch held back by a full KV cache cannot grow: the peak within memory_headroom of
        // the GPU's memory (fits()'s test fails at the full device).
        const bool memory_full =
            !detail::verdict_unchecked(m.peak_memory_per_gpu, m.gpu.memory, a.memory_headroom).ok;
        if (batch_known && out.batch_fill < a.batch_full_at && !memory_full) {
            // First: the busy fraction reads near 1 for a decoding engine at any batch, so a
            // half-empty batch with memory to spare is the cheaper fix even when "busy".
            decide(right_size_action::better_batching,
                   right_size_rule::queue_growing_batch_not_full, out.batch_fill, a.batch_full_at);
            return out;
        } else if (m.utilization >= a.busy_above) {
            decide(right_size_action::more_replicas, right_size_rule::queue_growing_busy,
                   m.utilization, a.busy_above);
        } else if (m.utilization < a.over_provisioned_below) {
            decide(right_size_action::better_batching, right_size_rule::queue_growing_gpu_idle,
                   m.utilization, a.over_provisioned_below);
            return out;
        } else {
            decide(right_size_action::more_replicas, right_size_rule::queue_growing,
                   m.utilization, a.busy_above);
        }
        // The fleet completes λ − growth of the λ that arrives (derived: what it does not complete
        // joins the queue); with λ unknown the target only restores the utilization.
        const double shortfall = m.arrival_rate.value() > 0.0
                                     ? m.arrival_rate.value() /
                                           (m.arrival_rate - out.queue_growth).value()
                                     : 1.0;
        const std::int64_t floor = m.replicas_needed > m.replicas + 1 ? m.replicas_needed
                                                                      : m.replicas + 1;
        set_replicas(detail::replicas_for_target(m.replicas, m.utilization, shortfall,
                                                 a.target_utilization, floor));
        // Past the load the fleet completes: the busy fraction at the target serves all of λ.
        out.utilization_after *= shortfall;
        return out;
    }
    out.measured = m.utilization;  // keep's: the utilization, not below the line
    out.threshold = a.over_provisioned_below;
    if (!(m.utilization < a.over_provisioned_below)) return out;
    // Requests still wait at the window's end while the GPUs idle: the scheduler or the batch
    // holds them back; taking capacity away would make it worse.
    if (m.queue_at_end > 0) {
        decide(right_size_action::better_batching, right_size_rule::queue_standing_gpu_idle,
               m.utilization, a.over_provisioned_below);
        return out;
    }
    // The capacity model says the fleet already needs more than it runs: nothing to take away.
    if (m.replicas_needed > m.replicas) return out;
    // Fewer replicas.
    const double fewer = detail::replicas_for_target(
        m.replicas, m.utilization, 1.0, a.target_utilization,
        m.replicas_needed > 1 ? m.replicas_needed : 1);
    const double freed_by_fewer =
        fewer < static_cast<double>(m.replicas)
            ? (static_cast<double>(m.replicas) - fewer) * gpus_per_replica
            : 0.0;
    // The MIG slice that frees the most GPUs while holding a replica.
    const mig_profile* best = nullptr;
    double best_share = 1.0;
    double best_gpus = static_cast<double>(m.replicas);
    if (m.gpus_per_replica == 1 && m.peak_memory_per_gpu > data_size{}) {
        for (std::int64_t i = 0; i < m.gpu.mig_count; ++i) {
            const mig_profile& p = m.gpu.mig[i];
            if (p.max_instances < 1) continue;
            // The slice's share of the GPU: its compute slices of 7, or its memory (and so its
            // memory bandwidth: a slice gets its memory slices' share, memory slices of 8 in the
            // MIG user guide) when smaller, since decode is bandwidth-bound (derived).
            const double compute = static_cast<double>(p.compute_slices) / detail::mig_compute_slices;
            const double memory = p.memory / m.gpu.memory;
            const double share = compute < memory ? compute : memory;
            // fits()'s test: the peak within (1 − headroom) of the slice's memory.
            const bool holds =
                detail::verdict_unchecked(m.peak_memory_per_gpu, p.memory, a.memory_headroom).ok;
            const bool keeps_up = m.utilization / share <= a.target_utilization;
            if (!(holds && keeps_up)) continue;
            // R replicas on slices of this profile take R ÷ max_instances GPUs: a GPU holds at
            // most max_instances of them (the rest of a GPU is free for other work).
            const double gpus_needed =
                static_cast<double>(m.replicas) / static_cast<double>(p.max_instances);
            if (best == nullptr || gpus_needed < best_gpus ||
                (detail::exactly_equal(gpus_needed, best_gpus) && p.compute_slices < best->compute_slices)) {
                best = &p;
                best_share = share;
                best_gpus = gpus_needed;
            }
        }
    }
    const double freed_by_slice = static_cast<double>(m.replicas) - best_gpus;
    if (best != nullptr && freed_by_slice > freed_by_fewer) {
        decide(right_size_action::smaller_gpu_or_mig_slice, right_size_rule::over_provisioned_mig,
               m.utilization, a.over_provisioned_below);
        out.has_profile = true;
        out.profile = *best;
        out.gpus_after = best_gpus;
        out.utilization_after = m.utilization / best_share;
    } else if (freed_by_fewer > 0.0) {
        decide(right_size_action::fewer_replicas, right_size_rule::over_provisioned_fewer,
               m.utilization, a.over_provisioned_below);
        set_replicas(fewer);
    } else {
        decide(right_size_action::smaller_gpu_or_mig_slice,
               right_size_rule::over_provisioned_smaller_gpu, m.utilization,
               a.over_provisioned_below);
    }
    return out;
}

}  // namespace gpucalc
