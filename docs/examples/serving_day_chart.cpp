// Writes Llama-3-70B chat over one day as SVG (docs/examples/serving_day_chart.svg): above, the
// illustrative demand curve (requests/s, a step line) and the autoscaled replicas each hour
// (bars, right axis); below, the cumulative cost of always-on, autoscaled and serverless
// replicas over the day. The replica, the curve and the prices are serving_day_70b's.
#include <gpucalc/gpucalc.hpp>

#include <array>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <string>

namespace {
constexpr double left = 80, right = 730, top1 = 50, bottom1 = 270, top2 = 330, bottom2 = 560;
constexpr double rate_max = 50, replicas_max = 6.25;

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
    char text[200];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}
double x_of(double hour) { return left + hour / 24.0 * (right - left); }
double y_rate(double rate) { return bottom1 - rate / rate_max * (bottom1 - top1); }
double y_replicas(double r) { return bottom1 - r / replicas_max * (bottom1 - top1); }
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    const checked_model llama = check(cat::llama_3_70b);
    const checked_cluster node = check(cluster{.node = {.gpu = cat::h100_sxm}, .nodes = 1});
    const request_profile chat{.prompt_mean = 1024, .output_mean = 256, .prompt_p90 = 2048,
                               .output_p90 = 512};
    const serving_slo slo{.time_to_first_token = make<milliseconds>(500.0),
                          .time_per_output_token = make<milliseconds>(33.0)};
    serving_setup setup{};
    setup.kv_block_tokens = 16;
    setup.parallel.tensor = 4;
    const replica_capacity_estimate replica =
        replica_capacity(llama, node, setup, chat, slo, prefill_mode::stall);
    const duration start = cold_start(llama, setup, cat::load_paths::nvme_pcie_gen4).total;
    const double hourly[24] = {6, 4, 3, 2, 2, 3, 6, 12, 20, 26, 30, 33,
                               34, 36, 40, 40, 38, 34, 28, 24, 20, 16, 12, 9};
    std::array<demand_period, 24> curve{};
    for (std::size_t h = 0; h < curve.size(); ++h) {
        curve[h] = demand_period{make<requests_per_second>(hourly[h]), make<hours>(1.0)};
    }
    const demand_prices prices{.instance = cat::prices::lambda_h100_on_demand_2026,
                               .serverless = cat::prices::runpod_h100_serverless_2026};
    std::array<period_replicas, 24> per_hour{};
    const demand_plan plan = plan_demand(replica, chat, routing::round_robin, curve, start,
                                         prices, demand_assumptions{}, per_hour);
    if (!plan.found) return 1;

    std::cout << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"620\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n"
              << "<rect width=\"800\" height=\"620\" fill=\"white\"/>\n"
              << "<text x=\"405\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Llama-3-70B "
                 "chat on TP 4 H100 replicas over an illustrative day</text>\n";

    // Upper panel: hour lines, the request-rate axis (left), the replica axis (right).
    for (int h = 0; h <= 24; h += 3) {
        for (double y0 : {top1, top2}) {
            const double y1 = y0 == top1 ? bottom1 : bottom2;
            std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x_of(h), y0, x_of(h), y1);
        }
        std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%02.0f:00</text>\n", x_of(h), bottom2 + 18, h);
    }
    for (int k = 0; k <= 5; ++k) {
        const double rate = 10.0 * k;
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y_rate(rate), right, y_rate(rate))
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", left - 6, y_rate(rate) + 4, rate);
    }
    for (int r = 0; r <= 6; ++r) {
        std::cout << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"#7f7f7f\">%.0f</text>\n", right + 6, y_replicas(r) + 4, r);
    }
    std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">requests/s</text>\n", left - 45, (top1 + bottom1) / 2, left - 45, (top1 + bottom1) / 2)
              << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#7f7f7f\" transform=\"rotate(90 %.1f %.1f)\">replicas (4 GPUs each)</text>\n", right + 35, (top1 + bottom1) / 2, right + 35, (top1 + bottom1) / 2);

    // The autoscaled replicas as bars, the demand as a step line over them.
    const double bar = (right - left) / 24.0;
    for (std::size_t h = 0; h < per_hour.size(); ++h) {
        const double r = static_cast<double>(per_hour[h].autoscaled);
        std::cout << format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#aec7e8\"/>\n",
                            x_of(static_cast<double>(h)) + 2, y_replicas(r), bar - 4, bottom1 - y_replicas(r));
    }
    std::cout << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"#1f77b4\" points=\"";
    for (std::size_t h = 0; h < curve.size(); ++h) {
        const double y = y_rate(in<requests_per_second>(curve[h].rate));
        std::cout << format("%.1f,%.1f %.1f,%.1f ", x_of(static_cast<double>(h)), y, x_of(static_cast<double>(h + 1)), y);
    }
    std::cout << "\"/>\n"
              << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"#1f77b4\">demand, requests/s (illustrative)</text>\n", left + 12, top1 + 16)
              << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"#7f7f7f\">autoscaled replicas (bars)</text>\n", left + 12, top1 + 32);

    // Lower panel: the cumulative cost as plan_demand bills it: an autoscaled replica started
    // bills its cold start on top, in the hour it starts; a serverless one starts inside its
    // hour; the curve repeats, so hour 0 follows hour 23.
    const double per_gpu_hour = in<usd_per_gpu_hour>(prices.instance);
    const double serverless_per_gpu_hour = in<usd_per_gpu_hour>(prices.serverless);
    const double g = static_cast<double>(plan.gpus_per_replica);
    const double start_hours = in<hours>(start);
    const double cost_max = 1.1 * in<usd>(plan.always_on.cost);
    auto y_cost = [&](double usd) { return bottom2 - usd / cost_max * (bottom2 - top2); };
    for (int k = 0; k <= 3; ++k) {
        const double usd = 500.0 * k;
        std::cout << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y_cost(usd), right, y_cost(usd))
                  << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">$%.0f</text>\n", left - 6, y_cost(usd) + 4, usd);
    }
    std::cout << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">cumulative cost</text>\n", left - 55, (top2 + bottom2) / 2, left - 55, (top2 + bottom2) / 2)
              << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">hour of the day</text>\n", (left + right) / 2, bottom2 + 40);
    const struct { int which; const char* colour; const char* label; const serving_strategy* s; } lines[] = {
        {0, "#d62728", "always-on at the peak", &plan.always_on},
        {1, "#2ca02c", "autoscaled (on demand)", &plan.autoscaled},
        {2, "#ff7f0e", "serverless (by the second; misses the TTFT SLO on cold starts)", &plan.serverless}};
    int row = 0;
    for (const auto& line : lines) {
        double total = 0;
        long long previous = line.which == 1 ? per_hour.back().autoscaled : per_hour.back().replicas;
        std::cout << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << line.colour
                  << format("\" points=\"%.1f,%.1f ", x_of(0), y_cost(0));
        for (std::size_t h = 0; h < per_hour.size(); ++h) {
            const long long now = line.which == 0   ? line.s->peak_replicas
                                  : line.which == 1 ? per_hour[h].autoscaled
                                                    : per_hour[h].replicas;
            const double started = line.which == 1 && now > previous ? static_cast<double>(now - previous) : 0.0;
            const double price = line.which == 2 ? serverless_per_gpu_hour : per_gpu_hour;
            total += g * price * (static_cast<double>(now) * in<hours>(per_hour[h].time) + started * start_hours);
            previous = now;
            std::cout << format("%.1f,%.1f ", x_of(static_cast<double>(h + 1)), y_cost(total));
        }
        std::cout << "\"/>\n"
                  << format("<text x=\"%.1f\" y=\"%.1f\" fill=\"", left + 12, top2 + 16 + 16 * row++) << line.colour
                  << "\">" << line.label << format(": $%.0f a day</text>\n", in<usd>(line.s->cost));
    }
    std::cout << "</svg>\n";
}
