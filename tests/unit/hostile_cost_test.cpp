// hostile_cost_test.cpp: issue 13's findings in cost, roofline, hardware and precision, each
// pinned: input outside its stated range is invalid_input naming the function the caller called
// and the member path the caller wrote; input inside it gives a finite answer, or an explicit
// "no answer" flagged in the same result.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/cost.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/serving/demand.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double smallest_denormal = 4.9406564584124654e-324;
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;

bool is_finite(double v) { return std::isfinite(v); }
template <class Unit>
bool is_finite(const boost::units::quantity<Unit, double>& q) {
    return std::isfinite(q.value());
}

ownership server() {
    ownership o{};
    o.capex = 333000.0_usd;
    o.gpus = 8.0_gpu;
    o.full_power = 10.2_kW;
    o.electricity = 0.0806_usd_per_kWh;
    return o;
}
}  // namespace

TEST_CASE("the issue's NaN and inf examples are broken rules now") {
    // job_energy(DBL_MAX W, 0 s) gave NaN (inf × 0); power is at most 1e15 W.
    CHECK_THROWS_WITH_AS(job_energy(make<watts>(DBL_MAX), 0.0_s),
                         "job_energy: it_power = 1.79769313486232e+308 W must be at most 1e15 W",
                         invalid_input);
    // cost_per_million_tokens($0, 1 GPU, 5e-324 tokens/s) gave NaN (0 ÷ a denormal that the
    // product rounded to 0); a positive rate is at least 1e-30.
    CHECK_THROWS_WITH_AS(
        cost_per_million_tokens(0.0_usd_per_gpu_hour, 1.0_gpu, make<tokens_per_second>(5e-324)),
        "cost_per_million_tokens: throughput = 4.94065645841247e-324 tokens/s must be at least "
        "1e-30 tokens/s",
        invalid_input);
}

TEST_CASE("plain ratios and fractions have stated ranges, so nothing divided by one overflows") {
    CHECK_THROWS_WITH_AS(job_energy(1.0_kW, 1.0_h, 1e300),
                         "job_energy: pue = 1e+300 must be at most 1e6", invalid_input);
    CHECK_THROWS_WITH_AS(with_premium(2.0_usd_per_gpu_hour, DBL_MAX),
                         "with_premium: premium = 1.79769313486232e+308 must be at most 1e6",
                         invalid_input);
    reservation r{};
    r.on_demand = 2.0_usd_per_gpu_hour;
    CHECK_THROWS_WITH_AS(reserved_price(r, smallest_denormal),
                         "reserved_price: utilization = 4.94065645841247e-324 must be at least "
                         "1e-30",
                         invalid_input);
    CHECK_THROWS_WITH_AS(owned_price(server(), 1e-300),
                         "owned_price: utilization = 1e-300 must be at least 1e-30", invalid_input);
    ownership o = server();
    o.cost_of_capital = inf;
    CHECK_THROWS_WITH_AS(owning_cost(o, 1.0),
                         "owning_cost: cost_of_capital = inf must be at most 1e6",
                         invalid_input);
    o = server();
    o.network_share = -0.1;
    CHECK_THROWS_WITH_AS(rent_vs_buy(o, 2.0_usd_per_gpu_hour),
                         "rent_vs_buy: network_share = -0.1 must be finite and >= 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(mean_time_between(smallest_denormal),
                         "mean_time_between: preemptions_per_hour = 4.94065645841247e-324 must be "
                         "in [1e-9, 1e9]",
                         invalid_input);
    serving_setup s{};
    s.efficiency.memory = smallest_denormal;
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::h100_sxm, s),
                         "decode: efficiency.memory = 4.94065645841247e-324 must be at least 1e-30",
                         invalid_input);
    mfu_assumption tiny{};
    tiny.mfu = 1e-300;
    CHECK_THROWS_WITH_AS(time_to_train_at_mfu(cat::llama_2_7b, cat::h100_sxm, 1.0_T_tokens, training_job{},
                                       parallel_layout{}, tiny),
                         "time_to_train_at_mfu: assumption.mfu = 1e-300 must be at least 1e-30",
                         invalid_input);
    const link_spec faint{"faint", 1.0_GB_per_s, 1.0_us, 2, 1e-40};
    CHECK_THROWS_WITH_AS(bus_bandwidth(faint),
                         "bus_bandwidth: collective_efficiency = 1e-40 must be at least 1e-30",
                         invalid_input);
    CHECK_THROWS_WITH_AS(megatron_training_time(1.0_B_tokens, 1e300, 8, 100.0_TFLOPS),
                         "megatron_training_time: parameters = 1e+300 must be in [1, 2^53]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(storage_size(1e300, formats::bf16),
                         "storage_size: elements = 1e+300 must be at most 1e40", invalid_input);
    gpu_spec g = cat::h100_sxm;
    g.dense_peak.bf16 = make<flops_per_second>(1e31);
    CHECK_THROWS_WITH_AS(check(g),
                         "check(gpu_spec): dense_peak.bf16 = 10000000000000 EFLOP/s must be at "
                         "most "
                         "1e30 FLOP/s",
                         invalid_input);
}

TEST_CASE("at the edges of every stated range the answers are finite") {
    // Each input at its smallest and at its largest accepted value, in every combination.
    const double small = 1e-30;
    int cases = 0;
    for (double flops : {small, 1e40}) {
        for (double bytes : {small, 1e30}) {
            for (double rate : {small, 1e30}) {
                for (double bw : {small, 1e30}) {
                    for (double e : {small, 1.0}) {
                        const op_timing t = op_time({flop_count::from_value(flops),
                                                     data_size::from_value(bytes)},
                                                    flop_rate::from_value(rate),
                                                    bandwidth::from_value(bw), {e, e});
                        CHECK((is_finite(t.time) && is_finite(t.attained) &&
                               is_finite(t.intensity)));
                        CHECK((t.time.value() > 0.0 && t.attained.value() > 0.0));
                        ++cases;
                    }
                }
            }
        }
    }
    CHECK(cases == 32);
    // Owning: every money, power and price at its smallest positive value or its largest.
    for (double money_value : {small, 1e18}) {
        for (double life : {small, 1e6 * 365.0 * 86400.0}) {
            for (double rate : {0.0, smallest_denormal, 1e-12, 0.08, 1e6}) {
                for (double price : {small, 1e9 / 3600.0}) {
                    for (double u : {small, 1.0}) {
                        ownership o = server();
                        o.capex = money::from_value(money_value);
                        o.installation = money::from_value(money_value);
                        o.network_share = 1e6;
                        o.maintenance_per_year = 1e6;
                        o.service_life = duration::from_value(life);
                        o.cost_of_capital = rate;
                        o.residual_value = 0.5;
                        o.gpus = gpu_count::from_value(small);
                        o.full_power = make<watts>(1e15);
                        o.pue = 1e6;
                        o.electricity = energy_price::from_value(1e6 / 3.6e6);
                        const breakeven b = rent_vs_buy(o, gpu_price::from_value(price), u);
                        CHECK((is_finite(b.utilization) || b.owning_never_pays));
                        CHECK((is_finite(b.payback) || !b.pays_back));
                        CHECK(is_finite(b.owned_at_full));
                        // owned_price's answer is a price other functions take, so it
                        // must be one: here, on 1e-30 of a GPU, it is far past $1e9/GPU·h,
                        // and owned_price says so under its own name.
                        CHECK_THROWS_WITH_AS(owned_price(o, u),
                                             doctest::Contains("owned_price: (capital + "
                                                               "operations + power) / "
                                                               "(utilization * gpus) = "),
                                             invalid_input);
                        CHECK(is_finite(owning_npv(o, u)));
                        CHECK(is_finite(renting_npv(o, gpu_price::from_value(price), u)));
                    }
                }
            }
        }
    }
    // A spot job as long, on as many GPUs, as dear and as often preempted as may be given.
    spot_job j{};
    j.work = make<years>(1e6);
    j.gpus = make<gpus>(static_cast<double>(two_to_40));
    j.on_demand = make<usd_per_gpu_hour>(1e9);
    j.mean_time_between_preemptions = 1.0_s;
    j.checkpoint_time = make<seconds>(1e-30);
    j.restart_time = 250.0_s;
    j.interval = 249.0_s;
    const spot_estimate e = spot_cost(j);
    CHECK((is_finite(e.wall_time) && is_finite(e.spot_cost) && is_finite(e.restarting) &&
           is_finite(e.lost_work)));
}

TEST_CASE("spot: the exponents' rule keeps the wall time finite, and is said in display units") {
    spot_job j{};
    j.work = 10.0_h;
    j.gpus = 1.0_gpu;
    j.mean_time_between_preemptions = 1.0_min;
    j.checkpoint_time = 1.0_min;
    j.interval = 24.0_h;
    CHECK_THROWS_WITH_AS(spot_cost(j),
                         "spot_cost: interval + checkpoint_time + restart_time = 1.00069444444444 "
                         "days must be under 500 x mean_time_between_preemptions = 1 min (the job "
                         "would practically never finish)",
                         invalid_input);
    // Restarts count in the same sum: exponents each under the old limit of 700 (a segment
    // and a restart of 699 M each) made e^{R/M}·(e^x − 1)·M overflow to inf.
    j.interval = 1.0_min;
    j.restart_time = 497.0_min;
    CHECK(is_finite(spot_cost(j).wall_time));
    j.restart_time = 498.0_min;
    CHECK_THROWS_AS(spot_cost(j), invalid_input);
}

TEST_CASE("spot: with preemptions a million years apart the wall time is the work, not 0") {
    spot_job j{};
    j.work = 1.0_s;
    j.gpus = 1.0_gpu;
    j.on_demand = 2.0_usd_per_gpu_hour;
    j.mean_time_between_preemptions = make<years>(1e6);
    j.checkpoint_time = make<seconds>(1e-30);
    j.interval = make<seconds>(1e-30);
    const spot_estimate e = spot_cost(j);
    // 1e30 segments of 2e-30 s: twice the work, and no preemption to speak of.
    CHECK(e.wall_time == approx(2.0_s, 1e-12));
    CHECK(e.checkpointing == approx(1.0_s, 1e-12));
    CHECK(e.lost_work > 0.0_s);
    CHECK(e.preemptions > 0.0);
    CHECK(e.spot_cost > 0.0_usd);
}

TEST_CASE("spot: with rare preemptions and a tiny checkpoint the wall time is never below the work") {
    // Found by the fuzz run (seed 1, --only spot_cost, call 41933): 100 h of work, M = 4.88 h,
    // a 1e-30 s checkpoint. Daly's interval is then sqrt(2δM) = 1.87e-13 s, x = (τ + δ)/M is
    // 1.07e-17, and Eq. 20's product M·(e^x − 1)·T_s/τ, exactly T_s·(1 + 5e-18 + ...) > T_s,
    // rounded to 359,999.99999999994 s, an ulp below the work: overhead −1.1e-16.
    spot_job j{};
    j.work = make<seconds>(360000.0);
    j.gpus = 8.0_gpu;
    j.on_demand = 2.99_usd_per_gpu_hour;
    j.mean_time_between_preemptions = make<seconds>(17572.18130788988);
    j.checkpoint_time = make<seconds>(1e-30);
    const spot_estimate e = spot_cost(j);
    CHECK(e.wall_time >= j.work);
    CHECK(e.overhead >= 0.0);
    CHECK(e.wall_time.value() == approx(360000.0));
}

TEST_CASE("a denormal cost of capital gives straight-line depreciation, not a jump") {
    // 5.5 years: n·r for the smallest denormal r rounds to 5 or 6 times it, so the direct
    // annuity (1 − (1 + r)^−n)/r read 5 or 6 years where the limit is 5.5.
    ownership straight = server();
    straight.service_life = 5.5_years;
    straight.residual_value = 0.2;
    const cost_rate limit = owning_cost(straight, 1.0).capital;
    for (double rate : {smallest_denormal, 3.0 * smallest_denormal, 1e-310, 1e-300, 1e-20}) {
        ownership financed = straight;
        financed.cost_of_capital = rate;
        INFO("cost of capital = ", rate);
        CHECK(owning_cost(financed, 1.0).capital == approx(limit, 1e-15));
        CHECK(owning_npv(financed, 0.5) == approx(owning_npv(straight, 0.5), 1e-15));
        CHECK(renting_npv(financed, 3.0_usd_per_gpu_hour, 0.5) ==
              approx(renting_npv(straight, 3.0_usd_per_gpu_hour, 0.5), 1e-15));
        const breakeven b = rent_vs_buy(financed, 3.0_usd_per_gpu_hour, 0.7);
        REQUIRE(b.pays_back);
        CHECK(b.payback == approx(rent_vs_buy(straight, 3.0_usd_per_gpu_hour, 0.7).payback, 1e-15));
    }
    // Either side of the rate where the series forms take over, the answers agree.
    ownership below = straight;
    ownership at = straight;
    below.cost_of_capital = std::nextafter(detail::tiny_rate, 0.0);
    at.cost_of_capital = detail::tiny_rate;
    CHECK(owning_cost(below, 1.0).capital == approx(owning_cost(at, 1.0).capital, 1e-15));
    CHECK(rent_vs_buy(below, 3.0_usd_per_gpu_hour, 0.7).payback ==
          approx(rent_vs_buy(at, 3.0_usd_per_gpu_hour, 0.7).payback, 1e-15));
    // A small rate moves the capital charge by about r·(n + 1)/2 of it, the annuity's first
    // order term (derived from its series), and smoothly.
    ownership small = straight;
    small.residual_value = 0.0;
    small.cost_of_capital = 1e-6;
    CHECK(in<usd_per_hour>(owning_cost(small, 1.0).capital) / in<usd_per_hour>(limit) ==
          approx(1.0 / 0.8 * (1.0 + 1e-6 * (5.5 + 1.0) / 2.0), 1e-10));
}

TEST_CASE("rent vs buy: an infinite breakeven or payback comes with its flag") {
    // A cloud cheaper than the power a busy GPU draws: no utilization makes owning pay.
    ownership o = server();
    o.full_power = 1000.0_kW;
    const breakeven never = rent_vs_buy(o, 1.0_usd_per_gpu_hour, 0.5);
    CHECK(never.owning_never_pays);
    CHECK_FALSE(never.reached);
    CHECK(std::isinf(never.utilization));
    CHECK_FALSE(never.pays_back);
    CHECK(std::isinf(in<seconds>(never.payback)));
    // Beyond full use: a finite breakeven above 1, and owning may still pay some day.
    const breakeven dear = rent_vs_buy(server(), 0.5_usd_per_gpu_hour);
    CHECK_FALSE(dear.owning_never_pays);
    CHECK_FALSE(dear.reached);
    CHECK(dear.utilization > 1.0);
    CHECK(is_finite(dear.utilization));
    // A discounted saving that never repays the upfront cost: payback +inf, not 0.
    ownership financed = server();
    financed.cost_of_capital = 0.5;
    const breakeven slow = rent_vs_buy(financed, 2.0_usd_per_gpu_hour, 0.5);
    CHECK_FALSE(slow.pays_back);
    CHECK(std::isinf(in<seconds>(slow.payback)));
}

TEST_CASE("an enum value outside its enumerators is invalid_input, never 0 bytes") {
    CHECK_THROWS_WITH_AS(storage_bits(static_cast<number_format>(12)),
                         "storage_bits: f = 12 must be a number_format value", invalid_input);
    storage_format f{};
    f.block_size = 32;
    f.scale = static_cast<number_format>(-1);
    CHECK_THROWS_WITH_AS(bits_per_element(f),
                         "bits_per_element: scale = -1 must be a number_format value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(bytes_per_element(f),
                         "bytes_per_element: scale = -1 must be a number_format value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(storage_size(1.0, f),
                         "storage_size: scale = -1 must be a number_format value",
                         invalid_input);
    storage_format odd_output{};
    odd_output.element = static_cast<number_format>(99);
    CHECK_THROWS_WITH_AS(gemm(1, 1, 1, formats::bf16, odd_output),
                         "gemm: output.element = 99 must be a number_format value", invalid_input);
    serving_setup s{};
    s.weights.element = static_cast<number_format>(12);
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::h100_sxm, s),
                         "decode: weights.element = 12 must be a number_format value",
                         invalid_input);
    s = serving_setup{};
    s.kv_cache.block_size = two_to_40 + 1;
    CHECK_THROWS_WITH_AS(prefill(cat::llama_2_7b, cat::h100_sxm, s),
                         "prefill: kv_cache.block_size = 1099511627777 must be <= 2^40",
                         invalid_input);
    s = serving_setup{};
    s.compute = static_cast<compute_precision>(42);
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::h100_sxm, s),
                         "decode: compute = 42 must be a compute_precision value", invalid_input);
    CHECK_THROWS_WITH_AS(peak(cat::h100_sxm, static_cast<compute_precision>(-1)),
                         "peak: precision = -1 must be a compute_precision value", invalid_input);
    CHECK_THROWS_WITH_AS(supports(cat::h100_sxm, static_cast<compute_precision>(10)),
                         "supports: precision = 10 must be a compute_precision value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(op_time({1.0_FLOP, 1.0_B}, cat::h100_sxm,
                                 static_cast<compute_precision>(10)),
                         "op_time: precision = 10 must be a compute_precision value",
                         invalid_input);
    // Printing never throws: a value outside the enumerators reads "unknown".
    CHECK(to_string(static_cast<number_format>(12)) == "unknown");
    CHECK(to_string(static_cast<compute_precision>(10)) == "unknown");
    CHECK(to_string(static_cast<bound>(2)) == "unknown");  // was "memory"
}

TEST_CASE("products of counts are checked after their factors") {
    serving_setup s{};
    s.batch = 1;
    s.context = 1;
    s.prompt = two_to_40 + 1;
    CHECK_THROWS_WITH_AS(prefill(cat::llama_2_7b, cat::h100_sxm, s),
                         "prefill: prompt = 1099511627777 must be <= 2^40", invalid_input);
    s.prompt = two_to_40;  // each factor in range; batch × prompt × vocab is not
    CHECK_THROWS_WITH_AS(prefill(cat::llama_2_7b, cat::h100_sxm, s),
                         "prefill: batch x prompt x vocab = 3.5184372088832e+16 must stay below "
                         "2^53, where counts stop being exact",
                         invalid_input);
    // training_cost's layout: INT64_MAX × 32,000 overflowed a signed product (UBSan) before
    // any degree was checked.
    parallel_layout l{};
    l.tensor = std::numeric_limits<std::int64_t>::max();
    l.data = 32000;
    CHECK_THROWS_WITH_AS(training_cost(1.0_h, l, 2.0_usd_per_gpu_hour),
                         "training_cost: layout.tensor = 9.22337203685478e+18 must be <= 2^40",
                         invalid_input);
    l.tensor = two_to_40;
    l.data = 2;
    CHECK_THROWS_WITH_AS(training_cost(1.0_h, l, 2.0_usd_per_gpu_hour),
                         "training_cost: layout.tensor x layout.pipeline x "
                         "layout.context_parallel x layout.data = 2199023255552 must be <= 2^40",
                         invalid_input);
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.nodes = 1 << 30;
    c.node.gpus_per_node = 1 << 20;
    c.inter_node = cat::h100_sxm.host;
    CHECK_THROWS_WITH_AS(check(c),
                         "check(cluster): nodes x node.gpus_per_node = 1.12589990684262e+15 "
                         "must be "
                         "<= 2^40",
                         invalid_input);
}

TEST_CASE("errors name the function the caller called and the field as the caller wrote it") {
    serving_setup fp8{};
    fp8.compute = compute_precision::fp8;  // none on Ampere
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, cat::a100_80gb_sxm, fp8),
                         "decode: compute = fp8 is not supported by A100 80GB SXM (it has no dense "
                         "peak at that precision)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(decode_utilization(cat::llama_2_7b, cat::a100_80gb_sxm, fp8,
                                            10.0_tokens_per_s_per_stream),
                         "decode_utilization: compute = fp8 is not supported by A100 80GB SXM (it "
                         "has no dense peak at that precision)",
                         invalid_input);
    training_job job{};
    job.compute = compute_precision::fp8;
    CHECK_THROWS_WITH_AS(time_to_train_at_mfu(cat::llama_2_7b, cat::a100_80gb_sxm, 1.0_T_tokens, job,
                                       parallel_layout{}),
                         "time_to_train_at_mfu: job.compute = fp8 is not supported by A100 80GB SXM (it "
                         "has no dense peak at that precision)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(training_cost(cat::llama_2_7b, cat::a100_80gb_sxm, 1.0_T_tokens, job,
                                       parallel_layout{}, 2.0_usd_per_gpu_hour),
                         "training_cost: job.compute = fp8 is not supported by A100 80GB SXM (it "
                         "has no dense peak at that precision)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(training_cost(cat::llama_2_7b, cat::h100_sxm, make<tokens>(1e21),
                                       training_job{}, parallel_layout{}, 2.0_usd_per_gpu_hour),
                         "training_cost: tokens = 1,000,000,000T tokens must be at most 1e20 "
                         "tokens",
                         invalid_input);
    gpu_spec slow = cat::h100_sxm;
    slow.memory_bandwidth = 0.0_GB_per_s;
    CHECK_THROWS_WITH_AS(op_time({1.0_FLOP, 1.0_GB}, slow, compute_precision::bf16),
                         "op_time: gpu.memory_bandwidth = 0 B/s must be finite and > 0",
                         invalid_input);
    CHECK_THROWS_WITH_AS(ridge_point(cat::a100_80gb_sxm, compute_precision::fp8),
                         "ridge_point: precision = fp8 is not supported by A100 80GB SXM (it has "
                         "no dense peak at that precision)",
                         invalid_input);
    gpu_spec infinite = cat::h100_sxm;
    infinite.dense_peak.bf16 = make<flops_per_second>(inf);
    CHECK_THROWS_WITH_AS(decode(cat::llama_2_7b, infinite, serving_setup{}),
                         "decode: gpu.dense_peak.bf16 = inf FLOP/s must be at most 1e30 FLOP/s",
                         invalid_input);
    serving_setup no_batch{};
    no_batch.batch = 0;
    CHECK_THROWS_WITH_AS(serving_cost_per_million_tokens(cat::llama_2_7b, cat::h100_sxm, no_batch,
                                                         2.0_usd_per_gpu_hour),
                         "serving_cost_per_million_tokens: batch = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(idle_cost(-1.0_gpu, 1.0_h, 2.0_usd_per_gpu_hour),
                         "idle_cost: gpus = -1 GPU must be finite and >= 0", invalid_input);
    // The product of two tiny accepted inputs is no input of the caller's: no "usage" error.
    CHECK(job_cost(make<gpus>(1e-20), make<seconds>(1e-20), 2.0_usd_per_gpu_hour) > 0.0_usd);
    CHECK_THROWS_WITH_AS(attention_cost(cat::llama_2_7b, 1, 1, 1, true, true, formats::bf16, 3),
                         "attention_cost: tensor_parallel = 3 must divide attention heads = 32",
                         invalid_input);
    const demand_step unsorted[] = {{16.0_gpu, 100.0_h}, {64.0_gpu, 10.0_h}};
    CHECK_THROWS_WITH_AS(base_load_and_burst(unsorted, server(), 2.0_usd_per_gpu_hour),
                         "base_load_and_burst: steps[1].gpus = 64 GPU must not exceed "
                         "steps[0].gpus = 16 GPU: the profile must be sorted by decreasing demand",
                         invalid_input);
    const region_price regions[] = {{"a", 2.0_usd_per_gpu_hour, 0.0_usd_per_GB},
                                    {"b", -1.0_usd_per_gpu_hour, 0.0_usd_per_GB}};
    CHECK_THROWS_WITH_AS(cheapest_region(regions, 1.0_gpu_hours, 1.0_TB),
                         "cheapest_region: regions[1].gpu = -$1/GPU\xC2\xB7h must be finite and "
                         ">= 0",
                         invalid_input);
}

TEST_CASE("experts touched: a closed form, however large the batch and the expert count") {
    // Uniform top-2 of 8 experts over 3 tokens: 8·(1 − 0.75³) = 4.625 (exact in binary).
    CHECK(detail::experts_touched(cat::mixtral_8x7b, 3) == 4.625);
    // 2^40 experts, top-1, 2^40 tokens: each expert is missed with probability
    // (1 − 2^−40)^(2^40), so 1 − that is touched: −expm1(2^40·log1p(−2^−40)), 63.2%. A loop
    // over the tokens ran 2^40 times; the closed form takes 41 squarings.
    transformer huge = cat::mixtral_8x7b;
    huge.experts = two_to_40;
    huge.experts_per_token = 1;
    const double touched = detail::experts_touched(huge, two_to_40);
    const double expected = -std::expm1(std::ldexp(1.0, 40) * std::log1p(-std::ldexp(1.0, -40)));
    CHECK(touched / static_cast<double>(two_to_40) == approx(expected, 1e-14));
}

TEST_CASE("decode's compute-bound crossover searches only batches the setup accepts") {
    // Llama 3 8B at its 128K context: batch × context × vocab reaches 2^53 above 535,799
    // sequences, so the default limit of 2^20 threw before any answer.
    serving_setup s{};
    s.context = 131072;
    const compute_bound_crossover c = decode_compute_bound_batch(cat::llama_3_8b, cat::h100_sxm, s);
    CHECK_FALSE(c.reached);
    CHECK(c.searched_up_to == 535799);  // floor(2^53 ÷ (131,072 × 128,256))
    s.batch = c.searched_up_to + 1;
    CHECK_THROWS_AS(decode(cat::llama_3_8b, cat::h100_sxm, s), invalid_input);
    CHECK_THROWS_WITH_AS(decode_compute_bound_batch(cat::llama_3_8b, cat::h100_sxm, s, 0),
                         "decode_compute_bound_batch: limit = 0 must be >= 1", invalid_input);
}

TEST_CASE("comparing specs never reads past a MIG count a check would reject") {
    const mig_profile one[] = {{"1g.10gb", 1, 10.0_GiB, 7}};
    const mig_profile other[] = {{"1g.10gb", 1, 10.0_GiB, 7}};
    gpu_spec a = cat::h100_sxm;
    gpu_spec b = cat::h100_sxm;
    a.mig = one;
    b.mig = other;
    a.mig_count = b.mig_count = 1;
    CHECK(a == b);  // by content
    a.mig_count = b.mig_count = 1000000;  // garbage: ASan reported a stack-buffer-overflow
    CHECK(a != b);
    b.mig = nullptr;
    CHECK(a != b);
    CHECK_THROWS_WITH_AS(check(a), "check(gpu_spec): mig_count = 1000000 must be in [0, 16]",
                         invalid_input);
}

TEST_CASE("intra_node_link(node) returns a valid link or says which is not") {
    // It passed a node's own links through unchecked: a NaN bandwidth came back as the answer.
    node n{};
    n.gpu = cat::h100_sxm;
    n.gpu.host.per_direction = make<bytes_per_second>(std::nan(""));
    n.gpu.scale_up.span = 4;  // NVLink spanning fewer GPUs than the node: the host link is used
    CHECK_THROWS_WITH_AS(intra_node_link(n),
                         "intra_node_link: gpu.host.per_direction = nan B/s must be finite and >= 0",
                         invalid_input);
    n.gpu = cat::h100_sxm;
    n.gpus_per_node = 0;
    CHECK_THROWS_WITH_AS(intra_node_link(n), "intra_node_link: gpus_per_node = 0 must be >= 1",
                         invalid_input);
    n.gpus_per_node = 8;
    CHECK(intra_node_link(n) == cat::h100_sxm.scale_up);
}

// What one cost function returns, the next accepts. An independent fuzz run found
// reserved_capacity returning a `space` that owning_cost and reserved_base_load reject; the same
// pattern ran through every cost function whose answer is another's input. Each now refuses,
// under its own name and with the expression of the caller's fields, the input whose answer
// the next function would reject; just inside, the next function takes the answer.

TEST_CASE("chained ranges: reserved_capacity's ownership is one owning_cost and the splits take") {
    // The fuzz report's reproduction: on demand 1.2e-30 $/GPU·s at a 30 % discount is
    // 0.7 × 1.2e-30 = 8.4e-31 $/s of `space`, which owning_cost and reserved_base_load rejected
    // ("space must be 0 or at least 1e-30"), naming a field the caller never wrote.
    reservation r{};
    r.term = make<years>(1.0);
    r.on_demand = gpu_price::from_value(1.2e-30);
    r.discount = 0.3;
    CHECK_THROWS_WITH_AS(reserved_capacity(r),
                         "reserved_capacity: (1 - discount) * on_demand = 8.4e-31 USD/(GPU*s) must "
                         "be 0 or at least 1e-30 USD/(GPU*s)",
                         invalid_input);
    // reserved_price(r, 1) is the same hourly price, and refuses the same reservation.
    CHECK_THROWS_WITH_AS(reserved_price(r, 1.0),
                         "reserved_price: (upfront / term + (1 - discount) * on_demand) / "
                         "utilization = 8.4e-31 USD/(GPU*s) must be 0 or at least 1e-30 "
                         "USD/(GPU*s)",
                         invalid_input);
    // Just inside: 0.5 × 2e-30 is exactly 1e-30 (halving a double is exact), the floor itself.
    r.on_demand = gpu_price::from_value(2e-30);
    r.discount = 0.5;
    const ownership at_floor = reserved_capacity(r);
    CHECK(at_floor.space.value() == 1e-30);
    CHECK_NOTHROW(owning_cost(at_floor, 0.5));
    const demand_step day[] = {{4.0_gpu, 8.0_h}, {1.0_gpu, 16.0_h}};
    CHECK_NOTHROW(base_load_and_burst(day, at_floor, r.on_demand));
    period_replicas per_hour[2]{};
    per_hour[0].time = 2.0_h;
    per_hour[0].autoscaled = 2;
    per_hour[1].time = 22.0_h;
    per_hour[1].autoscaled = 1;
    CHECK_NOTHROW(reserved_base_load(per_hour, 1, at_floor, r.on_demand));
    CHECK(in<usd_per_gpu_hour>(reserved_price(r, 1.0)) == approx(3600e-30));
    // A free on-demand price gives no space charge: 0 is in range.
    r.on_demand = gpu_price{};
    CHECK(reserved_capacity(r).space.value() == 0.0);
    CHECK_NOTHROW(owning_cost(reserved_capacity(r), 0.5));
}

TEST_CASE("chained ranges: a price a function returns is a price the next function takes") {
    const gpu_time hour = 1.0_gpu_hours;
    // discounted: 0.7 × 1.2e-30 = 8.4e-31 $/GPU·s, below every price input's 1e-30 floor.
    CHECK_THROWS_WITH_AS(discounted(gpu_price::from_value(1.2e-30), 0.3),
                         "discounted: (1 - discount) * list = 8.4e-31 USD/(GPU*s) must be 0 or at "
                         "least 1e-30 USD/(GPU*s)",
                         invalid_input);
    CHECK_NOTHROW(job_cost(hour, discounted(gpu_price::from_value(2e-30), 0.5)));
    // per_gpu: 1e-30 $/s over 8 GPUs is 1.25e-31 $/GPU·s; $1e9/h over half a GPU is
    // $2e9/GPU·h, twice the largest price.
    CHECK_THROWS_WITH_AS(per_gpu(cost_rate::from_value(1e-30), 8.0_gpu),
                         "per_gpu: instance / gpus = 1.25e-31 USD/(GPU*s) must be 0 or at least "
                         "1e-30 USD/(GPU*s)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(per_gpu(make<usd_per_hour>(1e9), 0.5_gpu),
                         "per_gpu: instance / gpus = $2,000,000,000/GPU\xC2\xB7h must be at most "
                         "$1e9/GPU\xC2\xB7h",
                         invalid_input);
    CHECK_NOTHROW(job_cost(hour, per_gpu(make<usd_per_hour>(1e9), 1.0_gpu)));
    CHECK_NOTHROW(job_cost(hour, per_gpu(cost_rate::from_value(8e-30), 8.0_gpu)));
    // with_premium: a 100 % premium doubles $1e9/GPU·h.
    CHECK_THROWS_WITH_AS(with_premium(make<usd_per_gpu_hour>(1e9), 1.0),
                         "with_premium: (1 + premium) * raw = $2,000,000,000/GPU\xC2\xB7h must be "
                         "at most $1e9/GPU\xC2\xB7h",
                         invalid_input);
    CHECK_NOTHROW(job_cost(hour, with_premium(make<usd_per_gpu_hour>(5e8), 1.0)));
    // reserved_price: $1e9/GPU·h on demand, used half the term, is $2e9 per used GPU-hour.
    reservation r{};
    r.on_demand = make<usd_per_gpu_hour>(1e9);
    CHECK_THROWS_WITH_AS(reserved_price(r, 0.5),
                         "reserved_price: (upfront / term + (1 - discount) * on_demand) / "
                         "utilization = $2,000,000,000/GPU\xC2\xB7h must be at most "
                         "$1e9/GPU\xC2\xB7h",
                         invalid_input);
    CHECK_NOTHROW(job_cost(hour, reserved_price(r, 1.0)));
    // owned_price: one GPU whose $8.76e12 capex is depreciated over a 365-day year costs
    // $1e9 an hour; used half the time, $2e9 per used GPU-hour.
    ownership o{};
    o.capex = make<usd>(8.76e12);
    o.service_life = make<years>(1.0);
    o.gpus = 1.0_gpu;
    CHECK_THROWS_WITH_AS(owned_price(o, 0.5),
                         "owned_price: (capital + operations + power) / (utilization * gpus) = "
                         "$2,000,000,000/GPU\xC2\xB7h must be at most $1e9/GPU\xC2\xB7h",
                         invalid_input);
    CHECK(in<usd_per_gpu_hour>(owned_price(o, 1.0)) == approx(1e9));
    CHECK_NOTHROW(job_cost(hour, owned_price(o, 1.0)));
}

TEST_CASE("chained ranges: a checkpoint interval a function returns is one spot_cost takes") {
    spot_job j{};
    j.work = 100.0_h;
    j.gpus = 8.0_gpu;
    j.on_demand = 2.0_usd_per_gpu_hour;
    // Young: sqrt(2 × 1e6 × 1e6) years = 1,414,213.56 years, past the longest duration.
    CHECK_THROWS_WITH_AS(young_interval(make<years>(1e6), make<years>(1e6)),
                         "young_interval: sqrt(2 * checkpoint_time * mean_time_between_preemptions)"
                         " = 1414213.5623731 years must be at most 1e6 years",
                         invalid_input);
    j.checkpoint_time = make<years>(7e5);
    j.mean_time_between_preemptions = make<years>(7e5);
    j.interval = young_interval(j.checkpoint_time, j.mean_time_between_preemptions);
    CHECK(in<years>(j.interval) == approx(7e5 * std::sqrt(2.0)));
    CHECK_NOTHROW(spot_cost(j));
    // Daly, Eq. 37, at δ = M = 1e-30 s: with x = δ/2M = 1/2, τ = 2M·(√x − 2x/3 + x^1.5/9)
    // (the bracket times √(2δM) = 2M√x, less δ = 4Mx/2), worked by hand: 2e-30 × (0.7071068 −
    // 0.3333333 + 0.0392837) = 8.2611e-31 s, below the shortest duration.
    CHECK_THROWS_WITH_AS(daly_interval(make<seconds>(1e-30), make<seconds>(1e-30)),
                         "daly_interval: Daly's interval for checkpoint_time and "
                         "mean_time_between_preemptions = 8.26114315838267e-31 s must be at "
                         "least 1e-30 s",
                         invalid_input);
    // spot_cost with interval 0 uses the same interval, and its estimate hands it back.
    j.checkpoint_time = make<seconds>(1e-30);
    j.mean_time_between_preemptions = make<seconds>(1e-30);
    j.interval = duration{};
    CHECK_THROWS_WITH_AS(spot_cost(j),
                         "spot_cost: Daly's interval for checkpoint_time and "
                         "mean_time_between_preemptions = 8.26114315838267e-31 s must be at "
                         "least 1e-30 s",
                         invalid_input);
    // Twice as long, the interval is 1.65e-30 s: in range, and spot_cost takes it back.
    j.checkpoint_time = make<seconds>(2e-30);
    j.mean_time_between_preemptions = make<seconds>(2e-30);
    const duration tau = daly_interval(j.checkpoint_time, j.mean_time_between_preemptions);
    CHECK(in<seconds>(tau) == approx(2.0 * 8.26114315838267e-31));
    const spot_estimate chosen = spot_cost(j);
    CHECK(chosen.interval == tau);
    j.interval = chosen.interval;
    CHECK_NOTHROW(spot_cost(j));
}

TEST_CASE("chained ranges: job_energy's energy is one emissions takes; a rack's power, job_energy") {
    // 1e-20 W for 1e-20 s is 1e-40 J; 1e15 W for a million years at PUE 1e6 is 3.1536e34 J.
    CHECK_THROWS_WITH_AS(job_energy(make<watts>(1e-20), make<seconds>(1e-20), 1.0),
                         "job_energy: pue * it_power * time = 1e-40 J must be 0 or at least "
                         "1e-30 J",
                         invalid_input);
    CHECK_THROWS_WITH_AS(job_energy(make<watts>(1e15), make<years>(1e6), 1e6),
                         "job_energy: pue * it_power * time = 3.1536e+34 J must be at most 1e30 J",
                         invalid_input);
    CHECK_NOTHROW(emissions(job_energy(make<watts>(1e-15), make<seconds>(1e-15), 1.0),
                            cat::grid::us_2023_direct));
    CHECK_NOTHROW(emissions(job_energy(make<watts>(1e15), make<years>(1.0), 1.25),
                            cat::grid::us_2023_direct));
    // 2^20 servers of 1e12 W are 1.048576e18 W, past the largest power, 1e15 W.
    CHECK_THROWS_WITH_AS(rack_power(std::int64_t{1} << 20, make<watts>(1e12)),
                         "rack_power: servers_per_rack * per_server = 1048576000 GW must be at "
                         "most 1e15 W",
                         invalid_input);
    CHECK_NOTHROW(job_energy(rack_power(1000, make<watts>(1e12)).per_rack, 1.0_h));
}
