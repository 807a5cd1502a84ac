// Right-sizing five hand-made deployments from what they measured over an hour: the GPUs'
// sustained utilization (nvidia-smi's utilization.gpu, DCGM_FI_DEV_GPU_UTIL), the peak memory a
// GPU held, the request queue at the hour's start and end, and the running batch against the
// batch limit. The figures are illustrative, not measured. The last fleet also passes the
// replica count replicas_for_rate finds for its measured rate (Llama-3-8B chat on one H100 per
// replica at 100 requests/s), below which no target goes: 30 % alone would
// give 3.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <string>

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    using namespace gpucalc::literals;
    const request_profile chat{.prompt_mean = 1024, .output_mean = 256, .prompt_p90 = 2048,
                               .output_p90 = 512};
    const serving_slo slo{.time_to_first_token = make<milliseconds>(500.0),
                          .time_per_output_token = make<milliseconds>(33.0)};
    const replicas_estimate needed = replicas_for_rate(
        check(cat::llama_3_8b), check(cluster{.node = {.gpu = cat::h100_sxm, .gpus_per_node = 1}}),
        serving_setup{}, chat, slo, prefill_mode::stall, routing::round_robin,
        make<requests_per_second>(100.0));

    const struct {
        const char* name;
        deployment_measurements m;
    } fleets[] = {
        {"7B on 1 H100, 25 %, 20 GB",
         {.gpu = cat::h100_sxm, .replicas = 1, .utilization = 0.25, .peak_memory_per_gpu = 20.0_GB}},
        {"8 A100 40GB, 12 %, 8 GB",
         {.gpu = cat::a100_40gb_sxm, .replicas = 8, .utilization = 0.12,
          .peak_memory_per_gpu = 8.0_GB}},
        {"4 H100, 90 %, queue 20 -> 740",
         {.gpu = cat::h100_sxm, .replicas = 4, .utilization = 0.90, .peak_memory_per_gpu = 60.0_GB,
          .queue_at_start = 20, .queue_at_end = 740, .running_batch = 60.0, .batch_limit = 64,
          .arrival_rate = make<requests_per_second>(3.0)}},
        {"4 H100, 35 %, queue 5 -> 400, batch 16/32",
         {.gpu = cat::h100_sxm, .replicas = 4, .utilization = 0.35, .peak_memory_per_gpu = 40.0_GB,
          .queue_at_start = 5, .queue_at_end = 400, .running_batch = 16.0, .batch_limit = 32}},
        {"6 H100 (8B chat, 100 req/s), 30 %",
         {.gpu = cat::h100_sxm, .replicas = 6, .utilization = 0.30, .peak_memory_per_gpu = 70.0_GB,
          .replicas_needed = needed.replicas}},
    };
    std::printf("replicas_for_rate at 100 requests/s: %lld\n\n",
                static_cast<long long>(needed.replicas));
    std::printf("%-42s %-25s %-28s %-17s %-9s %-8s %s\n", "deployment", "action", "rule",
                "measured/thresh.", "replicas", "slice", "util. after, GPUs");
    for (const auto& f : fleets) {
        const right_size_recommendation r = right_size(f.m);
        std::printf("%-42s %-25s %-28s %4.2f / %4.2f      %-9lld %-8s %3.0f %%, %4.2f -> %4.2f\n",
                    f.name, std::string(to_string(r.action)).c_str(),
                    std::string(to_string(r.rule)).c_str(), r.measured, r.threshold,
                    static_cast<long long>(r.replicas),
                    r.has_profile ? std::string(r.profile.name).c_str() : "-",
                    100.0 * r.utilization_after, r.gpus_before, r.gpus_after);
    }
}
