// What pretraining Llama-3-70B on 1T tokens costs on 128 H100s: the composed step's pace,
// priced, beside the quick estimate at an assumed MFU.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;

    // 16 HGX H100 nodes, NVLink 4 inside, one InfiniBand NDR port a GPU between them.
    const gpucalc::cluster pod{.node = {.gpu = cat::h100_sxm}, .nodes = 16,
                               .inter_node = cat::infiniband_ndr};
    // 512 sequences of 4,096 tokens a step (2M tokens).
    const gpucalc::training_job job{.sequence = 4096, .global_batch = 512};
    const gpucalc::training_strategy strategy{
        .parallel = {.tensor = 8, .pipeline = 2, .data = 8, .sequence_parallel = true,
                     .zero_stage = 1},
        .micro_batch = 1,
        .recompute = gpucalc::recompute::selective};
    const gpucalc::token_count tokens = 1.0_T_tokens;
    const gpucalc::gpu_price price = cat::prices::lambda_h100_on_demand_2026;

    // Composed: compute, exposed communication and the bubble, from the layout on the pod.
    const gpucalc::training_step step =
        gpucalc::training_step_time(cat::llama_3_70b, pod, job, strategy);
    const gpucalc::training_cost_estimate composed = gpucalc::training_cost(step, tokens, price);
    char mfu[16];
    std::snprintf(mfu, sizeof mfu, "%.0f%%", 100.0 * step.mfu);
    std::cout << "composed step: " << step.gpus << " GPUs, " << step.tokens_per_second
              << ", MFU " << mfu << "\n"
              << "  " << composed.time << ", " << composed.usage << ", " << composed.cost
              << "\n";

    // Quick: the same FLOPs at the default 40% MFU, communication folded into that figure.
    const gpucalc::training_cost_estimate quick = gpucalc::training_cost(
        cat::llama_3_70b, cat::h100_sxm, tokens, job, strategy.parallel, price);
    std::cout << "quick estimate at 40% MFU:\n"
              << "  " << quick.time << ", " << quick.usage << ", " << quick.cost << "\n";
}
