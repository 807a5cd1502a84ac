// twin_serving.hpp: raw-double twins of serving/load.hpp's load model (load_at and the helpers
// it calls) and the replica estimate replicas_for_rate reads, in requests/s and seconds. Each is
// its library function transliterated, the same steps in the same order (twin_support.hpp says
// how a twin is written). The quantity-free saturation batch (counts only) is the library's own
// on both sides. replicas_for_rate's twin is in serving_bench.cpp, beside the queue's.
#pragma once

#include <gpucalc/serving/replicas.hpp>

#include <cmath>
#include <cstdint>

#include "twin_support.hpp"

namespace twin {

/// replica_step_model with every quantity a double in base units.
struct raw_step {
    gpucalc::prefill_mode mode = gpucalc::prefill_mode::stall;
    double slo_ttft = 0.0, slo_tpot = 0.0;
    std::int64_t batch = 1, prompt_tokens = 1, output_tokens = 1, chunk_tokens = 512;
    double step_fixed = 0.0, step_per_sequence = 0.0, prefill_time = 0.0, chunk_step_extra = 0.0;
    gpucalc::replica_step_model library{};  ///< the same, for the quantity-free helpers
};

/// What replicas_for_rate reads of a replica_capacity_estimate, in base units.
struct raw_replica {
    bool feasible = false;
    gpucalc::prefill_mode mode = gpucalc::prefill_mode::stall;
    std::int64_t gpus = 1;
    double prefill_time = 0.0, time_to_first_token = 0.0, time_per_token = 0.0;
    double sustainable_rate = 0.0;
    raw_step step{};
};

inline raw_replica raw_from(const gpucalc::replica_capacity_estimate& e) {
    raw_replica r{};
    r.feasible = e.feasible;
    r.mode = e.mode;
    r.gpus = e.gpus;
    r.prefill_time = e.prefill_time.value();
    r.time_to_first_token = e.time_to_first_token.value();
    r.time_per_token = e.time_per_token.value();
    r.sustainable_rate = e.sustainable_rate.value();
    const gpucalc::replica_step_model& s = e.step;
    r.step.mode = s.mode;
    r.step.slo_ttft = s.slo.time_to_first_token.value();
    r.step.slo_tpot = s.slo.time_per_output_token.value();
    r.step.batch = s.batch;
    r.step.prompt_tokens = s.prompt_tokens;
    r.step.output_tokens = s.output_tokens;
    r.step.chunk_tokens = s.chunk_tokens;
    r.step.step_fixed = s.step_fixed.value();
    r.step.step_per_sequence = s.step_per_sequence.value();
    r.step.prefill_time = s.prefill_time.value();
    r.step.chunk_step_extra = s.chunk_step_extra.value();
    r.step.library = s;
    return r;
}

struct raw_load {
    gpucalc::prefill_mode mode = gpucalc::prefill_mode::stall;
    double rate = 0.0;
    bool stable = false, slo_met = false;
    double capacity = 0.0, utilization = 0.0, prefill_busy = 0.0, running_batch = 0.0;
    double time_per_token = 0.0;
};

/// detail::prefill_cost, transliterated.
constexpr double raw_prefill_cost(const raw_step& s) {
    switch (s.mode) {
        case gpucalc::prefill_mode::stall: return s.prefill_time;
        case gpucalc::prefill_mode::chunked:
            return static_cast<double>(s.prompt_tokens) * s.chunk_step_extra /
                   static_cast<double>(s.chunk_tokens);
        case gpucalc::prefill_mode::disaggregated: return 0.0;
    }
    return 0.0;
}

/// detail::saturation_rate, transliterated.
constexpr double raw_saturation_rate(const raw_step& s) {
    const double m = gpucalc::detail::saturation_batch(s.library);
    const double t_m = s.step_fixed + s.step_per_sequence * m;
    const double d = static_cast<double>(s.output_tokens);
    return m / (m * raw_prefill_cost(s) + d * t_m);
}

/// detail::load_parts, in base units.
struct raw_load_parts {
    double capacity = 0.0, batch = 1.0, prefill_cost = 0.0, decode_share_at_capacity = 1.0;
};

/// detail::load_parts_of, transliterated.
constexpr raw_load_parts raw_load_parts_of(const raw_step& s) {
    raw_load_parts k{};
    k.capacity = raw_saturation_rate(s);
    k.batch = gpucalc::detail::saturation_batch(s.library);
    k.prefill_cost = raw_prefill_cost(s);
    const double d = static_cast<double>(s.output_tokens);
    const double t_m = s.step_fixed + s.step_per_sequence * k.batch;
    k.decode_share_at_capacity = d * t_m / (k.batch * k.prefill_cost + d * t_m);
    return k;
}

/// detail::load_at (with its parts), transliterated.
constexpr raw_load raw_load_at(const raw_step& s, double rate, const raw_load_parts& parts) {
    raw_load l{};
    l.mode = s.mode;
    l.rate = rate;
    l.capacity = parts.capacity;
    const double cap = l.capacity;
    const double lam_in = rate;
    l.stable = lam_in < cap;
    l.utilization = lam_in / cap;
    const double lam = lam_in < cap ? lam_in : cap;
    const double a = s.step_fixed;
    const double b = s.step_per_sequence;
    const double m = parts.batch;
    const double d = static_cast<double>(s.output_tokens);
    const double p_eff = parts.prefill_cost;
    l.prefill_busy = lam * p_eff;
    const double at_capacity = parts.decode_share_at_capacity;
    const double decode_share = 1.0 - l.prefill_busy > at_capacity ? 1.0 - l.prefill_busy
                                                                    : at_capacity;
    const double k = lam * d / decode_share;
    const double room = 1.0 - k * b;
    double n = room > 0.0 ? k * a / room : m;
    if (n > m) n = m;
    l.running_batch = n;
    const double seen = n > 1.0 ? n : 1.0;
    l.time_per_token = (a + b * seen) / decode_share;
    l.slo_met = l.stable && l.time_per_token <= s.slo_tpot;
    return l;
}
constexpr raw_load raw_load_at(const raw_step& s, double rate) {
    return raw_load_at(s, rate, raw_load_parts_of(s));
}

}  // namespace twin
