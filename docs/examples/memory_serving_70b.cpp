// Serving Llama-2-70B on H100 SXM at 4k and 32k context: GPUs needed, KV cache, largest batch.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;
    const double headroom = 0.1;  // keep 10% free, as vLLM's gpu_memory_utilization = 0.9 does

    std::cout << "KV cache per token (16-bit): "
              << gpucalc::kv_cache_bytes_per_token(cat::llama_2_70b, gpucalc::formats::bf16) << "\n";

    for (std::int64_t context : {4096, 32768}) {
        // The weights alone (138 GB at 16 bits) need two 80 GiB GPUs.
        const gpucalc::serving_setup one_sequence{.batch = 1, .context = context};
        const auto fit =
            gpucalc::min_gpus_for_inference(cat::llama_2_70b, one_sequence, cat::h100_sxm, headroom);
        std::cout << "context " << context << ": one sequence needs TP " << fit.tensor_parallel;

        // With TP 4 and TP 8, how many sequences of this length fit per replica?
        for (std::int64_t tp : {4, 8}) {
            const gpucalc::serving_setup setup{.batch = 1, .context = context, .parallel = {.tensor = tp}};
            const auto batch = gpucalc::max_batch_for_inference(cat::llama_2_70b, setup, cat::h100_sxm, headroom);
            gpucalc::serving_setup at_max = setup;
            at_max.batch = batch;
            const auto m = gpucalc::inference_memory_per_gpu(cat::llama_2_70b, at_max);
            std::cout << "; TP " << tp << ": batch " << batch << " (weights " << m.weights
                      << ", KV " << m.kv_cache << " per GPU)";
        }
        std::cout << "\n";
    }

    // 8-bit weights and cache halve both: the 32k case at TP 4.
    const gpucalc::serving_setup fp8{.batch = 1, .context = 32768, .parallel = {.tensor = 4},
                                     .weights = gpucalc::formats::fp8_e4m3,
                                     .kv_cache = gpucalc::formats::fp8_e4m3};
    std::cout << "fp8 weights and KV, 32k, TP 4: batch "
              << gpucalc::max_batch_for_inference(cat::llama_2_70b, fp8, cat::h100_sxm, headroom) << "\n";
}
