// Mixtral-8x7B: memory follows the total parameters, compute the active ones.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    namespace cat = gpucalc::catalog;
    const auto moe = gpucalc::parameter_count(cat::mixtral_8x7b);
    const auto dense = gpucalc::parameter_count(cat::mistral_7b);
    std::cout << "Mixtral-8x7B: " << moe.total << " parameters, " << moe.active
              << " active per token (top-2 of 8 experts)\n";
    std::cout << "Mistral-7B:   " << dense.total << " parameters, all active\n";

    // Weights at 16 bits are sized by the total; decode FLOPs by the active count.
    const auto serve = gpucalc::inference_memory_per_gpu(cat::mixtral_8x7b, {.batch = 1, .context = 4096});
    const auto flops = gpucalc::forward_flops_per_token(cat::mixtral_8x7b, 4096);
    const auto dense_flops = gpucalc::forward_flops_per_token(cat::mistral_7b, 4096);
    std::cout << "weights " << serve.weights << " (Mistral-7B: "
              << gpucalc::inference_memory_per_gpu(cat::mistral_7b, {.batch = 1, .context = 4096}).weights
              << ")\n";
    std::cout << "forward FLOPs per token " << flops.total << " (Mistral-7B: " << dense_flops.total
              << ")\n";

    // Expert parallelism: with EP 8 each GPU holds one expert of every layer. ZeRO shards the
    // experts' optimizer state only across the GPUs that hold the same expert (data ÷ EP), so
    // 8 GPUs leave it unsharded and 64 shard it 8 ways.
    for (std::int64_t data : {8, 64}) {
        const gpucalc::training_job job{.sequence = 4096};
        const gpucalc::training_strategy strategy{
            .parallel = {.data = data, .expert = 8, .zero_stage = 1},
            .recompute = gpucalc::recompute::full};
        const auto m = gpucalc::training_memory_per_gpu(cat::mixtral_8x7b, job, strategy);
        std::cout << "training, EP 8, ZeRO-1, " << data << " GPUs: " << m.total << " per GPU ("
                  << (gpucalc::fits(m, cat::h100_sxm).ok ? "fits" : "does not fit") << " an H100)\n";
    }
}
