// serving_demand_test.cpp: cold starts, warm replicas for a ramp, a demand curve's three ways of
// running (always on, autoscaled, serverless), its reserved base load, and batch inference on
// spot. Each composition is worked by hand from the replica counts replicas_for_rate gives
// (itself tested in serving_replicas_test.cpp), on a replica simple enough to follow: one batch
// slot, a 10 ms step, one output token, a 100 ms prefill on separate GPUs.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/serving.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {

/// One batch slot, a 10 ms step whatever the batch, one output token, a 100 ms prefill on
/// separate GPUs; SLO 200 ms TTFT, 20 ms per token; 2 GPUs a replica. Capacity 100 requests/s.
replica_capacity_estimate hand_replica() {
    replica_capacity_estimate e{};
    e.mode = prefill_mode::disaggregated;
    e.verdict = replica_verdict::feasible;
    e.feasible = true;
    e.gpus = 2;
    e.batch = 1;
    e.time_per_token_batch_one = 10.0_ms;
    e.time_per_token = 10.0_ms;
    e.prefill_time = 100.0_ms;
    e.time_to_first_token = 100.0_ms;
    e.capacity = make<requests_per_second>(100.0);
    e.sustainable_rate = make<requests_per_second>(100.0);
    replica_step_model& s = e.step;
    s.mode = prefill_mode::disaggregated;
    s.slo = {200.0_ms, 20.0_ms};
    s.batch = 1;
    s.prompt_tokens = 1;
    s.output_tokens = 1;
    s.step_fixed = 10.0_ms;
    s.prefill_time = 100.0_ms;
    return e;
}
const request_profile one_token{1, 1, 0, 0};

/// The servers replicas_for_rate holds at `rate`: decode replicas plus prefill servers.
std::int64_t replicas_at(double rate) {
    const replicas_estimate e = replicas_for_rate(hand_replica(), one_token, routing::round_robin,
                                                  make<requests_per_second>(rate));
    return e.replicas + e.prefill_servers;
}

demand_prices prices_of(double instance, double serverless) {
    demand_prices p{};
    p.instance = make<usd_per_gpu_hour>(instance);
    p.serverless = make<usd_per_gpu_hour>(serverless);
    return p;
}

}  // namespace

TEST_CASE("cold start: the weights over the load path, then the engine's start") {
    // Llama-3-8B in bf16: 8,030,261,248 parameters × 2 B = 16.06 GB (Meta's config; the
    // parameter count is the catalog's, checked in model tests).
    const checked_model m = check(cat::llama_3_8b);
    const double weight_bytes = 8030261248.0 * 2.0;
    const cold_start_estimate nvme = cold_start(m, serving_setup{}, cat::load_paths::nvme_pcie_gen4);
    CHECK(in<seconds>(nvme.load) == approx(weight_bytes / 6.5e9));  // 2.47 s
    CHECK(nvme.start == default_engine_start);
    CHECK(in<seconds>(nvme.total) == approx(weight_bytes / 6.5e9 + 30.0));
    // Two GPUs (TP = 2): over host memory each loads its half on its own PCIe link; over one
    // shared drive the drive carries both halves.
    serving_setup tp2{};
    tp2.parallel.tensor = 2;
    const cold_start_estimate host = cold_start(m, tp2, cat::load_paths::host_memory_pcie_gen5, 0.0_s);
    const data_size half = inference_memory_per_gpu(m, tp2).weights;
    CHECK(in<seconds>(host.total) == approx(in<bytes>(half) / 50e9));
    const cold_start_estimate shared = cold_start(half, 2, cat::load_paths::nvme_pcie_gen4, 0.0_s);
    CHECK(in<seconds>(shared.load) == approx(2.0 * in<bytes>(half) / 6.5e9));
    // A 70B model in bf16 (141 GB) over a 100 Gb/s NIC takes over 11 s before the engine starts.
    const cold_start_estimate big = cold_start(check(cat::llama_3_70b), serving_setup{},
                                               cat::load_paths::nic_100g);
    CHECK(in<seconds>(big.load) > 11.0);
    CHECK(in<seconds>(big.load) < 11.5);
}

TEST_CASE("warm replicas for a ramp: R(λ + slope × lead time) − R(λ)") {
    const replica_capacity_estimate e = hand_replica();
    // 150/s rising by 60/s a minute; a 45 s cold start and the 15 s scale-up delay: a minute's
    // lead, so what runs at 150/s must meet 210/s.
    const ramp_estimate r = warm_replicas_for_ramp(e, one_token, routing::round_robin,
                                                   make<requests_per_second>(150.0),
                                                   demand_ramp{make<requests_per_second>(60.0),
                                                               1.0_min},
                                                   45.0_s);
    REQUIRE(r.found);
    CHECK(in<seconds>(r.lead_time) == approx(60.0));
    CHECK(in<requests_per_second>(r.rate_ahead) == approx(210.0));
    CHECK(r.replicas == replicas_at(150.0));
    CHECK(r.replicas_ahead == replicas_at(210.0));
    CHECK(r.warm_replicas == r.replicas_ahead - r.replicas);
    CHECK(r.warm_replicas > 0);
    // A flat demand needs no warm replica; a faster start needs no more than a slower one.
    const ramp_estimate flat = warm_replicas_for_ramp(e, one_token, routing::round_robin,
                                                      make<requests_per_second>(150.0),
                                                      demand_ramp{}, 45.0_s);
    CHECK(flat.warm_replicas == 0);
    const ramp_estimate quick = warm_replicas_for_ramp(
        e, one_token, routing::round_robin, make<requests_per_second>(150.0),
        demand_ramp{make<requests_per_second>(60.0), 1.0_min}, 5.0_s);
    CHECK(quick.warm_replicas <= r.warm_replicas);
    // From a deployment scaled to zero: R(0) = 0, so every replica the ramp needs is warm.
    const ramp_estimate cold = warm_replicas_for_ramp(e, one_token, routing::round_robin,
                                                      make<requests_per_second>(0.0),
                                                      demand_ramp{make<requests_per_second>(60.0),
                                                                  1.0_min},
                                                      45.0_s);
    REQUIRE(cold.found);
    CHECK(cold.replicas == 0);
    CHECK(cold.warm_replicas == replicas_at(60.0));
    // An infeasible replica is an answer, not an exception.
    replica_capacity_estimate none = e;
    none.feasible = false;
    CHECK_FALSE(warm_replicas_for_ramp(none, one_token, routing::round_robin,
                                       make<requests_per_second>(1.0), demand_ramp{}, 1.0_s)
                    .found);
}

TEST_CASE("a demand curve three ways, by hand from the replica counts") {
    const replica_capacity_estimate e = hand_replica();
    // Two idle hours, an hour at 50/s, an hour at 150/s; repeating. The hand replica's prefill
    // is disaggregated: each step holds decode replicas and prefill servers (2 GPUs each).
    const demand_period curve[] = {{make<requests_per_second>(0.0), 2.0_h},
                                   {make<requests_per_second>(50.0), 1.0_h},
                                   {make<requests_per_second>(150.0), 1.0_h}};
    const std::int64_t r50 = replicas_at(50.0);
    const std::int64_t r150 = replicas_at(150.0);
    REQUIRE(r50 >= 2);
    REQUIRE(r150 > r50);
    const replicas_estimate at150 = replicas_for_rate(e, one_token, routing::round_robin,
                                                      make<requests_per_second>(150.0));
    CHECK(at150.prefill_servers > 0);
    CHECK(r150 * 2 == at150.total_gpus);  // the plan bills what replicas_for_rate holds
    const duration start = 60.0_s;
    std::array<period_replicas, 3> per{};
    const demand_plan p = plan_demand(e, one_token, routing::round_robin, curve, start,
                                      prices_of(3.0, 4.0), demand_assumptions{}, per);
    REQUIRE(p.found);
    CHECK(p.periods == 3);
    CHECK(p.has_tokens);
    CHECK(in<hours>(p.cycle) == approx(4.0));
    CHECK(in<sequences>(p.requests) == approx(50.0 * 3600.0 + 150.0 * 3600.0));
    CHECK(in<tokens>(p.output_tokens) == approx(200.0 * 3600.0));
    CHECK(per[0].replicas == 0);
    CHECK(per[0].autoscaled == 2);  // min_replicas: one replica and one prefill server
    CHECK(per[1].replicas == r50);
    CHECK(per[2].replicas == r150);
    const double g = 2.0;  // GPUs a server
    // Always on: the peak's servers for the whole 4 h at $3/GPU·h; no cold start.
    CHECK(p.always_on.peak_replicas == r150);
    CHECK(p.always_on.cold_starts == 0);
    CHECK(in<usd>(p.always_on.cost) == approx(static_cast<double>(r150) * g * 4.0 * 3.0));
    // Autoscaled: 2, r50, r150 servers; the cycle repeats, so 150/s is followed by the idle
    // hours (down to 2: no start), then 2 → r50 → r150: r150 − 2 starts, each a minute ahead.
    CHECK(p.autoscaled.cold_starts == r150 - 2);
    const double auto_hours = 2.0 * 2.0 + static_cast<double>(r50) + static_cast<double>(r150) +
                              static_cast<double>(r150 - 2) * (60.0 / 3600.0);
    CHECK(in<gpu_hours>(p.autoscaled.held) == approx(auto_hours * g));
    CHECK(in<usd>(p.autoscaled.cost) == approx(auto_hours * g * 3.0));
    CHECK(p.autoscaled.meets_slo);
    // Serverless: 0, r50, r150 servers, r150 starts a cycle, at $4/GPU·h by the second; each
    // start is inside its step's time (reactive), so nothing is billed on top; a 60 s cold start
    // with the 100 ms TTFT floor breaks the 200 ms TTFT SLO.
    CHECK(p.serverless.cold_starts == r150);
    const double sless_hours = static_cast<double>(r50) + static_cast<double>(r150);
    CHECK(in<usd>(p.serverless.cost) == approx(sless_hours * g * 4.0));
    CHECK_FALSE(p.serverless.meets_slo);
    CHECK(in<usd_per_million_tokens>(p.serverless.per_million_tokens) ==
          approx(sless_hours * g * 4.0 / (200.0 * 3600.0) * 1e6));
    // A 50 ms start fits beside the 100 ms floor in the 200 ms SLO.
    CHECK(plan_demand(e, one_token, routing::round_robin, curve, 50.0_ms, prices_of(3.0, 4.0))
              .serverless.meets_slo);
    // Not repeating: the first step starts from nothing; always-on starts its peak once.
    demand_assumptions once{};
    once.curve_repeats = false;
    const demand_plan q = plan_demand(e, one_token, routing::round_robin, curve, start,
                                      prices_of(3.0, 4.0), once);
    CHECK(q.autoscaled.cold_starts == r150);
    CHECK(q.serverless.cold_starts == r150);
    CHECK(q.always_on.cold_starts == r150);
    CHECK(in<usd>(q.always_on.cost) ==
          approx(static_cast<double>(r150) * g * (4.0 + 60.0 / 3600.0) * 3.0));
    // Scaling to zero in the autoscaled deployment too: the idle hours cost nothing.
    demand_assumptions to_zero{};
    to_zero.min_replicas = 0;
    const demand_plan z = plan_demand(e, one_token, routing::round_robin, curve, start,
                                      prices_of(3.0, 4.0), to_zero);
    CHECK(in<gpu_hours>(z.autoscaled.held) ==
          approx(g * (static_cast<double>(r50 + r150) + static_cast<double>(r150) / 60.0)));
    // std::vector and std::array are curves too.
    const std::vector<demand_period> v(std::begin(curve), std::end(curve));
    CHECK(plan_demand(e, one_token, routing::round_robin, v, start, prices_of(3.0, 4.0))
              .autoscaled.cost == p.autoscaled.cost);
}

TEST_CASE("demand: one step, an idle curve, a flat curve served by serverless") {
    const replica_capacity_estimate e = hand_replica();
    // One step that repeats: nothing ever starts; not repeating: its servers start once.
    const demand_period one[] = {{make<requests_per_second>(50.0), 1.0_h}};
    const demand_plan steady = plan_demand(e, one_token, routing::round_robin, one, 60.0_s,
                                           prices_of(3.0, 4.0));
    CHECK(steady.autoscaled.cold_starts == 0);
    CHECK(steady.serverless.cold_starts == 0);
    CHECK(steady.serverless.meets_slo);  // no start, so no request waits for one
    CHECK(steady.autoscaled.held == steady.always_on.held);
    demand_assumptions once{};
    once.curve_repeats = false;
    CHECK(plan_demand(e, one_token, routing::round_robin, one, 60.0_s, prices_of(3.0, 4.0), once)
              .serverless.cold_starts == replicas_at(50.0));
    // An idle curve: no tokens, so no price per token (has_tokens says so); the autoscaled
    // minimum still bills its hours, serverless nothing.
    const demand_period idle[] = {{make<requests_per_second>(0.0), 24.0_h}};
    const demand_plan quiet = plan_demand(e, one_token, routing::round_robin, idle, 60.0_s,
                                          prices_of(3.0, 4.0));
    REQUIRE(quiet.found);
    CHECK_FALSE(quiet.has_tokens);
    CHECK(in<usd>(quiet.autoscaled.cost) == approx(2.0 * 2.0 * 24.0 * 3.0));
    CHECK(quiet.autoscaled.per_million_tokens == token_price{});
    CHECK(quiet.serverless.cost == money{});
}

TEST_CASE("demand: the explicit no (spot for latency serving, too many replicas, infeasible)") {
    const replica_capacity_estimate e = hand_replica();
    const demand_period curve[] = {{make<requests_per_second>(20.0), 1.0_h},
                                   {make<requests_per_second>(500.0), 1.0_h}};
    demand_prices spot = prices_of(1.0, 1.0);
    spot.market = capacity_market::spot;
    const demand_plan s = plan_demand(e, one_token, routing::round_robin, curve, 10.0_s, spot);
    CHECK_FALSE(s.found);
    CHECK(s.verdict == demand_verdict::spot_unsuitable);
    CHECK(s.autoscaled.cost == money{});
    demand_assumptions capped{};
    capped.replicas.largest_replicas = 2;
    const demand_plan c =
        plan_demand(e, one_token, routing::round_robin, curve, 10.0_s, prices_of(1.0, 1.0), capped);
    CHECK_FALSE(c.found);
    CHECK(c.verdict == demand_verdict::above_largest);
    CHECK(c.failed_period == 1);
    replica_capacity_estimate none = e;
    none.feasible = false;
    const demand_plan n = plan_demand(none, one_token, routing::round_robin, curve, 10.0_s,
                                      prices_of(1.0, 1.0));
    CHECK(n.verdict == demand_verdict::replica_infeasible);
    CHECK(n.failed_period == 0);
}

TEST_CASE("the reserved base load of a planned day: cost's base-load split by hand") {
    // 16 h at 1 replica, 8 h at 3 (2 GPUs each); on demand $3/GPU·h, reserved at 40 % off ($1.80
    // for every hour of the day). Reserving k GPUs: k × 24 × 1.8 + the GPU-hours above k × 3.
    //   k = 0: (32 + 48) × 3 = $240;  k = 2: 86.4 + 4 × 8 × 3 = $182.4;  k = 6: 259.2.
    std::vector<period_replicas> day(24);
    for (std::size_t h = 0; h < 24; ++h) {
        day[h].time = 1.0_h;
        day[h].autoscaled = h >= 9 && h < 17 ? 3 : 1;
    }
    reservation one_year{};
    one_year.on_demand = make<usd_per_gpu_hour>(3.0);
    one_year.discount = 0.4;
    const hybrid_capacity h = reserved_base_load(day, 2, reserved_capacity(one_year),
                                                 make<usd_per_gpu_hour>(3.0));
    CHECK(h.owned == 2.0_gpu);
    CHECK(in<usd>(h.total) == approx(2.0 * 24.0 * 1.8 + 4.0 * 8.0 * 3.0));
    CHECK(in<usd>(h.all_cloud) == approx(80.0 * 3.0));
    CHECK(in<usd>(h.all_owned) == approx(6.0 * 24.0 * 1.8));
}

TEST_CASE("batch inference on spot: W = work ÷ (1 − (R + lost) ÷ M), by hand") {
    // The hand replica with its prefill inside its 100 requests/s (stall): one slot of 10 ms.
    replica_capacity_estimate e = hand_replica();
    e.mode = prefill_mode::stall;
    e.step.mode = prefill_mode::stall;
    batch_job j{};
    j.requests = 3600000;
    j.replicas = 5;
    j.on_demand = make<usd_per_gpu_hour>(3.0);
    j.spot_discount = 0.7;
    j.mean_time_between_preemptions = 2.0_h;
    j.restart_time = 60.0_s;
    const batch_estimate b = batch_inference(e, one_token, j);
    REQUIRE(b.found);
    CHECK(b.verdict == batch_verdict::found);
    CHECK(b.prefill_servers == 0);
    CHECK(in<gpus>(b.gpus) == approx(10.0));
    // On demand: 3.6 M ÷ (5 × 100/s) = 7,200 s = 2 h on 10 GPUs at $3: $60.
    CHECK(in<hours>(b.work) == approx(2.0));
    CHECK(in<usd>(b.on_demand_cost) == approx(60.0));
    // A reclaim loses the slot's mean age, h(1 + C²)/2 = 10 ms with exponential lengths (C² = 1),
    // and the 60 s restart: W = 2 h ÷ (1 − 60.01 s ÷ 7,200 s).
    CHECK(in<milliseconds>(b.lost_per_reclaim) == approx(10.0));
    const double w = 2.0 / (1.0 - 60.01 / 7200.0);
    CHECK(in<hours>(b.spot_wall_time) == approx(w));
    CHECK(b.spot_overhead == approx(w / 2.0 - 1.0));
    CHECK(in<usd>(b.spot_cost) == approx(10.0 * w * 0.3 * 3.0));
    CHECK(in<usd>(b.spot_saving) == approx(60.0 - 10.0 * w * 0.3 * 3.0));
    // Fixed lengths (C² = 0) lose half as much per reclaim.
    request_profile fixed = one_token;
    fixed.output_p90 = 1;
    CHECK(in<milliseconds>(batch_inference(e, fixed, j).lost_per_reclaim) == approx(5.0));
    // Disaggregated: the prefill servers that keep up, ⌈500/s × 100 ms⌉ = 50, billed alike.
    const batch_estimate split = batch_inference(hand_replica(), one_token, j);
    CHECK(split.prefill_servers == 50);
    CHECK(in<gpus>(split.gpus) == approx(110.0));
    CHECK(in<usd>(split.on_demand_cost) == approx(110.0 * 2.0 * 3.0));
    // Reclaims faster than restarts: no answer.
    j.mean_time_between_preemptions = 30.0_s;
    const batch_estimate never = batch_inference(e, one_token, j);
    CHECK_FALSE(never.found);
    CHECK(never.verdict == batch_verdict::reclaims_outpace_work);
    CHECK(never.spot_cost == money{});
    replica_capacity_estimate none = e;
    none.feasible = false;
    CHECK(batch_inference(none, one_token, j).verdict == batch_verdict::replica_infeasible);
}
