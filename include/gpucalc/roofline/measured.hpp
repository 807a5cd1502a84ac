// roofline/measured.hpp: how close a measured decode speed comes to the hardware (MBU and
// MFU), and whether a claimed speed is possible at all
#pragma once

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "inference.hpp"

namespace gpucalc {

namespace detail {
/// The decode step at 100% of both peaks, the yardstick for measurements and claims.
constexpr decode_estimate decode_at_peak(const transformer& m, const gpu_spec& gpu,
                                         const serving_setup& s, bool fewest_experts,
                                         const char* function) {
    serving_setup at_peak = s;
    at_peak.efficiency = kernel_efficiency::ideal();
    return decode_step(check(m, function), gpu, at_peak, fewest_experts, function);
}
}  // namespace detail

/// How close a measured decode speed is to the hardware: model bandwidth utilization (bytes
/// a step must move ÷ time ÷ bandwidth) and model FLOPs utilization (FLOPs ÷ time ÷ peak), per
/// GPU (the MBU of Databricks' "LLM Inference Performance Engineering", 2023).
struct model_utilization {
    double mbu = 0.0;
    double mfu = 0.0;
};

/// Ranges: measured in [1e-30, 1e12] tokens/s per stream; the rest as decode states (the
/// setup's efficiency is not used: the yardstick is 100% of both peaks).
constexpr model_utilization decode_utilization(const transformer& m, const gpu_spec& gpu,
                                               const serving_setup& s,
                                               stream_token_rate measured) {
    constexpr const char* function = "decode_utilization";
    detail::require_positive(function, "measured", measured);
    const decode_estimate d = detail::decode_at_peak(m, gpu, s, false, function);
    const duration step = detail::one_token_per_sequence() / measured;
    return {(d.bytes / step) / gpu.memory_bandwidth,
            (d.flops / step) / detail::peak_of(gpu, s.compute, function, "compute")};
}

/// Whether a claimed per-stream decode speed is possible: at most the roofline's ceiling at
/// 100% of both peaks.
struct plausibility {
    bool possible = false;
    stream_token_rate claimed{};
    stream_token_rate ceiling{};   ///< the most the hardware allows
    double fraction_of_ceiling = 0.0;
    gpucalc::bound bound = gpucalc::bound::memory;  ///< which roof sets the ceiling
};

/// Ranges: claimed in [1e-30, 1e12] tokens/s per stream; the rest as decode_utilization.
constexpr plausibility check_decode_claim(const transformer& m, const gpu_spec& gpu,
                                          const serving_setup& s,
                                          stream_token_rate claimed) {
    detail::require_positive("check_decode_claim", "claimed", claimed);
    // The most optimistic step: an MoE batch might reach only k experts.
    const decode_estimate d = detail::decode_at_peak(m, gpu, s, true, "check_decode_claim");
    plausibility p{};
    p.claimed = claimed;
    p.ceiling = d.stream_rate;
    p.fraction_of_ceiling = p.claimed / p.ceiling;
    p.possible = p.claimed <= p.ceiling;
    p.bound = d.bound;
    return p;
}

}  // namespace gpucalc
