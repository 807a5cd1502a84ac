// Llama-2-70B on 64 H100s (8 HGX nodes, InfiniBand NDR): three layouts' step times, term by
// term, with tokens/s, MFU and whether each fits in 80 GB.
#include <gpucalc/gpucalc.hpp>

#include <cstddef>
#include <iostream>
#include <string>

namespace {
/// `text` padded to `width` characters on screen ("µ" is one character, two bytes).
std::string padded(const std::string& text, std::size_t width) {
    std::size_t shown = 0;
    for (char c : text) shown += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return text + std::string(shown < width ? width - shown : 0, ' ');
}

/// x as a percentage with one decimal.
std::string percent(double x) {
    const int tenths = static_cast<int>(1000.0 * x + 0.5);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    const auto model = gpucalc::check(cat::llama_2_70b);
    const auto pod = gpucalc::check(
        {.node = {.gpu = cat::h100_sxm}, .nodes = 8, .inter_node = cat::infiniband_ndr});
    // 512 sequences of 4,096 tokens a step: 2M tokens.
    const gpucalc::training_job job{.sequence = 4096, .global_batch = 512};

    struct layout {
        const char* name;
        gpucalc::training_strategy strategy;
    };
    const layout layouts[] = {
        {"TP8 PP4 DP2, SP, selective, ZeRO-1",
         {.parallel = {.tensor = 8, .pipeline = 4, .data = 2, .sequence_parallel = true,
                       .zero_stage = 1},
          .micro_batch = 1, .recompute = gpucalc::recompute::selective}},
        {"TP4 PP4 DP4 v=5, SP, full, ZeRO-1",
         {.parallel = {.tensor = 4, .pipeline = 4, .data = 4, .sequence_parallel = true,
                       .zero_stage = 1, .interleave = 5},
          .micro_batch = 1, .recompute = gpucalc::recompute::full}},
        {"TP8 DP8, SP, full, ZeRO-3",
         {.parallel = {.tensor = 8, .data = 8, .sequence_parallel = true, .zero_stage = 3},
          .micro_batch = 1, .recompute = gpucalc::recompute::full}},
    };

    for (const layout& l : layouts) {
        const gpucalc::training_step s = gpucalc::training_step_time(model, pod, job, l.strategy);
        std::cout << l.name << ": step " << s.time << ", m = " << s.microbatches
                  << ", bubble fraction " << percent(s.bubble_fraction) << "\n";
        const auto term = [&](const char* name, gpucalc::duration t) {
            std::cout << "  " << padded(name, 16) << padded(to_string(t), 10)
                      << percent(t / s.time) << "\n";
        };
        term("compute", s.compute);
        term("recompute", s.recompute);
        term("TP comm", s.tensor_comm);
        term("PP comm", s.pipeline_comm);
        term("DP comm", s.data_comm);
        term("bubble", s.bubble);
        term("optimizer", s.optimizer);
        std::cout << "  " << s.tokens_per_second << ", MFU " << percent(s.mfu) << ", HFU "
                  << percent(s.hfu) << "; memory " << s.memory.total << " a GPU: "
                  << (s.memory_fit.ok ? "fits" : "does not fit") << "\n";
    }
    // Without ZeRO, TP8 × DP8 keeps 16 bytes of state for each of a GPU's 8.6 B parameters: an
    // answer, not an error.
    const auto plain = gpucalc::training_step_time(
        model, pod, job, {.parallel = {.tensor = 8, .data = 8}, .micro_batch = 1});
    std::cout << "TP8 DP8 without ZeRO: memory " << plain.memory.total << " a GPU, "
              << (plain.memory_fit.ok ? "fits" : "does not fit") << " (margin "
              << plain.memory_fit.margin << ")\n";
    // A trillion tokens at the first layout's pace.
    const auto first = gpucalc::training_step_time(model, pod, job, layouts[0].strategy);
    std::cout << "1T tokens with the first: "
              << gpucalc::time_to_train(first, gpucalc::make<gpucalc::tokens>(1e12)) << "\n";
}
