// entries_serving_fleet.cpp: the fuzz table's entries for serving/fleet.hpp: the cheapest mix of
// GPU types for a mix of request sizes, from catalog-like types (plan_fleet, checked and not) and
// from a table of per-replica rates (cheapest_fleet).
#include <gpucalc/serving.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "entry_points.hpp"
#include "serving_types.hpp"

namespace fuzz {

/// cheapest_fleet's table drawn as rows (one GPU type: its price, GPUs per replica and per-replica
/// rate for each of four buckets) and columns (one bucket: its share and output length), which
/// the harness can print; fleet_table_of assembles the table.
struct fleet_row {
    gpucalc::gpu_price price{};
    std::int64_t gpus = 1;
    gpucalc::request_rate rate0{}, rate1{}, rate2{}, rate3{};
};
struct fleet_column {
    double share = 0.0;
    std::int64_t output_mean = 1;
};

template <>
struct enum_traits<gpucalc::fleet_verdict> {
    static constexpr const char* name = "gpucalc::fleet_verdict";
    static constexpr int count = 5;
};
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::fleet_gpu_type& a, const gpucalc::fleet_gpu_type& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(hardware); FUZZ_FIELD(setup); FUZZ_FIELD(price);
}
template <class F>
void fields(const gpucalc::fleet_bucket& a, const gpucalc::fleet_bucket& b, F&& f) {
    FUZZ_FIELD(profile); FUZZ_FIELD(share);
}
template <class F>
void fields(const gpucalc::fleet_assumptions& a, const gpucalc::fleet_assumptions& b, F&& f) {
    FUZZ_FIELD(share_tolerance); FUZZ_FIELD(largest_assignments); FUZZ_FIELD(replicas);
}
template <class F>
void fields(const fleet_row& a, const fleet_row& b, F&& f) {
    FUZZ_FIELD(price); FUZZ_FIELD(gpus); FUZZ_FIELD(rate0); FUZZ_FIELD(rate1); FUZZ_FIELD(rate2);
    FUZZ_FIELD(rate3);
}
template <class F>
void fields(const fleet_column& a, const fleet_column& b, F&& f) {
    FUZZ_FIELD(share); FUZZ_FIELD(output_mean);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::fleet_gpu_type>() { return "gpucalc::fleet_gpu_type"; }
template <>
inline const char* type_name<gpucalc::fleet_bucket>() { return "gpucalc::fleet_bucket"; }
template <>
inline const char* type_name<gpucalc::fleet_assumptions>() { return "gpucalc::fleet_assumptions"; }
template <>
inline const char* type_name<fleet_row>() { return "fuzz::fleet_row"; }
template <>
inline const char* type_name<fleet_column>() { return "fuzz::fleet_column"; }

/// The table of `types` rows and `buckets` columns (each count clamped to the arrays' 8 and 16;
/// a negative count becomes 0, which the table's check rejects).
inline gpucalc::fleet_table fleet_table_of(std::int64_t types, std::int64_t buckets,
                                           const carray<fleet_row, 3>& rows,
                                           const carray<fleet_column, 4>& columns,
                                           gpucalc::request_rate rate) {
    gpucalc::fleet_table t{};
    const auto clamp = [](std::int64_t n, std::int64_t most) {
        return static_cast<std::size_t>(n < 0 ? 0 : n > most ? most + 1 : n);
    };
    t.types = clamp(types, 8);
    t.buckets = clamp(buckets, 16);
    t.rate = rate;
    for (std::size_t g = 0; g < 3; ++g) {
        t.price[g] = rows.v[g].price;
        t.gpus_per_replica[g] = rows.v[g].gpus;
        t.replica_rate[g][0] = rows.v[g].rate0;
        t.replica_rate[g][1] = rows.v[g].rate1;
        t.replica_rate[g][2] = rows.v[g].rate2;
        t.replica_rate[g][3] = rows.v[g].rate3;
    }
    for (std::size_t b = 0; b < 4; ++b) {
        t.share[b] = columns.v[b].share;
        t.output_mean[b] = columns.v[b].output_mean;
    }
    return t;
}

namespace draw {
/// Shares that sum to 1 (usually), or raw draws.
template <std::size_t N>
inline void fleet_shares(generator& g, double (&share)[N]) {
    double sum = 0.0;
    for (double& s : share) {
        s = g.unit_interval(0.5);
        sum += s;
    }
    if (g.coin(0.85) && std::isfinite(sum) && sum > 0.0) {
        for (double& s : share) s = g.keep_real(s / sum);
    }
}
inline carray<gpucalc::fleet_gpu_type, 2> fleet_types(generator& g, const gpucalc::transformer& m) {
    // The second type is usually the first's hardware and setup at another price (each drawn
    // part may be hostile, and two full draws would leave few calls accepted).
    carray<gpucalc::fleet_gpu_type, 2> t{};
    t.v[0].hardware = draw::cluster(g);
    t.v[0].setup = draw::serving(g, m);
    t.v[0].price = g.q<gpucalc::gpu_price>(typical::gpu_price);
    const bool same = g.coin(0.7);
    t.v[1].hardware = same ? t.v[0].hardware : draw::cluster(g);
    t.v[1].setup = same ? t.v[0].setup : draw::serving(g, m);
    t.v[1].price = g.q<gpucalc::gpu_price>(2.0 * typical::gpu_price);
    return t;
}
inline carray<gpucalc::fleet_bucket, 3> fleet_buckets(generator& g) {
    carray<gpucalc::fleet_bucket, 3> b{};
    double share[3];
    fleet_shares(g, share);
    for (std::size_t i = 0; i < 3; ++i) {
        b.v[i].profile = request_profile(g);
        b.v[i].share = share[i];
    }
    return b;
}
inline gpucalc::fleet_assumptions fleet_assumptions(generator& g) {
    gpucalc::fleet_assumptions a{};
    a.share_tolerance = g.coin(0.9) ? g.keep_real(a.share_tolerance) : g.real(1e-3);
    a.largest_assignments = g.coin(0.8) ? g.keep(a.largest_assignments) : g.count(8);
    a.replicas = replicas_assumptions(g);
    return a;
}
}  // namespace draw

inline void inspect(inspector& i, const gpucalc::fleet_choice& c) {
    i.flag("found", c.found);
    if (!c.found) return;
    i.count("total_gpus", c.total_gpus);
    i.amount("hourly", c.hourly);
    i.amount("per_million", c.per_million);
    for (std::size_t g = 0; g < gpucalc::fleet_type_limit; ++g) {
        i.amount("load", c.load[g]);
        // ⌈load⌉, at least one replica for any load and none for none.
        const double r = static_cast<double>(c.replicas[g]);
        i.invariant("replicas carry the load",
                    r >= c.load[g] - 1e-9 && (c.load[g] > 0.0 ? r >= 1.0 : r == 0.0) &&
                        (r < c.load[g] + 1.0 || r == 1.0));
    }
}

inline void inspect(inspector& i, const gpucalc::fleet_plan& p) {
    i.flag("found", p.found);
    i.enumeration("verdict", p.verdict, 5);
    i.invariant("found iff the verdict says so",
                p.found == (p.verdict == gpucalc::fleet_verdict::found));
    i.count("assignments", p.assignments == 0 ? 1 : p.assignments);
    if (!p.found) {
        i.invariant("no fleet when not found", !p.cheapest.found && p.cheapest.total_gpus == 0);
        return;
    }
    i.nested("cheapest", [&] { inspect(i, p.cheapest); });
    i.nested("best_single", [&] { inspect(i, p.best_single); });
    i.amount("saving", p.saving);
    i.amount("saving_share", p.saving_share);
    i.invariant("the mix never costs more than the best single type",
                !p.best_single.found || p.cheapest.hourly <= p.best_single.hourly);
    i.invariant("saving_share in [0, 1)", p.saving_share >= 0.0 && p.saving_share < 1.0);
    for (std::size_t b = 0; b < p.table.buckets; ++b) {
        // A bucket of share 0 carries nothing and is reported on the first type, served or not.
        i.invariant("each bucket goes to a type that serves it",
                    p.cheapest.bucket_type[b] < p.table.types &&
                        (p.table.replica_rate[p.cheapest.bucket_type[b]][b].value() > 0.0 ||
                         !(p.table.share[b] > 0.0)));
    }
}

void register_serving_fleet(registry& r) {
    using namespace gpucalc;
    add_enum_to_string<fleet_verdict>(r, "to_string(fleet_verdict)", 5);
    const auto args = [](generator& g) {
        const transformer m = draw::model(g);
        return std::tuple{m,
                          draw::fleet_types(g, m),
                          draw::fleet_buckets(g),
                          g.q<request_rate>(20.0),
                          draw::serving_slo(g),
                          g.coin(0.9) ? g.any_enum<prefill_mode>(2, "mode")
                                      : g.any_enum<prefill_mode>(3, "mode"),
                          g.any_enum<routing>(2, "route"),
                          draw::fleet_assumptions(g)};
    };
    add(r, "plan_fleet [checked]", "plan_fleet",
        "gpucalc::plan_fleet(gpucalc::check({0}), {1}, {2}, {3}, {4}, {5}, {6}, {7})", args,
        [](const transformer& m, const carray<fleet_gpu_type, 2>& types,
           const carray<fleet_bucket, 3>& buckets, request_rate rate, const serving_slo& slo,
           prefill_mode mode, routing route, const fleet_assumptions& a) {
            return plan_fleet(checked(m), types.v, buckets.v, rate, slo, mode, route, a);
        });
    add(r, "plan_fleet", "plan_fleet",
        "gpucalc::plan_fleet({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7})", args,
        [](const transformer& m, const carray<fleet_gpu_type, 2>& types,
           const carray<fleet_bucket, 3>& buckets, request_rate rate, const serving_slo& slo,
           prefill_mode mode, routing route, const fleet_assumptions& a) {
            return plan_fleet(m, types.v, buckets.v, rate, slo, mode, route, a);
        });
    add(r, "cheapest_fleet", "cheapest_fleet",
        "gpucalc::cheapest_fleet(fuzz::fleet_table_of({0}, {1}, {2}, {3}, {4}), {5})",
        [](generator& g) {
            carray<fleet_row, 3> rows{};
            for (auto& row : rows.v) {
                row.price = g.q<gpu_price>(typical::gpu_price);
                row.gpus = g.count(2);
                for (request_rate* rate : {&row.rate0, &row.rate1, &row.rate2, &row.rate3}) {
                    *rate = g.coin(0.15) ? g.keep_q(request_rate{}) : g.q<request_rate>(5.0);
                }
            }
            carray<fleet_column, 4> columns{};
            double share[4];
            draw::fleet_shares(g, share);
            for (std::size_t b = 0; b < 4; ++b) {
                columns.v[b].share = share[b];
                columns.v[b].output_mean = g.count(256);
            }
            return std::tuple{g.coin(0.9) ? g.keep(std::int64_t{3}) : g.count(3),
                              g.coin(0.9) ? g.keep(std::int64_t{4}) : g.count(4), rows, columns,
                              g.q<request_rate>(50.0), draw::fleet_assumptions(g)};
        },
        [](std::int64_t types, std::int64_t buckets, const carray<fleet_row, 3>& rows,
           const carray<fleet_column, 4>& columns, request_rate rate, const fleet_assumptions& a) {
            return cheapest_fleet(fleet_table_of(types, buckets, rows, columns, rate), a);
        });
}

}  // namespace fuzz
