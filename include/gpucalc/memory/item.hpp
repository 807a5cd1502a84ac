// memory/item.hpp: the memory a batch of items of a workload that is not a transformer takes on
// one GPU (weights, activations, the runtime's overhead), and the largest batch that fits
#pragma once

#include <cstdint>
#include <utility>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../units.hpp"
#include "../workload.hpp"
#include "../workload/item.hpp"
#include "fit.hpp"
#include "overhead.hpp"

namespace gpucalc {

/// One GPU's memory for a batch of items.
struct item_memory {
    data_size weights{};      ///< parameters × bytes_per_element(weights)
    data_size activations{};  ///< batch × live activation elements × bytes_per_element
    data_size overhead{};     ///< CUDA context + fragmentation of the tensors (no NCCL: one GPU)
    data_size total{};
};

namespace detail {
/// item_memory_per_gpu for checked input: the same terms and overhead convention as
/// inference_memory_per_gpu (memory/inference.hpp and memory/overhead.hpp), on one GPU.
constexpr item_memory item_memory_checked(const item_workload& w, std::int64_t batch,
                                          const runtime_overhead& o) {
    item_memory m{};
    m.weights = storage_size_unchecked(w.parameters, w.weights);
    m.activations = storage_size_unchecked(
        static_cast<double>(batch) * w.live_elements_per_item, w.activations);
    m.overhead = overhead_for(o, m.weights + m.activations, false);
    m.total = m.weights + m.activations + m.overhead;
    return m;
}
}  // namespace detail

/// The memory one GPU needs to run batches of `batch` items: the weights, batch × the
/// activations one item holds at most, and runtime_overhead's context and fragmentation
/// (docs/memory.md; the communication buffers are left out: one GPU serves alone).
/// Ranges: workload as item_workload says; batch in [1, 2^40]; overhead as runtime_overhead
/// says. Every answer is finite and >= 0.
constexpr item_memory item_memory_per_gpu(const item_workload& workload, std::int64_t batch = 1,
                                          const runtime_overhead& overhead = {}) {
    constexpr const char* function = "item_memory_per_gpu";
    detail::check(workload, function);
    detail::require_count(function, "batch", batch);
    detail::check(overhead, function);
    return detail::item_memory_checked(workload, batch, overhead);
}

/// The largest batch of items that fits a GPU, and the memory at it.
struct item_batch_fit {
    bool fits = false;           ///< false: not even one item fits (batch 0, memory at batch 1)
    std::int64_t batch = 0;      ///< the largest batch in [1, batch_limit] that fits
    item_memory memory{};        ///< at that batch (at batch 1 when nothing fits)
    fit_verdict verdict{};       ///< fits() at that batch
};

namespace detail {
/// largest_item_batch for checked input. total(B) = context + (1 + f)(W + B·A) rises with B
/// (derived from item_memory_checked), so the answer is the largest B in [1, batch_limit] whose
/// verdict fits. The closed form B = 1 + ⌊margin(1) ÷ ((1 + f)A)⌋, with the per-item cost
/// computed directly (not as total(2) − total(1), which cancels to 0 or worse beside large
/// weights), is tried first; if rounding leaves it one off, a bisection over [1, batch_limit]
/// settles it in at most 41 evaluations.
inline item_batch_fit largest_item_batch_checked(const item_workload& w, const gpu_spec& gpu,
                                                 double headroom, const runtime_overhead& o,
                                                 std::int64_t batch_limit) {
    item_batch_fit r{};
    const auto at = [&](std::int64_t b) {
        const item_memory m = item_memory_checked(w, b, o);
        return std::pair<item_memory, fit_verdict>{m, verdict_unchecked(m.total, gpu.memory,
                                                                        headroom)};
    };
    auto one = at(1);
    if (!one.second.ok) {
        r.memory = one.first;
        r.verdict = one.second;
        return r;
    }
    const double per_item =
        (1.0 + o.fragmentation) *
        storage_size_unchecked(w.live_elements_per_item, w.activations).value();
    std::int64_t guess = batch_limit;
    if (per_item > 0.0) {
        const double spare = one.second.margin.value() / per_item;  // items beyond the first
        if (spare + 1.0 < static_cast<double>(batch_limit)) {
            guess = static_cast<std::int64_t>(spare) + 1;
        }
    }
    std::int64_t b = guess;
    auto best = at(b);
    if (!best.second.ok || (b < batch_limit && at(b + 1).second.ok)) {
        std::int64_t lo = 1, hi = batch_limit;  // at(lo) fits; the answer is in [lo, hi]
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (at(mid).second.ok) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        b = lo;
        best = at(b);
    }
    r.fits = true;
    r.batch = b;
    r.memory = best.first;
    r.verdict = best.second;
    return r;
}
}  // namespace detail

/// The largest batch of items whose item_memory_per_gpu fits `gpu`'s memory less `headroom`.
/// An item that holds no activations fits at batch_limit. Cost: a closed form, checked, with a
/// bisection of at most 41 steps when rounding leaves it off (detail::largest_item_batch_checked). Ranges: workload and overhead as item_memory_per_gpu;
/// gpu.memory in [1e-30 B, 1e30 B]; headroom in [0, 1); batch_limit in [1, 2^40].
inline item_batch_fit largest_item_batch(const item_workload& workload, const gpu_spec& gpu,
                                         double headroom = 0.0,
                                         const runtime_overhead& overhead = {},
                                         std::int64_t batch_limit = std::int64_t{1} << 20) {
    constexpr const char* function = "largest_item_batch";
    detail::check(workload, function);
    detail::check(overhead, function);
    detail::check_capacity(function, "gpu.memory", gpu.memory, headroom);
    detail::require_count(function, "batch_limit", batch_limit);
    return detail::largest_item_batch_checked(workload, gpu, headroom, overhead, batch_limit);
}

}  // namespace gpucalc
