// Writes the cumulative cost of renting against owning an 8-GPU server as SVG, with the
// payback point marked (docs/examples/cost_chart.svg).
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iostream>
#include <string>

namespace {
constexpr double left = 90, right = 760, top = 40, bottom = 420;

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
    char text[200];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}
}  // namespace

int main() {
    using namespace gpucalc::literals;
    namespace prices = gpucalc::catalog::prices;
    const gpucalc::ownership server{.capex = prices::dgx_a100_2020,
                                    .service_life = 5.0_years,
                                    .gpus = 8.0_gpu,
                                    .full_power = prices::dgx_a100_power,
                                    .pue = 1.25,
                                    .electricity = prices::us_industrial_electricity_2023,
                                    .maintenance_per_year = 0.10,
                                    .space = prices::colocation_2024 * prices::dgx_a100_power};
    const gpucalc::gpu_price cloud = 3.0_usd_per_gpu_hour;
    const double utilization = 0.7;
    const double months = 60.0;
    const double max_cost = gpucalc::in<gpucalc::usd>(
        gpucalc::cumulative_costs(server, cloud, utilization, gpucalc::make<gpucalc::months>(months)).rented);
    auto x_of = [&](double m) { return left + m / months * (right - left); };
    auto y_of = [&](double usd) { return bottom - usd / max_cost * (bottom - top); };

    std::cout << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"480\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n"
              << "<rect width=\"800\" height=\"480\" fill=\"white\"/>\n"
              << "<text x=\"400\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Rent at "
              << gpucalc::to_string(cloud) << " or own a DGX A100, at 70% utilization</text>\n";
    for (int m = 0; m <= 60; m += 12) {
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x_of(m), top, x_of(m), bottom)
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", x_of(m), bottom + 18, m);
    }
    for (int k = 0; k <= 4; ++k) {
        const double usd = max_cost * k / 4.0;
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y_of(usd), right, y_of(usd))
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y_of(usd) + 4)
                  << gpucalc::to_string(gpucalc::make<gpucalc::usd>(usd)) << "</text>\n";
    }
    std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">months</text>\n", (left + right) / 2, bottom + 40);

    const struct { bool owned; const char* colour; const char* label; } lines[] = {
        {true, "#1f77b4", "owned (capex up front, then running costs)"},
        {false, "#d62728", "rented (GPU-hours used)"}};
    int row = 0;
    for (const auto& line : lines) {
        std::cout << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << line.colour << "\" points=\"";
        for (int m = 0; m <= 60; ++m) {
            const auto c = gpucalc::cumulative_costs(server, cloud, utilization, gpucalc::make<gpucalc::months>(m));
            std::cout << format("%.1f,%.1f ", x_of(m), y_of(gpucalc::in<gpucalc::usd>(line.owned ? c.owned : c.rented)));
        }
        std::cout << "\"/>\n"
                  << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"", left + 12, top + 16 + 16 * row++) << line.colour
                  << "\">" << line.label << "</text>\n";
    }
    const auto be = gpucalc::rent_vs_buy(server, cloud, utilization);
    if (be.pays_back) {
        const double m = gpucalc::in<gpucalc::months>(be.payback);
        const auto c = gpucalc::cumulative_costs(server, cloud, utilization, be.payback);
        const double y = y_of(gpucalc::in<gpucalc::usd>(c.owned));
        std::cout << format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n", x_of(m), y)
                  << format("<text x=\"%.1f\" y=\"%.1f\">payback after %.1f months</text>\n", x_of(m) + 10, y + 20, m);
    }
    std::cout << "</svg>\n";
}
