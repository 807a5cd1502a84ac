// GPT-3 175B on 1,024 A100s (128 DGX A100 nodes, 8 HDR InfiniBand NICs each), a global batch of
// 1,536 sequences: the step term by term, TFLOP/s per GPU, the smallest GPU count on which the
// same job fits, and the scaling efficiency against it.
#include <gpucalc/gpucalc.hpp>

#include <iostream>
#include <string>

namespace {
/// x as a percentage with one decimal.
std::string percent(double x) {
    const int tenths = static_cast<int>(1000.0 * x + 0.5);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}

std::string layout_name(const gpucalc::parallel_layout& p) {
    std::string name = "TP";
    name += std::to_string(p.tensor);
    name += " PP";
    name += std::to_string(p.pipeline);
    name += " DP";
    name += std::to_string(p.data);
    return name;
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    const auto model = gpucalc::check(cat::gpt3_175b);
    const auto selene = gpucalc::check(
        {.node = {.gpu = cat::a100_80gb_sxm}, .nodes = 128, .inter_node = cat::infiniband_hdr});
    // 2021 Megatron-LM: unfused attention with dropout, full recompute, no ZeRO.
    const gpucalc::training_job job{
        .sequence = 2048, .global_batch = 1536, .flash_attention = false, .dropout = true};
    // Table 1's layout for the nearest model (145.6B: TP 8, PP 8, micro-batch 2), DP the rest.
    const gpucalc::training_strategy strategy{.parallel = {.tensor = 8, .pipeline = 8, .data = 16},
                                              .micro_batch = 2,
                                              .recompute = gpucalc::recompute::full};

    const gpucalc::training_step s = gpucalc::training_step_time(model, selene, job, strategy);
    std::cout << layout_name(strategy.parallel) << " on " << s.gpus << " GPUs: step " << s.time
              << ", m = " << s.microbatches << ", bubble fraction "
              << percent(s.bubble_fraction) << "\n";
    const auto term = [&](const char* name, gpucalc::duration t) {
        std::cout << "  " << name << " " << t << " (" << percent(t / s.time) << ")\n";
    };
    term("compute", s.compute);
    term("recompute", s.recompute);
    term("TP comm", s.tensor_comm);
    term("PP comm", s.pipeline_comm);
    term("DP comm", s.data_comm);
    term("bubble", s.bubble);
    term("optimizer", s.optimizer);
    // The paper counts the recomputed forward in its FLOPs (its eq. 3): compare with HFU.
    const gpucalc::flop_rate peak = gpucalc::peak(cat::a100_80gb_sxm, job.compute);
    std::cout << "  " << s.tokens_per_second << ", MFU " << percent(s.mfu) << ", HFU "
              << percent(s.hfu) << " = " << s.hfu * peak << " a GPU; memory " << s.memory.total
              << " a GPU: "
              << (s.memory_fit.ok ? "fits" : "does not fit") << "\n";
    std::cout << "300B tokens: "
              << gpucalc::time_to_train(s, gpucalc::make<gpucalc::tokens>(300e9)) << "\n";

    // The reference: the fewest GPUs of the same cluster on which the job fits, same
    // micro-batch, recompute and ZeRO stage, the fastest layout there.
    const gpucalc::fitting_step ref = gpucalc::smallest_fitting_step(model, selene, job, strategy);
    if (!ref.found) {
        std::cout << "no layout fits on up to " << ref.largest_gpus_tried << " GPUs\n";
        return 0;
    }
    std::cout << "smallest fit: " << layout_name(ref.strategy.parallel) << " on " << ref.gpus
              << " GPUs, " << ref.step.tokens_per_second << ", memory " << ref.step.memory.total
              << " a GPU\n";
    std::cout << "scaling efficiency at " << s.gpus << " GPUs: "
              << percent(gpucalc::scaling_efficiency(s, ref)) << "\n";
}
