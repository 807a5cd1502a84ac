// checked_static.cpp: a checked model is a literal type: constant expressions hold one, read its
// derived values and evaluate the hot functions on it (C++17 and C++20).
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/roofline.hpp>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// Llama-3-8B (HF config meta-llama/Meta-Llama-3-8B): 32 heads of 128 over 4,096, 8 KV heads.
constexpr checked_model llama = check(cat::llama_3_8b);
static_assert(llama.head_dim() == 128, "hidden / heads");
static_assert(llama.kv_heads() == 8, "grouped-query attention");
static_assert(llama.q_width() == 4096 && llama.kv_width() == 1024, "projection widths");
static_assert(llama.parameters().total == parameter_count(cat::llama_3_8b).total,
              "the cached count is parameter_count's");
static_assert(llama.spec().layers == 32, "the model as given");

// The checked overloads are the same functions: equal results in a constant expression.
static_assert(decode(llama, cat::h100_sxm, serving_setup{}).time_per_token ==
                  decode(cat::llama_3_8b, cat::h100_sxm, serving_setup{}).time_per_token,
              "decode");
static_assert(inference_memory_per_gpu(llama, serving_setup{}).total ==
                  inference_memory_per_gpu(cat::llama_3_8b, serving_setup{}).total,
              "inference memory");
static_assert(training_memory_per_gpu(llama, training_job{}, training_strategy{}).total ==
                  training_memory_per_gpu(cat::llama_3_8b, training_job{}, training_strategy{}).total,
              "training memory");
// A budget against a checked model: batch-1 decode of Llama-3-8B on an H100 beats 20 ms.
static_assert(decode(llama, cat::h100_sxm, serving_setup{}).time_per_token < 20.0_ms, "budget");
}  // namespace
