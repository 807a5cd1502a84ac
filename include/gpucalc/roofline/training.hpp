// roofline/training.hpp: how long training takes at an assumed model FLOPs utilization (the
// quick estimate; the scaling module composes the step time of a parallel job), and the MFU a
// measured run achieved
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../parallelism/costs.hpp"
#include "../units.hpp"
#include "../workload.hpp"

namespace gpucalc {

/// Model FLOPs utilization achieved in training, as published runs report it. The default is
/// a planning figure from public measurements (docs/roofline.md): Llama 3 405B trained at
/// 38–43% on H100 (Dubey et al. 2024, Table 4), Megatron-LM's 1T GPT at 52% on A100 (Narayanan
/// et al. 2021), PaLM 540B at 46.2% on TPU v4 (Chowdhery et al. 2022). Uncertain: 0.35–0.56.
inline constexpr double default_training_mfu = 0.40;

/// The assumptions of the quick, MFU-based training-time estimate.
struct mfu_assumption {
    double mfu = default_training_mfu;  ///< model FLOPs ÷ (GPUs × peak), in [1e-30, 1]
    /// Count FLOPs as 6·N·D (Kaplan et al. 2020) instead of the exact per-token count.
    bool six_n_d = false;
};

namespace detail {
/// Model FLOPs per token of a training job: exact at its sequence length, or 6·N with N the
/// active non-embedding parameters (Kaplan et al. 2020 count no embedding parameters; the
/// output head, a matmul, is kept). Checks the job's sequence and the layout.
constexpr flop_count training_model_flops_per_token(const checked_model& cm, const training_job& job,
                                                    const parallel_layout& layout,
                                                    bool six_n_d, const char* function) {
    require_count(function, "job.sequence", job.sequence);
    check(cm, layout, job.sequence, layout_path{function, "layout."});
    if (six_n_d) {
        const parameter_counts c = count_parameters(cm);
        return make<flops>(6.0 * static_cast<double>(c.active - c.embedding));
    }
    // One sequence of the job's length, every token through the head, all keys counted (the
    // MFU convention): forward and a backward of twice it, per token.
    const pass_shape one_sequence{1, job.sequence, job.sequence, job.sequence, pair_count::all_keys};
    return 3.0 * pass_forward_flops(cm, parallel_layout{}, one_sequence) /
           static_cast<double>(job.sequence);
}

/// What the GPUs of `layout` sustain at `mfu`: GPUs × peak at the job's precision × MFU.
constexpr flop_rate sustained_rate(const gpu_spec& gpu, const training_job& job,
                                   const parallel_layout& layout, double mfu,
                                   const char* function) {
    require_fraction_of_peak(function, "assumption.mfu", mfu);
    return static_cast<double>(gpus_unchecked(layout)) * mfu *
           peak_of(gpu, job.compute, function, "job.compute");
}

/// The quick estimate's one formula: `tokens` × model FLOPs per token ÷ (GPUs × peak × MFU).
/// The layout, passed on its own, is reported as "layout." (training_model_flops_per_token
/// checks it before sustained_rate multiplies its degrees).
constexpr duration time_for_tokens(const transformer& m, const gpu_spec& gpu, double tokens,
                                   const training_job& job, const parallel_layout& layout,
                                   const mfu_assumption& assumption, const char* function) {
    const flop_count per_token = training_model_flops_per_token(
        check(m, function), job, layout, assumption.six_n_d, function);
    return (tokens * per_token) / sustained_rate(gpu, job, layout, assumption.mfu, function);
}
}  // namespace detail

/// One optimizer step of `job.global_batch` sequences of `job.sequence` tokens on the GPUs of
/// `layout`, at an assumed MFU: model FLOPs ÷ (GPUs × peak × MFU). The quick estimate, named
/// for its assumption: training_step_time(model, cluster, ...) (scaling/step.hpp) composes the
/// step from the layout's compute and collectives instead.
/// Ranges: the model as check(transformer); job.global_batch and job.sequence in [1, 2^40];
/// the layout as parallelism.hpp's check states (every degree in [1, 2^40], their product at
/// most 2^40; its fields named "layout.tensor", ...); job.compute a peak the GPU has (peak());
/// assumption.mfu in [1e-30, 1].
constexpr duration training_step_time_at_mfu(const transformer& m, const gpu_spec& gpu,
                                             const training_job& job,
                                             const parallel_layout& layout,
                                             const mfu_assumption& assumption = {}) {
    constexpr const char* function = "training_step_time_at_mfu";
    detail::require_count(function, "job.global_batch", job.global_batch);
    const double tokens = static_cast<double>(job.global_batch) * static_cast<double>(job.sequence);
    return detail::time_for_tokens(m, gpu, tokens, job, layout, assumption, function);
}

/// Time to train `tokens` tokens on the GPUs of `layout` at an assumed MFU: model FLOPs ÷
/// (GPUs × peak × MFU), the FLOPs exact per token at the job's sequence length
/// (training_flops_per_token().model) or 6·N·D. The quick estimate, as
/// training_step_time_at_mfu; time_to_train(step, tokens) (scaling/step.hpp) runs at a composed
/// step's pace. Ranges: tokens in [1e-30, 1e20]; the rest as training_step_time_at_mfu
/// (job.global_batch is not used).
constexpr duration time_to_train_at_mfu(const transformer& m, const gpu_spec& gpu,
                                        token_count tokens, const training_job& job,
                                        const parallel_layout& layout,
                                        const mfu_assumption& assumption = {}) {
    constexpr const char* function = "time_to_train_at_mfu";
    detail::require_positive(function, "tokens", tokens);
    return detail::time_for_tokens(m, gpu, in<gpucalc::tokens>(tokens), job, layout, assumption,
                                   function);
}

/// The MFU a training run achieved, from its measured throughput in tokens per second across
/// all the GPUs of `layout`: model FLOPs per second ÷ (GPUs × peak) (Chowdhery et al. 2022,
/// App. B). `six_n_d` counts the FLOPs as 6·N, as some reports do. Ranges: measured in
/// [1e-30, 1e20] tokens/s; the rest as time_to_train_at_mfu. A measured rate the hardware could not
/// reach gives an MFU above 1, which is the answer, not an error.
constexpr double training_mfu(const transformer& m, const gpu_spec& gpu,
                              token_rate measured, const training_job& job,
                              const parallel_layout& layout, bool six_n_d = false) {
    constexpr const char* function = "training_mfu";
    detail::require_positive(function, "measured", measured);
    const flop_count per_token =
        detail::training_model_flops_per_token(check(m, function), job, layout, six_n_d, function);
    return (in<tokens_per_second>(measured) * per_token / make<seconds>(1.0)) /
           detail::sustained_rate(gpu, job, layout, 1.0, function);
}

/// Narayanan et al. 2021, Eq. 4: end-to-end training time ≈ 8·T·P / (n·X) for T tokens, P
/// parameters, n GPUs each sustaining X FLOP/s, with activation recomputation (their factor 8 =
/// 2 forward + 4 backward + 2 recomputed forward, per parameter and token). Ranges: tokens in
/// [1e-30, 1e20]; parameters in [1, 2^53] (the model's own bound: counts stay exact); gpus in
/// [1, 2^40]; per_gpu in [1e-30 FLOP/s, 1e30 FLOP/s].
constexpr duration megatron_training_time(token_count tokens, double parameters, std::int64_t gpus,
                                          flop_rate per_gpu) {
    constexpr const char* function = "megatron_training_time";
    detail::require_positive(function, "tokens", tokens);
    if (!(parameters >= 1.0 && parameters <= detail::largest_exact_count)) {
        detail::throw_invalid(function, "parameters", parameters, "", "must be in [1, 2^53]");
    }
    detail::require_count(function, "gpus", gpus);
    detail::require_positive(function, "per_gpu", per_gpu);
    return make<flops>(8.0 * in<gpucalc::tokens>(tokens) * parameters) /
           (static_cast<double>(gpus) * per_gpu);
}

}  // namespace gpucalc
