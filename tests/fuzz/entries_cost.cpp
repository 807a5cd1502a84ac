// entries_cost.cpp: the fuzz table's entries for cost.hpp: energy, prices and job cost, run and
// serving cost, spot capacity with checkpointing, and ownership (TCO, breakeven, NPV, hybrid).
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

void register_cost(registry& r) {
    using namespace gpucalc;

    // cost/energy.hpp
    add(r, "job_energy", "job_energy", "gpucalc::job_energy({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q<power>(typical::server_power), g.q<duration>(typical::hour),
                              g.hostile() ? g.hostile_double() : 1.0 + 0.6 * g.r.unit()};
        },
        [](const power& p, const duration& t, double pue) { return job_energy(p, t, pue); });
    add(r, "emissions", "emissions", "gpucalc::emissions({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<energy>(3.6e9), g.q<grid_intensity>(typical::grid)};
        },
        [](const energy& e, const grid_intensity& grid) { return emissions(e, grid); });
    add(r, "rack_power", "rack_power", "gpucalc::rack_power({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.count(4), g.q<power>(typical::server_power), g.q<power>(50000.0)};
        },
        [](std::int64_t servers, const power& per_server, const power& limit) {
            return rack_power(servers, per_server, limit);
        });

    // cost/prices.hpp
    add(r, "per_gpu", "per_gpu", "gpucalc::per_gpu({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<cost_rate>(typical::instance_price), g.q<gpu_count>(8.0)};
        },
        [](const cost_rate& instance, const gpu_count& gpus) { return per_gpu(instance, gpus); });
    add(r, "job_cost(gpu_time)", "job_cost", "gpucalc::job_cost({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<gpu_time>(1000.0 * typical::hour),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const gpu_time& usage, const gpu_price& price) { return job_cost(usage, price); });
    add(r, "job_cost(gpu_count, duration)", "job_cost", "gpucalc::job_cost({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q<gpu_count>(8.0), g.q<duration>(100.0 * typical::hour),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const gpu_count& gpus, const duration& held, const gpu_price& price) {
            return job_cost(gpus, held, price);
        });
    add(r, "discounted", "discounted", "gpucalc::discounted({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<gpu_price>(typical::gpu_price), g.unit_interval(0.6)};
        },
        [](const gpu_price& list, double discount) { return discounted(list, discount); });
    add(r, "reserved_price", "reserved_price", "gpucalc::reserved_price({0}, {1})",
        [](generator& g) { return std::tuple{draw::reservation(g), g.fraction(0.7)}; },
        [](const reservation& res, double utilization) {
            return reserved_price(res, utilization);
        });
    add(r, "flex_start", "flex_start", "gpucalc::flex_start({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::flex_offer(g), g.q_or_zero<gpu_time>(1000.0 * typical::hour)};
        },
        [](const flex_start_offer& o, const gpu_time& usage) { return flex_start(o, usage); });
    add(r, "with_premium", "with_premium", "gpucalc::with_premium({0}, {1})",
        [](generator& g) { return std::tuple{g.q<gpu_price>(typical::gpu_price), g.real(0.3)}; },
        [](const gpu_price& raw, double premium) { return with_premium(raw, premium); });
    add(r, "egress_cost", "egress_cost", "gpucalc::egress_cost({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q_or_zero<data_size>(1e12), g.q<data_price>(typical::egress)};
        },
        [](const data_size& data, const data_price& rate) { return egress_cost(data, rate); });
    add(r, "cheapest_region", "cheapest_region", "gpucalc::cheapest_region({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::regions(g), g.q_or_zero<gpu_time>(1000.0 * typical::hour),
                              g.q_or_zero<data_size>(1e12)};
        },
        [](const carray<region_price, 3>& regions, const gpu_time& usage, const data_size& data) {
            return cheapest_region(regions.v, usage, data);
        });
    add(r, "cost_per_million_tokens", "cost_per_million_tokens",
        "gpucalc::cost_per_million_tokens({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q<gpu_price>(typical::gpu_price), g.q<gpu_count>(8.0),
                              g.q<token_rate>(typical::token_rate)};
        },
        [](const gpu_price& price, const gpu_count& gpus, const token_rate& throughput) {
            return cost_per_million_tokens(price, gpus, throughput);
        });
    add(r, "idle_cost", "idle_cost", "gpucalc::idle_cost({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q<gpu_count>(8.0), g.q_or_zero<duration>(1800.0),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const gpu_count& gpus, const duration& idle, const gpu_price& price) {
            return idle_cost(gpus, idle, price);
        });

    // cost/run.hpp
    add(r, "training_cost(duration)", "training_cost", "gpucalc::training_cost({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q<duration>(720.0 * typical::hour),
                              draw::training_layout(g, draw::model(g)),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const duration& time, const parallel_layout& p, const gpu_price& price) {
            return training_cost(time, p, price);
        });
    add(r, "training_cost(transformer)", "training_cost",
        "gpucalc::training_cost({0}, {1}, {2}, {3}, {4}, {5}, {6})",
        [](generator& g) {
            const transformer m = draw::model(g);
            const training_strategy s = draw::strategy(g, m);
            return std::tuple{m,
                              draw::gpu(g),
                              g.q<token_count>(typical::training_tokens),
                              draw::job(g, s),
                              s.parallel,
                              g.q<gpu_price>(typical::gpu_price),
                              draw::mfu(g)};
        },
        [](const transformer& m, const gpu_spec& gpu, const token_count& tokens,
           const training_job& j, const parallel_layout& p, const gpu_price& price,
           const mfu_assumption& a) { return training_cost(m, gpu, tokens, j, p, price, a); });
    add(r, "serving_cost_per_million_tokens", "serving_cost_per_million_tokens",
        "gpucalc::serving_cost_per_million_tokens({0}, {1}, {2}, {3})",
        [](generator& g) {
            const transformer m = draw::model(g);
            return std::tuple{m, draw::gpu(g), draw::serving(g, m),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const transformer& m, const gpu_spec& gpu, const serving_setup& s,
           const gpu_price& price) { return serving_cost_per_million_tokens(m, gpu, s, price); });

    // cost/spot.hpp
    add(r, "young_interval", "young_interval", "gpucalc::young_interval({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<duration>(300.0), g.q<duration>(4.0 * typical::hour)};
        },
        [](const duration& delta, const duration& m) { return young_interval(delta, m); });
    add(r, "daly_interval", "daly_interval", "gpucalc::daly_interval({0}, {1})",
        [](generator& g) {
            return std::tuple{g.q<duration>(300.0), g.q<duration>(4.0 * typical::hour)};
        },
        [](const duration& delta, const duration& m) { return daly_interval(delta, m); });
    add(r, "mean_time_between", "mean_time_between", "gpucalc::mean_time_between({0})",
        [](generator& g) { return std::tuple{g.real(0.25)}; },
        [](double rate) { return mean_time_between(rate); });
    // Regression inputs (issue 9): lost work came out negative at M = 4 h, R = 2 h and at
    // M = 1 h, R = 1 h.
    add(r, "spot_cost", "spot_cost", "gpucalc::spot_cost({0})",
        [](generator& g) {
            if (g.pinned >= 0) {
                spot_job j{};
                j.work = make<hours>(100.0);
                j.gpus = make<gpus>(8.0);
                j.on_demand = make<usd_per_gpu_hour>(2.0);
                j.discount = 0.6;
                j.mean_time_between_preemptions = make<hours>(g.pinned == 0 ? 4.0 : 1.0);
                j.checkpoint_time = make<minutes>(5.0);
                j.restart_time = make<hours>(g.pinned == 0 ? 2.0 : 1.0);
                return std::tuple{j};
            }
            return std::tuple{draw::spot(g)};
        },
        [](const spot_job& j) { return spot_answer{spot_cost(j), j.work}; }, 2)
        .pins_answered = true;

    // cost/tco.hpp
    add(r, "owning_cost", "owning_cost", "gpucalc::owning_cost({0}, {1})",
        [](generator& g) { return std::tuple{draw::ownership(g), g.unit_interval(0.6)}; },
        [](const ownership& o, double utilization) { return owning_cost(o, utilization); });
    add(r, "owned_price", "owned_price", "gpucalc::owned_price({0}, {1})",
        [](generator& g) { return std::tuple{draw::ownership(g), g.fraction(0.6)}; },
        [](const ownership& o, double utilization) { return owned_price(o, utilization); });
    add(r, "rent_vs_buy", "rent_vs_buy", "gpucalc::rent_vs_buy({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::ownership(g), g.q<gpu_price>(typical::gpu_price),
                              g.fraction(1.0)};
        },
        [](const ownership& o, const gpu_price& cloud, double utilization) {
            return rent_vs_buy(o, cloud, utilization);
        });
    add(r, "owning_npv", "owning_npv", "gpucalc::owning_npv({0}, {1})",
        [](generator& g) { return std::tuple{draw::ownership(g), g.unit_interval(0.6)}; },
        [](const ownership& o, double utilization) { return owning_npv(o, utilization); });
    add(r, "renting_npv", "renting_npv", "gpucalc::renting_npv({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::ownership(g), g.q<gpu_price>(typical::gpu_price),
                              g.unit_interval(0.6)};
        },
        [](const ownership& o, const gpu_price& cloud, double utilization) {
            return renting_npv(o, cloud, utilization);
        });
    add(r, "cumulative_costs", "cumulative_costs", "gpucalc::cumulative_costs({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::ownership(g), g.q<gpu_price>(typical::gpu_price),
                              g.unit_interval(0.6), g.q_or_zero<duration>(31536000.0)};
        },
        [](const ownership& o, const gpu_price& cloud, double utilization, const duration& t) {
            return cumulative_costs(o, cloud, utilization, t);
        });
    add(r, "base_load_and_burst", "base_load_and_burst",
        "gpucalc::base_load_and_burst({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::demand(g), draw::ownership(g),
                              g.q<gpu_price>(typical::gpu_price)};
        },
        [](const carray<demand_step, 3>& steps, const ownership& server, const gpu_price& cloud) {
            return base_load_and_burst(steps.v, server, cloud);
        });
}

}  // namespace fuzz
