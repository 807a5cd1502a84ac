// serving/fleet.hpp: the cheapest mix of GPU types that serves a mix of request sizes at a
// latency SLO, searched exhaustively over which type serves each size bucket, beside the best
// fleet of one type (after Mélange: Griggs et al. 2024, "Mélange: Cost Efficient Large Language
// Model Serving by Exploiting GPU Heterogeneity", arXiv 2404.14527)
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "../cost/prices.hpp"
#include "../detail/checks.hpp"
#include "../hardware/cluster.hpp"
#include "../units.hpp"
#include "capacity.hpp"
#include "replicas.hpp"

namespace gpucalc {

/// The most GPU types and size buckets a fleet search takes: its tables are fixed arrays, so the
/// search allocates nothing. More is invalid_input naming the field.
inline constexpr std::size_t fleet_type_limit = 8;
inline constexpr std::size_t fleet_bucket_limit = 16;

/// One candidate GPU type: replicas of `setup`'s layout (tensor × pipeline GPUs) on `hardware`'s
/// GPU, paid `price` per GPU-hour. `name` is echoed for the caller's output, never read.
/// Ranges: hardware as check(cluster) says; setup as replica_capacity says; price in
/// [1e-30, $1e9/GPU·h] in base units.
struct fleet_gpu_type {
    std::string_view name{};
    cluster hardware{};
    serving_setup setup{};
    gpu_price price{};
};

/// One request-size bucket: its lengths and its share of the requests.
/// Ranges: profile as request_profile says; share in [0, 1] (the shares sum to 1 within
/// fleet_assumptions::share_tolerance).
struct fleet_bucket {
    request_profile profile{};
    double share = 0.0;
};

/// What one replica of each type serves of each bucket at the SLO, the search's whole input.
/// plan_fleet fills it; a table made by hand is checked (cheapest_fleet's Ranges).
struct fleet_table {
    std::size_t types = 0;    ///< [1, fleet_type_limit]
    std::size_t buckets = 0;  ///< [1, fleet_bucket_limit]
    request_rate rate{};      ///< λ, all buckets together: [1e-30, 1e15] requests/s
    /// μ[g][b]: the largest rate of bucket b one replica of type g serves alone meeting the
    /// SLO; 0: type g cannot serve bucket b at the SLO. Each 0 or in [1e-30, 1e15] requests/s.
    std::array<std::array<request_rate, fleet_bucket_limit>, fleet_type_limit> replica_rate{};
    std::array<std::int64_t, fleet_type_limit> gpus_per_replica{};  ///< each [1, 2^40]
    std::array<gpu_price, fleet_type_limit> price{};  ///< each [1e-30, $1e9/GPU·h]
    std::array<double, fleet_bucket_limit> share{};   ///< each [0, 1], summing to 1
    std::array<std::int64_t, fleet_bucket_limit> output_mean{};  ///< each [1, 2^40]
};

/// What the fleet search assumes. Ranges: share_tolerance in [0, 0.01]; largest_assignments in
/// [1, 2^40]; replicas as replicas_assumptions says.
struct fleet_assumptions {
    /// How far the shares' sum may be from 1: 1e-6, room for shares written to six decimals
    /// (a mix read off a trace's histogram), far below any share that matters.
    double share_tolerance = 1e-6;
    /// The most bucket-to-type assignments searched: 2^24 (16.8 M), which holds 8 types × 8
    /// buckets (8^8 = 2^24) and 6 types × 8 buckets (6^8 ≈ 1.7 M). Only types that can serve a
    /// bucket are tried for it, so the count is the product over buckets of those types. More
    /// answers fleet_verdict::too_large.
    std::int64_t largest_assignments = std::int64_t{1} << 24;
    /// replicas_for_rate's (its replica field: replica_capacity's), for every type and bucket.
    replicas_assumptions replicas{};
};

/// Why a fleet was found, or not.
enum class fleet_verdict {
    found,
    bucket_unservable,  ///< no type serves some bucket at the SLO (unservable_bucket says which)
    too_large,          ///< more assignments than assumptions.largest_assignments
};

constexpr std::string_view to_string(fleet_verdict v) {
    switch (v) {
        case fleet_verdict::found: return "found";
        case fleet_verdict::bucket_unservable: return "bucket_unservable";
        case fleet_verdict::too_large: return "too_large";
    }
    return "unknown";
}

/// One fleet: which type serves each bucket and how many replicas of each type. When found is
/// false every field is 0.
struct fleet_choice {
    bool found = false;
    std::array<std::size_t, fleet_bucket_limit> bucket_type{};  ///< type index per bucket
    std::array<double, fleet_type_limit> load{};     ///< Σ over its buckets of λ_b ÷ μ[g][b]
    std::array<std::int64_t, fleet_type_limit> replicas{};  ///< ⌈load⌉ (see cheapest_fleet)
    std::array<std::int64_t, fleet_type_limit> gpus{};      ///< replicas × gpus_per_replica
    std::int64_t total_gpus = 0;
    std::size_t types_used = 0;   ///< types with at least one replica
    cost_rate hourly{};           ///< Σ gpus × price
    token_price per_million{};    ///< hourly ÷ (λ × Σ share × output_mean)
};

/// cheapest_fleet's and plan_fleet's answer.
struct fleet_plan {
    bool found = false;
    fleet_verdict verdict = fleet_verdict::bucket_unservable;
    std::size_t unservable_bucket = 0;  ///< bucket_unservable: the first such bucket
    std::int64_t assignments = 0;       ///< assignments searched (or, too_large, counted)
    fleet_choice cheapest{};            ///< the cheapest fleet, mixed or not
    /// The cheapest fleet of one type (found false when no type serves every bucket).
    fleet_choice best_single{};
    std::size_t best_single_type = 0;
    /// best_single.hourly − cheapest.hourly (≥ 0), and its share of best_single.hourly: what
    /// mixing saves. With no single-type fleet, 0 and 0.
    cost_rate saving{};
    double saving_share = 0.0;
    bool mixed_beats_single = false;  ///< saving > 0, or no single type serves every bucket
    fleet_table table{};              ///< the table searched
};

namespace detail {

/// A load a little above a whole number by rounding is that whole number: the per-replica
/// rates are replicas_for_rate's break rates, found to break_tolerance (1e-12) of the rate, and
/// a sum of 16 fractions rounds at ~1e-15 each; 1e-9 of a replica is far below both the one
/// replica a load above it adds and any traffic a fleet is sized for.
inline constexpr double fleet_load_rounding = 1e-9;

/// "array[i]", naming an element of a table's array in an error.
GPUCALC_DETAIL_COLD inline std::string fleet_element(const char* array, std::size_t i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

/// The table's rules (cheapest_fleet's Ranges); errors name "table.<field>".
inline void check_fleet_table(const fleet_table& t, const fleet_assumptions& a,
                              const char* function) {
    if (!(t.types >= 1 && t.types <= fleet_type_limit)) {
        throw_invalid(function, "table.types", static_cast<double>(t.types), "",
                      "must be in [1, 8] (fleet_type_limit)");
    }
    if (!(t.buckets >= 1 && t.buckets <= fleet_bucket_limit)) {
        throw_invalid(function, "table.buckets", static_cast<double>(t.buckets), "",
                      "must be in [1, 16] (fleet_bucket_limit)");
    }
    require_positive(function, "table.rate", t.rate);
    if (!(a.share_tolerance >= 0.0 && a.share_tolerance <= 0.01)) {
        throw_invalid(function, "assumptions.share_tolerance", a.share_tolerance, "",
                      "must be in [0, 0.01]");
    }
    require_count(function, "assumptions.largest_assignments", a.largest_assignments);
    double sum = 0.0;
    for (std::size_t b = 0; b < t.buckets; ++b) {
        if (!(t.share[b] >= 0.0 && t.share[b] <= 1.0)) {
            throw_invalid(function, fleet_element("table.share", b).c_str(), t.share[b], "",
                          "must be in [0, 1]");
        }
        sum += t.share[b];
        require_count(function, fleet_element("table.output_mean", b).c_str(), t.output_mean[b]);
    }
    if (!(std::fabs(sum - 1.0) <= a.share_tolerance)) {
        throw_invalid(function, "table.share", sum, "",
                      "must sum to 1 within assumptions.share_tolerance (the value is the sum)");
    }
    for (std::size_t g = 0; g < t.types; ++g) {
        require_count(function, fleet_element("table.gpus_per_replica", g).c_str(),
                      t.gpus_per_replica[g]);
        const double price = t.price[g].value();
        if (!(price >= smallest_input && price <= input_range<gpu_price>::largest)) {
            require_positive(function, fleet_element("table.price", g).c_str(), t.price[g]);
        }
        for (std::size_t b = 0; b < t.buckets; ++b) {
            const double mu = t.replica_rate[g][b].value();
            if (!((mu >= smallest_input && mu <= input_range<request_rate>::largest) ||
                  exactly_equal(mu, 0.0))) {
                require_non_negative(function, (fleet_element("table.replica_rate", g) + "[" + std::to_string(b) + "]").c_str(),
                                     t.replica_rate[g][b]);
            }
        }
    }
}

/// The replicas, GPUs and cost of one assignment (derived; see cheapest_fleet).
inline fleet_choice fleet_cost_of(const fleet_table& t,
                                  const std::array<std::size_t, fleet_bucket_limit>& assign) {
    fleet_choice c{};
    c.found = true;
    c.bucket_type = assign;
    const double lambda = t.rate.value();
    double tokens_per_request = 0.0;
    for (std::size_t b = 0; b < t.buckets; ++b) {
        c.load[assign[b]] += t.share[b] * lambda / t.replica_rate[assign[b]][b].value();
        tokens_per_request += t.share[b] * static_cast<double>(t.output_mean[b]);
    }
    for (std::size_t g = 0; g < t.types; ++g) {
        c.replicas[g] = static_cast<std::int64_t>(std::ceil(c.load[g] - fleet_load_rounding));
        c.gpus[g] = c.replicas[g] * t.gpus_per_replica[g];
        c.total_gpus += c.gpus[g];
        c.types_used += c.replicas[g] > 0 ? 1 : 0;
        c.hourly += t.price[g] * make<gpus>(static_cast<double>(c.gpus[g]));
    }
    const token_rate generated =
        t.rate * make<tokens>(tokens_per_request) / make<sequences>(1.0);
    c.per_million = c.hourly / generated;
    return c;
}

}  // namespace detail

/// The cheapest fleet for a table of per-replica rates, searched exhaustively (no solver).
/// Method (Mélange's formulation, Griggs et al. 2024 §5: GPUs as bins whose capacity is one
/// GPU's largest throughput for a request size at the SLO, slices of the traffic as items; here
/// each bucket is one slice, so a bucket's traffic all goes to one type):
/// - Each bucket b carries λ_b = share_b × λ. On type g it loads λ_b ÷ μ[g][b] replicas; a
///   type's load is the sum over the buckets it serves, and it runs ⌈load⌉ replicas (less
///   fleet_load_rounding). For one bucket under round-robin this is exactly replicas_for_rate's
///   count: a replica's queue there depends on λ ÷ R alone, so R replicas meet the SLO while
///   λ ÷ R ≤ μ (the unit tests check it). For several buckets on one type the loads are added
///   as Mélange adds them, which assumes a replica serving a share x of its bucket-b rate and
///   1 − x of its bucket-c rate meets the SLO (linear; Uncertain: the mixed batch's queue is not
///   modelled). Under join_shortest_queue the pooled queue serves more per replica than alone,
///   so the count is an upper bound.
/// - Cost: Σ_g replicas_g × gpus_per_replica_g × price_g per hour; per million output tokens
///   that ÷ (λ × Σ_b share_b × output_mean_b).
/// - Search: every assignment of a serving type to each bucket (an odometer over the buckets,
///   types that cannot serve a bucket skipped), at most Π_b (types serving b) ≤ 8^16; above
///   assumptions.largest_assignments it answers too_large without searching. Ties keep the
///   first found (the odometer runs the first bucket fastest, types in the order given).
/// - best_single: the cheapest assignment putting every bucket on one type; since those are
///   among the assignments searched, cheapest.hourly ≤ best_single.hourly always.
/// No answer (found = false): some bucket no type serves (bucket_unservable), or too_large.
/// Ranges: the table as fleet_table's fields say (types and buckets counted, the shares
/// summing to 1 within assumptions.share_tolerance); assumptions as fleet_assumptions says.
inline fleet_plan cheapest_fleet(const fleet_table& table, const fleet_assumptions& assumptions = {}) {
    constexpr const char* function = "cheapest_fleet";
    detail::check_fleet_table(table, assumptions, function);
    fleet_plan out{};
    out.table = table;
    // The types that serve each bucket, and the number of assignments.
    std::array<std::array<std::size_t, fleet_type_limit>, fleet_bucket_limit> serving{};
    std::array<std::size_t, fleet_bucket_limit> serving_count{};
    double assignments = 1.0;
    for (std::size_t b = 0; b < table.buckets; ++b) {
        for (std::size_t g = 0; g < table.types; ++g) {
            if (table.replica_rate[g][b].value() > 0.0) serving[b][serving_count[b]++] = g;
        }
        if (serving_count[b] == 0) {
            out.verdict = fleet_verdict::bucket_unservable;
            out.unservable_bucket = b;
            return out;
        }
        assignments *= static_cast<double>(serving_count[b]);
    }
    // ≤ 8^16 = 2^48: exact in a double, and in an int64.
    out.assignments = static_cast<std::int64_t>(assignments);
    if (out.assignments > assumptions.largest_assignments) {
        out.verdict = fleet_verdict::too_large;
        return out;
    }
    // The single-type fleets.
    for (std::size_t g = 0; g < table.types; ++g) {
        bool all = true;
        for (std::size_t b = 0; b < table.buckets; ++b) {
            all = all && table.replica_rate[g][b].value() > 0.0;
        }
        if (!all) continue;
        std::array<std::size_t, fleet_bucket_limit> assign{};
        assign.fill(g);
        const fleet_choice c = detail::fleet_cost_of(table, assign);
        if (!out.best_single.found || c.hourly < out.best_single.hourly) {
            out.best_single = c;
            out.best_single_type = g;
        }
    }
    // The odometer: digit[b] indexes serving[b]. Each step's loads are recomputed from the
    // precomputed λ_b ÷ μ (no allocation; the cost is the sum of the priced ceilings).
    std::array<std::array<double, fleet_bucket_limit>, fleet_type_limit> unit_load{};
    std::array<double, fleet_type_limit> replica_price{};  // $/s per replica
    for (std::size_t g = 0; g < table.types; ++g) {
        replica_price[g] = table.price[g].value() * static_cast<double>(table.gpus_per_replica[g]);
        for (std::size_t b = 0; b < table.buckets; ++b) {
            const double mu = table.replica_rate[g][b].value();
            unit_load[g][b] = mu > 0.0 ? table.share[b] * table.rate.value() / mu : 0.0;
        }
    }
    std::array<std::size_t, fleet_bucket_limit> digit{};
    std::array<std::size_t, fleet_bucket_limit> best{};
    double best_cost = HUGE_VAL;
    for (;;) {
        std::array<double, fleet_type_limit> load{};
        for (std::size_t b = 0; b < table.buckets; ++b) {
            const std::size_t g = serving[b][digit[b]];
            load[g] += unit_load[g][b];
        }
        double cost = 0.0;
        for (std::size_t g = 0; g < table.types; ++g) {
            cost += replica_price[g] * std::ceil(load[g] - detail::fleet_load_rounding);
        }
        if (cost < best_cost) {
            best_cost = cost;
            for (std::size_t b = 0; b < table.buckets; ++b) best[b] = serving[b][digit[b]];
        }
        std::size_t b = 0;
        while (b < table.buckets && ++digit[b] == serving_count[b]) digit[b++] = 0;
        if (b == table.buckets) break;
    }
    out.cheapest = detail::fleet_cost_of(table, best);
    // The priced sum of the search and fleet_cost_of's may differ in the last bit: the
    // cheapest is never reported above the single type it could have been.
    if (out.best_single.found && out.best_single.hourly <= out.cheapest.hourly) {
        out.cheapest = out.best_single;
    }
    out.found = true;
    out.verdict = fleet_verdict::found;
    if (out.best_single.found) {
        out.saving = out.best_single.hourly - out.cheapest.hourly;
        out.saving_share = out.saving / out.best_single.hourly;
        out.mixed_beats_single = out.saving.value() > 0.0;
    } else {
        out.mixed_beats_single = true;
    }
    return out;
}

namespace detail {

/// The largest rate one replica serves alone at the SLO: replicas_for_rate at a probe rate far
/// below the replica's sustainable rate (fleet_probe_share of it) needs one replica, and its
/// break_rate is then the answer (divided by the replicas, should more be needed); 0 when
/// replicas_for_rate finds none (the replica is infeasible, or its TTFT floor plus the queues
/// misses the SLO at any rate).
inline constexpr double fleet_probe_share = 1e-6;

inline request_rate fleet_replica_rate(const replica_capacity_estimate& e,
                                       const request_profile& p, routing route,
                                       const replicas_assumptions& a) {
    if (!e.feasible) return request_rate{};
    const request_rate probe = e.sustainable_rate * fleet_probe_share;
    if (!(probe.value() >= smallest_input)) return request_rate{};
    const replicas_estimate r = replicas_for_rate(e, p, route, probe, a);
    if (!r.found) return request_rate{};
    return r.break_rate / static_cast<double>(r.replicas);
}

}  // namespace detail

namespace detail {

/// plan_fleet on arrays.
inline fleet_plan plan_fleet_core(const checked_model& model, const fleet_gpu_type* t,
                                  std::size_t n_types, const fleet_bucket* k,
                                  std::size_t n_buckets, request_rate rate, const serving_slo& slo,
                                  prefill_mode mode, routing route, const fleet_assumptions& a) {
    constexpr const char* function = "plan_fleet";
    if (!(n_types >= 1 && n_types <= fleet_type_limit)) {
        throw_invalid(function, "types", static_cast<double>(n_types), "",
                      "must hold 1 to 8 GPU types (fleet_type_limit); the value is the count");
    }
    if (!(n_buckets >= 1 && n_buckets <= fleet_bucket_limit)) {
        throw_invalid(function, "buckets", static_cast<double>(n_buckets), "",
                      "must hold 1 to 16 buckets (fleet_bucket_limit); the value is the count");
    }
    check_slo(slo, function);
    require_enumerator(function, "mode", mode, 3, "prefill_mode");
    if (mode == prefill_mode::disaggregated) {
        throw_invalid(function, "mode", 2.0, "",
                      "must be stall or chunked: a disaggregated prefill pool is sized on the "
                      "whole rate and does not split into per-bucket loads");
    }
    fleet_table table{};
    table.types = n_types, table.buckets = n_buckets, table.rate = rate;
    for (std::size_t b = 0; b < n_buckets; ++b) {
        const request_profile& p = k[b].profile;
        const auto field = [b](const char* member) { return indexed_field("buckets", b, member); };
        require_count(function, field("profile.prompt_mean").c_str(), p.prompt_mean);
        require_count(function, field("profile.output_mean").c_str(), p.output_mean);
        if (p.prompt_p90 != 0 && !(p.prompt_p90 >= p.prompt_mean && p.prompt_p90 <= largest_count)) {
            throw_invalid(function, field("profile.prompt_p90").c_str(),
                          static_cast<double>(p.prompt_p90), "",
                          "must be 0 (the mean) or in [profile.prompt_mean, 2^40]");
        }
        if (p.output_p90 != 0 && !(p.output_p90 >= p.output_mean && p.output_p90 <= largest_count)) {
            throw_invalid(function, field("profile.output_p90").c_str(),
                          static_cast<double>(p.output_p90), "",
                          "must be 0 (the mean) or in [profile.output_mean, 2^40]");
        }
        if (!(k[b].share >= 0.0 && k[b].share <= 1.0)) {
            throw_invalid(function, field("share").c_str(), k[b].share, "", "must be in [0, 1]");
        }
        table.share[b] = k[b].share, table.output_mean[b] = p.output_mean;
    }
    for (std::size_t g = 0; g < n_types; ++g) {
        require_positive_at(function, "types", g, "price", t[g].price);
        table.price[g] = t[g].price;
        table.gpus_per_replica[g] = 1;  // until replica_capacity says
    }
    // The rate, the shares' sum and the assumptions, before the replica searches.
    check_fleet_table(table, a, function);
    check_replicas_inputs(function, k[0].profile, route, rate, a.replicas, true);
    for (std::size_t g = 0; g < n_types; ++g) {
        const checked_cluster c = check_cluster(t[g].hardware, function);
        for (std::size_t b = 0; b < n_buckets; ++b) {
            const replica_capacity_estimate e = replica_capacity_as(
                model, c, t[g].setup, k[b].profile, slo, mode, a.replicas.replica, function);
            table.gpus_per_replica[g] = e.gpus;
            table.replica_rate[g][b] = fleet_replica_rate(e, k[b].profile, route, a.replicas);
        }
    }
    return cheapest_fleet(table, a);
}

}  // namespace detail

/// The cheapest fleet of `types` that serves λ = `rate` requests/s split over `buckets` at
/// `slo`, prefill in `mode`, requests spread by `route` within each type: the table of
/// per-replica rates (one replica_capacity and one replicas_for_rate per type and bucket: the
/// largest rate one replica of type g serves of bucket b alone, meeting the TPOT and the TTFT
/// at assumptions.replicas.ttft_percentile), then cheapest_fleet's search.
/// `Types` and `Buckets` are contiguous containers (std::array, std::vector, a C array) of
/// fleet_gpu_type and fleet_bucket.
/// Ranges: types 1 to fleet_type_limit, each as fleet_gpu_type says (errors about its cluster
/// or setup name the fields as check(cluster) and replica_capacity do); buckets 1 to
/// fleet_bucket_limit, each as fleet_bucket says, shares summing to 1 within
/// assumptions.share_tolerance; rate in [1e-30, 1e15] requests/s; slo as replica_capacity
/// says; mode stall or chunked (disaggregated prefill sizes a prefill pool on the whole rate,
/// which load fractions do not split: invalid_input); route an enumerator; assumptions as
/// fleet_assumptions says. Time: types × buckets replica searches, then the search (6 types ×
/// 8 buckets: see docs/serving.md, "Mixed GPU fleets").
template <class Types, class Buckets>
fleet_plan plan_fleet(const checked_model& model, const Types& types, const Buckets& buckets,
                      request_rate rate, const serving_slo& slo, prefill_mode mode, routing route,
                      const fleet_assumptions& assumptions = {}) {
    return detail::plan_fleet_core(model, std::data(types), std::size(types), std::data(buckets),
                                   std::size(buckets), rate, slo, mode, route, assumptions);
}

/// The same for a model not yet checked: checks it first.
template <class Types, class Buckets>
fleet_plan plan_fleet(const transformer& model, const Types& types, const Buckets& buckets,
                      request_rate rate, const serving_slo& slo, prefill_mode mode, routing route,
                      const fleet_assumptions& assumptions = {}) {
    return plan_fleet(check(model, "plan_fleet"), types, buckets, rate, slo, mode, route,
                      assumptions);
}

}  // namespace gpucalc
