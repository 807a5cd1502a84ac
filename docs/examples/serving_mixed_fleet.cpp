// Llama-3-8B chat over three GPU types, at a p99 time to first token of 500 ms and 33 ms per
// output token, prefill chunked, round-robin within each type: the cheapest mix for a request
// mix of four size buckets at 1 to 100 requests/s, beside the best single type. The L4 runs int4
// weights (AWQ-style, as in the replicas example), the A100 40 GB and the H100 bf16. Prices: the
// catalog's Lambda on-demand A100 40 GB and H100 (2026); the L4's $0.70/GPU·h is an illustrative
// input (a single-L4 cloud VM's on-demand price is about that; not in the catalog). The buckets
// (lengths, p90s and shares) are illustrative, not measured.
#include <gpucalc/gpucalc.hpp>

#include <array>
#include <cstddef>
#include <cstdio>
#include <string>

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    serving_setup bf16{};
    bf16.kv_block_tokens = 16;  // vLLM's paged blocks
    serving_setup int4 = bf16;
    int4.weights = formats::int4_g128;
    const auto one = [](const gpu_spec& g) { return cluster{.node = {.gpu = g, .gpus_per_node = 1}}; };
    const std::array<fleet_gpu_type, 3> types{{
        {"L4", one(cat::l4), int4, make<usd_per_gpu_hour>(0.70)},  // illustrative price
        {"A100", one(cat::a100_40gb_sxm), bf16, cat::prices::lambda_a100_40gb_on_demand_2026},
        {"H100", one(cat::h100_sxm), bf16, cat::prices::lambda_h100_on_demand_2026},
    }};
    const std::array<fleet_bucket, 4> buckets{{
        {.profile = {128, 64, 256, 128}, .share = 0.4},       // short questions
        {.profile = {512, 256, 1024, 512}, .share = 0.3},     // chat turns
        {.profile = {2048, 512, 4096, 1024}, .share = 0.2},   // chat with history
        {.profile = {8192, 512, 12288, 1024}, .share = 0.1},  // documents
    }};
    const serving_slo slo{.time_to_first_token = make<milliseconds>(500.0),
                          .time_per_output_token = make<milliseconds>(33.0)};
    const checked_model llama = check(cat::llama_3_8b);

    const auto fleet_text = [&](const fleet_choice& c) {
        std::string s;
        for (std::size_t g = 0; g < types.size(); ++g) {
            if (c.replicas[g] == 0) continue;
            if (!s.empty()) s += " + ";
            s += std::to_string(c.replicas[g]);
            s += ' ';
            s += types[g].name;
        }
        return s;
    };
    for (double rate : {1.0, 10.0, 40.0, 100.0}) {
        const fleet_plan p = plan_fleet(llama, types, buckets, make<requests_per_second>(rate),
                                        slo, prefill_mode::chunked, routing::round_robin);
        if (rate == 1.0) {
            std::printf("One replica's rate at the SLO, requests/s (and per $ of GPU-hour price):\n");
            std::printf("%-6s", "");
            for (const fleet_bucket& b : buckets) {
                std::printf("  %5lld+%-4lld tok  ", static_cast<long long>(b.profile.prompt_mean),
                            static_cast<long long>(b.profile.output_mean));
            }
            std::printf("\n");
            for (std::size_t g = 0; g < types.size(); ++g) {
                std::printf("%-6s", std::string(types[g].name).c_str());
                for (std::size_t b = 0; b < buckets.size(); ++b) {
                    const double mu = in<requests_per_second>(p.table.replica_rate[g][b]);
                    std::printf("  %7.2f (%6.2f)", mu, mu / in<usd_per_gpu_hour>(types[g].price));
                }
                std::printf("\n");
            }
            std::printf("\n%-7s %-24s %-7s %-8s %-10s %-8s %s\n", "req/s", "cheapest fleet",
                        "buckets", "$/h", "$/M tok", "single", "saving");
        }
        if (!p.found) {
            std::printf("%-7.0f no: %s\n", rate, std::string(to_string(p.verdict)).c_str());
            continue;
        }
        std::string map;
        for (std::size_t b = 0; b < buckets.size(); ++b) {
            map += std::string(types[p.cheapest.bucket_type[b]].name).substr(0, 1);
        }
        std::printf("%-7.0f %-24s %-7s %-8.2f %-10.3f %-8.2f $%.2f/h (%.0f %%)\n", rate,
                    fleet_text(p.cheapest).c_str(), map.c_str(),
                    in<usd_per_hour>(p.cheapest.hourly),
                    in<usd_per_million_tokens>(p.cheapest.per_million),
                    in<usd_per_hour>(p.best_single.hourly), in<usd_per_hour>(p.saving),
                    100.0 * p.saving_share);
    }
}
