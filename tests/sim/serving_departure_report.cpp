// serving_departure_report.cpp: the analytic replica count (replicas_for_rate) against the
// validating simulation's over a sweep of rates, TTFT SLOs, prefill modes, prompt-length
// distributions and routings; docs/serving.md ("Where the analytic model departs from the
// simulation") quotes it. The replica is the one tests/unit/serving_replicas_test.cpp builds:
// Llama-3-8B bf16 on one H100 SXM at 12 ms per token, 1,024-token prompts, 128-token outputs.
// Built by tests/CMakeLists.txt, not run by ctest (about a minute at -O2). Run it optimised:
//   g++ -O2 -std=c++17 -Iinclude tests/sim/serving_departure_report.cpp -o /tmp/dep && /tmp/dep
#include "serving_sim.hpp"

#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/serving.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

using namespace gpucalc;
namespace cat = gpucalc::catalog;
namespace sim = gpucalc_test::sim;

namespace {

checked_cluster one_h100() {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = 1;
    return check(c);
}

replica_capacity_estimate replica(prefill_mode mode, double ttft_ms) {
    return replica_capacity(check(cat::llama_3_8b), one_h100(), serving_setup{},
                            request_profile{1024, 128, 0, 0},
                            serving_slo{make<milliseconds>(ttft_ms), make<milliseconds>(12.0)},
                            mode);
}

// As serving_replicas_test.cpp's sim_of: the load model's affine step, P ÷ N per prompt token,
// chunked with budget C and X ÷ C per chunk token; geometric outputs.
sim::config sim_of(const replica_capacity_estimate& e, bool exponential_prompts, double rate,
                   int replicas, sim::routing route) {
    sim::config k;
    k.arrival_rate = rate;
    k.replicas = replicas;
    k.slots = static_cast<int>(e.batch);
    const double n = static_cast<double>(e.step.prompt_tokens);
    k.prompt = {exponential_prompts ? sim::length_kind::exponential : sim::length_kind::fixed, n};
    k.output = {sim::length_kind::geometric, static_cast<double>(e.step.output_tokens)};
    k.step_base = in<seconds>(e.step.step_fixed);
    k.step_per_request = in<seconds>(e.step.step_per_sequence);
    k.prefill_per_token = in<seconds>(e.prefill_time) / n;
    k.mode = e.mode == prefill_mode::stall     ? sim::prefill_mode::stall
             : e.mode == prefill_mode::chunked ? sim::prefill_mode::chunked
                                               : sim::prefill_mode::disaggregated;
    if (e.mode == prefill_mode::chunked) {
        k.chunk_budget = static_cast<double>(e.step.chunk_tokens);
        k.prefill_per_token =
            in<seconds>(e.step.chunk_step_extra) / static_cast<double>(e.step.chunk_tokens);
    }
    k.prefill_servers = 64;
    k.route = route;
    k.warmup = 20.0;
    k.duration = 200.0;
    k.seed = 7;
    return k;
}

// The simulation's fewest replicas meeting p99 TTFT and mean TPOT, searched upward from
// ⌈λ ÷ (1.05 × capacity)⌉ for at most 40 counts; 0 when none does. Also the p99 TTFT there.
int simulated(const replica_capacity_estimate& e, bool exp_prompts, double rate,
              sim::routing route, double ttft, double* p99) {
    const int first =
        static_cast<int>(std::ceil(rate / (1.05 * in<requests_per_second>(e.capacity))));
    for (int r = first < 1 ? 1 : first; r < first + 40; ++r) {
        const sim::result s = sim::simulate(sim_of(e, exp_prompts, rate, r, route));
        if (s.unfinished == 0 && s.tpot.mean <= 0.012 && s.ttft.p99 <= ttft) {
            *p99 = s.ttft.p99;
            return r;
        }
    }
    return 0;
}

}  // namespace

int main() {
    std::printf("Replica counts at k x the replica's sustainable rate: analytic round-robin (RR) "
                "and JSQ (central queue)\nagainst the simulation's RR, JSQ and JSQ on waiting "
                "(JSW); the simulated p99 TTFT at its count in brackets.\nPrompts fixed (analytic "
                "told p90 = mean) or exponential (p90 = 2,358); outputs geometric, mean 128 (p90 "
                "295).\n\n");
    std::printf("%-13s %-6s %5s %4s %7s | %-9s %-9s | %-14s %-14s %-14s\n", "mode", "prompt",
                "TTFT", "k", "rate", "RR an.", "JSQ an.", "RR sim", "JSQ sim", "JSW sim");
    const prefill_mode modes[] = {prefill_mode::stall, prefill_mode::chunked,
                                  prefill_mode::disaggregated};
    for (const prefill_mode mode : modes) {
        for (const bool exp_prompts : {false, true}) {
            const request_profile told{1024, 128, exp_prompts ? 2358 : 1024, 295};
            for (const double ttft_ms : {500.0, 100.0, 60.0}) {
                const replica_capacity_estimate e = replica(mode, ttft_ms);
                if (!e.feasible) continue;
                for (const double k : {1.5, 2.5, 4.5}) {
                    const double rate = k * in<requests_per_second>(e.sustainable_rate);
                    const auto analytic = [&](routing route) {
                        const replicas_estimate r =
                            replicas_for_rate(e, told, route, make<requests_per_second>(rate));
                        return r.found ? r.replicas : std::int64_t{0};
                    };
                    double p[3] = {0.0, 0.0, 0.0};
                    int s[3] = {0, 0, 0};
                    const sim::routing routes[] = {sim::routing::round_robin,
                                                   sim::routing::join_shortest_queue,
                                                   sim::routing::join_shortest_waiting};
                    for (int i = 0; i < 3; ++i)
                        s[i] = simulated(e, exp_prompts, rate, routes[i], ttft_ms * 1e-3, &p[i]);
                    std::printf("%-13s %-6s %5.0f %4.1f %7.1f | %-9lld %-9lld | %3d (%5.1f ms) "
                                "%3d (%5.1f ms) %3d (%5.1f ms)\n",
                                std::string(to_string(mode)).c_str(),
                                exp_prompts ? "exp" : "fixed", ttft_ms, k, rate,
                                static_cast<long long>(analytic(routing::round_robin)),
                                static_cast<long long>(analytic(routing::join_shortest_queue)),
                                s[0], p[0] * 1e3, s[1], p[1] * 1e3, s[2], p[2] * 1e3);
                    std::fflush(stdout);
                }
            }
        }
    }
    std::printf("\nA simulated count of 0: no count up to 40 above the first meets the SLO (the "
                "prompt's own p99 prefill exceeds it).\n");
    return 0;
}
