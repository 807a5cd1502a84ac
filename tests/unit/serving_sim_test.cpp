// serving_sim_test.cpp: the validating simulation (tests/sim/serving_sim.hpp) checks itself before
// anything is compared with it: it reproduces Erlang C where M/M/c is exact (c = 1, 8, 64 at
// rho = 0.5 and 0.8), Little's law, conservation of requests, determinism, the stalling-prefill
// capacity bound 1 / (P + D T(B)/B) of issue 16, and the observation that counting batch
// slots as servers overstates a stalling replica's capacity.
#include "../sim/serving_sim.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace sim = gpucalc_test::sim;

namespace {

// Erlang C for the test, independent of the library: the Erlang B recurrence
// B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)) (Jagerman, "Some properties of the Erlang loss
// function", Bell System Technical Journal 53(3), 1974), then C = B / (1 - rho (1 - B)) with
// rho = a / c, and the mean wait in queue C / (c mu - lambda) (Kleinrock, "Queueing Systems"
// vol. 1, 1975, section 3.5, M/M/m).
struct erlang {
    double p_wait;
    double mean_wait;
};
erlang erlang_c(int c, double lambda, double mu) {
    const double a = lambda / mu;
    double b = 1.0;
    for (int k = 1; k <= c; ++k) b = a * b / (static_cast<double>(k) + a * b);
    const double rho = a / static_cast<double>(c);
    const double pw = b / (1.0 - rho * (1.0 - b));
    return {pw, pw / (static_cast<double>(c) * mu - lambda)};
}

// M/M/c in the simulation: disaggregated mode, whose prefill pool is a FIFO queue in front of
// `c` servers. Prompts are exponential with mean 1 token and prefill costs 1 s per token (p0 = 0),
// so service times are exponential with mean 1 s; outputs are 1 token, so a request leaves when
// its prefill (which emits the first token) ends. The pool wait is the M/M/c wait in queue.
sim::config mmc(int c, double rho, std::uint64_t seed, double warmup, double duration) {
    sim::config k;
    k.mode = sim::prefill_mode::disaggregated;
    k.prefill_servers = c;
    k.prompt = {sim::length_kind::exponential, 1.0};
    k.output = {sim::length_kind::fixed, 1.0};
    k.prefill_per_token = 1.0;
    k.arrival_rate = rho * static_cast<double>(c);
    k.warmup = warmup;
    k.duration = duration;
    k.drain_limit = 0.0;  // stop at the window's end; unfinished requests are few and unbiased
    k.seed = seed;
    return k;
}

struct estimate {
    double mean = 0.0;
    double se = 0.0;  // standard error of the mean over independent replications
};
estimate over(const std::vector<double>& x) {
    const double n = static_cast<double>(x.size());
    double m = 0.0;
    for (const double v : x) m += v;
    m /= n;
    double s2 = 0.0;
    for (const double v : x) s2 += (v - m) * (v - m);
    s2 /= n - 1.0;
    return {m, std::sqrt(s2 / n)};
}

// Runs `reps` independent replications (seeds 1..reps) and compares the mean wait and P(wait)
// with Erlang C. The tolerance is 4 standard errors of the replication means: with 10
// replications, Student's t with 9 degrees of freedom puts 4 SE at a two-sided confidence of
// 99.7 %. The standard error must itself be small (below `max_rel_se` of the exact value), so
// that a wide interval cannot pass by itself.
void check_mmc(int c, double rho, double warmup, double duration, double max_rel_se) {
    constexpr int reps = 10;
    std::vector<double> waits, pws;
    for (int s = 1; s <= reps; ++s) {
        const sim::result r = sim::simulate(mmc(c, rho, static_cast<std::uint64_t>(s), warmup, duration));
        waits.push_back(r.wait.mean);
        pws.push_back(r.p_wait);
    }
    const erlang exact = erlang_c(c, rho * static_cast<double>(c), 1.0);
    const estimate w = over(waits);
    const estimate p = over(pws);
    MESSAGE("c = " << c << ", rho = " << rho << ": mean wait " << w.mean << " +- " << w.se
                << " (Erlang C " << exact.mean_wait << "), P(wait) " << p.mean << " +- " << p.se
                << " (Erlang C " << exact.p_wait << ")");
    CHECK(std::abs(w.mean - exact.mean_wait) <= 4.0 * w.se);
    CHECK(std::abs(p.mean - exact.p_wait) <= 4.0 * p.se);
    CHECK(w.se <= max_rel_se * exact.mean_wait);
    CHECK(p.se <= max_rel_se * exact.p_wait);
}

// An H100-like step time for Llama-3-8B in bf16, from a roofline (illustrative: 100 % of peak,
// attention FLOPs and kernel overheads left out).
// - Weights: 8.03e9 parameters x 2 bytes (Meta's Llama 3 model card) read once per decode step
//   from 3.35 TB/s of HBM3 (NVIDIA H100 SXM datasheet): t0 = 16.06e9 / 3.35e12 = 4.79 ms.
// - KV cache: 2 (K and V) x 32 layers x 8 KV heads x 128 dims x 2 bytes = 131,072 bytes per
//   token (the model's config.json: grouped-query attention); each running request reads its
//   context, taken at P + D/2 tokens, once per step: t1 = 131072 (P + D/2) / 3.35e12.
// - Prefill is compute-bound: 2 x 8.03e9 FLOP per token (Kaplan et al. 2020, section 2.1) at
//   989 TFLOP/s dense bf16 (datasheet): p1 = 16.24 us per token, p0 = 0.
struct h100_llama3_8b {
    double prompt;
    double output;
    double t0 = 2.0 * 8.03e9 / 3.35e12;
    double t1 = 0.0;
    double p1 = 2.0 * 8.03e9 / 989e12;
    h100_llama3_8b(double p, double d) : prompt{p}, output{d} {
        t1 = 131072.0 * (p + d / 2.0) / 3.35e12;
    }
    double step(int b) const { return t0 + t1 * static_cast<double>(b); }
    double prefill() const { return p1 * prompt; }
    sim::config config(int slots, double lambda) const {
        sim::config k;
        k.arrival_rate = lambda;
        k.slots = slots;
        k.prompt = {sim::length_kind::fixed, prompt};
        k.output = {sim::length_kind::fixed, output};
        k.step_base = t0;
        k.step_per_request = t1;
        k.prefill_per_token = p1;
        // Fixed lengths synchronise a full replica: its B requests finish together, so completions
        // come in bursts of B and a window must hold many bursts (600 s: under 1 % error).
        k.warmup = 10.0;
        k.duration = 600.0;
        k.drain_limit = 0.0;
        return k;
    }
};

}  // namespace

TEST_CASE("serving sim: SplitMix64 reproduces the reference generator's first outputs") {
    // Seed 1234567: the first three outputs of Vigna's reference splitmix64.c (prng.di.unimi.it).
    // Pinning them pins every simulated number on every platform.
    sim::splitmix64 r{1234567};
    CHECK(r.next() == 6457827717110365317ULL);
    CHECK(r.next() == 3203168211198807973ULL);
    CHECK(r.next() == 9817491932198370423ULL);
    // Uniforms stay in [0, 1) and exponentials have the asked mean (1e5 draws: the standard
    // error of the mean is 1/sqrt(1e5) = 0.32 %, so 1.5 % is 4.7 SE).
    sim::splitmix64 g{7};
    double sum = 0.0, geo = 0.0;
    for (int i = 0; i < 100000; ++i) {
        const double u = g.uniform();
        CHECK_UNARY(u >= 0.0);
        CHECK_UNARY(u < 1.0);
        sum += g.exponential(2.0);
        geo += g.geometric(4.0);
    }
    CHECK(std::abs(sum / 1e5 - 2.0) < 0.03);
    // Geometric with mean 4: standard deviation sqrt(1 - q)/q = 3.46, so the SE is 0.011.
    CHECK(std::abs(geo / 1e5 - 4.0) < 0.05);
}

// Run lengths: 10 independent replications per case, 1e5 (c = 1), 2e5 (c = 8) and 2.5e5
// (c = 64) arrivals in their windows in all. Warm-up is 50 mean service times (200 for M/M/1 at
// rho = 0.8, whose relaxation time 1/(mu (1 - sqrt(rho))^2) is 90 service times). c = 64 runs at
// rho = 0.8 and 0.9, not 0.5: at 0.5, Erlang C's P(wait) is 4e-7 and nothing would be tested.
// The standard errors reached are printed on failure; the bounds below are those they meet.
TEST_CASE("serving sim: M/M/1 wait and P(wait) match Erlang C (c = 1)") {
    check_mmc(1, 0.5, 50.0, 20000.0, 0.03);
    check_mmc(1, 0.8, 200.0, 12500.0, 0.06);
}

TEST_CASE("serving sim: M/M/8 wait and P(wait) match Erlang C (c = 8)") {
    check_mmc(8, 0.5, 50.0, 5000.0, 0.06);
    check_mmc(8, 0.8, 50.0, 3125.0, 0.05);
}

TEST_CASE("serving sim: M/M/64 wait and P(wait) match Erlang C (c = 64, rho = 0.8)") {
    check_mmc(64, 0.8, 50.0, 490.0, 0.12);
}

TEST_CASE("serving sim: M/M/64 wait and P(wait) match Erlang C (c = 64, rho = 0.9)") {
    check_mmc(64, 0.9, 50.0, 434.0, 0.08);
}

TEST_CASE("serving sim: a stalling replica's M/M/1 through the replica's own path") {
    // One replica in stall mode with 1-token outputs is one server whose service is the prefill:
    // exponential prompts at 1 s per token make it M/M/1, through the replica's code rather than
    // the prefill pool's.
    std::vector<double> waits;
    for (std::uint64_t s = 1; s <= 10; ++s) {
        sim::config k = mmc(1, 0.5, s, 50.0, 20000.0);
        k.mode = sim::prefill_mode::stall;
        k.slots = 4;
        waits.push_back(sim::simulate(k).wait.mean);
    }
    const estimate w = over(waits);
    CHECK(std::abs(w.mean - erlang_c(1, 0.5, 1.0).mean_wait) <= 4.0 * w.se);  // exact: 1 s
}

TEST_CASE("serving sim: Little's law, conservation and utilization in every mode and routing") {
    for (const auto mode : {sim::prefill_mode::stall, sim::prefill_mode::chunked,
                            sim::prefill_mode::disaggregated}) {
        for (const auto route : {sim::routing::round_robin, sim::routing::join_shortest_queue,
                                 sim::routing::join_shortest_waiting}) {
            sim::config k;
            k.mode = mode;
            k.route = route;
            k.replicas = 4;
            k.slots = 8;
            k.prefill_servers = 2;
            k.prompt = {sim::length_kind::geometric, 200.0};
            k.output = {sim::length_kind::geometric, 20.0};
            k.step_base = 0.01;
            k.step_per_request = 0.001;
            k.prefill_base = 0.002;
            k.prefill_per_token = 0.0001;
            k.chunk_budget = 256.0;
            k.arrival_rate = 30.0;
            k.warmup = 20.0;
            k.duration = 150.0;
            k.seed = 3;
            const sim::result r = sim::simulate(k);
            INFO("mode " << static_cast<int>(mode) << ", routing " << static_cast<int>(route));
            // Conservation: the requests counted in queues, slots and servers at the end are
            // exactly those that arrived and did not complete.
            CHECK(r.arrived == r.completed + r.in_system);
            CHECK(r.unfinished == 0);
            // Little's law L = lambda W, for the whole system and for the queue before service
            // (Little, "A proof for the queuing formula L = lambda W", Operations
            // Research 9(3), 1961). Window edges make it approximate: 3 %.
            CHECK(r.mean_in_system == doctest::Approx(r.arrival_rate * r.sojourn.mean).epsilon(0.03));
            CHECK(r.mean_waiting == doctest::Approx(r.arrival_rate * r.wait.mean).epsilon(0.03));
            // Stable load: what comes in goes out, in requests and in tokens (mean 20 each).
            CHECK(r.throughput_requests == doctest::Approx(r.arrival_rate).epsilon(0.03));
            CHECK(r.throughput_tokens == doctest::Approx(20.0 * r.arrival_rate).epsilon(0.05));
            CHECK(r.utilization > 0.0);
            CHECK(r.utilization <= 1.0);
            CHECK(r.ttft.p50 <= r.ttft.p90);
            CHECK(r.ttft.p90 <= r.ttft.p99);
            CHECK(r.ttft.p99 <= r.ttft.max);
            // The time per output token is never below the fastest step, T(1).
            CHECK(r.tpot.p50 >= 0.011);
        }
    }
}

TEST_CASE("serving sim: the same seed gives identical results, another seed different ones") {
    sim::config k;
    k.mode = sim::prefill_mode::chunked;
    k.route = sim::routing::join_shortest_waiting;
    k.replicas = 3;
    k.slots = 16;
    k.prompt = {sim::length_kind::geometric, 300.0};
    k.output = {sim::length_kind::geometric, 50.0};
    k.step_base = 0.005;
    k.step_per_request = 0.0002;
    k.prefill_per_token = 0.00002;
    k.arrival_rate = 20.0;
    k.warmup = 5.0;
    k.duration = 60.0;
    k.seed = 42;
    const sim::result a = sim::simulate(k);
    const sim::result b = sim::simulate(k);
    CHECK(a.arrived == b.arrived);
    CHECK(a.completed == b.completed);
    CHECK(a.ttft.mean == b.ttft.mean);
    CHECK(a.ttft.p99 == b.ttft.p99);
    CHECK(a.tpot.mean == b.tpot.mean);
    CHECK(a.mean_in_system == b.mean_in_system);
    CHECK(a.end_time == b.end_time);
    // Pinned: GCC and Clang, libstdc++, -O0 to -O3, give these counts and this mean to the bit
    // (printed with %.17g). Fused multiply-add contraction (-march with FMA under GCC's default
    // -ffp-contract=fast) moves the mean's last digits, hence the 1e-12 tolerance on it.
    CHECK(a.arrived == 1274U);
    CHECK(a.completed == 1269U);
    CHECK(a.measured == 1170U);
    CHECK(a.ttft.mean == doctest::Approx(0.014401654139108195).epsilon(1e-12));
    k.seed = 43;
    const sim::result c = sim::simulate(k);
    CHECK(a.ttft.mean != c.ttft.mean);
}

TEST_CASE("serving sim: stalling prefill caps a replica at 1 / (P + D T(B)/B)") {
    // Overloaded at twice the bound, the replica runs full: its completed throughput is the
    // bound of issue 16 (slightly above, since the first token comes from the prefill and only
    // D - 1 steps follow: 1 / (P + (D - 1) T(B)/B)), and it is far below the capacity of the
    // naive model that holds each of B slots as a server for P + D T(B).
    for (const double prompt : {512.0, 2048.0}) {
        const h100_llama3_8b m{prompt, 256.0};
        const int slots = 64;
        const double d = 256.0;
        const double bound = 1.0 / (m.prefill() + d * m.step(slots) / slots);
        const double naive = slots / (m.prefill() + d * m.step(slots));
        const sim::result r = sim::simulate(m.config(slots, 2.0 * bound));
        MESSAGE("P = " << prompt << ": simulated " << r.throughput_requests << " req/s, bound "
                    << bound << ", naive " << naive << ", mean batch "
                    << r.mean_occupied_slots);
        CHECK(r.throughput_requests <= bound * 1.02);
        CHECK(r.throughput_requests >= bound * 0.97);
        // The observation, qualitatively: the naive model overstates capacity.
        CHECK(r.throughput_requests < 0.8 * naive);
        CHECK(r.utilization == doctest::Approx(1.0).epsilon(0.001));
    }
}

TEST_CASE("serving sim: with prefill on separate capacity, slots are servers") {
    // Disaggregated, with prefill capacity to spare: a full replica completes B requests every
    // D - 1 steps of T(B), the naive "slots as servers" capacity B / ((D - 1) T(B)).
    const h100_llama3_8b m{512.0, 256.0};
    const int slots = 64;
    const double capacity = slots / (255.0 * m.step(slots));
    sim::config k = m.config(slots, 2.0 * capacity);
    k.duration = 200.0;  // bursts of B completions: at most 64 / (200 x 39) = 0.8 % error
    k.mode = sim::prefill_mode::disaggregated;
    k.prefill_servers = 2;
    const sim::result r = sim::simulate(k);
    CHECK(r.throughput_requests == doctest::Approx(capacity).epsilon(0.03));
    CHECK(r.mean_occupied_slots == doctest::Approx(slots).epsilon(0.01));
    // Stalling prefill on the same replica serves less.
    k.mode = sim::prefill_mode::stall;
    CHECK(sim::simulate(k).throughput_requests < 0.8 * r.throughput_requests);
}

TEST_CASE("serving sim: the time per token rises with load when prefill stalls decode") {
    // Issue 16's second effect: decode steps wait behind prefills, so TPOT exceeds T(b) and
    // grows with the arrival rate; with disaggregated prefill it stays at the step time.
    const h100_llama3_8b m{2048.0, 256.0};
    const int slots = 64;
    const double bound = 1.0 / (m.prefill() + 256.0 * m.step(slots) / slots);
    sim::config low = m.config(slots, 0.3 * bound);
    sim::config high = m.config(slots, 0.8 * bound);
    for (sim::config* k : {&low, &high}) {
        k->output = {sim::length_kind::geometric, 256.0};
        k->drain_limit = -1.0;
    }
    const sim::result a = sim::simulate(low);
    const sim::result b = sim::simulate(high);
    CHECK(b.tpot.mean > 1.2 * a.tpot.mean);
    high.mode = sim::prefill_mode::disaggregated;
    high.prefill_servers = 1;
    const sim::result c = sim::simulate(high);
    CHECK(c.tpot.mean < b.tpot.mean);
    CHECK(c.tpot.mean <= m.step(slots) * 1.01);
}

TEST_CASE("serving sim: JSQ on all requests has a longer TTFT tail than round-robin or JSQ on waiting") {
    // Issue 16's explanation: JSQ on all requests in a replica sends arrivals to the replica
    // whose requests just finished together, so their prefills run back to back. The test
    // checks the effect on the TTFT tail, not the mechanism.
    // Four stalling replicas at 80 % of the bound, 2048-token prompts, geometric outputs.
    const h100_llama3_8b m{2048.0, 256.0};
    const int slots = 64;
    const double bound = 1.0 / (m.prefill() + 256.0 * m.step(slots) / slots);
    sim::config k = m.config(slots, 4.0 * 0.8 * bound);
    k.replicas = 4;
    k.output = {sim::length_kind::geometric, 256.0};
    k.warmup = 30.0;
    k.duration = 300.0;
    k.drain_limit = -1.0;
    k.seed = 5;
    double p99[3] = {};
    for (const auto route : {sim::routing::round_robin, sim::routing::join_shortest_queue,
                             sim::routing::join_shortest_waiting}) {
        k.route = route;
        p99[static_cast<int>(route)] = sim::simulate(k).ttft.p99;
    }
    MESSAGE("TTFT p99: round-robin " << p99[0] << " s, JSQ " << p99[1]
                                     << " s, JSQ on waiting " << p99[2] << " s");
    CHECK(p99[1] > 1.2 * p99[2]);
    CHECK(p99[1] > 1.2 * p99[0]);
}

TEST_CASE("serving sim: the configuration shown in docs/serving.md runs") {
    sim::config k;
    k.arrival_rate = 40.0;                                   // λ, requests/s (Poisson)
    k.replicas = 4;  k.slots = 64;                           // R replicas of B batch slots
    k.prompt = {sim::length_kind::fixed, 2048.0};            // P tokens
    k.output = {sim::length_kind::geometric, 256.0};         // D tokens, mean 256
    k.step_base = 4.79e-3;  k.step_per_request = 85e-6;      // T(b) = t0 + t1·b, s
    k.prefill_base = 0.0;   k.prefill_per_token = 16.2e-6;   // prefill = p0 + p1·P, s
    k.mode = sim::prefill_mode::stall;                       // or chunked, disaggregated
    k.route = sim::routing::join_shortest_waiting;           // or round_robin, join_shortest_queue
    k.warmup = 60.0;  k.duration = 200.0;  k.seed = 1;
    const sim::result r = sim::simulate(k);                  // r.ttft.p99, r.tpot.mean, ...
    // 40 req/s is 74 % of the four replicas' stall bound (4 x 13.5 req/s): stable, so every
    // measured request finishes and the first token comes after at least the 33 ms prefill.
    CHECK(r.unfinished == 0);
    CHECK(r.ttft.p50 >= 2048.0 * 16.2e-6);
    CHECK(r.throughput_requests == doctest::Approx(40.0).epsilon(0.03));
}

TEST_CASE("serving sim: bad configurations are rejected") {
    sim::config k;
    k.arrival_rate = -1.0;
    CHECK_THROWS_AS(sim::simulate(k), std::invalid_argument);
    k = sim::config{};
    k.slots = 0;
    CHECK_THROWS_AS(sim::simulate(k), std::invalid_argument);
    k = sim::config{};
    k.output = {sim::length_kind::exponential, 10.0};
    CHECK_THROWS_AS(sim::simulate(k), std::invalid_argument);
}
