// memory_static.cpp: parameter counts, KV-cache sizes, memory breakdowns and fit decisions are
// constant expressions, so budgets can be static_asserts (C++17 and C++20).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/model.hpp>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// A budget as a static_assert: Llama-2-7B's KV cache is 512 KiB per token at 16 bits
// (derived from HF config meta-llama/Llama-2-7b-hf: 2 · 32 layers · 32 KV heads · 128 · 2 B).
static_assert(kv_cache_bytes_per_token(cat::llama_2_7b, formats::fp16) == 512.0_KiB, "");
static_assert(parameter_count(cat::llama_2_7b).total == 6738415616LL, "published count");
static_assert(parameter_count(cat::mixtral_8x7b).active == 12879925248LL, "top-2 of 8");
static_assert(lora_parameter_count(cat::llama_2_7b, {8, lora_q | lora_v}) == 4194304LL, "LoRA");

// Whole breakdowns and verdicts at compile time.
constexpr inference_memory serve_7b = inference_memory_per_gpu(cat::llama_2_7b, serving_setup{});
static_assert(serve_7b.kv_cache == 4096.0 * 512.0_KiB, "one 4k sequence");
static_assert(fits(serve_7b, cat::a100_80gb_sxm).ok, "7B serves on one A100 80GB");
static_assert(!fits(training_memory_per_gpu(cat::llama_2_7b, training_job{}, training_strategy{}),
                    cat::a100_80gb_sxm)
                   .ok,
              "7B full training does not fit one A100 80GB");
static_assert(min_gpus_for_inference(cat::llama_2_70b, serving_setup{}, cat::h100_sxm).tensor_parallel == 2,
              "70B at 16 bits needs two H100s");
static_assert(model_states_per_gpu(7.5e9, training_job{}, parallel_layout{}).optimizer_states == 90.0_GB,
              "ZeRO: K = 12 bytes per parameter for mixed-precision Adam");

// The bounded searches of issue 13 stay constant expressions: the fewest GPUs for a stated
// global batch walks its divisors (6: degrees 1, 2, 3, 6).
constexpr training_fit fewest_gpus_for_six_sequences() {
    training_job job{};
    job.sequence = 4096;
    job.global_batch = 6;
    training_strategy zero3{};
    zero3.parallel.zero_stage = 3;
    zero3.recompute = recompute::full;
    return min_gpus_for_training(cat::llama_2_7b, job, zero3, cat::a100_80gb_sxm);
}
static_assert(fewest_gpus_for_six_sequences().outcome == fit_outcome::found, "");
static_assert(6 % fewest_gpus_for_six_sequences().data_parallel == 0, "a degree that splits 6");
static_assert(gpus_of(parallel_layout{}) == 1 && zero_stage_of(fsdp::shard_grad_op) == 2, "");
}  // namespace
