// Writes the step time of five layouts of one job as stacked bars, term by term, as SVG
// (docs/examples/scaling_step_breakdown_chart.svg): Llama-2-70B on 64 H100s (8 nodes,
// InfiniBand NDR), 512 sequences of 4,096 tokens a step.
#include <gpucalc/gpucalc.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

namespace {
constexpr double left = 250, right = 700, top = 60, row_height = 44, bar_height = 28;
constexpr double tick_seconds = 10;  // the time axis: a grid line every 10 s

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
    char text[200];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using gpucalc::recompute;
    const auto model = gpucalc::check(cat::llama_2_70b);
    const auto pod = gpucalc::check(
        {.node = {.gpu = cat::h100_sxm}, .nodes = 8, .inter_node = cat::infiniband_ndr});
    const gpucalc::training_job job{.sequence = 4096, .global_batch = 512};

    const struct { const char* name; gpucalc::training_strategy strategy; } layouts[] = {
        {"TP8 PP4 DP2, selective, ZeRO-1",
         {.parallel = {.tensor = 8, .pipeline = 4, .data = 2, .sequence_parallel = true, .zero_stage = 1},
          .micro_batch = 1, .recompute = recompute::selective}},
        {"TP4 PP4 DP4 v=5, full, ZeRO-1",
         {.parallel = {.tensor = 4, .pipeline = 4, .data = 4, .sequence_parallel = true, .zero_stage = 1, .interleave = 5},
          .micro_batch = 1, .recompute = recompute::full}},
        {"TP8 PP8 DP1, selective",
         {.parallel = {.tensor = 8, .pipeline = 8, .sequence_parallel = true},
          .micro_batch = 1, .recompute = recompute::selective}},
        {"TP2 PP8 DP4, full, ZeRO-1",
         {.parallel = {.tensor = 2, .pipeline = 8, .data = 4, .zero_stage = 1},
          .micro_batch = 1, .recompute = recompute::full}},
        {"TP8 DP8, full, ZeRO-3",
         {.parallel = {.tensor = 8, .data = 8, .sequence_parallel = true, .zero_stage = 3},
          .micro_batch = 1, .recompute = recompute::full}},
    };
    struct term { const char* name; const char* colour; gpucalc::duration gpucalc::training_step::*time; };
    const term terms[] = {
        {"compute", "#1f77b4", &gpucalc::training_step::compute},
        {"recompute", "#aec7e8", &gpucalc::training_step::recompute},
        {"TP comm", "#ff7f0e", &gpucalc::training_step::tensor_comm},
        {"PP comm", "#ffbb78", &gpucalc::training_step::pipeline_comm},
        {"DP comm", "#d62728", &gpucalc::training_step::data_comm},
        {"EP comm", "#9467bd", &gpucalc::training_step::expert_comm},
        {"bubble", "#7f7f7f", &gpucalc::training_step::bubble},
        {"optimizer", "#2ca02c", &gpucalc::training_step::optimizer}};

    gpucalc::training_step steps[std::size(layouts)];
    double longest = 0;
    for (std::size_t i = 0; i < std::size(layouts); ++i) {
        steps[i] = gpucalc::training_step_time(model, pod, job, layouts[i].strategy);
        if (steps[i].time.value() > longest) longest = steps[i].time.value();
    }
    const double ticks = std::ceil(longest / tick_seconds);
    const double scale = (right - left) / (ticks * tick_seconds);
    const double bottom = top + row_height * static_cast<double>(std::size(layouts));

    std::cout << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"" << bottom + 90
              << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
              << "<rect width=\"800\" height=\"" << bottom + 90 << "\" fill=\"white\"/>\n"
              << "<text x=\"400\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Llama-2-70B on "
                 "64 H100s, 512 x 4,096 tokens a step: where the step goes</text>\n";
    for (int k = 0; k <= static_cast<int>(ticks); ++k) {
        const double t = tick_seconds * k;
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left + t * scale, top - 8, left + t * scale, bottom)
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", left + t * scale, bottom + 16)
                  << gpucalc::to_string(gpucalc::make<gpucalc::seconds>(t)) << "</text>\n";
    }
    for (std::size_t i = 0; i < std::size(layouts); ++i) {
        const double y = top + row_height * static_cast<double>(i);
        const gpucalc::training_step& s = steps[i];
        std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8, y + bar_height / 2 + 4)
                  << layouts[i].name << (s.memory_fit.ok ? "" : " (does not fit)") << "</text>\n";
        double x = left;
        for (const term& t : terms) {
            const double w = (s.*t.time).value() * scale;
            if (w <= 0) continue;
            std::cout << format("<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"", x, y, w, bar_height)
                      << t.colour << "\"/>\n";
            x += w;
        }
        std::cout << format("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">MFU %.0f%%</text>\n", x + 4, y + bar_height / 2 + 4, 100 * s.mfu);
    }
    double lx = 20;
    for (const term& t : terms) {
        std::cout << format("<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"", lx, bottom + 40) << t.colour << "\"/>\n"
                  << format("<text x=\"%.1f\" y=\"%.1f\">", lx + 16, bottom + 50) << t.name << "</text>\n";
        lx += 96;
    }
    std::cout << "</svg>\n";
}
