// serving/fleet.hpp: the cheapest mix of GPU types that serves a mix of request sizes at a
// latency SLO: what one replica of each type serves of each size bucket (replica_capacity and
// replicas_for_rate), then fleet_search.hpp's exhaustive search, beside the best single type
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include "../cost/prices.hpp"
#include "../detail/checks.hpp"
#include "../hardware/cluster.hpp"
#include "../model.hpp"
#include "../units.hpp"
#include "capacity.hpp"
#include "fleet_search.hpp"
#include "replicas.hpp"

namespace gpucalc {

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

namespace detail {

/// The largest rate one replica serves alone at the SLO: replicas_for_rate at a probe rate far
/// below the replica's sustainable rate (fleet_probe_share of it) needs one replica, and its
/// break_rate is then the answer (divided by the replicas, should more be needed); 0 when
/// replicas_for_rate finds none (the replica is infeasible, or its TTFT floor plus the queues
/// misses the SLO at any rate). 1e-6: at that load the queues' waits are a millionth of
/// their scale, far below any SLO, and the probe stays far above the 1e-30 requests/s floor.
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

/// Rethrows an error about one GPU type's cluster or setup with the field named as the caller
/// wrote it: "plan_fleet: types[1].hardware.node.gpu.memory = ..." or "types[0].setup.parallel.
/// tensor ...", not the bare field of the inner check, which would not say which type it is.
[[noreturn]] GPUCALC_DETAIL_COLD inline void rethrow_for_type(const invalid_input& e,
                                                              const char* function,
                                                              std::size_t type,
                                                              const char* part) {
    std::string message = e.what();
    const std::string head = std::string(function) + ": ";
    const auto field_starts = [&](const char* prefix) {
        return message.compare(head.size(), std::string_view(prefix).size(), prefix) == 0;
    };
    // The shared assumptions and the buckets' profiles are no type's, and are named already.
    if (message.compare(0, head.size(), head) == 0 && !field_starts("assumptions.") &&
        !field_starts("profile.")) {
        // Appended, not "types[" + std::to_string(type): GCC 12 can flag that insert at the front
        // of a temporary with a false -Wrestrict at -O2 (GCC Bugzilla 105329).
        std::string field = "types[";
        field += std::to_string(type);
        field += "].";
        field += part;
        message.insert(head.size(), field);
    }
    throw invalid_input(message);
}

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
    // The rate, the shares' sum and the assumptions, before the replica searches; the rate
    // first, named as the caller wrote it.
    require_positive(function, "rate", rate);
    check_fleet_table(table, a, function, true);
    check_replicas_inputs(function, k[0].profile, route, rate, a.replicas, true);
    // A bucket with traffic whose lengths are beyond the queueing approximation: no fleet.
    for (std::size_t b = 0; b < n_buckets; ++b) {
        if (k[b].share > 0.0 &&
            !length_scv_in_range(k[b].profile, a.replicas.default_service_scv)) {
            fleet_plan plan{};
            plan.verdict = fleet_verdict::service_scv_out_of_range;
            plan.unservable_bucket = b;
            plan.table = table;
            return plan;
        }
    }
    for (std::size_t g = 0; g < n_types; ++g) {
        const checked_cluster c = [&] {
            try {
                return check_cluster(t[g].hardware, function);
            } catch (const invalid_input& e) {
                rethrow_for_type(e, function, g, "hardware.");
            }
        }();
        for (std::size_t b = 0; b < n_buckets; ++b) {
            replica_capacity_estimate e{};
            try {
                e = replica_capacity_as(model, c, t[g].setup, k[b].profile, slo, mode,
                                        a.replicas.replica, function);
            } catch (const invalid_input& error) {
                rethrow_for_type(error, function, g, "setup.");
            }
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
/// Ranges: types 1 to fleet_type_limit, each as fleet_gpu_type says (an error about its
/// cluster or setup names the field as types[g].hardware.… or types[g].setup.…); buckets 1 to
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
