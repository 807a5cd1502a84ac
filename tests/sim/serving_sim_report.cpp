// serving_sim_report.cpp: prints the validating simulation's figures quoted in docs/serving.md
// ("The validating simulation"): long-run Erlang C checks, a stalling replica's capacity against
// the issue-16 bound and the naive slots-as-servers model, and the TTFT of the three routings.
// Built by tests/CMakeLists.txt, not run by ctest (it takes tens of seconds). Run it optimised:
//   g++ -O2 -std=c++17 tests/sim/serving_sim_report.cpp -o /tmp/report && /tmp/report
#include "serving_sim.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace sim = gpucalc_test::sim;

namespace {

double erlang_c_wait(int c, double a, double* p_wait) {
    double b = 1.0;  // Erlang B recurrence, then Erlang C (as in serving_sim_test.cpp)
    for (int k = 1; k <= c; ++k) b = a * b / (static_cast<double>(k) + a * b);
    const double rho = a / static_cast<double>(c);
    *p_wait = b / (1.0 - rho * (1.0 - b));
    return *p_wait / (static_cast<double>(c) - a);
}

// Llama-3-8B bf16 on an H100 SXM, roofline (see serving_sim_test.cpp for the derivation).
struct scenario {
    double prompt, output, t0, t1, p1;
};
scenario llama3_8b_h100(double p, double d) {
    return {p, d, 2.0 * 8.03e9 / 3.35e12, 131072.0 * (p + d / 2.0) / 3.35e12, 2.0 * 8.03e9 / 989e12};
}

}  // namespace

int main() {
    constexpr int reps = 16;
    std::printf("M/M/c: %d replications x 2.5e5 arrivals (c = 1: 1e6), disaggregated pool, D = 1;\n"
                "mean +- standard error over the replications\n", reps);
    const struct { int c; double rho; } cases[] = {{1, 0.5}, {1, 0.8}, {8, 0.5}, {8, 0.8}, {64, 0.8}, {64, 0.9}};
    for (const auto& q : cases) {
        double pw = 0.0;
        const double a = q.rho * q.c;
        const double exact = erlang_c_wait(q.c, a, &pw);
        double w = 0.0, w2 = 0.0, p = 0.0, p2 = 0.0;
        const double per_run = q.c == 1 ? 1e6 : 2.5e5;
        for (std::uint64_t s = 1; s <= reps; ++s) {
            sim::config k;
            k.mode = sim::prefill_mode::disaggregated;
            k.prefill_servers = q.c;
            k.prompt = {sim::length_kind::exponential, 1.0};
            k.output = {sim::length_kind::fixed, 1.0};
            k.prefill_per_token = 1.0;
            k.arrival_rate = a;
            k.warmup = 200.0;
            k.duration = per_run / a;
            k.drain_limit = 0.0;
            k.seed = 1000 + s;
            const sim::result r = sim::simulate(k);
            w += r.wait.mean;
            w2 += r.wait.mean * r.wait.mean;
            p += r.p_wait;
            p2 += r.p_wait * r.p_wait;
        }
        const double n = reps;
        const auto se = [n](double sum, double sq) {
            return std::sqrt((sq - sum * sum / n) / (n - 1.0) / n);
        };
        std::printf("  c = %2d rho = %.1f: mean wait %.5g +- %.2g (Erlang C %.5g: %+.1f %%, %+.1f SE), "
                    "P(wait) %.4f +- %.4f (%.4f)\n",
                    q.c, q.rho, w / n, se(w, w2), exact, 100.0 * (w / n / exact - 1.0),
                    (w / n - exact) / se(w, w2), p / n, se(p, p2), pw);
    }

    std::printf("\nStalling prefill, one replica, B = 64, D = 256, overloaded at 2x the bound\n");
    for (const double prompt : {512.0, 2048.0}) {
        const scenario m = llama3_8b_h100(prompt, 256.0);
        const int b = 64;
        const double step = m.t0 + m.t1 * b;
        const double bound = 1.0 / (m.p1 * prompt + m.output * step / b);
        const double naive = b / (m.p1 * prompt + m.output * step);
        sim::config k;
        k.slots = b;
        k.prompt = {sim::length_kind::fixed, prompt};
        k.output = {sim::length_kind::fixed, m.output};
        k.step_base = m.t0;
        k.step_per_request = m.t1;
        k.prefill_per_token = m.p1;
        k.arrival_rate = 2.0 * bound;
        k.warmup = 10.0;
        k.duration = 3000.0;
        k.drain_limit = 0.0;
        const sim::result r = sim::simulate(k);
        std::printf("  P = %4.0f: T(64) = %.2f ms, prefill %.2f ms; simulated %.2f req/s, bound %.2f, "
                    "naive %.2f (naive / simulated = %.2f)\n",
                    prompt, step * 1e3, m.p1 * prompt * 1e3, r.throughput_requests, bound, naive,
                    naive / r.throughput_requests);
    }

    std::printf("\nFour replicas, B = 64, geometric outputs (mean 256), 80 %% of the stall bound;\n"
                "chunk budget 512 tokens; disaggregated: 2 prefill servers for the 4 replicas\n");
    for (const double prompt : {512.0, 2048.0}) {
        const scenario m = llama3_8b_h100(prompt, 256.0);
        const double bound = 1.0 / (m.p1 * prompt + m.output * (m.t0 + m.t1 * 64) / 64);
        for (const auto mode : {sim::prefill_mode::stall, sim::prefill_mode::chunked,
                                sim::prefill_mode::disaggregated}) {
            for (const auto route : {sim::routing::round_robin, sim::routing::join_shortest_queue,
                                     sim::routing::join_shortest_waiting}) {
                sim::config k;
                k.mode = mode;
                k.route = route;
                k.replicas = 4;
                k.slots = 64;
                k.prefill_servers = 2;  // disaggregated: the pool runs at 39 % and 72 % load
                k.chunk_budget = 512.0;
                k.prompt = {sim::length_kind::fixed, prompt};
                k.output = {sim::length_kind::geometric, m.output};
                k.step_base = m.t0;
                k.step_per_request = m.t1;
                k.prefill_per_token = m.p1;
                k.arrival_rate = 4.0 * 0.8 * bound;
                k.warmup = 60.0;
                k.duration = 1200.0;
                k.seed = 5;
                const sim::result r = sim::simulate(k);
                static const char* const modes[] = {"stall", "chunked", "disaggregated"};
                static const char* const routes[] = {"round-robin", "JSQ", "JSQ-waiting"};
                std::printf("  P = %4.0f %-13s %-11s lambda %.1f/s: TTFT mean %5.1f ms p99 %6.1f ms, "
                            "TPOT mean %5.2f ms p99 %5.2f ms\n",
                            prompt, modes[static_cast<int>(mode)], routes[static_cast<int>(route)],
                            k.arrival_rate, r.ttft.mean * 1e3, r.ttft.p99 * 1e3, r.tpot.mean * 1e3,
                            r.tpot.p99 * 1e3);
            }
        }
    }
    return 0;
}
