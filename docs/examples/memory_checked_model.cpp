// A scheduler's loop: check Llama-3-8B once, then ask decode and memory many questions about it.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    namespace cat = gpucalc::catalog;
    // check() validates the shape once; the hot functions then skip the model's checks.
    const gpucalc::checked_model llama = gpucalc::check(cat::llama_3_8b);
    std::cout << llama.spec().name << ": head_dim " << llama.head_dim() << ", " << llama.kv_heads()
              << " KV heads, " << llama.parameters().total << " parameters\n";

    gpucalc::serving_setup serve{.batch = 1, .context = 8192};
    for (std::int64_t batch : {1, 16, 64}) {
        serve.batch = batch;
        const auto step = gpucalc::decode(llama, cat::h100_sxm, serve);  // no model checks
        std::cout << "  batch " << batch << ": " << step.time_per_token << " per step, "
                  << step.aggregate_rate << ", "
                  << gpucalc::inference_memory_per_gpu(llama, serve).total << " per GPU\n";
    }
    // The searches check the model once too; max_batch and max_context also check the setup once.
    std::cout << "  largest batch at 8k on one H100 (10% headroom): "
              << gpucalc::max_batch_for_inference(llama, serve, cat::h100_sxm, 0.1) << "\n";

    // A bad shape is rejected where it is checked, with the caller's name.
    gpucalc::transformer typo = cat::llama_3_8b;
    typo.kv_heads = 5;
    try {
        (void)gpucalc::check(typo, "load_model");
    } catch (const gpucalc::invalid_input& e) {
        std::cout << e.what() << "\n";
    }
}
