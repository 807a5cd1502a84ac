// serving/fleet_search.hpp: the cheapest mix of GPU types for a mix of request sizes, from a
// table of what one replica of each type serves of each size bucket at the SLO: an exhaustive
// search over which type serves each bucket, beside the best fleet of one type (after Mélange: Griggs et al. 2024, "Mélange: Cost Efficient Large Language
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
#include "../units.hpp"
#include "capacity.hpp"
#include "replicas.hpp"

namespace gpucalc {

/// The most GPU types and size buckets a fleet search takes: its tables are fixed arrays, so the
/// search allocates nothing. More is invalid_input naming the field.
inline constexpr std::size_t fleet_type_limit = 8;
inline constexpr std::size_t fleet_bucket_limit = 16;

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
    /// every assignment needs, of some type, more than assumptions.replicas.largest_replicas
    /// replicas or more than 2^40 GPUs
    above_largest,
    /// a bucket's p90s put its lengths' C_s² beyond the queueing approximation's range
    /// (replicas_verdict::service_scv_out_of_range; unservable_bucket says which)
    service_scv_out_of_range,
};

constexpr std::string_view to_string(fleet_verdict v) {
    switch (v) {
        case fleet_verdict::found: return "found";
        case fleet_verdict::bucket_unservable: return "bucket_unservable";
        case fleet_verdict::too_large: return "too_large";
        case fleet_verdict::above_largest: return "above_largest";
        case fleet_verdict::service_scv_out_of_range: return "service_scv_out_of_range";
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
    /// bucket_unservable, service_scv_out_of_range: the first such bucket
    std::size_t unservable_bucket = 0;
    std::int64_t assignments = 0;       ///< assignments searched (or, too_large, counted)
    fleet_choice cheapest{};            ///< the cheapest fleet, mixed or not
    /// The cheapest fleet of one type (found false when no type serves every bucket within the
    /// limits).
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

/// The replicas a type's load needs: ⌈load⌉ less the rounding above, and at least one for any
/// traffic (derived).
constexpr double fleet_replicas(double load) {
    const double r = std::ceil(load - fleet_load_rounding);
    return load > 0.0 ? (r < 1.0 ? 1.0 : r) : 0.0;
}

/// Whether `replicas` of a type with `gpus_per_replica` GPUs each are within the search's
/// limits: at most `largest` replicas (assumptions.replicas.largest_replicas) and 2^40 GPUs.
constexpr bool fleet_within(double replicas, std::int64_t gpus_per_replica, std::int64_t largest) {
    return replicas <= static_cast<double>(largest) &&
           replicas * static_cast<double>(gpus_per_replica) <= static_cast<double>(largest_count);
}

/// "array[i]", naming an element of a table's array in an error.
GPUCALC_DETAIL_COLD inline std::string fleet_element(const char* array, std::size_t i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

/// The table's rules (cheapest_fleet's Ranges); errors name "table.<field>", or, `from_buckets`
/// (plan_fleet, which fills the table from its buckets), the shares as "buckets[i].share".
inline void check_fleet_table(const fleet_table& t, const fleet_assumptions& a,
                              const char* function, bool from_buckets = false) {
    const char* shares = from_buckets ? "buckets" : "table.share";
    const auto share_field = [&](std::size_t b) {
        return from_buckets ? fleet_element(shares, b) + ".share" : fleet_element(shares, b);
    };
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
            throw_invalid(function, share_field(b).c_str(), t.share[b], "", "must be in [0, 1]");
        }
        sum += t.share[b];
        require_count(function, fleet_element("table.output_mean", b).c_str(), t.output_mean[b]);
    }
    if (!(std::fabs(sum - 1.0) <= a.share_tolerance)) {
        // The sum of every share: "buckets[0..n].share" as plan_fleet's caller wrote them.
        const std::string all =
            from_buckets ? "buckets[0.." + std::to_string(t.buckets - 1) + "].share" : shares;
        throw_invalid(function, all.c_str(), sum, "",
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
        if (!(t.share[b] > 0.0)) continue;  // no traffic: no load (and perhaps no serving type)
        c.load[assign[b]] += t.share[b] * lambda / t.replica_rate[assign[b]][b].value();
        tokens_per_request += t.share[b] * static_cast<double>(t.output_mean[b]);
    }
    for (std::size_t g = 0; g < t.types; ++g) {
        c.replicas[g] = static_cast<std::int64_t>(fleet_replicas(c.load[g]));
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
/// Method (Mélange's formulation, Griggs et al. 2024, its problem formulation: GPUs as bins whose capacity is one
/// GPU's largest throughput for a request size at the SLO, slices of the traffic as items; here
/// each bucket is one slice, so a bucket's traffic all goes to one type):
/// - Each bucket b carries λ_b = share_b × λ. On type g it loads λ_b ÷ μ[g][b] replicas; a
///   type's load is the sum over the buckets it serves, and it runs ⌈load⌉ replicas (less
///   fleet_load_rounding; at least one for any load). For one bucket under round-robin this is exactly replicas_for_rate's
///   count: a replica's queue there depends on λ ÷ R alone, so R replicas meet the SLO while
///   λ ÷ R ≤ μ (the unit tests check it). For several buckets on one type the loads are added
///   as Mélange adds them, which assumes a replica serving a share x of its bucket-b rate and
///   1 − x of its bucket-c rate meets the SLO (linear). Optimistic when the TTFT binds: the
///   buckets share one prefill queue, whose wait falls between their waits alone, while the
///   longer prompts' budget (SLO − their prefill) is the smaller, so mixing can push the long
///   bucket's p99 TTFT over the SLO (a few percent at the example's loads). Mélange validates
///   the linear sum on TPOT SLOs. The mixed batch's queue is not modelled. Under join_shortest_queue the pooled queue serves more per replica than alone,
///   so the count is an upper bound.
/// - Cost: Σ_g replicas_g × gpus_per_replica_g × price_g per hour; per million output tokens
///   that ÷ (λ × Σ_b share_b × output_mean_b).
/// - A bucket of share 0 carries nothing and needs no type (it is reported on the first type).
/// - Search: every assignment of a serving type to each bucket (an odometer over the buckets,
///   types that cannot serve a bucket skipped), at most Π_b (types serving b) ≤ 8^16; above
///   assumptions.largest_assignments it answers too_large without searching. Ties keep the
///   first found (the odometer runs the first bucket fastest, types in the order given).
/// - best_single: the cheapest assignment putting every bucket on one type; since those are
///   among the assignments searched, cheapest.hourly ≤ best_single.hourly always.
/// - Limits: a type's replicas are at most assumptions.replicas.largest_replicas and its GPUs
///   at most 2^40; an assignment beyond them is not a fleet.
/// No answer (found = false): some bucket no type serves (bucket_unservable), too_large, or no
/// assignment within the limits (above_largest).
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
        if (!(table.share[b] > 0.0)) {
            // No traffic: the bucket needs no type; it is reported on the first, carrying nothing.
            serving[b][serving_count[b]++] = 0;
            continue;
        }
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
    // λ_b ÷ μ[g][b] and each type's replica price, once; then the odometer (digit[b] indexes
    // serving[b]), recomputing the loads at each step without allocating. An assignment a type
    // cannot hold within the limits (fleet_within) prices at +∞.
    std::array<std::array<double, fleet_bucket_limit>, fleet_type_limit> unit_load{};
    std::array<double, fleet_type_limit> replica_price{};  // $/s per replica
    for (std::size_t g = 0; g < table.types; ++g) {
        replica_price[g] = table.price[g].value() * static_cast<double>(table.gpus_per_replica[g]);
        for (std::size_t b = 0; b < table.buckets; ++b) {
            const double mu = table.replica_rate[g][b].value();
            unit_load[g][b] = mu > 0.0 && table.share[b] > 0.0
                                  ? table.share[b] * table.rate.value() / mu
                                  : 0.0;
        }
    }
    const std::int64_t largest = assumptions.replicas.largest_replicas;
    const auto priced = [&](const std::array<double, fleet_type_limit>& load) {
        double cost = 0.0;
        for (std::size_t g = 0; g < table.types; ++g) {
            const double r = detail::fleet_replicas(load[g]);
            if (!detail::fleet_within(r, table.gpus_per_replica[g], largest)) return HUGE_VAL;
            cost += replica_price[g] * r;
        }
        return cost;
    };
    // The single-type fleets.
    double single_cost = HUGE_VAL;
    for (std::size_t g = 0; g < table.types; ++g) {
        std::array<double, fleet_type_limit> load{};
        bool all = true;
        for (std::size_t b = 0; b < table.buckets; ++b) {
            all = all && (table.replica_rate[g][b].value() > 0.0 || !(table.share[b] > 0.0));
            load[g] += unit_load[g][b];
        }
        const double cost = all ? priced(load) : HUGE_VAL;
        if (cost < single_cost) {
            single_cost = cost;
            out.best_single_type = g;
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
        const double cost = priced(load);
        if (cost < best_cost) {
            best_cost = cost;
            for (std::size_t b = 0; b < table.buckets; ++b) best[b] = serving[b][digit[b]];
        }
        std::size_t b = 0;
        while (b < table.buckets && ++digit[b] == serving_count[b]) digit[b++] = 0;
        if (b == table.buckets) break;
    }
    if (!(best_cost < HUGE_VAL)) {
        out.verdict = fleet_verdict::above_largest;
        return out;
    }
    // Ties keep the single type: the cheapest is never reported above it. The two are compared
    // as they are reported (fleet_cost_of's hourly), not as the search priced them, whose
    // products round differently: a tie there could otherwise come out a hair dearer.
    std::array<std::size_t, fleet_bucket_limit> single{};
    single.fill(out.best_single_type);
    if (single_cost < HUGE_VAL) out.best_single = detail::fleet_cost_of(table, single);
    const fleet_choice mixed = detail::fleet_cost_of(table, best);
    out.cheapest = out.best_single.found && !(mixed.hourly < out.best_single.hourly)
                       ? out.best_single
                       : mixed;
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

}  // namespace gpucalc
