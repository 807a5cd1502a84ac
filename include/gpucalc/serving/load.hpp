// serving/load.hpp: a continuous-batching replica at a given request rate: how busy it is, how
// many sequences it runs, and the time per output token its users see when prefill shares the
// GPU with decode (stalling it, or chunked into its steps) or runs elsewhere
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../units.hpp"

namespace gpucalc {

/// The latency a serving deployment promises. Ranges: each duration in [1e-30 s, 1e6 years].
struct serving_slo {
    duration time_to_first_token{};   ///< TTFT
    duration time_per_output_token{}; ///< TPOT: the mean time between a request's tokens
};

/// How prefill shares the replica with decode.
enum class prefill_mode {
    /// Each prompt's prefill runs alone and the running batch waits (vLLM's default scheduler
    /// before chunked prefill; Orca's iteration-level scheduling, Yu et al. 2022 §4.2).
    stall,
    /// Prompts are cut into chunks carried by decode steps (Sarathi-Serve, Agrawal et al. 2024).
    chunked,
    /// Prefill runs on other GPUs and hands the KV cache over (DistServe, Zhong et al. 2024);
    /// the transfer is not modelled.
    disaggregated,
};

constexpr std::string_view to_string(prefill_mode m) {
    switch (m) {
        case prefill_mode::stall: return "stall";
        case prefill_mode::chunked: return "chunked";
        case prefill_mode::disaggregated: return "disaggregated";
    }
    return "unknown";
}

/// What the load model needs of a replica; replica_capacity fills one, and a caller may write one
/// by hand (an affine step time, as a simulation uses). Ranges: mode an enumerator; the SLO as
/// serving_slo says; batch, prompt_tokens, output_tokens and chunk_tokens in [1, 2^40];
/// step_fixed and step_per_sequence 0 or in [1e-30 s, 1e6 years] with step_fixed +
/// step_per_sequence > 0; prefill_time and chunk_step_extra the same, 0 allowed.
struct replica_step_model {
    prefill_mode mode = prefill_mode::stall;
    serving_slo slo{};
    std::int64_t batch = 1;            ///< B: the most sequences decoded at once
    std::int64_t prompt_tokens = 1;    ///< N: the mean prompt
    std::int64_t output_tokens = 1;    ///< D: the mean output, one decode step per token
    std::int64_t chunk_tokens = 512;   ///< C: prompt tokens per chunked step
    /// The decode step at n running sequences is step_fixed + step_per_sequence × n.
    duration step_fixed{};
    duration step_per_sequence{};
    duration prefill_time{};           ///< P: one mean prompt alone on the replica
    duration chunk_step_extra{};       ///< X: what a chunk adds to a step (chunked mode)
};

/// A replica at a request rate. Every field is finite.
struct replica_load {
    prefill_mode mode = prefill_mode::stall;
    request_rate rate{};
    /// rate < capacity: the batch does not fill, nothing queues for a slot without end.
    bool stable = false;
    /// The time per output token and the TPOT SLO holds at this rate (queueing for a slot and
    /// TTFT are serving/queueing's).
    bool slo_met = false;
    request_rate capacity{};           ///< the rate at which the batch saturates
    double utilization = 0.0;          ///< rate ÷ capacity (above 1 when not stable)
    /// The fraction of the GPU's time spent on prefill (stall: λP; chunked: λNX ÷ C).
    double prefill_busy = 0.0;
    double running_batch = 0.0;        ///< n: sequences decoding, on average (Little's law)
    /// The mean time between a request's tokens; past capacity, the value at capacity (the
    /// batch is full and the excess waits for a slot).
    duration time_per_token{};
};

namespace detail {

constexpr void check_slo(const serving_slo& slo, const char* function) {
    require_positive(function, "slo.time_to_first_token", slo.time_to_first_token);
    require_positive(function, "slo.time_per_output_token", slo.time_per_output_token);
}

/// A step model's rules. `in_estimate`: the model is a replica_capacity_estimate's `step`, and
/// errors name it as the caller wrote it ("replica.step.batch", not "model.batch").
constexpr void check_step_model(const replica_step_model& s, const char* function,
                                bool in_estimate = false) {
    const auto name = [in_estimate](const char* as_model, const char* as_estimate) {
        return in_estimate ? as_estimate : as_model;
    };
    require_enumerator(function, name("model.mode", "replica.step.mode"), s.mode, 3,
                       "prefill_mode");
    require_positive(function, name("slo.time_to_first_token", "replica.step.slo.time_to_first_token"),
                     s.slo.time_to_first_token);
    require_positive(function,
                     name("slo.time_per_output_token", "replica.step.slo.time_per_output_token"),
                     s.slo.time_per_output_token);
    require_count(function, name("model.batch", "replica.step.batch"), s.batch);
    require_count(function, name("model.prompt_tokens", "replica.step.prompt_tokens"),
                  s.prompt_tokens);
    require_count(function, name("model.output_tokens", "replica.step.output_tokens"),
                  s.output_tokens);
    require_count(function, name("model.chunk_tokens", "replica.step.chunk_tokens"),
                  s.chunk_tokens);
    require_non_negative(function, name("model.step_fixed", "replica.step.step_fixed"),
                         s.step_fixed);
    require_non_negative(function, name("model.step_per_sequence", "replica.step.step_per_sequence"),
                         s.step_per_sequence);
    require_non_negative(function, name("model.prefill_time", "replica.step.prefill_time"),
                         s.prefill_time);
    require_non_negative(function, name("model.chunk_step_extra", "replica.step.chunk_step_extra"),
                         s.chunk_step_extra);
    if (!(s.step_fixed + s.step_per_sequence > duration{})) {
        throw_invalid(function,
                      name("model.step_fixed + model.step_per_sequence",
                           "replica.step.step_fixed + replica.step.step_per_sequence"),
                      0.0, "s", "must be > 0 (the batch-1 step)");
    }
}

/// The GPU time prefill takes from decode per request, in seconds (derived): stall, the whole
/// prefill P; chunked, the chunks' share N × X ÷ C of the steps they ride on; disaggregated, 0.
constexpr double prefill_cost(const replica_step_model& s) {
    switch (s.mode) {
        case prefill_mode::stall: return s.prefill_time.value();
        case prefill_mode::chunked:
            return static_cast<double>(s.prompt_tokens) * s.chunk_step_extra.value() /
                   static_cast<double>(s.chunk_tokens);
        case prefill_mode::disaggregated: return 0.0;
    }
    return 0.0;
}

/// The rate at which the batch fills (derived). Per second the replica spends λ × P_eff on
/// prefill and runs decode steps in the rest, each giving one token to each of its m running
/// sequences, and must give λ × D: λ × D × T(m) ≤ m × (1 − λ × P_eff), so
/// λ ≤ 1 ÷ (P_eff + D × T(m) ÷ m), with m = B (the bound 1 ÷ (P + D·T(B)/B) for stall).
/// Chunked: a step carries one chunk at most, so prompts enter at C ÷ N per step at most, and in
/// steady state the running batch is then m = C × D ÷ N (tokens out per step = prompts in per
/// step × D); when that is below B, prefill saturates first, at m = C × D ÷ N. T(m) ÷ m falls
/// with m, so the bound is the one at m = min(B, C × D ÷ N).
constexpr double saturation_batch(const replica_step_model& s) {
    double m = static_cast<double>(s.batch);
    if (s.mode == prefill_mode::chunked) {
        const double chunk_fed = static_cast<double>(s.chunk_tokens) *
                                 static_cast<double>(s.output_tokens) /
                                 static_cast<double>(s.prompt_tokens);
        if (chunk_fed < m) m = chunk_fed;
    }
    return m;
}
constexpr request_rate saturation_rate(const replica_step_model& s) {
    const double m = saturation_batch(s);
    const double t_m = s.step_fixed.value() + s.step_per_sequence.value() * m;
    const double d = static_cast<double>(s.output_tokens);
    return make<requests_per_second>(m / (m * prefill_cost(s) + d * t_m));
}

/// The load model at `rate` for a checked step model (derived). With q = λ × P_eff the
/// prefill's share of the GPU, a sequence gets one token per decode step and decode has 1 − q of
/// the time, so its time per token is τ = T(n) ÷ (1 − q) (stall: decode steps wait behind
/// whole prefills; chunked: the same with the steps a chunk rides on lengthened by X, Sarathi-
/// Serve's trade); Little's law gives the running batch n = λ × D × τ, and with the affine step
/// T(n) = a + b × n, n = k × a ÷ (1 − k × b), k = λ × D ÷ (1 − q). A token always has its own
/// sequence in the batch, so τ uses T(max(n, 1)). Past capacity, the rate served is capacity.
/// The parts of load_at that depend on the step model alone, the same at every rate: a caller
/// that evaluates one model at many rates (replicas_for_rate's searches) computes them once.
struct load_parts {
    request_rate capacity{};    ///< saturation_rate
    double batch = 1.0;         ///< m, saturation_batch
    double prefill_cost = 0.0;  ///< P_eff, prefill_cost
    /// Decode's share of the time at capacity, D·T(m) ÷ (m·P_eff + D·T(m)) (see load_at).
    double decode_share_at_capacity = 1.0;
};
constexpr load_parts load_parts_of(const replica_step_model& s) {
    load_parts k{};
    k.capacity = saturation_rate(s);
    k.batch = saturation_batch(s);
    k.prefill_cost = prefill_cost(s);
    const double d = static_cast<double>(s.output_tokens);
    const double t_m = s.step_fixed.value() + s.step_per_sequence.value() * k.batch;
    k.decode_share_at_capacity = d * t_m / (k.batch * k.prefill_cost + d * t_m);
    return k;
}

/// load_at with its rate-free parts computed already (load_parts_of(s)).
constexpr replica_load load_at(const replica_step_model& s, request_rate rate,
                               const load_parts& parts) {
    replica_load l{};
    l.mode = s.mode;
    l.rate = rate;
    l.capacity = parts.capacity;
    const double cap = l.capacity.value();
    const double lam_in = rate.value();
    l.stable = lam_in < cap;
    l.utilization = lam_in / cap;
    const double lam = lam_in < cap ? lam_in : cap;
    const double a = s.step_fixed.value();
    const double b = s.step_per_sequence.value();
    const double m = parts.batch;
    const double d = static_cast<double>(s.output_tokens);
    const double p_eff = parts.prefill_cost;
    l.prefill_busy = lam * p_eff;
    // Decode's share of the time, 1 − q, never below its value at capacity, written so that it
    // stays positive when D × T(m) is tiny beside m × P_eff (1 − q would round to 0 there).
    const double at_capacity = parts.decode_share_at_capacity;
    const double decode_share = 1.0 - l.prefill_busy > at_capacity ? 1.0 - l.prefill_busy
                                                                    : at_capacity;
    const double k = lam * d / decode_share;
    const double room = 1.0 - k * b;
    double n = room > 0.0 ? k * a / room : m;
    if (n > m) n = m;  // rounding at capacity
    l.running_batch = n;
    const double seen = n > 1.0 ? n : 1.0;
    l.time_per_token = make<seconds>((a + b * seen) / decode_share);
    l.slo_met = l.stable && l.time_per_token <= s.slo.time_per_output_token;
    return l;
}
constexpr replica_load load_at(const replica_step_model& s, request_rate rate) {
    return load_at(s, rate, load_parts_of(s));
}

/// The largest rate ≤ `cap` at which the time per token meets the SLO: it rises with the rate,
/// so bisection (64 halvings of [0, cap]); at rate 0 it is T(1).
constexpr request_rate slo_rate(const replica_step_model& s, request_rate cap) {
    const auto meets = [&](double lam) {
        return load_at(s, make<requests_per_second>(lam)).time_per_token <=
               s.slo.time_per_output_token;
    };
    if (meets(cap.value())) return cap;
    double lo = 0.0, hi = cap.value();
    constexpr int halvings = 64;
    for (int i = 0; i < halvings; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (meets(mid)) lo = mid; else hi = mid;
    }
    return make<requests_per_second>(lo);
}

}  // namespace detail

/// A replica described by `model` at `rate` requests/s (detail::load_at states the model, all
/// derived: Little's law for the running batch; decode time shared with prefill as the mode
/// says). For replicas-for-rate: stable and slo_met say whether one replica holds the rate.
/// Ranges: the model as replica_step_model says; rate 0 or in [1e-30, 1e15] requests/s.
constexpr replica_load replica_at_rate(const replica_step_model& model, request_rate rate) {
    constexpr const char* function = "replica_at_rate";
    detail::check_step_model(model, function);
    detail::require_non_negative(function, "rate", rate);
    return detail::load_at(model, rate);
}

}  // namespace gpucalc
