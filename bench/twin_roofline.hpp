// twin_roofline.hpp: the raw-double twins of roofline/op.hpp's op time and roofline/inference.hpp's
// decode step, in FLOPs, bytes and seconds, shared by roofline_bench.cpp and
// scaling_inference_bench.cpp so the two cannot drift apart (twin_support.hpp says how a twin is
// written). twin_support.hpp's `#pragma clang fp contract(off)` holds to the end of the
// translation unit; it is repeated here so this code has it whatever is included first.
#pragma once

#include <gpucalc/roofline.hpp>

#include "twin_support.hpp"

#include <cstdint>
#include <string_view>

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace twin {

namespace detail = gpucalc::detail;

/// roofline/op.hpp's op_cost, in FLOPs and bytes.
struct raw_op_cost {
    double flops, bytes;
};

/// roofline/op.hpp's op_timing, in seconds and FLOPs.
struct raw_op_timing {
    double time, compute_time, memory_time;
    gpucalc::bound bound;
    double intensity, attained;
};

/// detail::op_time_unchecked(), transliterated.
GPUCALC_DETAIL_INLINE inline raw_op_timing raw_op_time_unchecked(const raw_op_cost& op, double peak_rate,
                                                                  double data_bandwidth,
                                                                  const gpucalc::kernel_efficiency& eff) {
    raw_op_timing t{};
    t.compute_time = op.flops / (eff.compute * peak_rate);
    t.memory_time = op.bytes / (eff.memory * data_bandwidth);
    t.bound = t.compute_time >= t.memory_time ? gpucalc::bound::compute : gpucalc::bound::memory;
    t.time = t.bound == gpucalc::bound::compute ? t.compute_time : t.memory_time;
    t.intensity = op.flops / op.bytes;
    t.attained = op.flops / t.time;
    return t;
}

/// hardware.hpp's peak_rates, in FLOP/s.
struct raw_peak_rates {
    double fp64, fp64_tensor, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4;
};

/// The part of hardware.hpp's gpu_spec decode reads, in FLOP/s and bytes/s.
struct raw_gpu {
    std::string_view name;
    raw_peak_rates dense_peak;
    double memory_bandwidth;
};

inline raw_gpu raw_of(const gpucalc::gpu_spec& g) {
    const gpucalc::peak_rates& p = g.dense_peak;
    using gpucalc::in;
    using gpucalc::flops_per_second;
    return {g.name,
            {in<flops_per_second>(p.fp64), in<flops_per_second>(p.fp64_tensor), in<flops_per_second>(p.fp32),
             in<flops_per_second>(p.tf32), in<flops_per_second>(p.bf16), in<flops_per_second>(p.fp16),
             in<flops_per_second>(p.fp8), in<flops_per_second>(p.int8), in<flops_per_second>(p.int4),
             in<flops_per_second>(p.fp4)},
            in<gpucalc::bytes_per_second>(g.memory_bandwidth)};
}

/// detail::peak_entry(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_peak_entry(const raw_peak_rates& peaks, gpucalc::compute_precision precision) {
    using p = gpucalc::compute_precision;
    switch (precision) {
        case p::fp64: return peaks.fp64;
        case p::fp64_tensor: return peaks.fp64_tensor;
        case p::fp32: return peaks.fp32;
        case p::tf32: return peaks.tf32;
        case p::bf16: return peaks.bf16;
        case p::fp16: return peaks.fp16;
        case p::fp8: return peaks.fp8;
        case p::int8: return peaks.int8;
        case p::int4: return peaks.int4;
        case p::fp4: return peaks.fp4;
    }
    return 0.0;
}

/// detail::peak_of(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_peak_of(const raw_gpu& gpu, gpucalc::compute_precision precision,
                                                const char* function, const char* field) {
    const double rate = raw_peak_entry(gpu.dense_peak, precision);
    if (!(rate >= detail::smallest_input && rate <= detail::input_range<gpucalc::flop_rate>::largest)) {
        detail::throw_unusable_peak(function, field, "gpu.", gpu.name, precision, rate);
    }
    return rate;
}

/// roofline/inference.hpp's detail::weight_bytes_read(), transliterated.
GPUCALC_DETAIL_INLINE inline double raw_weight_bytes_read(const gpucalc::checked_model& cm, std::int64_t tp, std::int64_t tokens,
                                    const gpucalc::storage_format& linear, const gpucalc::storage_format& rest,
                                    bool fewest_experts) {
    const gpucalc::transformer& m = cm.spec();
    const detail::stage_weights w = detail::weights_on_worst_stage(cm, tp, 1, 1);
    double unread_experts = 0.0;
    if (w.experts > 0.0) {
        const double touched = fewest_experts ? static_cast<double>(m.experts_per_token)
                                              : detail::experts_touched(m, tokens);
        unread_experts = w.experts * (1.0 - touched / static_cast<double>(m.experts));
    }
    return twin::storage_unchecked(w.linear - unread_experts, linear) +
           twin::storage_unchecked(w.embedding_class - w.lookup, rest);
}

/// parallelism/costs.hpp's detail::pass_forward_flops() for a decode step (one query per
/// sequence over `context` keys, one output), with model/flops.hpp's layer formula, in FLOPs.
GPUCALC_DETAIL_INLINE inline double raw_decode_flops(const gpucalc::checked_model& cm, std::int64_t tp,
                                                     std::int64_t batch, std::int64_t context) {
    const gpucalc::transformer& m = cm.spec();
    const gpucalc::layer_parameters& p = cm.layer();
    const detail::attention_widths w = detail::attention_widths_per_gpu(cm, tp);
    const double t = static_cast<double>(tp);
    const double h = static_cast<double>(m.hidden);
    const double tokens = static_cast<double>(batch) * 1.0;
    const double weights = 2.0 * h * w.q + 2.0 * h * w.kv +
                           static_cast<double>(detail::active_experts_unchecked(m) * p.expert_weights) * (1.0 / t) +
                           static_cast<double>(p.router);
    const double pairs = detail::attention_pairs_unchecked(m, 1, context, gpucalc::pair_count::causal);
    const double gemm = 2.0 * tokens * weights;
    const double attention = 4.0 * static_cast<double>(batch) * pairs * w.q;
    const double table = static_cast<double>(m.vocab) * h / t;
    return static_cast<double>(m.layers) * (gemm + attention) + 2.0 * (static_cast<double>(batch) * 1.0) * table;
}

/// roofline/inference.hpp's decode_estimate, in seconds, FLOPs and bytes.
struct raw_decode {
    double time_per_token, stream_rate, aggregate_rate;
    gpucalc::bound bound;
    double flops, bytes, weight_bytes, kv_bytes, compute_time, memory_time;
};

/// roofline/inference.hpp's detail::check_pass(), transliterated: the serving setup's shape
/// checks (workload.hpp's detail::check, unit-free, so shared; its storage formats included), the
/// efficiencies, the bandwidth and the peak, which it returns.
GPUCALC_DETAIL_INLINE inline double raw_check_pass(const gpucalc::checked_model& cm, const raw_gpu& gpu,
                                                   const gpucalc::serving_setup& s, const char* function) {
    detail::check(cm, s, function);
    detail::check(s.efficiency, function);
    twin::require_positive<gpucalc::bandwidth>(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    return raw_peak_of(gpu, s.compute, function, "compute");
}

/// detail::decode_step() on a checked model (expected experts touched), transliterated.
GPUCALC_DETAIL_INLINE inline raw_decode raw_decode_step(const gpucalc::checked_model& cm, const raw_gpu& gpu,
                                                        const gpucalc::serving_setup& s, const char* function) {
    const gpucalc::transformer& m = cm.spec();
    const double peak_rate = raw_check_pass(cm, gpu, s, function);
    const std::int64_t tp = s.parallel.tensor;
    const double b = static_cast<double>(s.batch);
    raw_decode d{};
    d.weight_bytes = raw_weight_bytes_read(cm, tp, s.batch, s.weights, s.embeddings, false);
    const double cached = static_cast<double>(detail::attended_unchecked(m, s.context));
    d.kv_bytes = twin::storage_unchecked(
        b * (cached + 1.0) * detail::kv_elements_per_token(cm, tp, static_cast<double>(m.layers)),
        s.kv_cache);
    d.bytes = d.weight_bytes + d.kv_bytes;
    d.flops = raw_decode_flops(cm, tp, s.batch, s.context);
    const raw_op_timing o =
        raw_op_time_unchecked({d.flops, d.bytes}, peak_rate, gpu.memory_bandwidth, s.efficiency);
    d.compute_time = o.compute_time;
    d.memory_time = o.memory_time;
    d.bound = o.bound;
    d.time_per_token = o.time;
    d.stream_rate = 1.0 / o.time;
    d.aggregate_rate = d.stream_rate * b;
    return d;
}

}  // namespace twin
