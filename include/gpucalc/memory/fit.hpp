// memory/fit.hpp: the decisions a scheduler asks of memory: does it fit, how many GPUs a
// model needs to be served, the largest batch and context, the smallest MIG profile (training's
// searches are in memory/training_fit.hpp)
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../parallelism.hpp"
#include "../workload.hpp"
#include "inference.hpp"
#include "training.hpp"

namespace gpucalc {

/// Whether a need fits a capacity, and by how much. `margin` is signed: negative when the job
/// does not fit, by that many bytes.
struct fit_verdict {
    bool ok = false;
    data_size margin{};     ///< usable − required
    data_size usable{};     ///< capacity × (1 − headroom)
    data_size required{};
};

namespace detail {
/// A required size: finite and >= 0, of any magnitude, since it is usually a computed
/// footprint, which may pass the 1e30 B input range when the inputs are extreme (the answer is
/// then "does not fit", never an exception).
constexpr void require_footprint(const char* function, const char* field, data_size required) {
    const double v = required.value();
    if (!(v >= 0.0 && v <= largest_finite)) {
        if (!(v >= -largest_finite && v <= largest_finite)) {  // NaN or ±inf: no prefix fits
            throw_invalid(function, field, v, "B", "must be finite and >= 0");
        }
        format_options options;
        options.significant_figures = 15;
        throw_invalid_name(function, field, to_string(required, options),
                           "must be finite and >= 0");
    }
}

/// The capacity and headroom a decision reads, checked under the caller's name: a capacity in
/// data_size's input range (docs/units.md), a headroom in [0, 1).
constexpr void check_capacity(const char* function, const char* capacity_field,
                              data_size capacity, double headroom) {
    require_positive(function, capacity_field, capacity);
    if (!(headroom >= 0.0 && headroom < 1.0)) {
        throw_invalid(function, "headroom", headroom, "", "must be in [0, 1)");
    }
}

/// fits() for a required size and a capacity and headroom already checked.
GPUCALC_DETAIL_INLINE constexpr fit_verdict verdict_unchecked(data_size required,
                                                              data_size capacity,
                                                              double headroom) {
    fit_verdict v{};
    v.required = required;
    v.usable = (1.0 - headroom) * capacity;
    v.margin = v.usable - required;
    v.ok = v.margin >= data_size{};
    return v;
}
}  // namespace detail

/// Does `required` fit in `capacity` when `headroom` (a fraction in [0, 1)) is kept free?
/// vLLM, for example, plans with 10% free (gpu_memory_utilization 0.9). Ranges: `required`
/// finite and >= 0, of any size (it is usually a computed footprint); `capacity` in
/// data_size's input range, [1e-30 B, 1e30 B]; `headroom` in [0, 1).
constexpr fit_verdict fits(data_size required, data_size capacity, double headroom = 0.0) {
    detail::require_footprint("fits", "required", required);
    detail::check_capacity("fits", "capacity", capacity, headroom);
    return detail::verdict_unchecked(required, capacity, headroom);
}

/// Does a footprint fit a GPU's memory? Ranges as above, reported as "need.total" and
/// "gpu.memory".
constexpr fit_verdict fits(const inference_memory& need, const gpu_spec& gpu, double headroom = 0.0) {
    detail::require_footprint("fits", "need.total", need.total);
    detail::check_capacity("fits", "gpu.memory", gpu.memory, headroom);
    return detail::verdict_unchecked(need.total, gpu.memory, headroom);
}
constexpr fit_verdict fits(const training_memory& need, const gpu_spec& gpu, double headroom = 0.0) {
    detail::require_footprint("fits", "need.total", need.total);
    detail::check_capacity("fits", "gpu.memory", gpu.memory, headroom);
    return detail::verdict_unchecked(need.total, gpu.memory, headroom);
}

/// Why a search found nothing, or that it found something.
enum class fit_outcome {
    found,
    too_large_at_limit,  ///< even the largest split tried does not fit
    not_sharded,         ///< ZeRO stage 0 replicates model states: more GPUs never help
};

constexpr std::string_view to_string(fit_outcome o) {
    switch (o) {
        case fit_outcome::found: return "found";
        case fit_outcome::too_large_at_limit: return "too_large_at_limit";
        case fit_outcome::not_sharded: return "not_sharded";
    }
    return "unknown";
}

/// The most tensor-parallel degrees min_gpus_for_inference tries: its `max_tensor_parallel`
/// must be at most this. TP splits a layer across GPUs that exchange activations twice per
/// layer, which no deployment stretches past a few nodes; the bound keeps the search to at most
/// 1,024 cheap divisibility tests and as many footprint evaluations, whatever the head count.
inline constexpr std::int64_t largest_tensor_parallel_searched = 1024;

/// The smallest tensor-parallel degree that serves `setup` on `gpu` (pipeline as given),
/// trying the degrees TP allows up to `max_tensor_parallel`.
struct serving_fit {
    fit_outcome outcome = fit_outcome::too_large_at_limit;
    std::int64_t tensor_parallel = 0;
    std::int64_t gpus = 0;                ///< tensor × pipeline
    fit_verdict verdict{};                ///< at the degree found, or at the largest tried
};

/// Ranges: the model's (check()); the setup's (see serving_setup; its parallel.tensor is
/// replaced by each degree tried); `gpu.memory` in data_size's input range; `headroom` in
/// [0, 1); `max_tensor_parallel` in [1, largest_tensor_parallel_searched = 1024]. The search
/// tries each degree in [1, min(max_tensor_parallel, heads)] in turn and stops at the first
/// that fits: at most 1,024 steps.
GPUCALC_DETAIL_HOT constexpr serving_fit min_gpus_for_inference(const checked_model& m, serving_setup setup,
                                             const gpu_spec& gpu, double headroom = 0.0,
                                             std::int64_t max_tensor_parallel = 64) {
    constexpr const char* function = "min_gpus_for_inference";
    detail::require_count(function, "max_tensor_parallel", max_tensor_parallel);
    if (max_tensor_parallel > largest_tensor_parallel_searched) {
        detail::throw_invalid(function, "max_tensor_parallel",
                              static_cast<double>(max_tensor_parallel), "",
                              "must be <= 1024, the most degrees the search tries");
    }
    detail::check_capacity(function, "gpu.memory", gpu.memory, headroom);
    serving_fit found{};
    for (std::int64_t tp = 1; tp <= max_tensor_parallel && tp <= m.spec().heads; ++tp) {
        if (!tensor_parallel_allowed(m, tp)) continue;
        setup.parallel.tensor = tp;
        found.verdict = detail::verdict_unchecked(
            detail::inference_memory_of(m, setup, function).total, gpu.memory, headroom);
        found.tensor_parallel = tp;
        found.gpus = detail::gpus_unchecked(setup.parallel);  // checked by inference_memory_of
        if (found.verdict.ok) {
            found.outcome = fit_outcome::found;
            return found;
        }
    }
    found.outcome = fit_outcome::too_large_at_limit;
    return found;
}
constexpr serving_fit min_gpus_for_inference(const transformer& m, const serving_setup& setup,
                                             const gpu_spec& gpu, double headroom = 0.0,
                                             std::int64_t max_tensor_parallel = 64) {
    return min_gpus_for_inference(check(m, "min_gpus_for_inference"), setup, gpu, headroom,
                                  max_tensor_parallel);
}

/// The largest value in [1, limit] for which `fits_at` holds, assuming it holds for all smaller
/// values once it holds for a value (memory grows with batch and context); 0 if none.
/// `admissible` says whether a value passes the checks of the function `fits_at` calls; those
/// checks cap a count (for example batch × context × vocab below 2^53), so the admissible values
/// are a prefix of [1, limit]. A value beyond it is never probed: it counts as not fitting, so a
/// valid question is never answered with the checks' exception. Value 1 is always probed, so a
/// setup that is invalid on its own still gets its error. `limit` in [1, 2^40]; about
/// log2(limit) probes.
template <class Admissible, class Predicate>
constexpr std::int64_t largest_that_fits(const char* function, std::int64_t limit,
                                         Admissible admissible, Predicate fits_at) {
    detail::require_count(function, "limit", limit);
    const auto fits_if_admissible = [&](std::int64_t value) {
        return admissible(value) && fits_at(value);
    };
    if (!fits_at(1)) return 0;
    if (fits_if_admissible(limit)) return limit;
    std::int64_t low = 1, high = limit;  // low fits, high does not
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        if (fits_if_admissible(mid)) low = mid; else high = mid;
    }
    return low;
}

namespace detail {
/// The largest value of one count of a serving setup (`field`: its batch or its context) that
/// fits on `gpu`, up to `limit`, a probe reaching the batch × context × vocab guard counting as
/// not fitting. The setup, the GPU's memory and the headroom are checked once, the setup at a
/// count of 1: every count the search probes is in [1, limit] and passes the guard, so it
/// leaves the setup valid, and the probes skip the checks.
constexpr std::int64_t largest_serving_count(const char* function, const checked_model& m,
                                             serving_setup setup, std::int64_t serving_setup::*field,
                                             const gpu_spec& gpu, double headroom,
                                             std::int64_t limit) {
    require_count(function, "limit", limit);
    check_capacity(function, "gpu.memory", gpu.memory, headroom);
    setup.*field = 1;
    check_inference(m, setup, function);
    return largest_that_fits(
        function, limit,
        [&](std::int64_t value) {
            setup.*field = value;
            return tokens_by_vocab(m, setup) < largest_exact_count;
        },
        [&](std::int64_t value) {
            setup.*field = value;
            return verdict_unchecked(inference_memory_unchecked(m, setup).total, gpu.memory,
                                     headroom)
                .ok;
        });
}
}  // namespace detail

/// The largest batch (sequences at `setup.context`) that fits on `gpu`, up to `limit`; 0 if not
/// even one. Batches whose batch × context × vocab reaches 2^53 count as not fitting (at a
/// 128k vocabulary and 128k context that is a batch of about 536,000, far past any GPU's
/// memory). Ranges: the model's and the setup's (setup.batch is replaced by each batch tried);
/// `gpu.memory` in data_size's input range; `headroom` in [0, 1); `limit` in [1, 2^40].
GPUCALC_DETAIL_HOT constexpr std::int64_t max_batch_for_inference(const checked_model& m, const serving_setup& setup,
                                               const gpu_spec& gpu, double headroom = 0.0,
                                               std::int64_t limit = 1 << 20) {
    return detail::largest_serving_count("max_batch_for_inference", m, setup,
                                         &serving_setup::batch, gpu, headroom, limit);
}
constexpr std::int64_t max_batch_for_inference(const transformer& m, const serving_setup& setup,
                                               const gpu_spec& gpu, double headroom = 0.0,
                                               std::int64_t limit = 1 << 20) {
    return max_batch_for_inference(check(m, "max_batch_for_inference"), setup, gpu, headroom,
                                   limit);
}

/// The longest context (tokens per sequence, at `setup.batch`) that fits on `gpu`, up to
/// `limit`; 0 if not even one token. A `limit` of 0 means the model's trained context
/// (`max_context`), or 2^20 when the model states none. Contexts whose batch × context × vocab
/// reaches 2^53 count as not fitting; only a sliding-window model, whose cache stops growing,
/// can reach that cap. Ranges: as max_batch_for_inference, with `limit` in [0, 2^40].
GPUCALC_DETAIL_HOT constexpr std::int64_t max_context_for_inference(const checked_model& m, const serving_setup& setup,
                                                 const gpu_spec& gpu, double headroom = 0.0,
                                                 std::int64_t limit = 0) {
    constexpr const char* function = "max_context_for_inference";
    if (limit < 0) {
        detail::throw_invalid(function, "limit", static_cast<double>(limit), "",
                              "must be >= 0 (0 means the model's max_context)");
    }
    constexpr std::int64_t without_max_context = 1 << 20;
    const std::int64_t cap =
        limit > 0 ? limit : (m.spec().max_context > 0 ? m.spec().max_context : without_max_context);
    return detail::largest_serving_count(function, m, setup, &serving_setup::context, gpu,
                                         headroom, cap);
}
constexpr std::int64_t max_context_for_inference(const transformer& m, const serving_setup& setup,
                                                 const gpu_spec& gpu, double headroom = 0.0,
                                                 std::int64_t limit = 0) {
    return max_context_for_inference(check(m, "max_context_for_inference"), setup, gpu, headroom,
                                     limit);
}

/// The smallest MIG profile of `gpu` (by memory, then compute slices) that holds `required`;
/// nullptr when none does or the GPU has no MIG. Ranges: `required` finite and >= 0;
/// `gpu.memory` and each `gpu.mig[i].memory` in data_size's input range; `gpu.mig_count` in
/// [0, max_mig_profiles], with `gpu.mig` pointing to that many profiles; `headroom` in [0, 1).
constexpr const mig_profile* smallest_mig_profile(const gpu_spec& gpu, data_size required,
                                                  double headroom = 0.0) {
    constexpr const char* function = "smallest_mig_profile";
    detail::require_footprint(function, "required", required);
    detail::check_capacity(function, "gpu.memory", gpu.memory, headroom);
    if (gpu.mig_count < 0 || gpu.mig_count > max_mig_profiles) {
        detail::throw_invalid(function, "gpu.mig_count", static_cast<double>(gpu.mig_count), "",
                              "must be in [0, ", static_cast<double>(max_mig_profiles), "]");
    }
    // In a constant expression a read through a null `mig` is itself a compile error, and GCC
    // with UBSan cannot compare a static table's address with nullptr there, so the comparison
    // runs at run time only.
    if (gpu.mig_count > 0 && !detail::is_constant_evaluated() && gpu.mig == nullptr) {
        detail::throw_invalid(function, "gpu.mig_count", static_cast<double>(gpu.mig_count), "",
                              "must be 0 when gpu.mig points to no profiles");
    }
    const mig_profile* best = nullptr;
    for (std::int64_t i = 0; i < gpu.mig_count; ++i) {
        const mig_profile& p = gpu.mig[static_cast<std::size_t>(i)];
        detail::require_positive(function, "gpu.mig.memory", p.memory);
        if (!detail::verdict_unchecked(required, p.memory, headroom).ok) continue;
        if (best == nullptr || p.memory < best->memory ||
            (p.memory == best->memory && p.compute_slices < best->compute_slices)) {
            best = &p;
        }
    }
    return best;
}

}  // namespace gpucalc
