// serving/batch.hpp: batch (offline) inference, where no request waits on a latency SLO: the time
// and cost of a fixed set of requests on replicas run flat out, on demand or on spot capacity,
// whose reclaims lose the requests in flight and a cold start
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "capacity.hpp"
#include "replicas.hpp"

namespace gpucalc {

/// A batch inference job. Ranges: requests in [1, 2^40]; replicas in [1, 2^40]; on_demand in
/// [1e-30, $1e9/GPU·h] in base units; spot_discount in [0, 1); mean_time_between_preemptions in
/// [1e-30 s, 1e6 years] (no default: reclaim rates vary by region, GPU and hour); restart_time
/// 0 or in [1e-30 s, 1e6 years]; default_output_scv in [0, 1e6].
struct batch_job {
    std::int64_t requests = 1;
    std::int64_t replicas = 1;
    gpu_price on_demand{};
    /// The spot discount on the on-demand price: 0.6–0.9 on the three large clouds (AWS "up to
    /// 90 %", Google Cloud 60–91 %, Azure "up to 90 %", their spot pricing pages).
    double spot_discount = 0.0;
    /// M, per replica: reclaims arrive as a Poisson process (cost/spot.hpp's mean_time_between
    /// turns a rate into it). A replica that spans several spot instances is reclaimed when any
    /// of them is: M is the instances' M divided by their number.
    duration mean_time_between_preemptions{};
    /// R: getting capacity back and starting the replica again, at least cold_start's total,
    /// plus the wait for capacity; billed in full (conservative, as spot_cost's).
    duration restart_time{};
    /// C² of a request's holding time when the profile gives no output p90: 1, exponential
    /// lengths (replicas_assumptions' default_service_scv). Range: [0, 1e6].
    double default_output_scv = 1.0;
};

/// Why batch_inference answered, or did not.
enum class batch_verdict {
    found,
    replica_infeasible,     ///< the replica cannot serve the profile (replica.feasible is false)
    reclaims_outpace_work,  ///< R + lost ≥ M: beyond the first-order spot model (see below)
    above_largest,          ///< disaggregated: more than 2^40 prefill servers would be needed
};

constexpr std::string_view to_string(batch_verdict v) {
    switch (v) {
        case batch_verdict::found: return "found";
        case batch_verdict::replica_infeasible: return "replica_infeasible";
        case batch_verdict::reclaims_outpace_work: return "reclaims_outpace_work";
        case batch_verdict::above_largest: return "above_largest";
    }
    return "unknown";
}

/// batch_inference's answer. When found is false, the spot figures are 0 (and, for an infeasible
/// replica, the on-demand ones too).
struct batch_estimate {
    bool found = false;
    batch_verdict verdict = batch_verdict::replica_infeasible;
    /// Disaggregated prefill: the prefill servers (each a replica's layout) that keep up with
    /// the replicas, ⌈rate × P⌉, held alongside them; 0 in the other modes.
    std::int64_t prefill_servers = 0;
    gpu_count gpus{};                ///< (replicas + prefill_servers) × the replica's GPUs
    request_rate rate{};             ///< the replicas' capacity: replicas × replica.capacity
    duration work{};                 ///< requests ÷ rate: the wall time on demand
    money on_demand_cost{};          ///< work × GPUs × on_demand
    /// What one reclaim loses besides the restart: the in-flight requests' elapsed service, a
    /// slot's mean age h(1 + C²)/2 for holding time h with squared coefficient of variation C².
    duration lost_per_reclaim{};
    duration spot_wall_time{};       ///< work ÷ (1 − (R + lost) ÷ M)
    double spot_overhead = 0.0;      ///< spot_wall_time ÷ work − 1
    money spot_cost{};               ///< spot_wall_time × GPUs × on_demand × (1 − discount)
    money spot_saving{};             ///< on_demand_cost − spot_cost (negative: spot costs more)
};

/// A batch of `job.requests` on `job.replicas` replicas run at the replica's capacity (the
/// saturated rate at its batch B: replica_capacity's `capacity`, at the SLO's batch; pass a loose
/// TPOT SLO for the memory-bound batch), on demand and on spot. Derived: on demand the job takes
/// work = requests ÷ (replicas × capacity). On spot each replica is reclaimed at rate 1/M and
/// then loses its requests in flight (their mean elapsed service: the age of a renewal process,
/// E[h²] ÷ 2E[h] = h(1 + C²)/2, Kleinrock 1975, Queueing Systems vol. 1, §5.2, with
/// h = B ÷ capacity and C² from the output length's p90, or job.default_output_scv) and restarts
/// for R; with wall time W every replica meets W ÷ M reclaims, so
/// W = work + (W ÷ M)(R + lost), W = work ÷ (1 − (R + lost) ÷ M): the batch is not latency-bound,
/// so the requests lost are simply rerun. First order in (R + lost) ÷ M: it charges every
/// reclaim R + lost, also one that strikes a restart (conservative), and is close while
/// (R + lost) ≪ M; cost/spot.hpp's exponential model is the exact one for checkpointed work. No
/// answer (verdict reclaims_outpace_work) when R + lost ≥ M. A replica that is not feasible
/// answers replica_infeasible. Disaggregated prefill adds ⌈rate × P⌉ prefill servers, billed
/// alike and reclaimed alike (their loss, a prefill, is within a slot's).
/// Ranges: replica an estimate replica_capacity returned; profile as request_profile says; job
/// as batch_job says.
inline batch_estimate batch_inference(const replica_capacity_estimate& replica,
                                      const request_profile& profile, const batch_job& job) {
    constexpr const char* function = "batch_inference";
    detail::check_request_profile(profile, function);
    detail::require_count(function, "job.requests", job.requests);
    detail::require_count(function, "job.replicas", job.replicas);
    detail::require_positive(function, "job.on_demand", job.on_demand);
    if (!(job.spot_discount >= 0.0 && job.spot_discount < 1.0)) {
        detail::throw_invalid(function, "job.spot_discount", job.spot_discount, "",
                              "must be in [0, 1)");
    }
    detail::require_positive(function, "job.mean_time_between_preemptions",
                             job.mean_time_between_preemptions);
    detail::require_non_negative(function, "job.restart_time", job.restart_time);
    if (!(job.default_output_scv >= 0.0 && job.default_output_scv <= largest_service_scv)) {
        detail::throw_invalid(function, "job.default_output_scv", job.default_output_scv, "",
                              "must be in [0, 1e6]");
    }
    detail::check_replica_estimate(replica, function);
    batch_estimate out{};
    if (!replica.feasible) return out;
    const double replicas = static_cast<double>(job.replicas);
    out.rate = replicas * replica.capacity;
    if (replica.mode == prefill_mode::disaggregated) {
        // The prefill work arriving per second of wall time, in servers: rate × P (derived).
        const double busy = in<requests_per_second>(out.rate) * in<seconds>(replica.prefill_time);
        if (!(busy <= static_cast<double>(detail::largest_count))) {
            out.verdict = batch_verdict::above_largest;
            return out;
        }
        out.prefill_servers = static_cast<std::int64_t>(std::ceil(busy));
    }
    out.gpus = make<gpus>(static_cast<double>(job.replicas + out.prefill_servers) *
                          static_cast<double>(replica.gpus));
    const gpu_count gpus_held = out.gpus;
    out.work = make<sequences>(static_cast<double>(job.requests)) / out.rate;
    out.on_demand_cost = gpus_held * out.work * job.on_demand;
    // A slot's holding time at saturation (Little's law: B slots, each emptied at capacity ÷ B).
    const duration hold = make<sequences>(static_cast<double>(replica.batch)) / replica.capacity;
    const double c2 = profile.output_p90 > 0
                          ? detail::scv_from_p90(profile.output_mean, profile.output_p90)
                          : job.default_output_scv;
    out.lost_per_reclaim = 0.5 * (1.0 + c2) * hold;
    const double loss = (job.restart_time + out.lost_per_reclaim) / job.mean_time_between_preemptions;
    out.verdict = batch_verdict::reclaims_outpace_work;
    if (!(loss < 1.0)) return out;
    out.found = true;
    out.verdict = batch_verdict::found;
    out.spot_wall_time = out.work / (1.0 - loss);
    out.spot_overhead = out.spot_wall_time / out.work - 1.0;
    out.spot_cost = gpus_held * out.spot_wall_time * ((1.0 - job.spot_discount) * job.on_demand);
    out.spot_saving = out.on_demand_cost - out.spot_cost;
    return out;
}

}  // namespace gpucalc
