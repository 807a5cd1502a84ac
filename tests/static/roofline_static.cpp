// roofline_static.cpp: rooflines and decode/prefill estimates are constant expressions, so a
// latency budget can be a static_assert (C++17 and C++20).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/roofline.hpp>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// H100 SXM: 989.4 TFLOP/s over 3.35 TB/s is a ridge of 295 FLOP/B (derived: H100 datasheet).
static_assert(approx_equal(in<flops_per_byte>(ridge_point(cat::h100_sxm, compute_precision::bf16)),
                           989.4 / 3.35, 1e-12),
              "ridge point");
static_assert(gemm(2, 3, 4).flops == 48.0_FLOP, "2mnk");
static_assert(op_time({1.0_TFLOP, 1.0_GB}, 1.0_TFLOPS, 1.0_TB_per_s, kernel_efficiency::ideal()).bound == bound::compute,
              "1 s of compute beats 1 ms of memory");

// A latency budget at compile time: Llama-2-7B decodes faster than 20 ms per token on an H100.
constexpr decode_estimate d = decode(cat::llama_2_7b, cat::h100_sxm, serving_setup{});
static_assert(d.bound == bound::memory, "batch-1 decode is bandwidth-bound");
static_assert(d.time_per_token < 20.0_ms, "within budget");
static_assert(prefill(cat::llama_2_7b, cat::h100_sxm, serving_setup{}).bound == bound::compute,
              "a 2k-token prefill is compute-bound");

// The closed form for the experts a batch reaches is constexpr: 8·(1 − 0.75³) for top-2 of 8.
static_assert(detail::experts_touched(cat::mixtral_8x7b, 3) == 4.625, "expected experts touched");
static_assert(decode(cat::mixtral_8x7b, cat::h100_sxm, serving_setup{}).time_per_token < 20.0_ms,
              "an MoE decode step at compile time");
static_assert(gemm(2, 3, 4, formats::int4_g128, formats::bf16).bytes > 0.0_B,
              "block-scaled formats are checked and sized at compile time");
}  // namespace
