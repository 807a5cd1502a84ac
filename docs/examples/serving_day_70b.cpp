// Llama-3-70B chat over one day: replicas of 4 H100 SXM (TP 4, bf16 weights, prefill stalling the
// batch, round-robin) at a p99 time to first token of 500 ms and 33 ms per output token. The
// demand curve is illustrative, not measured: a diurnal shape from 2 requests/s at night to a
// 40 requests/s afternoon peak. The request lengths are the 8B example's (1,024-token prompts,
// 256-token answers, p90 2,048 and 512), also illustrative. Prices: Lambda's H100 on-demand
// price (March 2026) for always-on and autoscaled replicas, RunPod's serverless H100 (by the
// second) for serverless; the new replicas load their weights from a local NVMe drive.
#include <gpucalc/gpucalc.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

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
    setup.kv_block_tokens = 16;  // vLLM's paged blocks
    setup.parallel.tensor = 4;   // 140 GB of bf16 weights: 35 GB per GPU
    const replica_capacity_estimate replica =
        replica_capacity(llama, node, setup, chat, slo, prefill_mode::stall);
    std::printf("one replica: %lld GPUs, batch %lld, %.1f ms/token, TTFT floor %.0f ms, "
                "sustainable %.1f requests/s\n",
                static_cast<long long>(replica.gpus), static_cast<long long>(replica.batch),
                in<milliseconds>(replica.time_per_token),
                in<milliseconds>(replica.time_to_first_token),
                in<requests_per_second>(replica.sustainable_rate));

    // The cold start of a new replica over three load paths; plan_demand uses the NVMe drive's.
    std::printf("\ncold start (weights + %.0f s engine start):\n",
                in<seconds>(default_engine_start));
    const struct { const char* name; load_path path; } paths[] = {
        {"host memory, PCIe Gen4 (per GPU)", cat::load_paths::host_memory_pcie_gen4},
        {"NVMe PCIe Gen4 (shared)", cat::load_paths::nvme_pcie_gen4},
        {"EBS io2 Block Express (shared)", cat::load_paths::ebs_io2_block_express}};
    for (const auto& p : paths) {
        const cold_start_estimate c = cold_start(llama, setup, p.path);
        std::printf("  %-34s load %5.1f s, total %5.1f s\n", p.name, in<seconds>(c.load),
                    in<seconds>(c.total));
    }
    const duration start = cold_start(llama, setup, cat::load_paths::nvme_pcie_gen4).total;

    // Requests/s hour by hour, from midnight: illustrative, not measured.
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
    if (!plan.found) {
        std::printf("no plan: %s\n", std::string(to_string(plan.verdict)).c_str());
        return 1;
    }
    std::printf("\nhour  req/s  replicas\n");
    for (std::size_t h = 0; h < per_hour.size(); ++h) {
        std::printf("%02zu    %5.0f  %lld\n", h, in<requests_per_second>(per_hour[h].rate),
                    static_cast<long long>(per_hour[h].autoscaled));
    }
    std::printf("\n%.2f M requests, %.0f M output tokens a day; cold start %.0f s\n",
                in<sequences>(plan.requests) / 1e6, in<tokens>(plan.output_tokens) / 1e6,
                in<seconds>(plan.cold_start));
    std::printf("%-11s %-6s %-9s %-8s %-9s %-12s %s\n", "strategy", "peak", "GPU-h", "$/day",
                "$/M tok", "cold starts", "meets SLO");
    const struct { const char* name; const serving_strategy* s; } rows[] = {
        {"always-on", &plan.always_on}, {"autoscaled", &plan.autoscaled},
        {"serverless", &plan.serverless}};
    for (const auto& r : rows) {
        std::printf("%-11s %-6lld %-9.1f %-8.0f %-9.3f %-12lld %s\n", r.name,
                    static_cast<long long>(r.s->peak_replicas), in<gpu_hours>(r.s->held),
                    in<usd>(r.s->cost), in<usd_per_million_tokens>(r.s->per_million_tokens),
                    static_cast<long long>(r.s->cold_starts), r.s->meets_slo ? "yes" : "no");
    }

    // The steepest hour-on-hour rise, and a flash crowd: how many replicas must already run.
    std::size_t steepest = 1;
    for (std::size_t h = 1; h < 24; ++h) {
        if (hourly[h] - hourly[h - 1] > hourly[steepest] - hourly[steepest - 1]) steepest = h;
    }
    const struct { const char* name; request_rate rate; demand_ramp ramp; } ramps[] = {
        {"steepest hour", curve[steepest - 1].rate,
         demand_ramp{curve[steepest].rate - curve[steepest - 1].rate, make<hours>(1.0)}},
        {"flash crowd", curve[steepest - 1].rate,
         demand_ramp{make<requests_per_second>(20.0), make<minutes>(1.0)}}};
    std::printf("\n");
    for (const auto& r : ramps) {
        const ramp_estimate e =
            warm_replicas_for_ramp(replica, chat, routing::round_robin, r.rate, r.ramp, start);
        std::printf("%-13s +%.0f requests/s over %.0f min from %.0f/s: lead %.0f s, "
                    "%lld running, %lld of them warm\n",
                    r.name, in<requests_per_second>(r.ramp.rise), in<minutes>(r.ramp.over),
                    in<requests_per_second>(r.rate), in<seconds>(e.lead_time),
                    static_cast<long long>(e.replicas_ahead),
                    static_cast<long long>(e.warm_replicas));
    }

    // Reserve the base load for a year at a 37 % discount (illustrative, not a quoted price:
    // commitments are negotiated per provider and GPU), burst the rest at the on-demand price.
    const reservation year{.term = make<years>(1.0), .on_demand = prices.instance,
                           .discount = 0.37};
    const hybrid_capacity hybrid = reserved_base_load(per_hour, plan.gpus_per_replica,
                                                      reserved_capacity(year), prices.instance);
    std::printf("\nreserve %.0f GPUs, burst the rest: $%.0f/day (all on demand $%.0f, saves "
                "$%.0f)\n",
                in<gpus>(hybrid.owned), in<usd>(hybrid.total), in<usd>(hybrid.all_cloud),
                in<usd>(hybrid.saving_vs_cloud));

    // 10 M batch requests on the peak's replicas: spot at a 60 % discount (Google Cloud's low
    // end), reclaimed once a day per replica (an assumption), each restart a cold start plus
    // 5 minutes' wait for capacity (an assumption), against on demand.
    const batch_estimate batch = batch_inference(
        replica, chat,
        batch_job{.requests = 10'000'000, .replicas = plan.always_on.peak_replicas,
                  .on_demand = prices.instance, .spot_discount = 0.6,
                  .mean_time_between_preemptions = make<hours>(24.0),
                  .restart_time = start + make<minutes>(5.0)});
    std::printf("batch of 10 M on %lld replicas: on demand %.1f h $%.0f, spot %.1f h $%.0f "
                "(+%.1f %% time)\n",
                static_cast<long long>(plan.always_on.peak_replicas), in<hours>(batch.work),
                in<usd>(batch.on_demand_cost), in<hours>(batch.spot_wall_time),
                in<usd>(batch.spot_cost), 100.0 * batch.spot_overhead);
}
