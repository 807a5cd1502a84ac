// entries_cost.cpp: the fuzz table's entries for cost.hpp: energy, prices and job cost, run and
// serving cost, spot capacity with checkpointing, and ownership (TCO, breakeven, NPV, hybrid);
// and the chains, where one cost function's answer is another's input and must be accepted.
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <gpucalc/serving/demand.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

// ---------------------------------------------------------------------------------------------
// Chains: what one function returns, the next accepts (docs/cost.md, "What one function
// returns, the next accepts"). A chain entry calls the first function, whose own refusal is the
// call's answer as for any entry point (so it must name the first function), then hands what it
// returned to each function that takes it, every other argument of those fixed and valid, and
// records whether each accepted it. inspect() requires that each did.
// ---------------------------------------------------------------------------------------------

/// A chain's answer: the value passed on, in base units, and each next function's verdict.
struct chain_probe {
    struct link {
        const char* name;     ///< "owning_cost accepts reserved_capacity's ownership"
        bool accepted = true;
        std::string message;  ///< the refusal, when not accepted
    };
    double passed_on = 0.0;
    std::vector<link> links;
};

inline void inspect(inspector& i, const chain_probe& c) {
    i.amount("passed_on", c.passed_on);
    for (const chain_probe::link& l : c.links) i.invariant(l.name, l.accepted, l.message);
}

/// Calls `next`: a refusal breaks the chain, unless `field` is given and the refusal does not
/// begin with it (the next function then refused for a rule of its own that does not concern
/// the value passed on, as spot_cost's bound on (interval + checkpoint + restart) / M).
template <class Next>
chain_probe::link accepts(const char* name, Next&& next, const char* field = nullptr) {
    try {
        next();
    } catch (const gpucalc::invalid_input& e) {
        const std::string_view message = e.what();
        if (field == nullptr || message.substr(0, std::string_view(field).size()) == field) {
            return {name, false, std::string(message)};
        }
    }
    return {name, true, {}};
}

namespace draw {

/// A quantity anywhere in its dimension's range [1e-30, largest] in base units (docs/units.md,
/// "Input ranges"): either end, within a factor of 2 inside one, or log-uniform between; with
/// `zero`, 0 a tenth of the time; or hostile.
template <class Q>
Q across_range(generator& g, bool zero = false) {
    if (g.hostile()) return Q::from_value(g.hostile_double());
    const double smallest = gpucalc::detail::smallest_input;
    const double largest = gpucalc::detail::input_range<Q>::largest;
    if (zero && g.coin(0.1)) return Q::from_value(0.0);
    switch (g.r.below(6)) {
        case 0: return Q::from_value(smallest);
        case 1: return Q::from_value(largest);
        case 2: return Q::from_value(smallest * (1.0 + g.r.unit()));
        case 3: return Q::from_value(largest * (0.5 + 0.5 * g.r.unit()));
        default: {
            const double low = std::log10(smallest);
            const double high = std::log10(largest);
            return Q::from_value(std::pow(10.0, low + (high - low) * g.r.unit()));
        }
    }
}

/// A fraction in [lowest, highest] at its ends, just inside them, or uniform; or hostile.
inline double at_ends(generator& g, double lowest, double highest) {
    if (g.hostile()) return g.hostile_double();
    switch (g.r.below(5)) {
        case 0: return lowest;
        case 1: return highest;
        case 2: return std::nextafter(highest, lowest);
        case 3: return lowest + (highest - lowest) * 1e-12 * g.r.unit();
        default: return lowest + (highest - lowest) * g.r.unit();
    }
}
/// A discount in [0, 1): 0, 1 − 2^-53 (the largest below 1), a tiny one, or any.
inline double discount(generator& g) { return at_ends(g, 0.0, std::nextafter(1.0, 0.0)); }

inline gpucalc::reservation reservation_across_ranges(generator& g) {
    gpucalc::reservation r{};
    r.term = across_range<gpucalc::duration>(g);
    r.upfront = across_range<gpucalc::money>(g, true);
    r.on_demand = across_range<gpucalc::gpu_price>(g, true);
    r.discount = discount(g);
    return r;
}

/// An ownership from the realistic draw, with its money, life, GPUs, power and hourly charges
/// anywhere in their ranges half the time.
inline gpucalc::ownership ownership_across_ranges(generator& g) {
    gpucalc::ownership o = ownership(g);
    if (g.coin()) {
        o.capex = across_range<gpucalc::money>(g, true);
        o.service_life = across_range<gpucalc::duration>(g);
        o.gpus = across_range<gpucalc::gpu_count>(g);
        o.full_power = across_range<gpucalc::power>(g, true);
        o.electricity = across_range<gpucalc::energy_price>(g, true);
        o.space = across_range<gpucalc::cost_rate>(g, true);
    }
    return o;
}

}  // namespace draw

/// A price passed on: every function taking a $/GPU·h price checks it against the same range,
/// so job_cost for one GPU-hour stands for them all.
inline chain_probe price_passed_on(const char* name, const gpucalc::gpu_price& price) {
    chain_probe c;
    c.passed_on = price.value();
    c.links.push_back(accepts(name, [&] {
        (void)gpucalc::job_cost(gpucalc::make<gpucalc::gpu_hours>(1.0), price);
    }));
    return c;
}

/// A checkpoint interval passed on as spot_job::interval, with the same checkpoint time and
/// mean time between preemptions it came from; only a refusal naming `interval` breaks it.
inline chain_probe interval_passed_on(const char* name, const gpucalc::duration& interval,
                                      const gpucalc::duration& checkpoint_time,
                                      const gpucalc::duration& mean_time_between_preemptions) {
    chain_probe c;
    c.passed_on = interval.value();
    gpucalc::spot_job j{};
    j.work = gpucalc::make<gpucalc::hours>(100.0);
    j.gpus = gpucalc::make<gpucalc::gpus>(8.0);
    j.on_demand = gpucalc::make<gpucalc::usd_per_gpu_hour>(2.99);
    j.checkpoint_time = checkpoint_time;
    j.mean_time_between_preemptions = mean_time_between_preemptions;
    j.interval = interval;
    c.links.push_back(accepts(name, [&] { (void)gpucalc::spot_cost(j); },
                              "spot_cost: interval = "));
    return c;
}

void register_cost_chains(registry& r) {
    using namespace gpucalc;

    add(r, "chain: reserved_capacity -> owning_cost and splits",
        "reserved_capacity", "gpucalc::reserved_capacity({0})",
        [](generator& g) { return std::tuple{draw::reservation_across_ranges(g)}; },
        [](const reservation& res) {
            const ownership o = reserved_capacity(res);
            const gpu_price cloud = make<usd_per_gpu_hour>(2.99);
            chain_probe c;
            c.passed_on = o.space.value();
            c.links.push_back(accepts("owning_cost accepts reserved_capacity's ownership",
                                      [&] { (void)owning_cost(o, 0.5); }));
            const demand_step day[] = {{make<gpus>(4.0), make<hours>(8.0)},
                                       {make<gpus>(1.0), make<hours>(16.0)}};
            c.links.push_back(
                accepts("base_load_and_burst accepts reserved_capacity's ownership",
                        [&] { (void)base_load_and_burst(day, o, cloud); }));
            period_replicas per_hour[2]{};
            per_hour[0].time = make<hours>(2.0);
            per_hour[0].autoscaled = 2;
            per_hour[1].time = make<hours>(22.0);
            per_hour[1].autoscaled = 1;
            c.links.push_back(
                accepts("reserved_base_load accepts reserved_capacity's ownership",
                        [&] { (void)reserved_base_load(per_hour, 1, o, cloud); }));
            return c;
        });

    // Prices.
    add(r, "chain: per_gpu -> job_cost", "per_gpu", "gpucalc::per_gpu({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::across_range<cost_rate>(g, true),
                              draw::across_range<gpu_count>(g)};
        },
        [](const cost_rate& instance, const gpu_count& gpus) {
            return price_passed_on("job_cost accepts per_gpu's price", per_gpu(instance, gpus));
        });
    add(r, "chain: discounted -> job_cost", "discounted", "gpucalc::discounted({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::across_range<gpu_price>(g, true), draw::discount(g)};
        },
        [](const gpu_price& list, double d) {
            return price_passed_on("job_cost accepts discounted's price", discounted(list, d));
        });
    add(r, "chain: with_premium -> job_cost", "with_premium", "gpucalc::with_premium({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::across_range<gpu_price>(g, true), draw::at_ends(g, 0.0, 1e6)};
        },
        [](const gpu_price& raw, double premium) {
            return price_passed_on("job_cost accepts with_premium's price",
                                   with_premium(raw, premium));
        });
    add(r, "chain: reserved_price -> job_cost", "reserved_price",
        "gpucalc::reserved_price({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::reservation_across_ranges(g), draw::at_ends(g, 1e-30, 1.0)};
        },
        [](const reservation& res, double utilization) {
            return price_passed_on("job_cost accepts reserved_price's price",
                                   reserved_price(res, utilization));
        });
    add(r, "chain: owned_price -> job_cost", "owned_price", "gpucalc::owned_price({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::ownership_across_ranges(g), draw::at_ends(g, 1e-30, 1.0)};
        },
        [](const ownership& o, double utilization) {
            return price_passed_on("job_cost accepts owned_price's price",
                                   owned_price(o, utilization));
        });

    // Checkpoint intervals and the mean time between preemptions, into a spot job.
    add(r, "chain: young_interval -> spot_cost", "young_interval",
        "gpucalc::young_interval({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::across_range<duration>(g), draw::across_range<duration>(g)};
        },
        [](const duration& delta, const duration& m) {
            return interval_passed_on("spot_cost accepts young_interval's interval",
                                      young_interval(delta, m), delta, m);
        });
    add(r, "chain: daly_interval -> spot_cost", "daly_interval",
        "gpucalc::daly_interval({0}, {1})",
        [](generator& g) {
            return std::tuple{draw::across_range<duration>(g), draw::across_range<duration>(g)};
        },
        [](const duration& delta, const duration& m) {
            return interval_passed_on("spot_cost accepts daly_interval's interval",
                                      daly_interval(delta, m), delta, m);
        });
    add(r, "chain: spot_cost -> spot_cost(interval)", "spot_cost", "gpucalc::spot_cost({0})",
        [](generator& g) {
            spot_job j = draw::spot(g);
            j.checkpoint_time = draw::across_range<duration>(g);
            j.mean_time_between_preemptions = draw::across_range<duration>(g);
            j.interval = g.coin(0.7) ? duration{} : draw::across_range<duration>(g);
            return std::tuple{j};
        },
        [](const spot_job& j) {
            const spot_estimate e = spot_cost(j);
            return interval_passed_on("spot_cost accepts the interval spot_cost chose",
                                      e.interval, j.checkpoint_time,
                                      j.mean_time_between_preemptions);
        });
    add(r, "chain: mean_time_between -> spot_cost", "mean_time_between",
        "gpucalc::mean_time_between({0})",
        [](generator& g) { return std::tuple{draw::at_ends(g, 1e-9, 1e9)}; },
        [](double rate) {
            const duration m = mean_time_between(rate);
            chain_probe c;
            c.passed_on = m.value();
            spot_job j{};
            j.work = make<hours>(100.0);
            j.gpus = make<gpus>(8.0);
            j.checkpoint_time = make<seconds>(1e-30);
            j.mean_time_between_preemptions = m;
            c.links.push_back(accepts("spot_cost accepts mean_time_between's mean",
                                      [&] { (void)spot_cost(j); },
                                      "spot_cost: mean_time_between_preemptions = "));
            return c;
        });

    // Energy and power.
    add(r, "chain: job_energy -> emissions", "job_energy", "gpucalc::job_energy({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::across_range<power>(g, true),
                              draw::across_range<duration>(g, true), draw::at_ends(g, 1.0, 1e6)};
        },
        [](const power& p, const duration& t, double pue) {
            const energy used = job_energy(p, t, pue);
            chain_probe c;
            c.passed_on = used.value();
            c.links.push_back(accepts("emissions accepts job_energy's energy", [&] {
                (void)emissions(used, make<grams_per_kilowatt_hour>(367.0));
            }));
            return c;
        });
    add(r, "chain: rack_power -> job_energy, owning_cost", "rack_power",
        "gpucalc::rack_power({0}, {1})",
        [](generator& g) {
            const std::int64_t servers =
                g.coin() ? g.count(4)
                         : g.keep(static_cast<std::int64_t>(std::exp2(40.0 * g.r.unit())));
            return std::tuple{servers, draw::across_range<power>(g, true)};
        },
        [](std::int64_t servers, const power& per_server) {
            const rack_density rack = rack_power(servers, per_server);
            chain_probe c;
            c.passed_on = rack.per_rack.value();
            c.links.push_back(accepts("job_energy accepts rack_power's power",
                                      [&] { (void)job_energy(rack.per_rack, make<hours>(1.0)); },
                                      "job_energy: it_power = "));
            ownership o{};
            o.gpus = make<gpus>(8.0);
            o.full_power = rack.per_rack;
            c.links.push_back(accepts("owning_cost accepts rack_power's power as full_power",
                                      [&] { (void)owning_cost(o, 0.5); }));
            return c;
        });
}

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

    register_cost_chains(r);
}

}  // namespace fuzz
