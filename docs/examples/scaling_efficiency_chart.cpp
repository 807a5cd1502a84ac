// Writes the scaling efficiency of Llama-2-70B training on H100 nodes as SVG, from 16 to 1,024
// GPUs, one line per network between the nodes, with the 75 % and 60 % floors drawn
// (docs/examples/scaling_efficiency_chart.svg). Weak scaling: each data-parallel replica (TP 8 x
// PP 2) keeps 32 micro-batches of one 4,096-token sequence a step, so the global batch grows
// with DP. The reference of each point is smallest_fitting_step for the same job.
#include <gpucalc/gpucalc.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

namespace {
constexpr double left = 80, right = 760, top = 50, bottom = 420;
constexpr double y_max = 1.1;
constexpr int first_log2 = 4, last_log2 = 10;  // 16 … 1,024 GPUs

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
    char text[200];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}
double x_of(double gpus) {
    return left + (std::log2(gpus) - first_log2) / (last_log2 - first_log2) * (right - left);
}
double y_of(double efficiency) { return bottom - efficiency / y_max * (bottom - top); }
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    const auto model = gpucalc::check(cat::llama_2_70b);
    const gpucalc::training_strategy replica{
        .parallel = {.tensor = 8, .pipeline = 2, .sequence_parallel = true, .zero_stage = 1},
        .micro_batch = 1, .recompute = gpucalc::recompute::selective};
    const std::int64_t microbatches_per_replica = 32;

    std::cout << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"480\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n"
              << "<rect width=\"800\" height=\"480\" fill=\"white\"/>\n"
              << "<text x=\"420\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Llama-2-70B "
                 "on H100 nodes, TP 8 x PP 2 replicas, 32 micro-batches each: scaling "
                 "efficiency</text>\n";
    for (int k = first_log2; k <= last_log2; ++k) {
        const double x = x_of(std::ldexp(1.0, k));
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, top, x, bottom)
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", x, bottom + 18, std::ldexp(1.0, k));
    }
    for (int k = 0; k <= 5; ++k) {
        const double e = 0.2 * k;
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y_of(e), right, y_of(e))
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f%%</text>\n", left - 6, y_of(e) + 4, 100 * e);
    }
    std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">GPUs</text>\n", (left + right) / 2, bottom + 40);
    // The rule-of-thumb floors of scaling/laws.hpp.
    const struct { double floor; const char* label; } floors[] = {
        {gpucalc::good_scaling_efficiency, "75%: good"},
        {gpucalc::wasteful_scaling_efficiency, "60%: below it, wasted GPUs"}};
    for (const auto& f : floors) {
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"6,4\"/>\n", left, y_of(f.floor), right, y_of(f.floor))
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">", right - 4, y_of(f.floor) - 5)
                  << f.label << "</text>\n";
    }

    // RoCE at 400G has NDR's bandwidth: dashed, so that both lines show where they meet.
    const struct { gpucalc::link_spec link; const char* colour; const char* dashes; } networks[] = {
        {cat::infiniband_ndr, "#1f77b4", "none"}, {cat::ethernet_400g_roce, "#2ca02c", "7,5"},
        {cat::ethernet_100g, "#d62728", "none"}};
    int row = 0;
    for (const auto& n : networks) {
        std::cout << "<polyline fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"" << n.dashes
                  << "\" stroke=\"" << n.colour << "\" points=\"";
        std::string dots;
        for (int k = first_log2; k <= last_log2; ++k) {
            const std::int64_t gpus = std::int64_t{1} << k;
            gpucalc::training_strategy s = replica;
            s.parallel.data = gpus / (s.parallel.tensor * s.parallel.pipeline);
            const gpucalc::training_job job{
                .sequence = 4096, .global_batch = microbatches_per_replica * s.parallel.data};
            const auto pod = gpucalc::check({.node = {.gpu = cat::h100_sxm},
                                             .nodes = static_cast<std::int64_t>(gpus / 8),
                                             .inter_node = n.link});
            const auto step = gpucalc::training_step_time(model, pod, job, s);
            const auto reference = gpucalc::smallest_fitting_step(model, pod, job, s);
            const double e = gpucalc::scaling_efficiency(step, reference);
            std::cout << format("%.1f,%.1f ", x_of(static_cast<double>(gpus)), y_of(e));
            dots += format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"", x_of(static_cast<double>(gpus)), y_of(e)) + n.colour + "\"/>\n";
        }
        std::cout << "\"/>\n" << dots
                  << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"", left + 12, bottom - 60 + 16 * row++) << n.colour
                  << "\">" << n.link.name << " x 8 a node</text>\n";
    }
    std::cout << "</svg>\n";
}
