// roofline/item.hpp: the roofline time of a batch of items of a workload that is not a
// transformer (workload/item.hpp): the weights read once per batch, each item's FLOPs and
// activation traffic on top
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../units.hpp"
#include "../workload/item.hpp"
#include "op.hpp"

namespace gpucalc {

namespace detail {
/// The work of a batch of `batch` items for a checked workload (derived from the roofline's
/// op model, Williams et al. 2009): batch × FLOPs per item, and the weights read once per batch
/// plus batch × the activation bytes each item moves. A weight-stationary forward pass reads
/// each weight once per batch when the batch's activations stream through it, as a GEMM whose
/// weight tile stays on chip does (the minimum-traffic argument of gemm() in op.hpp).
constexpr op_cost item_batch_cost(const item_workload& w, std::int64_t batch) {
    const double b = static_cast<double>(batch);
    return {b * w.flops_per_item,
            storage_size_unchecked(w.parameters, w.weights) +
                storage_size_unchecked(b * w.moved_elements_per_item, w.activations)};
}

/// item_batch_time for checked input.
GPUCALC_DETAIL_INLINE constexpr op_timing item_batch_time_checked(const item_workload& w,
                                                                  const gpu_spec& gpu,
                                                                  std::int64_t batch,
                                                                  const kernel_efficiency& eff,
                                                                  const char* function) {
    const flop_rate rate = peak_of(gpu, w.compute, function, "workload.compute");
    require_positive(function, "gpu.memory_bandwidth", gpu.memory_bandwidth);
    return op_time_unchecked(item_batch_cost(w, batch), rate, gpu.memory_bandwidth, eff);
}
}  // namespace detail

/// The best time of one batch of `batch` items on `gpu`: max(batch × FLOPs ÷ (peak at
/// workload.compute × efficiency.compute), (weight bytes + batch × moved activation bytes) ÷
/// (memory bandwidth × efficiency.memory)) (Williams, Waterman and Patterson 2009; the byte
/// count is derived in detail::item_batch_cost). A lower bound for the traffic the workload
/// states: it leaves out kernel launches, the framework and preprocessing, which a measured time
/// holds (serving/items.hpp compares them). The catalog's activation counts write and read each
/// layer's output once; a runtime that fuses across layers moves less and one that does not
/// fuse normalization moves more, so the bound is only as low as that count.
/// Ranges: workload as item_workload says; batch in [1, 2^40]; the GPU's peak at
/// workload.compute and memory_bandwidth as op_time says; each efficiency in [1e-30, 1]. Every
/// answer is finite and positive.
constexpr op_timing item_batch_time(const item_workload& workload, const gpu_spec& gpu,
                                    std::int64_t batch = 1, const kernel_efficiency& eff = {}) {
    constexpr const char* function = "item_batch_time";
    detail::check(workload, function);
    detail::require_count(function, "batch", batch);
    detail::check(eff, function);
    return detail::item_batch_time_checked(workload, gpu, batch, eff, function);
}

}  // namespace gpucalc
