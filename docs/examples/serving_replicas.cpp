// Llama-3-8B chat at a p99 time to first token of 500 ms and 30 tokens/s (33 ms per token): how
// many replicas of one L4 (int4 weights) or one H100 SXM (bf16) serve 10 and 100 requests/s, with
// prefill stalling the batch or on separate GPUs, routed round-robin; the rate at which that many
// stop meeting the SLO, and the price of a million output tokens at the H100 price the catalog
// holds (Lambda on-demand, March 2026). The catalog holds no L4 price: the last column is the
// L4 GPU-hour price at which the L4 fleet costs what the H100 fleet does. The request lengths
// (1,024-token prompts, 256-token answers, p90 2,048 and 512) are illustrative, not measured.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <string>

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    const checked_model llama = check(cat::llama_3_8b);
    const request_profile chat{.prompt_mean = 1024, .output_mean = 256, .prompt_p90 = 2048,
                               .output_p90 = 512};
    const serving_slo slo{.time_to_first_token = make<milliseconds>(500.0),
                          .time_per_output_token = make<milliseconds>(33.0)};
    const gpu_price h100_price = cat::prices::lambda_h100_on_demand_2026;
    serving_setup h100_setup{};
    h100_setup.kv_block_tokens = 16;  // vLLM's paged blocks
    serving_setup l4_setup = h100_setup;
    l4_setup.weights = formats::int4_g128;  // AWQ-style, dequantized to bf16 matmuls
    const checked_cluster h100 = check(cluster{.node = {.gpu = cat::h100_sxm, .gpus_per_node = 1}});
    const checked_cluster l4 = check(cluster{.node = {.gpu = cat::l4, .gpus_per_node = 1}});

    std::printf("%-6s %-14s %-5s %-9s %-7s %-6s %-10s %-10s %-8s %s\n", "req/s", "mode", "GPU",
                "replicas", "GPUs", "util.", "p99 TTFT", "break", "$/M tok", "L4 $/GPU-h to match");
    for (double rate : {10.0, 100.0}) {
        for (prefill_mode mode : {prefill_mode::stall, prefill_mode::disaggregated}) {
            const replicas_estimate on_h100 =
                replicas_for_rate(llama, h100, h100_setup, chat, slo, mode, routing::round_robin,
                                  make<requests_per_second>(rate));
            const replicas_estimate on_l4 =
                replicas_for_rate(llama, l4, l4_setup, chat, slo, mode, routing::round_robin,
                                  make<requests_per_second>(rate));
            const double h100_per_m = in<usd_per_million_tokens>(
                replicas_cost_per_million_tokens(on_h100, chat.output_mean, h100_price));
            for (const replicas_estimate* e : {&on_l4, &on_h100}) {
                const bool is_l4 = e == &on_l4;
                std::printf("%-6.0f %-14s %-5s ", rate, std::string(to_string(mode)).c_str(),
                            is_l4 ? "L4" : "H100");
                if (!e->found) {
                    std::printf("no: %s\n", std::string(to_string(e->verdict)).c_str());
                    continue;
                }
                std::string gpus = std::to_string(e->gpus);
                if (e->prefill_gpus > 0) {
                    gpus += '+';
                    gpus += std::to_string(e->prefill_gpus);
                }
                std::printf("%-9lld %-7s %-6.2f %4.0f ms    %5.1f/s    ",
                            static_cast<long long>(e->replicas),
                            gpus.c_str(), e->utilization,
                            in<milliseconds>(e->time_to_first_token),
                            in<requests_per_second>(e->break_rate));
                if (is_l4) {
                    // The price per L4 GPU-hour that equals the H100 fleet's cost.
                    const double match = in<usd_per_gpu_hour>(h100_price) *
                                         static_cast<double>(on_h100.total_gpus) /
                                         static_cast<double>(e->total_gpus);
                    std::printf("%-8s $%.2f\n", "", match);
                } else {
                    std::printf("$%.3f\n", h100_per_m);
                }
            }
        }
    }
}
