// Full training of Llama-2-7B on A100 80GB: why one GPU is not enough, and what is.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;
    using gpucalc::recompute;

    auto show = [](const char* label, const gpucalc::training_memory& m) {
        const auto verdict = gpucalc::fits(m, cat::a100_80gb_sxm);
        std::cout << label << ": weights " << m.weights << ", gradients " << m.gradients
                  << ", optimizer " << m.optimizer_states << ", activations " << m.activations
                  << ", overhead " << m.overhead << " = " << m.total
                  << (verdict.ok ? " fits, margin " : " does not fit, short by ")
                  << (verdict.ok ? verdict.margin : -verdict.margin) << "\n";
    };

    // One GPU: 16 bytes per parameter of model state alone (ZeRO paper) is 108 GB > 80 GiB.
    // The job: 4,096-token sequences, AdamW in mixed precision (the defaults).
    const gpucalc::training_job job{.sequence = 4096};
    show("1 GPU, no sharding",
         gpucalc::training_memory_per_gpu(cat::llama_2_7b, job, {.micro_batch = 1}));

    // Full recompute cuts activations to one tensor per layer; the model states still do not
    // fit. (Selective recompute would save nothing here: FlashAttention, on by default,
    // already keeps no s² scores.)
    show("1 GPU, full recompute",
         gpucalc::training_memory_per_gpu(cat::llama_2_7b, job,
                                          {.micro_batch = 1, .recompute = recompute::full}));

    // ZeRO-3 over 8 GPUs shards weights, gradients and optimizer states.
    show("8 GPUs, ZeRO-3",
         gpucalc::training_memory_per_gpu(cat::llama_2_7b, job,
                                          {.parallel = {.data = 8, .zero_stage = 3}, .micro_batch = 1}));

    // The fewest GPUs for ZeRO-3 at this micro-batch, and the largest micro-batch on 8.
    const gpucalc::training_strategy zero3{.parallel = {.zero_stage = 3}, .micro_batch = 1};
    const auto fit = gpucalc::min_gpus_for_training(cat::llama_2_7b, job, zero3, cat::a100_80gb_sxm);
    std::cout << "fewest GPUs with ZeRO-3: " << fit.gpus << "\n";
    gpucalc::training_strategy eight = zero3;
    eight.parallel.data = 8;
    std::cout << "largest micro-batch on 8 GPUs: "
              << gpucalc::max_micro_batch_for_training(cat::llama_2_7b, job, eight, cat::a100_80gb_sxm)
              << "\n";
}
