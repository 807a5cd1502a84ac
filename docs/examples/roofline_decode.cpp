// Decode speed of Llama-2-7B and Llama-2-70B across GPUs, and why batching pays until the ridge.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iostream>

int main() {
    namespace cat = gpucalc::catalog;
    const gpucalc::gpu_spec* gpus[] = {&cat::l4, &cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200,
                                       &cat::b200};

    // Batch 1, 4k context, bf16 weights and cache, default efficiency (0.80 compute, 0.85 memory).
    // The tensor-parallel degree is the smallest that holds the model (memory.hpp).
    std::cout << "tokens/s per stream, batch 1, 4k context (TP in brackets):\n";
    for (const gpucalc::transformer* m : {&cat::llama_2_7b, &cat::llama_2_70b}) {
        std::cout << "  " << m->name << ":";
        for (const gpucalc::gpu_spec* g : gpus) {
            // One setup: the layout memory found is the one decode times.
            gpucalc::serving_setup serve{.batch = 1, .context = 4096};
            serve.parallel.tensor = gpucalc::min_gpus_for_inference(*m, serve, *g, 0.1).tensor_parallel;
            const auto d = gpucalc::decode(*m, *g, serve);
            char cell[64];
            std::snprintf(cell, sizeof cell, " %s %.0f [%lld]", std::string(g->name).c_str(),
                          gpucalc::in<gpucalc::tokens_per_second_per_stream>(d.stream_rate),
                          static_cast<long long>(serve.parallel.tensor));
            std::cout << cell << (g == gpus[4] ? "\n" : ",");
        }
    }

    // Batching: one step reads the weights once for every sequence, so aggregate throughput
    // grows with the batch until the FLOPs catch up with the bytes, near the ridge point.
    const auto ridge = gpucalc::ridge_point(cat::h100_sxm, gpucalc::compute_precision::bf16,
                                            gpucalc::kernel_efficiency{});
    std::cout << "Llama-3-8B on H100, 512-token context; ridge at default efficiency: " << ridge << "\n";
    for (std::int64_t batch : {1, 8, 64, 256, 512, 1024}) {
        const auto d = gpucalc::decode(cat::llama_3_8b, cat::h100_sxm, {.batch = batch, .context = 512});
        char line[128];
        std::snprintf(line, sizeof line, "  batch %5lld: %8.0f tokens/s in all, %6.1f per stream, %s-bound\n",
                      static_cast<long long>(batch), gpucalc::in<gpucalc::tokens_per_second>(d.aggregate_rate),
                      gpucalc::in<gpucalc::tokens_per_second_per_stream>(d.stream_rate),
                      std::string(gpucalc::to_string(d.bound)).c_str());
        std::cout << line;
    }
    // Each sequence also reads its own KV cache, which batching does not share: at 512 tokens
    // that costs more time than the sequence's FLOPs, so decode never turns compute-bound.
    // With a short context it does, at a batch near the ridge.
    for (std::int64_t context : {128, 512}) {
        const auto crossover =
            gpucalc::decode_compute_bound_batch(cat::llama_3_8b, cat::h100_sxm, {.context = context});
        std::cout << "context " << context << ": ";
        if (crossover.reached) {
            std::cout << "turns compute-bound at batch " << crossover.batch << "\n";
        } else {
            std::cout << "stays memory-bound at every batch\n";
        }
    }
}
