// serving_replicas_test.cpp: the fewest replicas for a request rate. A hand-worked case (a
// one-slot replica is an M/M/1 queue, its p99 wait ln(100ρ)/(μ − λ) by hand), the break rate's
// bracket, monotonicity in the rate and the SLO, routing (the pooled queue never needs more),
// the explicit "no", the cost per million tokens; and the analytic model against the validating
// simulation (tests/sim/serving_sim.hpp) for an affine replica built from replica_capacity's
// T(1), T(B), P and X: capacity, the time per token at 50 % and 80 % of capacity (each prefill
// mode), and the replica count for one rate at a loose and a tight TTFT SLO, under round-robin
// and JSQ (the simulation's JSQ and JSQ on waiting requests).
#include "../sim/serving_sim.hpp"

#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/serving.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

using namespace gpucalc;
namespace cat = gpucalc::catalog;
namespace sim = gpucalc_test::sim;

namespace {

/// A replica by hand: one batch slot, a 10 ms step whatever the batch, one output token, a
/// 100 ms prefill on separate GPUs; SLO 200 ms TTFT, 20 ms per token. Its load model: τ = 10 ms
/// at any rate below capacity 1 ÷ (D × T) = 100 requests/s, all of it sustainable.
replica_capacity_estimate hand_replica() {
    replica_capacity_estimate e{};
    e.mode = prefill_mode::disaggregated;
    e.verdict = replica_verdict::feasible;
    e.feasible = true;
    e.batch = 1;
    e.time_per_token_batch_one = make<seconds>(0.01);
    e.time_per_token = make<seconds>(0.01);
    e.prefill_time = make<seconds>(0.1);
    e.time_to_first_token = make<seconds>(0.1);
    e.capacity = make<requests_per_second>(100.0);
    e.sustainable_rate = make<requests_per_second>(100.0);
    replica_step_model& s = e.step;
    s.mode = prefill_mode::disaggregated;
    s.slo = {make<seconds>(0.2), make<seconds>(0.02)};
    s.batch = 1;
    s.prompt_tokens = 1;
    s.output_tokens = 1;
    s.step_fixed = make<seconds>(0.01);
    s.prefill_time = make<seconds>(0.1);
    return e;
}

/// The hand replica's p99 wait at x requests/s per replica: M/M/1 with μ = 100/s, C = ρ,
/// t = ln(ρ ÷ 0.01) ÷ (μ − x) (Gross et al. 2008 §2.3).
double hand_p99_wait(double x) { return std::log(x / 100.0 / 0.01) / (100.0 - x); }

const request_profile chat{1024, 256, 0, 0};
const serving_slo chat_slo{make<milliseconds>(500.0), make<milliseconds>(33.0)};

checked_cluster one(const gpu_spec& g) {
    cluster c{};
    c.node.gpu = g;
    c.node.gpus_per_node = 1;
    return check(c);
}

replica_capacity_estimate h100(prefill_mode mode, const serving_slo& slo = chat_slo) {
    return replica_capacity(check(cat::llama_3_8b), one(cat::h100_sxm), serving_setup{}, chat, slo,
                            mode);
}

}  // namespace

TEST_CASE("a one-slot replica is M/M/1: the replica count and the break rate by hand") {
    const replica_capacity_estimate e = hand_replica();
    // λ = 150/s: TPOT needs R >= 2. R = 2: 75/s each, p99 wait ln 75 ÷ 25 = 172.7 ms > 100 ms
    // (TTFT 200 ms − P 100 ms); R = 3: 50/s each, ln 50 ÷ 50 = 78.2 ms: three replicas.
    CHECK(hand_p99_wait(75.0) == approx(0.17270, 1e-4));
    CHECK(hand_p99_wait(50.0) == approx(0.07824, 1e-3));
    const replicas_estimate r =
        replicas_for_rate(e, request_profile{1, 1, 0, 0}, routing::round_robin,
                          make<requests_per_second>(150.0));
    REQUIRE(r.found);
    CHECK(r.verdict == replicas_verdict::found);
    CHECK(r.replicas == 3);
    CHECK(r.gpus == 3);
    CHECK(r.utilization == approx(0.5, 1e-12));
    CHECK(in<seconds>(r.slot_time) == approx(0.01, 1e-12));
    CHECK(r.service_scv == approx(1.0, 1e-12));
    CHECK(in<seconds>(r.time_to_first_token) == approx(0.1 + hand_p99_wait(50.0), 1e-9));
    // The break: 3 replicas hold while ln x ÷ (100 − x) <= 0.1 per replica; solved here by
    // bisection on the closed form: x = 59.2, λ = 177.6/s.
    double lo = 50.0, hi = 99.0;
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        (hand_p99_wait(mid) <= 0.1 ? lo : hi) = mid;
    }
    CHECK(in<requests_per_second>(r.break_rate) == approx(3.0 * lo, 1e-9));
    CHECK(r.headroom == approx(3.0 * lo / 150.0 - 1.0, 1e-9));
    // Disaggregated: the prefill pool keeps its own p99 wait within 100 ms at 150/s with 100 ms
    // prefills: at least 16 servers (15 Erlangs).
    CHECK(r.prefill_servers >= 16);
    CHECK(r.total_gpus == 3 + r.prefill_servers);
    const server_search pool = servers_for_wait(make<requests_per_second>(150.0),
                                                make<seconds>(0.1),
                                                wait_target{make<seconds>(0.1), 0.99, {}});
    CHECK(r.prefill_servers == pool.servers);
}

TEST_CASE("the break rate brackets the SLO: R meets just below it and fails just above") {
    for (prefill_mode mode : {prefill_mode::stall, prefill_mode::chunked,
                              prefill_mode::disaggregated}) {
        const replica_capacity_estimate e = h100(mode);
        REQUIRE(e.feasible);
        for (routing route : {routing::round_robin, routing::join_shortest_queue}) {
            for (double rate : {3.0, 40.0, 400.0}) {
                const replicas_estimate r =
                    replicas_for_rate(e, chat, route, make<requests_per_second>(rate));
                REQUIRE(r.found);
                CAPTURE(to_string(mode));
                CAPTURE(rate);
                const double b = in<requests_per_second>(r.break_rate);
                CHECK(b >= rate);
                CHECK(r.headroom >= 0.0);
                const replicas_estimate below = replicas_for_rate(
                    e, chat, route, make<requests_per_second>(b * (1.0 - 1e-9)));
                CHECK(below.replicas <= r.replicas);
                const replicas_estimate above = replicas_for_rate(
                    e, chat, route, make<requests_per_second>(b * (1.0 + 1e-6)));
                CHECK(above.replicas > r.replicas);
                // One fewer replica does not meet λ.
                if (r.replicas > 1) {
                    const replicas_estimate fewer = replicas_for_rate(
                        e, chat, route, make<requests_per_second>(rate), replicas_assumptions{
                            0.99, 1.0, r.replicas - 1, {}});
                    CHECK_FALSE(fewer.found);
                    CHECK(fewer.verdict == replicas_verdict::above_largest);
                }
            }
        }
    }
}

TEST_CASE("more traffic never needs fewer replicas; a looser SLO never needs more") {
    const serving_slo loose{make<milliseconds>(1000.0), make<milliseconds>(50.0)};
    for (prefill_mode mode : {prefill_mode::stall, prefill_mode::chunked,
                              prefill_mode::disaggregated}) {
        const replica_capacity_estimate tight = h100(mode);
        const replica_capacity_estimate wide = h100(mode, loose);
        REQUIRE(wide.feasible);
        std::int64_t last = 0;
        for (double rate = 0.5; rate < 3000.0; rate *= 1.37) {
            const replicas_estimate r =
                replicas_for_rate(tight, chat, routing::round_robin, make<requests_per_second>(rate));
            REQUIRE(r.found);
            CHECK(r.replicas >= last);
            last = r.replicas;
            CHECK(replicas_for_rate(wide, chat, routing::round_robin,
                                    make<requests_per_second>(rate))
                      .replicas <= r.replicas);
            // The pooled queue (JSQ as a central queue) never needs more than round-robin.
            CHECK(replicas_for_rate(tight, chat, routing::join_shortest_queue,
                                    make<requests_per_second>(rate))
                      .replicas <= r.replicas);
            CHECK(r.utilization < 1.0);
            CHECK(r.time_per_token <= chat_slo.time_per_output_token);
            CHECK(r.time_to_first_token <= chat_slo.time_to_first_token);
        }
    }
}

TEST_CASE("the explicit no: an infeasible replica, a cap too low") {
    // 5 ms per token is below Llama-3-8B's batch-1 step on an H100 (about 5.6 ms).
    const serving_slo impossible{make<milliseconds>(500.0), make<milliseconds>(5.0)};
    const replicas_estimate r = replicas_for_rate(
        check(cat::llama_3_8b), one(cat::h100_sxm), serving_setup{}, chat, impossible,
        prefill_mode::stall, routing::round_robin, make<requests_per_second>(10.0));
    CHECK_FALSE(r.found);
    CHECK(r.verdict == replicas_verdict::replica_infeasible);
    CHECK(r.replica.verdict == replica_verdict::tpot_below_batch_one);
    CHECK(r.replicas == 0);
    CHECK(in<usd_per_million_tokens>(replicas_cost_per_million_tokens(
              r, chat.output_mean, make<usd_per_gpu_hour>(3.0))) == 0.0);
    replicas_assumptions few{};
    few.largest_replicas = 2;
    const replicas_estimate capped = replicas_for_rate(
        h100(prefill_mode::stall), chat, routing::round_robin, make<requests_per_second>(1000.0),
        few);
    CHECK_FALSE(capped.found);
    CHECK(capped.verdict == replicas_verdict::above_largest);
    CHECK(to_string(replicas_verdict::above_largest) == "above_largest");
    CHECK(to_string(routing::join_shortest_queue) == "join_shortest_queue");
}

TEST_CASE("the cost per million output tokens is the GPUs' price over the tokens they make") {
    const replicas_estimate r = replicas_for_rate(h100(prefill_mode::stall), chat,
                                                  routing::round_robin,
                                                  make<requests_per_second>(40.0));
    REQUIRE(r.found);
    // R GPUs at $2.99/GPU·h make 40 × 256 tokens/s: $ per million = R × 2.99 ÷ 3600 ÷ 10,240
    // × 1e6.
    const double expected = static_cast<double>(r.total_gpus) * 2.99 / 3600.0 / (40.0 * 256.0) * 1e6;
    CHECK(in<usd_per_million_tokens>(replicas_cost_per_million_tokens(
              r, chat.output_mean, make<usd_per_gpu_hour>(2.99))) == approx(expected, 1e-12));
}

TEST_CASE("the validating overload equals replica_capacity then replicas_for_rate") {
    const replicas_estimate a = replicas_for_rate(
        cat::llama_3_8b, one(cat::h100_sxm).spec(), serving_setup{}, chat, chat_slo,
        prefill_mode::chunked, routing::join_shortest_queue, make<requests_per_second>(25.0));
    const replicas_estimate b = replicas_for_rate(h100(prefill_mode::chunked), chat,
                                                  routing::join_shortest_queue,
                                                  make<requests_per_second>(25.0));
    CHECK(a.replicas == b.replicas);
    CHECK(a.break_rate == b.break_rate);
    // p90s give the holding time's C² from the spread (exponential-like: p90 = m ln 10 is 1).
    request_profile spread = chat;
    spread.output_p90 = 590;  // 256 × ln 10 = 589.5
    const replicas_estimate c = replicas_for_rate(h100(prefill_mode::disaggregated), spread,
                                                  routing::round_robin,
                                                  make<requests_per_second>(25.0));
    CHECK(c.service_scv == approx(1.0, 0.01));
}

// --- the analytic model against the simulation ------------------------------------------------

namespace {

/// The simulation of replica_capacity's replica: the load model's affine step (step_fixed +
/// step_per_sequence × n, the chord from T(1) to T(B)), B slots, and a prefill of P for the
/// mean prompt (p1 = P ÷ N, p0 = 0); fixed prompts, geometric outputs. Chunked: the budget is
/// the model's C and a chunk of c tokens adds c × X ÷ C to its step (p1 = X ÷ C), the load
/// model's linear share of X.
sim::config sim_of(const replica_capacity_estimate& e, double rate, int replicas, double duration) {
    sim::config k;
    k.arrival_rate = rate;
    k.replicas = replicas;
    k.slots = static_cast<int>(e.batch);
    k.prompt = {sim::length_kind::fixed, static_cast<double>(e.step.prompt_tokens)};
    k.output = {sim::length_kind::geometric, static_cast<double>(e.step.output_tokens)};
    k.step_base = in<seconds>(e.step.step_fixed);
    k.step_per_request = in<seconds>(e.step.step_per_sequence);
    k.prefill_per_token = in<seconds>(e.prefill_time) / static_cast<double>(e.step.prompt_tokens);
    k.mode = e.mode == prefill_mode::stall     ? sim::prefill_mode::stall
             : e.mode == prefill_mode::chunked ? sim::prefill_mode::chunked
                                               : sim::prefill_mode::disaggregated;
    if (e.mode == prefill_mode::chunked) {
        k.chunk_budget = static_cast<double>(e.step.chunk_tokens);
        k.prefill_per_token =
            in<seconds>(e.step.chunk_step_extra) / static_cast<double>(e.step.chunk_tokens);
    }
    k.prefill_servers = 64;  // prefill never the bottleneck in disaggregated mode
    k.warmup = 20.0;
    k.duration = duration;
    k.drain_limit = -1.0;
    return k;
}

/// Llama-3-8B on an H100 at a tight 12 ms per token: a batch of tens, so that the simulation is
/// short at -O0; prompts of 1,024 and outputs of 128 tokens.
const request_profile short_chat{1024, 128, 0, 0};
/// The same lengths as the simulation draws them, told to replicas_for_rate: fixed prompts (p90
/// = mean, C² = 0) and geometric outputs of mean 128 (p90 = 1 + ⌊ln 0.1 ÷ ln(1 − 1/128)⌋ = 295,
/// C² ≈ 1).
const request_profile sim_lengths{1024, 128, 1024, 295};
replica_capacity_estimate sim_replica(prefill_mode mode, double ttft_ms = 500.0,
                                      std::int64_t chunk = 512) {
    replica_assumptions a{};
    a.chunk_tokens = chunk;
    return replica_capacity(check(cat::llama_3_8b), one(cat::h100_sxm), serving_setup{},
                            short_chat,
                            serving_slo{make<milliseconds>(ttft_ms), make<milliseconds>(12.0)},
                            mode, a);
}

double percent(double analytic, double simulated) {
    return 100.0 * (analytic - simulated) / simulated;
}

struct capacity_case {
    prefill_mode mode;
    std::int64_t chunk;
    double tpot_floor;  // the lowest accepted departure of τ, %
};

}  // namespace

TEST_CASE("analytic vs simulation: capacity and the time per token at 50 % and 80 %") {
    // Measured (g++ -O0 and -O2 alike; docs/serving.md, "Where the analytic model departs from
    // the simulation"), capacity / TPOT at 50 % / at 80 %: stall −1.3 / −6.0 / −9.3 %; chunked
    // with C = 512 (X = 0 on this replica: the chunk hides in the memory-bound step's idle
    // compute, and capacity is the chunk feed C ÷ (N T(m)), m = C D ÷ N = 64) −0.3 / −0.8 /
    // +0.0 %; chunked with C = 2048 (X = 27.5 ms) −0.2 / −4.1 / −5.9 %; disaggregated −0.8 / −2.1
    // / −1.5 %. Capacity within ±3 %; τ within [floor, +2 %], the floor about 3 points below the
    // worst measured departure. (Stall: the simulation's first token comes from the prefill, so
    // a request needs D − 1 steps, not D; prefills come in bursts where the load model spreads
    // them evenly.)
    const capacity_case cases[] = {{prefill_mode::stall, 512, -12.0},
                                   {prefill_mode::chunked, 512, -4.0},
                                   {prefill_mode::chunked, 2048, -9.0},
                                   {prefill_mode::disaggregated, 512, -4.0}};
    for (const capacity_case& c : cases) {
        const replica_capacity_estimate e = sim_replica(c.mode, 500.0, c.chunk);
        REQUIRE(e.feasible);
        CAPTURE(to_string(c.mode));
        CAPTURE(c.chunk);
        const double cap = in<requests_per_second>(e.capacity);
        sim::config over = sim_of(e, 2.0 * cap, 1, 300.0);
        over.output.kind = sim::length_kind::fixed;
        over.drain_limit = 0.0;
        const sim::result full = sim::simulate(over);
        MESSAGE(to_string(c.mode) << " C = " << c.chunk << ": B = " << e.batch << ", X = "
                                  << in<seconds>(e.step.chunk_step_extra) * 1e3 << " ms, capacity "
                                  << cap << "/s analytic, " << full.throughput_requests
                                  << "/s simulated (" << percent(cap, full.throughput_requests)
                                  << " %)");
        CHECK(std::abs(percent(cap, full.throughput_requests)) < 3.0);
        for (double share : {0.5, 0.8}) {
            const sim::result r = sim::simulate(sim_of(e, share * cap, 1, 300.0));
            const double tau = in<seconds>(replica_at_rate(e, make<requests_per_second>(share * cap))
                                               .time_per_token);
            MESSAGE("  at " << share * 100.0 << " %: TPOT " << tau * 1e3 << " ms analytic, "
                            << r.tpot.mean * 1e3 << " ms simulated (" << percent(tau, r.tpot.mean)
                            << " %)");
            CHECK(percent(tau, r.tpot.mean) < 2.0);
            CHECK(percent(tau, r.tpot.mean) > c.tpot_floor);
        }
    }
}

namespace {

/// The fewest of R = first, first + 1, ... (up to first + 8) whose simulated p99 TTFT and mean
/// TPOT meet each SLO, 0 if none; one run per R serves both SLOs.
struct simulated_counts {
    int loose = 0;
    int tight = 0;
};
simulated_counts simulated_replicas(const replica_capacity_estimate& e, double rate,
                                    sim::routing route, int first, double loose_ttft,
                                    double tight_ttft) {
    simulated_counts n{};
    for (int r = first; r <= first + 8 && (n.loose == 0 || n.tight == 0); ++r) {
        sim::config k = sim_of(e, rate, r, 40.0);
        k.route = route;
        const sim::result s = sim::simulate(k);
        const bool tpot = s.unfinished == 0 && s.tpot.mean <= 0.012;
        if (n.loose == 0 && tpot && s.ttft.p99 <= loose_ttft) n.loose = r;
        if (n.tight == 0 && tpot && s.ttft.p99 <= tight_ttft) n.tight = r;
    }
    return n;
}

/// The replica counts at 2.5 × the replica's sustainable rate for a loose (500 ms) and a tight
/// (100 ms) p99 TTFT, analytic (round-robin; JSQ as a central queue) against the simulation
/// (round-robin; JSQ; JSQ on waiting requests). The simulation's search starts at
/// ⌈λ ÷ (1.05 × capacity)⌉: fewer replicas are overloaded (the capacity test above).
void check_counts(prefill_mode mode, const int (&measured)[2][4]) {
    const double loose = 0.5, tight = 0.1;
    const replica_capacity_estimate e = sim_replica(mode, loose * 1e3);
    const replica_capacity_estimate et = sim_replica(mode, tight * 1e3);
    REQUIRE(e.feasible);
    REQUIRE(et.feasible);
    REQUIRE(e.batch == et.batch);  // the same replica: one simulation serves both SLOs
    const double rate = 2.5 * in<requests_per_second>(e.sustainable_rate);
    const double cap = in<requests_per_second>(e.capacity);
    const int first = static_cast<int>(std::ceil(rate / (1.05 * cap)));
    const auto analytic = [&](const replica_capacity_estimate& x, routing route) {
        const replicas_estimate r =
            replicas_for_rate(x, sim_lengths, route, make<requests_per_second>(rate));
        REQUIRE(r.found);
        return static_cast<int>(r.replicas);
    };
    const int rr[2] = {analytic(e, routing::round_robin), analytic(et, routing::round_robin)};
    const int jsq[2] = {analytic(e, routing::join_shortest_queue),
                        analytic(et, routing::join_shortest_queue)};
    const simulated_counts s_rr =
        simulated_replicas(e, rate, sim::routing::round_robin, first, loose, tight);
    const simulated_counts s_jsq =
        simulated_replicas(e, rate, sim::routing::join_shortest_queue, first, loose, tight);
    const simulated_counts s_jsw =
        simulated_replicas(e, rate, sim::routing::join_shortest_waiting, first, loose, tight);
    const int sim_rr[2] = {s_rr.loose, s_rr.tight};
    const int sim_jsq[2] = {s_jsq.loose, s_jsq.tight};
    const int sim_jsw[2] = {s_jsw.loose, s_jsw.tight};
    for (int i = 0; i < 2; ++i) {
        CAPTURE(i);
        MESSAGE(to_string(mode) << " at " << rate << "/s, TTFT " << (i == 0 ? loose : tight) * 1e3
                                << " ms: round-robin " << rr[i] << " analytic, " << sim_rr[i]
                                << " simulated; JSQ " << jsq[i] << " analytic, " << sim_jsq[i]
                                << " simulated JSQ, " << sim_jsw[i]
                                << " simulated JSQ on waiting");
        REQUIRE(sim_rr[i] > 0);
        REQUIRE(sim_jsq[i] > 0);
        REQUIRE(sim_jsw[i] > 0);
        // Round-robin: conservative, at most one above.
        CHECK(rr[i] >= sim_rr[i]);
        CHECK(rr[i] <= sim_rr[i] + 1);
        // JSQ as a central queue: never more than round-robin, within one of the simulated JSQ
        // and JSQ on waiting (either side: the central queue cannot see JSQ's herding).
        CHECK(jsq[i] <= rr[i]);
        CHECK(std::abs(jsq[i] - sim_jsq[i]) <= 1);
        CHECK(std::abs(jsq[i] - sim_jsw[i]) <= 1);
        // The measured figures (analytic round-robin, simulated round-robin, simulated JSQ,
        // simulated JSQ on waiting), pinned: the simulation is deterministic, so a change here
        // is a change in the model or the simulation, to be looked at and re-recorded.
        CHECK(rr[i] == measured[i][0]);
        CHECK(sim_rr[i] == measured[i][1]);
        CHECK(sim_jsq[i] == measured[i][2]);
        CHECK(sim_jsw[i] == measured[i][3]);
    }
}

}  // namespace

TEST_CASE("analytic vs simulation: replica counts, stall, round-robin and JSQ") {
    check_counts(prefill_mode::stall, {{3, 3, 3, 3}, {3, 3, 3, 3}});
}

TEST_CASE("analytic vs simulation: replica counts, chunked, round-robin and JSQ") {
    check_counts(prefill_mode::chunked, {{3, 3, 3, 3}, {4, 3, 4, 3}});
}

TEST_CASE("analytic vs simulation: replica counts, disaggregated, round-robin and JSQ") {
    check_counts(prefill_mode::disaggregated, {{3, 3, 3, 3}, {3, 3, 3, 3}});
}

// --- the batch cap, searched with the replica count ---------------------------------------------

namespace {

/// The fuzzer's case for a looser TTFT finding a worse answer: Llama-2-70B in nf4 on one B200 at
/// a compute efficiency of 0.15, chunked prefill with 18-token chunks, 2.8 requests/s. The report
/// does not state the profile or the TPOT; with 2,048-token prompts, 256-token answers and a
/// 20 ms TPOT the code before this fix answered, at p99 TTFT 1.75 / 2.6 / 3.5 / 7 s, 414 GPUs /
/// none / 326 / 41 (the report's figures, from its own profile: 413 / 404 / none / 169). Each
/// replica ran at replica_capacity's batch, the largest whose TTFT floor ⌈2048 ÷ 18⌉ = 114
/// steps fits under the SLO (18, 36, 47 and 47 sequences: 1.72 s of a 1.75 s SLO, 2.59 s of
/// 2.6 s), which leaves almost nothing for queueing.
struct b200_case {
    checked_model model = check(cat::llama_2_70b);
    checked_cluster node = one(cat::b200);
    serving_setup setup = [] {
        serving_setup s{};
        s.weights = formats::nf4;
        s.efficiency.compute = 0.15;
        return s;
    }();
    request_profile profile{2048, 256, 0, 0};
    replicas_assumptions assumptions = [] {
        replicas_assumptions a{};
        a.replica.chunk_tokens = 18;
        return a;
    }();
    serving_slo slo(double ttft_s, double tpot_ms = 20.0) const {
        return {make<seconds>(ttft_s), make<milliseconds>(tpot_ms)};
    }
    replicas_estimate at(const serving_slo& s, double rate = 2.8,
                         routing route = routing::round_robin) const {
        return replicas_for_rate(model, node, setup, profile, s, prefill_mode::chunked, route,
                                 make<requests_per_second>(rate), assumptions);
    }
    /// The fewest replicas over every batch cap from 1 to replica_capacity's batch, each from
    /// replica_capacity with that batch_limit (its batch is then the cap) and the estimate's
    /// replicas_for_rate: the exhaustive answer the search must reach where the caps it tries
    /// hold the best one. 0 when no cap has one.
    std::int64_t exhaustive(const serving_slo& s, double rate, std::int64_t& best_cap) const {
        const replica_capacity_estimate top = replica_capacity(
            model, node, setup, profile, s, prefill_mode::chunked, assumptions.replica);
        std::int64_t best = 0;
        for (std::int64_t b = 1; b <= top.batch; ++b) {
            replica_assumptions capped = assumptions.replica;
            capped.batch_limit = b;
            const replicas_estimate r = replicas_for_rate(
                replica_capacity(model, node, setup, profile, s, prefill_mode::chunked, capped),
                profile, routing::round_robin, make<requests_per_second>(rate), assumptions);
            if (r.found && (best == 0 || r.replicas < best)) {
                best = r.replicas;
                best_cap = b;
            }
        }
        return best;
    }
};

}  // namespace

TEST_CASE("a looser TTFT never needs more GPUs: the fuzzer's 70B case, against every batch cap") {
    const b200_case k{};
    std::int64_t last = 0;
    for (double ttft : {1.75, 2.6, 3.5, 7.0}) {
        CAPTURE(ttft);
        const replicas_estimate r = k.at(k.slo(ttft));
        REQUIRE(r.found);  // 2.6 s was "none found"
        // Every cap up to 64 is tried, and replica_capacity's batch here is at most 47: the
        // search must find the exhaustive minimum.
        std::int64_t cap = 0;
        CHECK(r.replicas == k.exhaustive(k.slo(ttft), 2.8, cap));
        CHECK(r.replica.batch <= r.largest_batch);
        CHECK(r.time_to_first_token <= k.slo(ttft).time_to_first_token);
        CHECK(r.time_per_token <= k.slo(ttft).time_per_output_token);
        if (last > 0) CHECK(r.total_gpus <= last);
        last = r.total_gpus;
        // The answer is replicas_for_rate on the estimate at the cap it chose.
        replica_assumptions chosen = k.assumptions.replica;
        chosen.batch_limit = r.replica.batch;
        const replicas_estimate again = replicas_for_rate(
            replica_capacity(k.model, k.node, k.setup, k.profile, k.slo(ttft),
                             prefill_mode::chunked, chosen),
            k.profile, routing::round_robin, make<requests_per_second>(2.8), k.assumptions);
        CHECK(again.replicas == r.replicas);
        CHECK(again.break_rate == r.break_rate);
    }
    // The 1.75 s answer's replicas also meet 3.5 s, so 3.5 s has an answer no larger.
    const replicas_estimate tight = k.at(k.slo(1.75));
    CHECK(k.at(k.slo(3.5)).total_gpus <= tight.total_gpus);
}

TEST_CASE("a looser TPOT never needs more GPUs, a higher rate never fewer") {
    const b200_case k{};
    for (routing route : {routing::round_robin, routing::join_shortest_queue}) {
        CAPTURE(to_string(route));
        std::int64_t last = 0;
        for (double tpot : {12.0, 15.0, 20.0, 30.0, 50.0, 100.0}) {
            CAPTURE(tpot);
            const replicas_estimate r = k.at(k.slo(2.6, tpot), 2.8, route);
            REQUIRE(r.found);
            if (last > 0) CHECK(r.total_gpus <= last);
            last = r.total_gpus;
        }
        last = 0;
        for (double rate = 0.05; rate < 100.0; rate *= 1.9) {
            CAPTURE(rate);
            const replicas_estimate r = k.at(k.slo(2.6), rate, route);
            REQUIRE(r.found);
            CHECK(r.total_gpus >= last);
            last = r.total_gpus;
        }
    }
    // Every mode on the chat replica: TTFT and TPOT loosened together, and a rising rate.
    for (prefill_mode mode : {prefill_mode::stall, prefill_mode::chunked,
                              prefill_mode::disaggregated}) {
        CAPTURE(to_string(mode));
        std::int64_t last = 0;
        for (double ttft_ms : {40.0, 60.0, 100.0, 200.0, 500.0, 2000.0}) {
            CAPTURE(ttft_ms);
            const replicas_estimate r = replicas_for_rate(
                check(cat::llama_3_8b), one(cat::h100_sxm), serving_setup{}, chat,
                serving_slo{make<milliseconds>(ttft_ms), make<milliseconds>(12.0 + ttft_ms / 50.0)},
                mode, routing::round_robin, make<requests_per_second>(40.0));
            if (!r.found) {
                CHECK(last == 0);  // a "no" only before the first "yes"
                continue;
            }
            if (last > 0) CHECK(r.total_gpus <= last);
            last = r.total_gpus;
        }
    }
}

TEST_CASE("the batch caps tried: every cap to 64, then six significant bits") {
    // By hand: 1000 = 0b1111101000 has ten bits; keeping six leaves 0b1111100000 = 992.
    CHECK(detail::batch_cap_at_or_below(1) == 1);
    CHECK(detail::batch_cap_at_or_below(63) == 63);
    CHECK(detail::batch_cap_at_or_below(64) == 64);
    CHECK(detail::batch_cap_at_or_below(65) == 64);
    CHECK(detail::batch_cap_at_or_below(66) == 66);
    CHECK(detail::batch_cap_at_or_below(127) == 126);
    CHECK(detail::batch_cap_at_or_below(131) == 128);
    CHECK(detail::batch_cap_at_or_below(1000) == 992);
    CHECK(detail::batch_cap_at_or_below(std::int64_t{1} << 40) == std::int64_t{1} << 40);
    // Within 1/32 of each other above 64.
    for (std::int64_t b = 65; b < 100000; b += 7) {
        const std::int64_t below = detail::batch_cap_at_or_below(b);
        CHECK(below <= b);
        CHECK(static_cast<double>(b - below) < static_cast<double>(b) / 32.0);
    }
}
