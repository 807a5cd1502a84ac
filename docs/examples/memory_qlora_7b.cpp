// QLoRA of a 7B model on one 24 GB GPU (an A10), against LoRA and full fine-tuning.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;
    using gpucalc::recompute;

    // QLoRA (Dettmers et al. 2023): NF4 base with double quantization, LoRA r = 64 on every
    // linear layer, 16-bit adapters with 32-bit AdamW moments, gradient checkpointing.
    const gpucalc::lora_finetune qlora{.enabled = true,
                                       .adapter = {.rank = 64, .targets = gpucalc::lora_all_linear},
                                       .frozen_base = gpucalc::formats::nf4_double_quant};
    gpucalc::lora_finetune lora = qlora;
    lora.frozen_base = gpucalc::formats::bf16;

    std::cout << "adapter parameters: "
              << gpucalc::lora_parameter_count(cat::llama_2_7b, qlora.adapter) << "\n";
    // The fine-tuning method is fixed for the job; recomputing activations is a choice.
    const gpucalc::training_strategy checkpointed{.recompute = recompute::full};
    const struct {
        const char* label;
        gpucalc::training_job job;
    } cases[] = {
        {"QLoRA", {.sequence = 2048, .fp32_master_weights = false, .lora = qlora}},
        {"LoRA, 16-bit base", {.sequence = 2048, .fp32_master_weights = false, .lora = lora}},
        {"full fine-tuning", {.sequence = 2048}},
    };
    for (const auto& c : cases) {
        const auto m = gpucalc::training_memory_per_gpu(cat::llama_2_7b, c.job, checkpointed);
        const auto verdict = gpucalc::fits(m, cat::a10);
        std::cout << c.label << ": weights " << m.weights << ", trainable state "
                  << m.gradients + m.optimizer_states << ", activations " << m.activations
                  << " = " << m.total << (verdict.ok ? " fits 24 GiB" : " does not fit 24 GiB") << "\n";
    }
}
