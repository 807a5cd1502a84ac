// memory/overhead.hpp: the memory a framework takes beyond the tensors it was asked to hold
#pragma once

#include "../units.hpp"
#include "../workload.hpp"

namespace gpucalc {
namespace detail {
/// The overhead for `tensors` bytes of tensors on a GPU that does (or does not) communicate:
/// the CUDA context, the allocator's fragmentation of the tensors, and the NCCL buffers when
/// the GPU has peers (runtime_overhead documents each figure).
GPUCALC_DETAIL_INLINE constexpr data_size overhead_for(const runtime_overhead& o, data_size tensors,
                                                      bool parallel) {
    return o.cuda_context + o.fragmentation * tensors +
           (parallel ? o.communication_buffers : data_size{});
}
}  // namespace detail
}  // namespace gpucalc
