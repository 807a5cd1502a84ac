// cost_test.cpp: prices, spot and checkpointing, owning and rent-vs-buy, energy: each against
// its published figure or its defining identity.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/cost.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace prices = gpucalc::catalog::prices;

namespace {
ownership dgx_h100() {
    ownership o{};
    o.capex = 333000.0_usd;  // an illustrative 8 x H100 server price (in dgx_h100_2023's range)
    o.service_life = 5.0_years;
    o.gpus = 8.0_gpu;
    o.full_power = prices::dgx_h100_power;
    o.pue = 1.25;
    o.electricity = prices::us_industrial_electricity_2023;
    return o;
}

double wall_time_hours(double tau_h, double delta_h, double m_h, double r_h, double work_h) {
    return m_h * std::exp(r_h / m_h) * (std::exp((tau_h + delta_h) / m_h) - 1.0) * work_h / tau_h;
}
}  // namespace

TEST_CASE("instance and per-GPU prices; job cost") {
    // AWS p5.48xlarge (8 x H100) at $98.32/h on demand, 2023-2025, is $12.29 per GPU-hour.
    CHECK(per_gpu(prices::aws_p5_48xlarge_on_demand_2024, 8.0_gpu) ==
          approx(12.29_usd_per_gpu_hour));
    // An illustrative budget: 1,000 GPU-hours at $2.99/GPU·h (Lambda's H100, 2026) is $2,990.
    CHECK(job_cost(1000.0_gpu_hours, 2.99_usd_per_gpu_hour) == approx(2990.0_usd));
    CHECK(job_cost(8.0_gpu, 24.0_h, 2.0_usd_per_gpu_hour) == approx(384.0_usd));
    CHECK(idle_cost(64.0_gpu, 10.0_h, 2.0_usd_per_gpu_hour) == approx(1280.0_usd));
    CHECK(egress_cost(10.0_TB, prices::aws_egress_first_tier) == approx(900.0_usd));
    CHECK(with_premium(2.0_usd_per_gpu_hour, 0.3) == approx(2.6_usd_per_gpu_hour));
    // $/M tokens: 8 GPUs at $2/GPU·h producing 10,000 tokens/s: $16/h over 36 M tokens/h.
    CHECK(cost_per_million_tokens(2.0_usd_per_gpu_hour, 8.0_gpu, 10000.0_tokens_per_s) ==
          approx(make<usd_per_million_tokens>(16.0 / 36.0)));
}

TEST_CASE("reserved capacity costs its whole term, so its price per used hour rises as use falls") {
    reservation r{};
    r.term = 1.0_years;
    r.upfront = 8760.0_usd;  // $1 per hour of the term
    r.on_demand = 4.0_usd_per_gpu_hour;
    r.discount = 0.5;
    CHECK(reserved_price(r, 1.0) == approx(3.0_usd_per_gpu_hour));
    CHECK(reserved_price(r, 0.5) == approx(6.0_usd_per_gpu_hour));
}

TEST_CASE("flex-start: the saving and the delay cost at which it stops paying") {
    const flex_start_verdict v = flex_start({2.0_usd_per_gpu_hour, 0.5, 24.0_h}, 1000.0_gpu_hours);
    CHECK(v.saving == approx(1000.0_usd));
    CHECK(v.delayed);
    CHECK(in<usd_per_hour>(v.breakeven_delay_cost) == approx(1000.0 / 24.0));
    CHECK_FALSE(flex_start({2.0_usd_per_gpu_hour, 0.5, 0.0_h}, 1000.0_gpu_hours).delayed);
}

TEST_CASE("training and serving cost come from the roofline's durations") {
    training_job job{};
    job.sequence = 4096;
    parallel_layout gpus{};
    gpus.data = 256;
    mfu_assumption at_40{};
    at_40.mfu = 0.40;
    const training_cost_estimate e = training_cost(catalog::llama_3_8b, catalog::h100_sxm,
                                                   1.0_T_tokens, job, gpus, 2.0_usd_per_gpu_hour, at_40);
    // By hand from Llama-3-8B's config (meta-llama/llama-models: 32 layers, d 4,096, 8 KV heads
    // of 128, FFN 14,336, vocabulary 128,256): per layer q and o 4,096², k and v 4,096 × 1,024,
    // a gated MLP 3 × 4,096 × 14,336, so 218,103,808 weights; forward FLOPs per token are
    // 2 × 32 × that + attention over 4,096 keys 4 × 4,096 × 4,096 × 32 + the head 2 × 128,256 ×
    // 4,096 = 17,156,800,512, and training three times that (Kaplan et al. 2020 §2.1). At 40% of
    // the H100's 989.4 TFLOP/s (datasheet: 1,979* with sparsity) 1 T tokens take 130.0 M
    // GPU-seconds, 36,126 GPU-h, $72,252 at $2/GPU·h, whatever the GPU count.
    const double per_layer = 2.0 * 4096.0 * 4096.0 + 2.0 * 4096.0 * 1024.0 + 3.0 * 4096.0 * 14336.0;
    const double forward = 2.0 * 32.0 * per_layer + 4.0 * 4096.0 * 4096.0 * 32.0 + 2.0 * 128256.0 * 4096.0;
    const double gpu_seconds = 1e12 * 3.0 * forward / (0.40 * 989.4e12);
    CHECK(in<gpu_hours>(e.usage) == approx(gpu_seconds / 3600.0));
    CHECK(in<usd>(e.cost) == approx(2.0 * gpu_seconds / 3600.0));
    CHECK(in<seconds>(e.time) == approx(gpu_seconds / 256.0));
    // Twice the GPUs at the same MFU: half the time, the same bill.
    gpus.data = 512;
    const training_cost_estimate twice = training_cost(catalog::llama_3_8b, catalog::h100_sxm,
                                                       1.0_T_tokens, job, gpus, 2.0_usd_per_gpu_hour, at_40);
    CHECK(twice.time == approx(0.5 * e.time));
    CHECK(twice.cost == approx(e.cost));
    // Any estimate can be priced: 10 days on 64 × 8 GPUs at $2/GPU·h is 122,880 GPU-h, $245,760.
    parallel_layout composed{};
    composed.tensor = 8;
    composed.data = 64;
    const training_cost_estimate priced = training_cost(10.0_days, composed, 2.0_usd_per_gpu_hour);
    CHECK(in<gpu_hours>(priced.usage) == approx(122880.0));
    CHECK(priced.cost == approx(245760.0_usd));
    CHECK_THROWS_WITH_AS(training_cost(0.0_h, composed, 2.0_usd_per_gpu_hour),
                         "training_cost: time = 0 s must be finite and > 0", invalid_input);
    serving_setup d{};
    d.batch = 32;
    d.parallel.tensor = 2;
    // Two GPUs at $3/GPU·h over the batch's aggregate rate: 32 streams, not one.
    const decode_estimate est = decode(catalog::llama_3_70b, catalog::h100_sxm, d);
    const double aggregate = 32.0 * in<tokens_per_second_per_stream>(est.stream_rate);
    CHECK(in<tokens_per_second>(est.aggregate_rate) == approx(aggregate));
    CHECK(serving_cost_per_million_tokens(catalog::llama_3_70b, catalog::h100_sxm, d,
                                          3.0_usd_per_gpu_hour) ==
          approx(make<usd_per_million_tokens>(2.0 * 3.0 / 3600.0 * 1e6 / aggregate)));
}

TEST_CASE("a training run priced at a composed step's pace") {
    // By hand: 1 T tokens at 500,000 tokens/s take 2e6 s (555.6 h); on 1,024 GPUs that is
    // 568,889 GPU-h, $1,137,778 at $2/GPU·h: cost = tokens ÷ tokens/s × GPUs × $/GPU·h.
    training_step step{};
    step.tokens_per_second = 500000.0_tokens_per_s;
    step.gpus = 1024;
    const training_cost_estimate e = training_cost(step, 1.0_T_tokens, 2.0_usd_per_gpu_hour);
    CHECK(in<seconds>(e.time) == approx(2e6));
    CHECK(in<gpu_hours>(e.usage) == approx(2e6 * 1024.0 / 3600.0));
    CHECK(in<usd>(e.cost) == approx(2.0 * 2e6 * 1024.0 / 3600.0));
    // The other members are not read: a zero step time changes nothing.
    step.time = 0.0_s;
    CHECK(training_cost(step, 1.0_T_tokens, 2.0_usd_per_gpu_hour).cost == approx(e.cost));
    // A price of 0 is an answer: the time and the GPU-hours, at no cost.
    CHECK(training_cost(step, 1.0_T_tokens, 0.0_usd_per_gpu_hour).cost == 0.0_usd);

    // From the step model itself: Llama-2-7B on 2 H100 nodes (NVLink 4 inside, 8 NDR NICs a
    // node), TP 8 and DP 2. The priced time is time_to_train's, the GPUs the layout's.
    cluster pod{};
    pod.node.gpu = catalog::h100_sxm;
    pod.nodes = 2;
    pod.inter_node = catalog::infiniband_ndr;
    training_job job{};
    job.sequence = 4096;
    job.global_batch = 64;
    training_strategy s{};
    s.parallel.tensor = 8;
    s.parallel.data = 2;
    s.parallel.sequence_parallel = true;
    s.parallel.zero_stage = 1;
    const training_step composed = training_step_time(catalog::llama_2_7b, pod, job, s);
    const training_cost_estimate run = training_cost(composed, 2.0_T_tokens, 3.0_usd_per_gpu_hour);
    CHECK(run.time == approx(time_to_train(composed, 2.0_T_tokens)));
    CHECK(in<gpu_hours>(run.usage) == approx(16.0 * in<hours>(run.time)));
    CHECK(in<usd>(run.cost) == approx(3.0 * 16.0 * in<hours>(run.time)));

    // Bad input names the field it came from.
    training_step stalled = step;
    stalled.tokens_per_second = 0.0_tokens_per_s;
    CHECK_THROWS_WITH_AS(training_cost(stalled, 1.0_T_tokens, 2.0_usd_per_gpu_hour),
                         "training_cost: step.tokens_per_second = 0 tokens/s must be finite and > 0",
                         invalid_input);
    training_step empty = step;
    empty.gpus = 0;
    CHECK_THROWS_WITH_AS(training_cost(empty, 1.0_T_tokens, 2.0_usd_per_gpu_hour),
                         "training_cost: step.gpus = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(training_cost(step, 0.0_T_tokens, 2.0_usd_per_gpu_hour),
                         "training_cost: tokens = 0 tokens must be finite and > 0", invalid_input);
    CHECK_THROWS_WITH_AS(training_cost(step, 1.0_T_tokens, -1.0_usd_per_gpu_hour),
                         "training_cost: price = -$1/GPU\xC2\xB7h must be finite and >= 0",
                         invalid_input);
}

TEST_CASE("the cheapest region counts moving the data there") {
    const region_price regions[] = {{"home", 3.0_usd_per_gpu_hour, 0.0_usd_per_GB},
                                    {"cheap, far", 2.0_usd_per_gpu_hour, 0.09_usd_per_GB}};
    // 1,000 GPU-h: home $3,000; away $2,000 + transfer. 5 TB costs $450: away wins.
    CHECK(cheapest_region(regions, 1000.0_gpu_hours, 5.0_TB).index == 1);
    // 20 TB costs $1,800 to move: home wins.
    CHECK(cheapest_region(regions, 1000.0_gpu_hours, 20.0_TB).index == 0);
}

TEST_CASE("Young's and Daly's optimal checkpoint intervals") {
    // Young 1974: tau = sqrt(2·delta·M): delta = 5 min, M = 24 h gives 120 min exactly.
    CHECK(in<minutes>(young_interval(5.0_min, 24.0_h)) == approx(120.0));
    // Daly 2006, Figs. 3-5 (delta = 5 min, R = 10 min): tau_opt = 117 min at M = 24 h,
    // 57 min at M = 6 h, 9.1 min at M = 15 min (printed to those figures).
    CHECK(in<minutes>(daly_interval(5.0_min, 24.0_h)) == doctest::Approx(117.0).epsilon(0.5 / 117.0));
    CHECK(in<minutes>(daly_interval(5.0_min, 6.0_h)) == doctest::Approx(57.0).epsilon(0.5 / 57.0));
    CHECK(in<minutes>(daly_interval(5.0_min, 15.0_min)) == doctest::Approx(9.1).epsilon(0.05 / 9.1));
    // When a checkpoint takes twice the mean time between interrupts, Daly's answer is M.
    CHECK(daly_interval(1.0_h, 0.5_h) == 0.5_h);
}

TEST_CASE("spot: Daly's interval minimizes his expected wall-clock time") {
    spot_job j{};
    j.work = 500.0_h;  // Daly 2006's example: T_s = 500 h, delta = 5 min, R = 10 min, M = 24 h
    j.gpus = 8.0_gpu;
    j.on_demand = 4.0_usd_per_gpu_hour;
    j.discount = 0.6;
    j.mean_time_between_preemptions = 24.0_h;
    j.checkpoint_time = 5.0_min;
    j.restart_time = 10.0_min;
    const spot_estimate best = spot_cost(j);
    CHECK(in<hours>(best.wall_time) ==
          approx(wall_time_hours(in<hours>(best.interval), 5.0 / 60.0, 24.0, 10.0 / 60.0, 500.0)));
    for (double factor : {0.5, 0.8, 1.25, 2.0}) {
        spot_job other = j;
        other.interval = factor * best.interval;
        CHECK(spot_cost(other).wall_time > best.wall_time);
    }
    CHECK(best.overhead > 0.0);
    // The overhead splits into checkpoints, restarts and recomputed (lost) work.
    CHECK(best.wall_time == approx(j.work + best.checkpointing + best.restarting + best.lost_work));
    CHECK(best.lost_work > 0.0_h);
    CHECK(best.preemptions == approx(in<hours>(best.wall_time) / 24.0));
    CHECK(mean_time_between(0.125) == 8.0_h);
    CHECK(best.spot_cost == approx(0.4 * 4.0_usd_per_gpu_hour * 8.0_gpu * best.wall_time));
    CHECK(best.spot_is_cheaper);
    // Frequent reclaims and slow restarts can make spot the dearer choice.
    spot_job stormy = j;
    stormy.discount = 0.1;
    stormy.mean_time_between_preemptions = 20.0_min;
    stormy.restart_time = 15.0_min;
    CHECK_FALSE(spot_cost(stormy).spot_is_cheaper);
}

TEST_CASE("spot: the overhead's parts are never negative and add up to Daly's wall time") {
    // Issue 9's reproduction: 100 h of work on 8 GPUs, M = 4 h, delta = 5 min, R = 2 h, at
    // Daly's interval. Billing every preemption a full restart gave lost work of -9.1 h.
    // Hand-derived split (Daly's renewal model, see spot_cost): tau = 45.71 min from Eq. 37,
    // s = tau + delta, x = s/M = 0.2113, segments N = T_s/tau = 131.26;
    //   T_w = N·M·e^{R/M}·(e^x − 1)     = 203.67 h
    //   checkpointing = N·delta          =  10.938 h
    //   lost work = N·M·(e^x − 1 − x)    =  12.592 h
    //   restarting = N·M·(e^x − 1)·(e^{R/M} − 1) = 80.136 h
    // (evaluated to 5 significant figures by hand with a calculator; they sum to T_w).
    spot_job j{};
    j.work = 100.0_h;
    j.gpus = 8.0_gpu;
    j.on_demand = 2.0_usd_per_gpu_hour;
    j.discount = 0.6;
    j.mean_time_between_preemptions = 4.0_h;
    j.checkpoint_time = 5.0_min;
    j.restart_time = 2.0_h;
    const spot_estimate e = spot_cost(j);
    const auto close = [](double value, double printed) {
        return approx_equal(value, printed, 5e-5);  // printed to 5 significant figures
    };
    CHECK(close(in<minutes>(e.interval), 45.713));
    CHECK(close(in<hours>(e.wall_time), 203.67));
    CHECK(close(in<hours>(e.checkpointing), 10.938));
    CHECK(close(in<hours>(e.lost_work), 12.592));
    CHECK(close(in<hours>(e.restarting), 80.136));
    CHECK(close(e.preemptions, 50.917));
    // The second reproduction: M = 1 h, R = 1 h gave lost work of -5.15 days.
    j.mean_time_between_preemptions = 1.0_h;
    j.restart_time = 1.0_h;
    const spot_estimate f = spot_cost(j);
    CHECK(close(in<hours>(f.wall_time), 421.24));
    CHECK(close(in<hours>(f.lost_work), 31.462));
    CHECK(close(in<hours>(f.restarting), 266.27));
    CHECK(close(in<hours>(f.checkpointing), 23.502));

    // Over a grid from minutes between preemptions to a century, every part is >= 0 and
    // work + checkpointing + restarting + lost work = T_w to 1e-9.
    int cases = 0;
    for (const duration& m : {15.0_min, 1.0_h, 4.0_h, 24.0_h, 1000.0_h, 1e6_h}) {
        for (const duration& delta : {1.0_s, 5.0_min, 1.0_h}) {
            for (const duration& r : {0.0_s, 10.0_min, 2.0_h, 24.0_h}) {
                for (const duration& tau : {0.0_s, 1.0_s, 10.0_min, 10.0_h}) {
                    spot_job g = j;
                    g.mean_time_between_preemptions = m;
                    g.checkpoint_time = delta;
                    g.restart_time = r;
                    g.interval = tau;
                    const spot_estimate s = spot_cost(g);
                    INFO("M = ", m, ", delta = ", delta, ", R = ", r, ", tau = ", s.interval);
                    CHECK(std::isfinite(in<seconds>(s.wall_time)));
                    CHECK(s.checkpointing > 0.0_s);
                    CHECK(s.lost_work >= 0.0_s);
                    CHECK(s.restarting >= 0.0_s);
                    CHECK(s.preemptions >= 0.0);
                    CHECK(s.wall_time ==
                          approx(g.work + s.checkpointing + s.restarting + s.lost_work));
                    ++cases;
                }
            }
        }
    }
    CHECK(cases == 6 * 3 * 4 * 4);
    // With preemptions a century apart, the exact rework (about N·s²/(2M)) is tiny but positive:
    // the direct e^x − 1 − x would cancel to zero or below.
    spot_job rare = j;
    rare.mean_time_between_preemptions = 1e6_h;
    rare.interval = 1.0_h;
    const spot_estimate q = spot_cost(rare);
    const double s_h = 1.0 + 5.0 / 60.0;
    CHECK(in<hours>(q.lost_work) == approx(100.0 * s_h * s_h / 2e6 * (1.0 + s_h / 3e6), 1e-6));
}

TEST_CASE("owning: straight-line depreciation, cost of capital, power by utilization") {
    ownership o = dgx_h100();
    o.residual_value = 0.1;
    const ownership_cost c = owning_cost(o, 1.0);
    // Straight line: (capex − residual) ÷ life = 0.9 × $333,000 over 43,800 h.
    CHECK(in<usd_per_hour>(c.capital) == approx(0.9 * 333000.0 / 43800.0));
    // Power: the DGX H100's 10.2 kW maximum (datasheet) × PUE 1.25 × $0.0806/kWh (EIA 2023) is
    // $1.028/h at full load. The idle draw is ownership's documented 30% of it whatever the
    // load; the other 70% scales with utilization. Each part is checked on its own: the active
    // part is computed as full minus idle, so their sum alone would prove nothing.
    const double full_load = 10.2 * 1.25 * 0.0806;
    CHECK(in<usd_per_hour>(c.idle_power) == approx(0.3 * full_load));
    CHECK(in<usd_per_hour>(c.active_power) == approx(0.7 * full_load));
    const ownership_cost half = owning_cost(o, 0.5);
    CHECK(in<usd_per_hour>(half.idle_power) == approx(0.3 * full_load));
    CHECK(in<usd_per_hour>(half.active_power) == approx(0.5 * 0.7 * full_load));
    CHECK(in<usd_per_hour>(owning_cost(o, 0.0).active_power) == approx(0.0));
    // A cost of capital raises the capital charge to the annuity that repays it: the capital
    // recovery factor at 8% over 5 years is 0.2505 (any annuity table, printed to 4 places).
    ownership financed = dgx_h100();
    financed.cost_of_capital = 0.08;
    CHECK(in<usd_per_hour>(owning_cost(financed, 1.0).capital) * 8760.0 / 333000.0 ==
          doctest::Approx(0.2505).epsilon(0.00005 / 0.2505));
    // A tiny rate tends to straight-line depreciation, with no cancellation blow-up.
    financed.cost_of_capital = 1e-16;
    CHECK(owning_cost(financed, 1.0).capital ==
          approx(owning_cost(dgx_h100(), 1.0).capital, 1e-12));
    // A residual value is recovered at the end of the life, discounted back.
    financed.cost_of_capital = 0.08;
    financed.residual_value = 0.2;
    CHECK(in<usd_per_hour>(owning_cost(financed, 1.0).capital) * 8760.0 ==
          approx((333000.0 - std::pow(1.08, -5.0) * 0.2 * 333000.0) * 0.08 /
                 (1.0 - std::pow(1.08, -5.0))));
}

TEST_CASE("rent vs buy: at the breakeven utilization owning costs exactly what renting does") {
    const ownership o = dgx_h100();
    const gpu_price cloud = 2.99_usd_per_gpu_hour;
    const breakeven b = rent_vs_buy(o, cloud);
    REQUIRE(b.reached);
    CHECK(owned_price(o, b.utilization) == approx(cloud));
    // Below it renting wins, above it owning.
    CHECK(owned_price(o, 0.9 * b.utilization) > cloud);
    CHECK(owned_price(o, 1.1 * b.utilization) < cloud);
    // A cheap enough cloud means owning never pays: the breakeven is past 100%, not 0.
    const breakeven never = rent_vs_buy(o, 0.5_usd_per_gpu_hour);
    CHECK_FALSE(never.reached);
    CHECK(never.utilization > 1.0);  // it would take more than every hour there is
    // Payback: cumulative owned and rented costs meet at the payback time.
    const breakeven at70 = rent_vs_buy(o, cloud, 0.7);
    REQUIRE(at70.pays_back);
    const cumulative_cost at = cumulative_costs(o, cloud, 0.7, at70.payback);
    CHECK(at.owned == approx(at.rented));
    // Below the breakeven utilization, payback (if any) comes after the life ends.
    const breakeven low = rent_vs_buy(o, cloud, 0.8 * b.utilization);
    CHECK_FALSE(low.pays_back);
    // A cost of capital delays payback: the saving is discounted.
    ownership financed = o;
    financed.cost_of_capital = 0.1;
    const breakeven slower = rent_vs_buy(financed, cloud, 0.7);
    REQUIRE(slower.pays_back);
    CHECK(slower.payback > at70.payback);
    // NPV: owning against renting over the life agrees with the breakeven's side.
    CHECK(owning_npv(o, 0.9) < renting_npv(o, cloud, 0.9));
    CHECK(owning_npv(o, 0.9 * b.utilization) > renting_npv(o, cloud, 0.9 * b.utilization));
    // With no cost of capital the NPV is plain cash: upfront + running costs × life.
    const ownership_cost c = owning_cost(o, 0.5);
    CHECK(owning_npv(o, 0.5) ==
          approx(333000.0_usd + (c.operations + c.idle_power + c.active_power) * 5.0_years));
    // The hidden costs (a 3-year life, 10% maintenance a year, colocation at CBRE's 2024
    // rate for 10.2 kW) raise the breakeven utilization; a dearer cloud (AWS p5 on demand,
    // $12.29/GPU·h) lowers it.
    ownership three_years = dgx_h100();
    three_years.service_life = 3.0_years;
    three_years.maintenance_per_year = 0.1;
    three_years.space = prices::colocation_2024 * prices::dgx_h100_power;
    const breakeven realistic = rent_vs_buy(three_years, cloud);
    CHECK(realistic.utilization > b.utilization);
    const gpu_price aws = per_gpu(prices::aws_p5_48xlarge_on_demand_2024, 8.0_gpu);
    CHECK(rent_vs_buy(three_years, aws).utilization < realistic.utilization);
}

TEST_CASE("base load and burst beats both all-cloud and all-owned on a two-level profile") {
    // 16 GPUs all year, 64 GPUs for 500 of its 8,760 hours.
    const demand_step steps[] = {{64.0_gpu, 500.0_h}, {16.0_gpu, 8260.0_h}};
    ownership per_gpu = dgx_h100();
    per_gpu.capex = 333000.0_usd / 8.0;
    per_gpu.full_power = prices::dgx_h100_power / 8.0;
    per_gpu.gpus = 1.0_gpu;
    const hybrid_capacity split = base_load_and_burst(steps, per_gpu, 2.99_usd_per_gpu_hour);
    CHECK(split.owned == 16.0_gpu);
    CHECK(split.total < split.all_cloud);
    CHECK(split.total < split.all_owned);
    // By hand, per owned GPU (an eighth of the server): capital $333,000 / 8 over 5 × 8,760 h
    // = $0.9503/h; idle power 30% of 10.2 kW / 8 × PUE 1.25 × $0.0806/kWh = $0.0385/h whatever
    // the load; active power the other 70%, $0.0899/h, for the hours it works. Owning the base
    // 16 (busy all 8,760 h) and renting the 48 above it for 500 h at $2.99/GPU·h:
    const double capital = 333000.0 / 8.0 / (5.0 * 8760.0);
    const double full_power = 10.2 / 8.0 * 1.25 * 0.0806;
    const double idle = 0.3 * full_power;
    const double active = 0.7 * full_power;
    const double hybrid = 16.0 * 8760.0 * (capital + idle + active) + 48.0 * 500.0 * 2.99;
    const double cloud_only = (64.0 * 500.0 + 16.0 * 8260.0) * 2.99;
    const double owned_only = 64.0 * 8760.0 * (capital + idle) + (64.0 * 500.0 + 16.0 * 8260.0) * active;
    CHECK(in<usd>(split.total) == approx(hybrid));
    CHECK(in<usd>(split.all_owned) == approx(owned_only));
    CHECK(in<usd>(split.saving_vs_cloud) == approx(cloud_only - hybrid));  // $267,874
    CHECK(in<usd>(split.saving_vs_owned) == approx(owned_only - hybrid));
    // A whole 8-GPU server describes the same per-GPU cost.
    const hybrid_capacity whole = base_load_and_burst(steps, dgx_h100(), 2.99_usd_per_gpu_hour);
    CHECK(whole.owned == split.owned);
    CHECK(whole.total == approx(split.total));
    // By hand: all cloud is the GPU-hours × price.
    CHECK(split.all_cloud ==
          approx((64.0 * 500.0 + 16.0 * 8260.0) * 1.0_h * 1.0_gpu * 2.99_usd_per_gpu_hour));
}

TEST_CASE("a reservation as an ownership: its price for every hour, used or not") {
    // A day: 10 GPUs for 8 h, 4 for 12 h, none for 4 h (a step of 0 GPUs is an idle period).
    const demand_step day[] = {{10.0_gpu, 8.0_h}, {4.0_gpu, 12.0_h}, {0.0_gpu, 4.0_h}};
    reservation one_year{};
    one_year.on_demand = 2.99_usd_per_gpu_hour;
    one_year.discount = 0.4;  // $1.794/GPU·h for every hour of the year
    const ownership reserved = reserved_capacity(one_year);
    const hybrid_capacity h = base_load_and_burst(day, reserved, 2.99_usd_per_gpu_hour);
    // By hand: reserving k GPUs costs 24 h × $1.794 each; the rest rents at $2.99.
    //   k = 0: (80 + 48) × 2.99 = $382.72;  k = 4: 4 × 43.056 + 6 × 8 × 2.99 = $315.74;
    //   k = 10: 10 × 43.056 = $430.56.
    const double rate = 0.6 * 2.99;
    CHECK(h.owned == 4.0_gpu);
    CHECK(in<usd>(h.total) == approx(4.0 * 24.0 * rate + 6.0 * 8.0 * 2.99));
    CHECK(in<usd>(h.all_cloud) == approx(128.0 * 2.99));
    CHECK(in<usd>(h.all_owned) == approx(10.0 * 24.0 * rate));
    // An upfront payment is spread over the term: per hour, reserved_price at full use.
    one_year.upfront = 8760.0_usd;  // $1/h over the year
    const ownership with_upfront = reserved_capacity(one_year);
    const hybrid_capacity u = base_load_and_burst(day, with_upfront, 2.99_usd_per_gpu_hour);
    CHECK(in<usd>(u.all_owned) ==
          approx(10.0 * 24.0 * in<usd_per_gpu_hour>(reserved_price(one_year, 1.0))));
    // The pointer form is the same function.
    CHECK(base_load_and_burst(&day[0], 3, reserved, 2.99_usd_per_gpu_hour).total == h.total);
    one_year.discount = 1.0;
    CHECK_THROWS_AS(reserved_capacity(one_year), invalid_input);
}

TEST_CASE("energy, carbon and rack power") {
    // A DGX H100 at its 10.2 kW maximum for a day at PUE 1.25: 306 kWh.
    CHECK(in<kilowatt_hours>(job_energy(10.2_kW, 24.0_h, 1.25)) == approx(306.0));
    // On the 2023 US grid (EIA: 367 g/kWh): 112 kg CO2.
    CHECK(in<kilograms>(emissions(306.0_kWh, catalog::grid::us_2023_direct)) ==
          approx(306.0 * 0.367));
    // ~50 kW per rack, a rule-of-thumb air-cooling limit: 4 DGX H100 fit, 6 need liquid.
    CHECK_FALSE(rack_power(4, prices::dgx_h100_power).needs_liquid_cooling);
    CHECK(rack_power(6, prices::dgx_h100_power).needs_liquid_cooling);
    CHECK(rack_power(6, prices::dgx_h100_power).per_rack == approx(61.2_kW));
}

TEST_CASE("bad input is invalid_input naming the field and the rule") {
    CHECK_THROWS_WITH_AS(job_cost(10.0_gpu_hours, -1.0_usd_per_gpu_hour),
                         "job_cost: price = -$1/GPU\xC2\xB7h must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(discounted(2.0_usd_per_gpu_hour, 1.0),
                         "discounted: discount = 1 must be in [0, 1)", invalid_input);
    CHECK_THROWS_AS(discounted(2.0_usd_per_gpu_hour, -0.1), invalid_input);
    reservation r{};
    r.on_demand = 2.0_usd_per_gpu_hour;
    CHECK_THROWS_WITH_AS(reserved_price(r, 0.0), "reserved_price: utilization = 0 must be in (0, 1]",
                         invalid_input);
    CHECK_THROWS_AS(reserved_price(r, 1.5), invalid_input);
    ownership o = dgx_h100();
    o.service_life = 0.0_years;
    CHECK_THROWS_WITH_AS(rent_vs_buy(o, 2.0_usd_per_gpu_hour),
                         "rent_vs_buy: service_life = 0 s must be finite and > 0", invalid_input);
    o = dgx_h100();
    o.pue = 0.9;
    CHECK_THROWS_WITH_AS(owned_price(o, 0.5), "owned_price: pue = 0.9 must be finite and >= 1",
                         invalid_input);
    spot_job runaway{};
    runaway.work = 10.0_h;
    runaway.gpus = 1.0_gpu;
    runaway.mean_time_between_preemptions = 1.0_min;
    runaway.checkpoint_time = 1.0_min;
    runaway.interval = 24.0_h;  // 1,440 times the time between reclaims
    CHECK_THROWS_AS(spot_cost(runaway), invalid_input);
    CHECK_THROWS_AS(job_energy(1.0_kW, 1.0_h, 0.5), invalid_input);
    const demand_step unsorted[] = {{16.0_gpu, 100.0_h}, {64.0_gpu, 10.0_h}};
    CHECK_THROWS_AS(base_load_and_burst(unsorted, dgx_h100(), 2.0_usd_per_gpu_hour), invalid_input);
    const demand_step negative_step[] = {{-1.0_gpu, 100.0_h}};
    CHECK_THROWS_AS(base_load_and_burst(negative_step, dgx_h100(), 2.0_usd_per_gpu_hour),
                    invalid_input);
    const demand_step no_time[] = {{8.0_gpu, 0.0_h}};
    CHECK_THROWS_AS(base_load_and_burst(no_time, dgx_h100(), 2.0_usd_per_gpu_hour), invalid_input);
    CHECK_THROWS_AS(base_load_and_burst(nullptr, 0, dgx_h100(), 2.0_usd_per_gpu_hour),
                    invalid_input);
    spot_job j{};
    j.work = 10.0_h;
    j.gpus = 1.0_gpu;
    j.mean_time_between_preemptions = 0.0_h;
    j.checkpoint_time = 1.0_min;
    CHECK_THROWS_AS(spot_cost(j), invalid_input);
    CHECK_THROWS_AS(daly_interval(-1.0_min, 1.0_h), invalid_input);
    CHECK_THROWS_AS(cost_per_million_tokens(2.0_usd_per_gpu_hour, 8.0_gpu,
                                            make<tokens_per_second>(std::numeric_limits<double>::infinity())),
                    invalid_input);
    CHECK_THROWS_WITH_AS(cost_per_million_tokens(2.0_usd_per_gpu_hour, 8.0_gpu, 0.0_tokens_per_s),
                         "cost_per_million_tokens: throughput = 0 tokens/s must be finite and > 0",
                         invalid_input);
}
