// serving/cold_start.hpp: how long a new serving replica takes before it serves (its weights
// over the load path, then the engine's start), and how many warm replicas a rising demand needs
// so that the SLO holds while new ones start
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware/link.hpp"
#include "../memory/inference.hpp"
#include "../model.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "capacity.hpp"
#include "replicas.hpp"

namespace gpucalc {

/// The engine's start beside its weight load: process and framework start, tokenizer, engine
/// and KV-cache set-up, torch.compile from its cache, CUDA graph capture. 30 s: vLLM 0.10 (V1
/// engine) took 23–45 s besides its weight load for 7B–14B models on one GPU with a warm compile
/// cache, and 39–66 s with a cold one (Kabakibo, Trivedi and Wang 2026, "Breaking the Ice:
/// Analyzing Cold Start Latency in vLLM", arXiv 2606.07362, from the authors' published
/// per-step measurements: total minus model loading). Uncertain: tensor-parallel replicas and
/// larger models start slower; graph-capture snapshots (Foundry, arXiv 2604.06664) cut it to
/// seconds.
inline constexpr duration default_engine_start = make<seconds>(30.0);

/// How long before a replica serves, in two parts.
struct cold_start_estimate {
    duration load{};   ///< the weights over the load path
    duration start{};  ///< the engine's start
    duration total{};  ///< load + start
};

/// A replica's cold start (derived): the bytes that cross the path ÷ its bandwidth, then the
/// engine's start. Each of `gpus` GPUs holds `weights_per_gpu`; over a per-GPU path the GPUs load
/// in parallel (weights_per_gpu ÷ read), over a shared one the path carries them all
/// (gpus × weights_per_gpu ÷ read). Weights only: the KV cache is allocated, not read.
/// Ranges: weights_per_gpu in [1e-30 B, 1e30 B]; gpus in [1, 2^40]; path.read in
/// [1e-30 B/s, 1e30 B/s] (a path of zero bandwidth never loads: invalid_input); engine_start 0
/// or in [1e-30 s, 1e6 years].
constexpr cold_start_estimate cold_start(data_size weights_per_gpu, std::int64_t gpus,
                                         const load_path& path,
                                         duration engine_start = default_engine_start) {
    constexpr const char* function = "cold_start";
    detail::require_positive(function, "weights_per_gpu", weights_per_gpu);
    detail::require_count(function, "gpus", gpus);
    detail::require_positive(function, "path.read", path.read);
    detail::require_non_negative(function, "engine_start", engine_start);
    const double crossing = path.per_gpu ? 1.0 : static_cast<double>(gpus);
    cold_start_estimate e{};
    e.load = crossing * weights_per_gpu / path.read;
    e.start = engine_start;
    e.total = e.load + e.start;
    return e;
}

/// The cold start of a replica of `m` served as `setup` says (its weight format and its tensor
/// and pipeline layout): the weights each GPU holds (inference_memory_per_gpu's weights) over
/// `path`. Ranges: the model's and the setup's as inference_memory_per_gpu states; the path
/// and engine_start as above.
constexpr cold_start_estimate cold_start(const checked_model& m, const serving_setup& setup,
                                         const load_path& path,
                                         duration engine_start = default_engine_start) {
    const inference_memory per_gpu = detail::inference_memory_of(m, setup, "cold_start");
    return cold_start(per_gpu.weights, setup.parallel.tensor * setup.parallel.pipeline, path,
                      engine_start);
}

/// A demand that rises by `rise` requests/s over `over`: the slope an autoscaler must keep up
/// with. Ranges: rise 0 or in [1e-30, 1e15] requests/s; over in [1e-30 s, 1e6 years].
struct demand_ramp {
    request_rate rise{};
    duration over = make<minutes>(1.0);
};

/// What warm_replicas_for_ramp assumes. Ranges: scale_up_delay 0 or in [1e-30 s, 1e6 years];
/// replicas as replicas_assumptions says.
struct ramp_assumptions {
    /// The time an autoscaler takes to see the load and order a replica: 15 s, the Kubernetes
    /// Horizontal Pod Autoscaler's sync period (--horizontal-pod-autoscaler-sync-period's
    /// default, Kubernetes documentation, "Horizontal Pod Autoscaling"). Metrics windows add to
    /// it.
    duration scale_up_delay = make<seconds>(15.0);
    replicas_assumptions replicas{};  ///< replicas_for_rate's
};

/// warm_replicas_for_ramp's answer. When found is false the counts are 0. Counts are servers of
/// the replica's layout: replicas, plus prefill servers when prefill is disaggregated.
struct ramp_estimate {
    bool found = false;
    replicas_verdict verdict = replicas_verdict::replica_infeasible;
    duration lead_time{};        ///< scale-up delay + cold start: how far ahead capacity is ordered
    request_rate rate{};         ///< λ now
    request_rate rate_ahead{};   ///< λ + slope × lead time: what arrives once a new replica serves
    std::int64_t replicas = 0;        ///< R(λ): the fewest for λ
    std::int64_t replicas_ahead = 0;  ///< R(λ ahead): what must already run at λ
    std::int64_t warm_replicas = 0;   ///< R(λ ahead) − R(λ): running beyond λ's need
};

/// The replicas that must run while demand rises at `ramp`'s slope (derived): a replica ordered
/// now serves after the lead time L = scale-up delay + cold start, by when the rate has reached
/// λ + slope × L; so what runs at λ must already meet the SLO at λ + slope × L, and the warm
/// replicas are R(λ + slope × L) − R(λ), both from replicas_for_rate. Linear ramps only; a step
/// in demand needs the whole step ahead. No answer (found = false) when replicas_for_rate has
/// none at either rate.
/// Ranges: the replica, profile, route and assumptions as replicas_for_rate states; rate 0 (a
/// deployment scaled to zero: R(0) = 0) or in [1e-30, 1e15] requests/s; the ramp as demand_ramp states; cold_start 0 or in
/// [1e-30 s, 1e6 years].
inline ramp_estimate warm_replicas_for_ramp(const replica_capacity_estimate& replica,
                                            const request_profile& profile, routing route,
                                            request_rate rate, const demand_ramp& ramp,
                                            duration cold_start,
                                            const ramp_assumptions& assumptions = {}) {
    constexpr const char* function = "warm_replicas_for_ramp";
    detail::require_non_negative(function, "rate", rate);
    // The replica search's other rules (its rate is checked above: 0 is a deployment scaled to
    // zero, which needs no replica).
    detail::check_replicas_inputs(function, profile, route, make<requests_per_second>(1.0),
                                  assumptions.replicas, true);
    detail::check_replica_estimate(replica, function);
    detail::require_non_negative(function, "ramp.rise", ramp.rise);
    detail::require_positive(function, "ramp.over", ramp.over);
    detail::require_non_negative(function, "cold_start", cold_start);
    detail::require_non_negative(function, "assumptions.scale_up_delay",
                                 assumptions.scale_up_delay);
    ramp_estimate out{};
    out.lead_time = assumptions.scale_up_delay + cold_start;
    out.rate = rate;
    out.rate_ahead = rate + ramp.rise * (out.lead_time / ramp.over);
    if (out.rate_ahead > make<requests_per_second>(detail::input_range<request_rate>::largest)) {
        detail::throw_invalid(function, "ramp.rise", in<requests_per_second>(ramp.rise),
                              "requests/s",
                              "must keep rate + ramp.rise × (scale-up delay + cold_start) ÷ "
                              "ramp.over within 1e15 requests/s");
    }
    // R at a rate: replicas_for_rate's, or none at rate 0 (found, when the replica is feasible).
    const auto replicas_at = [&](request_rate r) {
        if (r.value() > 0.0) return replicas_for_rate(replica, profile, route, r, assumptions.replicas);
        replicas_estimate none{};
        none.found = replica.feasible;
        none.verdict = replica.feasible ? replicas_verdict::found
                                        : replicas_verdict::replica_infeasible;
        return none;
    };
    const replicas_estimate now = replicas_at(rate);
    out.verdict = now.verdict;
    if (!now.found) return out;
    const replicas_estimate ahead = replicas_at(out.rate_ahead);
    out.verdict = ahead.verdict;
    if (!ahead.found) return out;
    out.found = true;
    out.replicas = detail::servers_of(now);
    out.replicas_ahead = detail::servers_of(ahead);
    out.warm_replicas = out.replicas_ahead - out.replicas;
    return out;
}

}  // namespace gpucalc
