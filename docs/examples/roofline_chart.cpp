// Writes the roofline of an H100 SXM as SVG: log-log axes, a ceiling per precision, the
// bandwidth slope, and LLM ops as labelled points (docs/examples/roofline_chart.svg).
#include <gpucalc/gpucalc.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

namespace {
// Chart area in pixels and its log-log ranges: intensity in FLOP/B, rate in FLOP/s.
constexpr double left = 80, right = 760, top = 40, bottom = 460;
constexpr double x_min = -1, x_max = 4;    // 10^-1 .. 10^4 FLOP/B
constexpr double y_min = 11, y_max = 16;   // 10^11 .. 10^16 FLOP/s

double x_of(double intensity) { return left + (std::log10(intensity) - x_min) / (x_max - x_min) * (right - left); }
double y_of(double rate) { return bottom - (std::log10(rate) - y_min) / (y_max - y_min) * (bottom - top); }

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
    char text[256];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using gpucalc::compute_precision;
    const gpucalc::gpu_spec& gpu = cat::h100_sxm;
    const double bandwidth = gpucalc::in<gpucalc::bytes_per_second>(gpu.memory_bandwidth);

    std::cout << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"520\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n"
              << "<rect width=\"800\" height=\"520\" fill=\"white\"/>\n"
              << "<text x=\"400\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Roofline: "
              << gpu.name << " (dense peaks, datasheet bandwidth)</text>\n";
    // Decade grid lines and labels.
    for (int e = static_cast<int>(x_min); e <= static_cast<int>(x_max); ++e) {
        const double x = x_of(std::pow(10.0, e));
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, top, x, bottom)
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">1e%.0f</text>\n", x, bottom + 18, e);
    }
    for (int e = static_cast<int>(y_min); e <= static_cast<int>(y_max); ++e) {
        const double y = y_of(std::pow(10.0, e));
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y, right, y)
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>\n", left - 6, y + 4, e);
    }
    std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">arithmetic intensity (FLOP/B)</text>\n",
                        (left + right) / 2, bottom + 40)
              << format("<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 20 %.1f)\">"
                        "attainable FLOP/s</text>\n", (top + bottom) / 2, (top + bottom) / 2);

    // One ceiling per precision: flat at the peak, sloped (bandwidth x intensity) below the ridge.
    const struct { compute_precision p; const char* colour; } ceilings[] = {
        {compute_precision::fp64, "#7f7f7f"}, {compute_precision::tf32, "#2ca02c"},
        {compute_precision::bf16, "#1f77b4"}, {compute_precision::fp8, "#d62728"}};
    for (const auto& c : ceilings) {
        const double peak = gpucalc::in<gpucalc::flops_per_second>(gpucalc::peak(gpu, c.p));
        const double ridge = peak / bandwidth;
        const double x0 = std::pow(10.0, x_min);
        std::cout << format("<polyline fill=\"none\" stroke-width=\"2\" points=\"%.1f,%.1f %.1f,%.1f ",
                            x_of(x0), y_of(bandwidth * x0), x_of(ridge), y_of(peak))
                  << format("%.1f,%.1f\" ", right, y_of(peak)) << "stroke=\"" << c.colour << "\"/>\n"
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"", right - 4, y_of(peak) - 5)
                  << c.colour << "\">" << gpucalc::to_string(c.p) << " "
                  << gpucalc::to_string(gpucalc::peak(gpu, c.p)) << "</text>\n";
    }
    std::cout << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\" transform=\"rotate(-38 %.1f %.1f)\">",
                        x_of(0.3), y_of(bandwidth * 0.3) - 8, x_of(0.3), y_of(bandwidth * 0.3) - 8)
              << gpucalc::to_string(gpu.memory_bandwidth) << "</text>\n";

    // LLM ops at bf16, placed at their intensity and the rate the roofline allows (efficiency 1).
    struct point { std::string label; gpucalc::op_cost op; double label_dx, label_dy; };
    const auto d1 = gpucalc::decode(cat::llama_3_8b, gpu, {.batch = 1, .context = 512, .efficiency = gpucalc::kernel_efficiency::ideal()});
    const auto d64 = gpucalc::decode(cat::llama_3_8b, gpu, {.batch = 64, .context = 512, .efficiency = gpucalc::kernel_efficiency::ideal()});
    const auto p = gpucalc::prefill(cat::llama_3_8b, gpu, {.batch = 1, .prompt = 2048, .efficiency = gpucalc::kernel_efficiency::ideal()});
    const point points[] = {
        {"decode, batch 1", {d1.flops, d1.bytes}, 8, 16},
        {"decode, batch 64", {d64.flops, d64.bytes}, 8, 16},
        {"prefill, 2k tokens", {p.flops, p.bytes}, -60, 40},
        {"GEMM 4096^3", gpucalc::gemm(4096, 4096, 4096), -110, -22},
        {"attention decode, 4k", gpucalc::attention_cost(cat::llama_3_8b, 1, 1, 4096), 8, 16},
    };
    for (const point& pt : points) {
        const auto t = gpucalc::op_time(pt.op, gpu, compute_precision::bf16, gpucalc::kernel_efficiency::ideal());
        const double x = x_of(gpucalc::in<gpucalc::flops_per_byte>(t.intensity));
        const double y = y_of(gpucalc::in<gpucalc::flops_per_second>(t.attained));
        std::cout << format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"black\"/>\n", x, y)
                  << format("<text x=\"%.1f\" y=\"%.1f\">", x + pt.label_dx, y + pt.label_dy) << pt.label
                  << "</text>\n";
    }
    std::cout << "</svg>\n";
}
