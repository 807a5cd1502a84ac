// memory/overhead.hpp: the memory a framework takes beyond the tensors it was asked to hold
#pragma once

#include "../detail/checks.hpp"
#include "../literals.hpp"
#include "../units.hpp"

namespace gpucalc {

/// What the runtime costs on each GPU on top of weights, optimizer state, activations and KV
/// cache. Every figure is a planning assumption, uncertain, with its range and source here and
/// in docs/memory.md; measure your own stack and pass the numbers.
struct runtime_overhead {
    /// The CUDA context and the framework's kernels: PyTorch reports ~300 MB with CUDA lazy
    /// loading (the default on Linux since CUDA 12.2) and over 1 GB without it
    /// (pytorch/pytorch#107667, PR #86509). Uncertain: 0.3–1 GiB; 0.5 GiB planned.
    data_size cuda_context = make<gibibytes>(0.5);
    /// Memory the caching allocator holds but cannot use, as a fraction of the tensors'
    /// bytes. Uncertain: no authoritative figure is published (the ZeRO paper, §3.2, saw
    /// out-of-memory with over 30% free in extreme cases); 5% planned.
    double fragmentation = 0.05;
    /// Collective-communication buffers (NCCL), counted only when any parallel degree is > 1.
    /// Uncertain: NCCL's buffers are 4 MiB per channel and peer by default; 0.25–1 GiB is
    /// typical of 8-GPU nodes; 0.5 GiB planned.
    data_size communication_buffers = make<gibibytes>(0.5);
};

namespace detail {
constexpr void check(const runtime_overhead& o, const char* function) {
    require_non_negative(function, "overhead.cuda_context", o.cuda_context);
    require_non_negative(function, "overhead.communication_buffers", o.communication_buffers);
    if (!(o.fragmentation >= 0.0 && o.fragmentation < 1.0)) {
        throw_invalid(function, "overhead.fragmentation", o.fragmentation, "",
                      "must be in [0, 1)");
    }
}

/// The overhead for `tensors` bytes of tensors on a GPU that does (or does not) communicate.
GPUCALC_DETAIL_INLINE constexpr data_size overhead_for(const runtime_overhead& o, data_size tensors,
                                                      bool parallel) {
    return o.cuda_context + o.fragmentation * tensors +
           (parallel ? o.communication_buffers : data_size{});
}
}  // namespace detail

}  // namespace gpucalc
