// serving_bench.cpp: how fast a capacity planner can size a serving fleet: queue_wait (one
// Erlang C and the M/M/c waits), servers_for_wait (the fewest servers for a p99 wait) and
// replicas_for_rate (the fewest replicas for a rate at a TTFT and TPOT SLO, with the break rate)
// at about 64 and 4,096 servers (batch slots), each beside its raw-double twin (twin_support.hpp
// says how a twin is written), so the ratio is the price of gpucalc's unit types. The Erlang
// recurrence takes no quantity, so it is the library's own code on both sides.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/serving/queueing.hpp>
#include <gpucalc/serving/replicas.hpp>

#include <benchmark/benchmark.h>

#include "twin_serving.hpp"
#include "twin_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

namespace detail = gpucalc::detail;
using twin::input_mask;

// --- the twin, in requests/s and seconds ---------------------------------------------------------

struct raw_queue {
    double offered_load, utilization;
    bool stable;
    double wait_probability, service_factor, mean_wait, percentile, percentile_wait;
};

/// detail::check_queue, transliterated.
GPUCALC_DETAIL_INLINE inline void raw_check_queue(const char* function, double arrival_rate,
                                                  double mean_service_time, double scv,
                                                  double percentile) {
    twin::require_non_negative<gpucalc::request_rate>(function, "arrival_rate", arrival_rate);
    twin::require_positive<gpucalc::duration>(function, "mean_service_time", mean_service_time);
    if (!(scv >= 0.0 && scv <= gpucalc::largest_service_scv)) {
        detail::throw_bad_fraction(function, "service_scv", scv, "must be in [0, 1e6]");
    }
    if (!(percentile > 0.0 && percentile < 1.0)) {
        detail::throw_bad_fraction(function, "percentile", percentile, "must be in (0, 1)");
    }
}

/// detail::queue_wait_checked, transliterated.
inline raw_queue raw_wait_checked(double lambda, double s, std::int64_t servers, double scv,
                                  double percentile) {
    raw_queue q{};
    const double c = static_cast<double>(servers);
    const double a = lambda * s;
    q.offered_load = a;
    q.utilization = a / c;
    q.percentile = percentile;
    q.stable = true;
    const double arrival_scv = 1.0;
    q.service_factor = (arrival_scv + scv) / 2.0;
    if (!(a < c)) {
        q.stable = false;
        q.wait_probability = 1.0;
        return q;
    }
    const bool one = servers == 1 || !(a > 0.0);
    const double inverse = one ? 0.0 : detail::erlang_c_inverse(servers, a);
    const double waits = one ? detail::erlang_c_stable(servers, a) : 1.0 / inverse;
    q.wait_probability = waits;
    const double drain_time = s / (c - a);
    q.mean_wait = q.service_factor * waits * drain_time;
    const double tail_ratio =
        one ? waits / (1.0 - percentile) : 1.0 / (inverse * (1.0 - percentile));
    q.percentile_wait = tail_ratio > 1.0 ? q.service_factor * std::log(tail_ratio) * drain_time : 0.0;
    return q;
}

GPUCALC_DETAIL_HOT inline raw_queue raw_queue_wait(double lambda, double s, std::int64_t servers,
                                                   double scv, double percentile) {
    raw_check_queue("queue_wait", lambda, s, scv, percentile);
    detail::require_count("queue_wait", "servers", servers);
    return raw_wait_checked(lambda, s, servers, scv, percentile);
}

struct raw_search {
    bool found = false;
    std::int64_t servers = 0;
    raw_queue queue{};
    int evaluations = 0;
};

/// servers_for_wait, transliterated (target fields in seconds).
GPUCALC_DETAIL_HOT inline raw_search raw_servers_for_wait(double lambda, double s,
                                                          double target_p, double percentile,
                                                          double target_mean, double scv,
                                                          std::int64_t largest_servers) {
    constexpr const char* function = "servers_for_wait";
    raw_check_queue(function, lambda, s, scv, percentile);
    twin::require_positive<gpucalc::duration>(function, "target.percentile_wait", target_p);
    twin::require_non_negative<gpucalc::duration>(function, "target.mean_wait", target_mean);
    detail::require_count(function, "largest_servers", largest_servers);
    const double a = lambda * s;
    raw_search answer{};
    const double first = std::floor(a) + 1.0;
    if (first > static_cast<double>(largest_servers)) return answer;
    const bool has_mean_target = target_mean > 0.0;
    auto meets = [&](std::int64_t c, raw_queue& q) {
        q = raw_wait_checked(lambda, s, c, scv, percentile);
        ++answer.evaluations;
        return q.stable && q.percentile_wait <= target_p &&
               (!has_mean_target || q.mean_wait <= target_mean);
    };
    raw_queue q{};
    std::int64_t fails = static_cast<std::int64_t>(first) - 1;
    std::int64_t step = 1;
    std::int64_t candidate = fails + 1;
    while (!meets(candidate, q)) {
        if (candidate >= largest_servers) return answer;
        fails = candidate;
        candidate = largest_servers - fails > step ? fails + step : largest_servers;
        step *= 2;
    }
    raw_queue best = q;
    std::int64_t good = candidate;
    while (good - fails > 1) {
        const std::int64_t mid = fails + (good - fails) / 2;
        if (meets(mid, q)) {
            good = mid;
            best = q;
        } else {
            fails = mid;
        }
    }
    answer.found = true;
    answer.servers = good;
    answer.queue = best;
    return answer;
}

// --- replicas_for_rate's twin ---------------------------------------------------------------

struct raw_trial {
    bool meets = false;
    twin::raw_load load{};
    double service_scv = 1.0, slot_time = 0.0;
    raw_queue slot_queue{};
    double prefill_wait = 0.0, ttft = 0.0;
};

/// detail::replicas_parts, in base units.
struct raw_replicas_parts {
    twin::raw_load_parts load{};
    double prefill_hold = 0.0, c2_prompt = 1.0, c2_output = 1.0;
};

/// detail::replicas_parts_of, transliterated.
inline raw_replicas_parts raw_replicas_parts_of(const twin::raw_replica& e,
                                                const gpucalc::request_profile& p,
                                                const gpucalc::replicas_assumptions& a) {
    raw_replicas_parts k{};
    const twin::raw_step& s = e.step;
    k.load = twin::raw_load_parts_of(s);
    k.prefill_hold = s.mode == gpucalc::prefill_mode::stall     ? s.prefill_time
                     : s.mode == gpucalc::prefill_mode::chunked ? e.time_to_first_token
                                                                : 0.0;
    k.c2_prompt = p.prompt_p90 > 0 ? detail::scv_from_p90(p.prompt_mean, p.prompt_p90)
                                   : a.default_service_scv;
    k.c2_output = p.output_p90 > 0 ? detail::scv_from_p90(p.output_mean, p.output_p90)
                                   : a.default_service_scv;
    return k;
}

/// detail::replicas_try, transliterated.
inline raw_trial raw_replicas_try(const twin::raw_replica& e, const raw_replicas_parts& k,
                                  gpucalc::routing route, const gpucalc::replicas_assumptions& a,
                                  double lambda, std::int64_t r) {
    raw_trial t{};
    const twin::raw_step& s = e.step;
    const double per_replica = lambda / static_cast<double>(r);
    t.load = twin::raw_load_at(s, per_replica, k.load);
    const double tau = t.load.time_per_token;
    const double d = static_cast<double>(s.output_tokens);
    const double prefill_hold = k.prefill_hold;
    const double decode_hold = d * tau;
    t.slot_time = prefill_hold + decode_hold;
    const double c2_prompt = k.c2_prompt;
    const double c2_output = k.c2_output;
    const double hold = prefill_hold + decode_hold;
    t.service_scv = (prefill_hold * prefill_hold * c2_prompt + decode_hold * decode_hold * c2_output) /
                    (hold * hold);
    if (t.service_scv > gpucalc::largest_service_scv) t.service_scv = gpucalc::largest_service_scv;
    if (!t.load.slo_met) return t;
    const bool pooled = route == gpucalc::routing::join_shortest_queue;
    const double arrivals = pooled ? lambda : per_replica;
    const std::int64_t servers = pooled ? r * s.batch : s.batch;
    const double servers_d = static_cast<double>(r) * static_cast<double>(s.batch);
    if (pooled && servers_d > gpucalc::largest_offered_load) return t;
    t.slot_queue = raw_wait_checked(arrivals, hold, servers, t.service_scv, a.ttft_percentile);
    if (!t.slot_queue.stable) return t;
    double first_token = e.time_to_first_token;
    if (s.mode == gpucalc::prefill_mode::stall) {
        const raw_queue q = raw_wait_checked(per_replica, s.prefill_time, 1, c2_prompt,
                                             a.ttft_percentile);
        if (!q.stable) return t;
        t.prefill_wait = q.percentile_wait + e.time_per_token;
        first_token += t.prefill_wait;
    }
    t.ttft = t.slot_queue.percentile_wait + first_token;
    t.meets = t.ttft <= s.slo_ttft;
    return t;
}

/// replicas_estimate's fields, in base units (replica: the estimate's, as the library copies it).
struct raw_replicas {
    bool found = false;
    gpucalc::replicas_verdict verdict = gpucalc::replicas_verdict::replica_infeasible;
    gpucalc::prefill_mode mode = gpucalc::prefill_mode::stall;
    gpucalc::routing route = gpucalc::routing::round_robin;
    double rate = 0.0, percentile = 0.99;
    std::int64_t replicas = 0, gpus_per_replica = 1, gpus = 0;
    std::int64_t prefill_servers = 0, prefill_gpus = 0, total_gpus = 0;
    double utilization = 0.0;
    twin::raw_load load{};
    double service_scv = 1.0, slot_time = 0.0;
    raw_queue slot_queue{};
    double prefill_wait = 0.0, ttft = 0.0, time_per_token = 0.0, break_rate = 0.0, headroom = 0.0;
    twin::raw_replica replica{};
    std::int64_t largest_batch = 0;
    int evaluations = 0;
};

/// replicas_for_rate (the estimate's overload), transliterated (rate in requests/s).
GPUCALC_DETAIL_HOT inline raw_replicas raw_replicas_for_rate(
    const twin::raw_replica& replica, const gpucalc::request_profile& profile,
    gpucalc::routing route, double rate, const gpucalc::replicas_assumptions& assumptions = {}) {
    constexpr const char* function = "replicas_for_rate";
    // detail::check_replicas_inputs: the profile, route and fractions are quantity-free.
    detail::check_request_profile(profile, function);
    detail::require_enumerator(function, "route", route, 2, "routing");
    twin::require_positive<gpucalc::request_rate>(function, "rate", rate);
    if (!(assumptions.ttft_percentile > 0.0 && assumptions.ttft_percentile < 1.0)) {
        detail::throw_invalid(function, "assumptions.ttft_percentile", assumptions.ttft_percentile,
                              "", "must be in (0, 1)");
    }
    if (!(assumptions.default_service_scv >= 0.0 &&
          assumptions.default_service_scv <= gpucalc::largest_service_scv)) {
        detail::throw_invalid(function, "assumptions.default_service_scv",
                              assumptions.default_service_scv, "", "must be in [0, 1e6]");
    }
    detail::require_count(function, "assumptions.largest_replicas", assumptions.largest_replicas);
    raw_replicas out{};
    out.mode = replica.mode;
    out.route = route;
    out.rate = rate;
    out.percentile = assumptions.ttft_percentile;
    out.gpus_per_replica = replica.gpus;
    out.replica = replica;
    out.largest_batch = replica.feasible ? replica.step.batch : 0;  // the estimate's batch
    if (!replica.feasible) return out;
    const double lambda = rate;
    const std::int64_t cap = assumptions.largest_replicas;
    const raw_replicas_parts parts = raw_replicas_parts_of(replica, profile, assumptions);
    if (!(parts.c2_prompt <= gpucalc::largest_service_scv &&
          parts.c2_output <= gpucalc::largest_service_scv)) {
        out.verdict = gpucalc::replicas_verdict::service_scv_out_of_range;
        out.service_scv = parts.c2_prompt > parts.c2_output ? parts.c2_prompt : parts.c2_output;
        return out;
    }
    const auto trial = [&](std::int64_t r, double lam) {
        ++out.evaluations;
        return raw_replicas_try(replica, parts, route, assumptions, lam, r);
    };
    const double lowest = std::ceil(lambda / replica.sustainable_rate);
    out.verdict = gpucalc::replicas_verdict::above_largest;
    if (!(lowest <= static_cast<double>(cap))) return out;
    std::int64_t fails = lowest > 1.0 ? static_cast<std::int64_t>(lowest) - 1 : 0;
    std::int64_t step = 1;
    std::int64_t candidate = fails + 1;
    raw_trial t = trial(candidate, lambda);
    while (!t.meets) {
        if (candidate >= cap) return out;
        fails = candidate;
        candidate = cap - fails > step ? fails + step : cap;
        step *= 2;
        t = trial(candidate, lambda);
    }
    std::int64_t good = candidate;
    raw_trial best = t;
    while (good - fails > 1) {
        const std::int64_t mid = fails + (good - fails) / 2;
        const raw_trial m = trial(mid, lambda);
        if (m.meets) {
            good = mid;
            best = m;
        } else {
            fails = mid;
        }
    }
    if (replica.mode == gpucalc::prefill_mode::disaggregated && replica.prefill_time > 0.0) {
        const double budget = replica.step.slo_ttft - replica.prefill_time;
        if (budget < 0.0) {
            out.verdict = gpucalc::replicas_verdict::replica_infeasible;
            return out;
        }
        const raw_search pool = raw_servers_for_wait(lambda, replica.prefill_time, budget,
                                                     assumptions.ttft_percentile, 0.0,
                                                     parts.c2_prompt, detail::largest_count);
        if (!pool.found) return out;
        out.prefill_servers = pool.servers;
        out.prefill_gpus = pool.servers * replica.gpus;
    }
    out.found = true;
    out.verdict = gpucalc::replicas_verdict::found;
    out.replicas = good;
    out.gpus = good * replica.gpus;
    out.load = best.load;
    out.utilization = best.load.utilization;
    out.service_scv = best.service_scv;
    out.slot_time = best.slot_time;
    out.slot_queue = best.slot_queue;
    out.prefill_wait = best.prefill_wait;
    out.ttft = best.ttft;
    out.time_per_token = best.load.time_per_token;
    double lo = lambda;
    double hi = static_cast<double>(good) * replica.sustainable_rate;
    const raw_trial top = trial(good, hi);
    if (top.meets) {
        lo = hi;
    } else {
        // detail::break_rate_search is quantity-free (doubles in seconds and requests/s): the
        // library's own, as erlang_c_stable is.
        const auto probe = [&](double lam) {
            const raw_trial x = trial(good, lam);
            return detail::break_probe{x.meets, x.ttft};
        };
        lo = detail::break_rate_search(probe, lo, hi, detail::break_probe{best.meets, best.ttft},
                                       detail::break_probe{top.meets, top.ttft},
                                       replica.step.slo_ttft);
    }
    out.break_rate = lo;
    out.headroom = lo / lambda - 1.0;
    out.total_gpus = out.gpus + out.prefill_gpus;
    return out;
}

// --- inputs -----------------------------------------------------------------------------------

constexpr double service_seconds = 8.0;  // a request holds a slot 8 s (prefill + 256 tokens)
constexpr double p99 = 0.99;

/// Arrival rates that load `servers` slots to ρ in [0.5, 0.95].
std::vector<double> rates_for(std::int64_t servers) {
    std::vector<double> v;
    for (double rho : twin::varied_real(0.5, 0.95, 20261123)) {
        v.push_back(rho * static_cast<double>(servers) / service_seconds);
    }
    return v;
}
/// p99 wait targets, 50 ms to 1 s.
std::vector<double> targets() { return twin::varied_real(0.05, 1.0, 20261124); }

// replicas_for_rate: Llama-3-8B on one H100 SXM (bf16, 1,024-token prompts and 256-token answers
// with p90s 2,048 and 512, p99 TTFT 500 ms and 33 ms a token, prefill stalling the batch), its
// batch capped at 64 so a replica has 64 slots. At 64 slots: round-robin, each replica's own
// 64-slot queue, at 0.5 to 0.95 of one replica's sustainable rate (one replica). At 4,096 slots:
// join-shortest-queue, one central queue for R × 64 slots, at 0.93 to 0.99 of 64 replicas'
// sustainable rate (about 64 replicas, 4,096 slots). The estimate is made once.
constexpr std::int64_t replica_slots = 64;
constexpr std::int64_t pooled_replicas = 64;

const gpucalc::request_profile& chat_profile() {
    static const gpucalc::request_profile p{1024, 256, 2048, 512};
    return p;
}
const gpucalc::replica_capacity_estimate& h100_replica() {
    static const gpucalc::replica_capacity_estimate e = [] {
        gpucalc::cluster c{};
        c.node.gpu = gpucalc::catalog::h100_sxm;
        c.node.gpus_per_node = 1;
        gpucalc::serving_setup setup{};
        setup.kv_block_tokens = 16;
        gpucalc::replica_assumptions a{};
        a.batch_limit = replica_slots;
        const gpucalc::serving_slo slo{gpucalc::make<gpucalc::milliseconds>(500.0),
                                       gpucalc::make<gpucalc::milliseconds>(33.0)};
        return gpucalc::replica_capacity(gpucalc::check(gpucalc::catalog::llama_3_8b),
                                         gpucalc::check(c), setup, chat_profile(), slo,
                                         gpucalc::prefill_mode::stall, a);
    }();
    return e;
}
const twin::raw_replica& h100_raw() {
    static const twin::raw_replica r = twin::raw_from(h100_replica());
    return r;
}
gpucalc::routing route_for(std::int64_t slots) {
    return slots == replica_slots ? gpucalc::routing::round_robin
                                  : gpucalc::routing::join_shortest_queue;
}
/// Request rates whose search's queue has about `slots` servers (see above).
std::vector<double> replica_rates(std::int64_t slots) {
    const double sustainable = h100_replica().sustainable_rate.value();
    std::vector<double> v;
    if (slots == replica_slots) {
        for (double f : twin::varied_real(0.5, 0.95, 20261125)) v.push_back(f * sustainable);
    } else {
        for (double f : twin::varied_real(0.93, 0.99, 20261126)) {
            v.push_back(f * static_cast<double>(pooled_replicas) * sustainable);
        }
    }
    return v;
}

__attribute__((noinline)) gpucalc::replicas_estimate library_replicas(double lambda,
                                                                      gpucalc::routing route) {
    return gpucalc::replicas_for_rate(h100_replica(), chat_profile(), route,
                                      gpucalc::make<gpucalc::requests_per_second>(lambda));
}
__attribute__((noinline)) raw_replicas twin_replicas(double lambda, gpucalc::routing route) {
    return raw_replicas_for_rate(h100_raw(), chat_profile(), route, lambda);
}

void expect_same_queue(const gpucalc::queue_wait_estimate& lib, const raw_queue& raw) {
    twin::expect_same("offered load", lib.offered_load, raw.offered_load);
    twin::expect_same("utilization", lib.utilization, raw.utilization);
    twin::expect_same("stable", lib.stable, raw.stable);
    twin::expect_same("wait probability", lib.wait_probability, raw.wait_probability);
    twin::expect_same("service factor", lib.service_factor, raw.service_factor);
    twin::expect_same("mean wait", lib.mean_wait, raw.mean_wait);
    twin::expect_same("percentile", lib.percentile, raw.percentile);
    twin::expect_same("percentile wait", lib.percentile_wait, raw.percentile_wait);
}

__attribute__((noinline)) gpucalc::queue_wait_estimate library_wait(double lambda,
                                                                    std::int64_t c) {
    return gpucalc::queue_wait(gpucalc::make<gpucalc::requests_per_second>(lambda),
                               gpucalc::make<gpucalc::seconds>(service_seconds), c, 1.0, p99);
}
__attribute__((noinline)) raw_queue twin_wait(double lambda, std::int64_t c) {
    return raw_queue_wait(lambda, service_seconds, c, 1.0, p99);
}
__attribute__((noinline)) gpucalc::server_search library_search(double lambda, double target) {
    gpucalc::wait_target t{};
    t.percentile_wait = gpucalc::make<gpucalc::seconds>(target);
    t.percentile = p99;
    return gpucalc::servers_for_wait(gpucalc::make<gpucalc::requests_per_second>(lambda),
                                     gpucalc::make<gpucalc::seconds>(service_seconds), t, 1.0);
}
__attribute__((noinline)) raw_search twin_search(double lambda, double target) {
    return raw_servers_for_wait(lambda, service_seconds, target, p99, 0.0, 1.0,
                                detail::largest_count);
}

void check_twins() {
    for (std::int64_t c : {64, 4096}) {
        const std::vector<double> rates = rates_for(c);
        const std::vector<double> t = targets();
        for (std::size_t i = 0; i < rates.size(); ++i) {
            expect_same_queue(library_wait(rates[i], c), twin_wait(rates[i], c));
            const gpucalc::server_search lib = library_search(rates[i], t[i]);
            const raw_search raw = twin_search(rates[i], t[i]);
            twin::expect_same("found", lib.found, raw.found);
            twin::expect_same("servers", lib.servers, raw.servers);
            twin::expect_same("evaluations", lib.evaluations, raw.evaluations);
            expect_same_queue(lib.queue, raw.queue);
        }
    }
    if (h100_replica().batch != replica_slots) {
        std::fprintf(stderr, "the H100 replica's batch is %lld, not 64\n",
                     static_cast<long long>(h100_replica().batch));
        std::abort();
    }
    for (std::int64_t slots : {replica_slots, replica_slots * pooled_replicas}) {
        for (double lambda : replica_rates(slots)) {
            const gpucalc::replicas_estimate lib = library_replicas(lambda, route_for(slots));
            const raw_replicas raw = twin_replicas(lambda, route_for(slots));
            twin::expect_same("found", lib.found, raw.found);
            twin::expect_same("verdict", lib.verdict, raw.verdict);
            twin::expect_same("replicas", lib.replicas, raw.replicas);
            twin::expect_same("gpus", lib.gpus, raw.gpus);
            twin::expect_same("prefill servers", lib.prefill_servers, raw.prefill_servers);
            twin::expect_same("total gpus", lib.total_gpus, raw.total_gpus);
            twin::expect_same("largest batch", lib.largest_batch, raw.largest_batch);
            twin::expect_same("utilization", lib.utilization, raw.utilization);
            twin::expect_same("service scv", lib.service_scv, raw.service_scv);
            twin::expect_same("slot time", lib.slot_time, raw.slot_time);
            expect_same_queue(lib.slot_queue, raw.slot_queue);
            twin::expect_same("prefill wait", lib.prefill_wait, raw.prefill_wait);
            twin::expect_same("ttft", lib.time_to_first_token, raw.ttft);
            twin::expect_same("time per token", lib.time_per_token, raw.time_per_token);
            twin::expect_same("break rate", lib.break_rate, raw.break_rate);
            twin::expect_same("headroom", lib.headroom, raw.headroom);
            twin::expect_same("evaluations", lib.evaluations, raw.evaluations);
            // About `slots` servers in the search's queue.
            const std::int64_t servers =
                slots == replica_slots ? replica_slots : lib.replicas * replica_slots;
            if (!lib.found || servers < slots * 9 / 10 || servers > slots * 11 / 10) {
                std::fprintf(stderr, "replicas_for_rate at %g/s: %lld replicas, not ~%lld slots\n",
                             lambda, static_cast<long long>(lib.replicas),
                             static_cast<long long>(slots));
                std::abort();
            }
        }
    }
}

template <bool Units>
void BM_queue_wait(benchmark::State& state) {
    const std::int64_t c = state.range(0);
    const std::vector<double> rates = rates_for(c);
    std::size_t i = 0;
    for (auto _ : state) {
        if constexpr (Units) {
            benchmark::DoNotOptimize(library_wait(rates[i], c).percentile_wait.value());
        } else {
            benchmark::DoNotOptimize(twin_wait(rates[i], c).percentile_wait);
        }
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_queue_wait, true)->Name("queue_wait_units")->Arg(64)->Arg(4096);
BENCHMARK_TEMPLATE(BM_queue_wait, false)->Name("queue_wait_raw")->Arg(64)->Arg(4096);

template <bool Units>
void BM_servers_for_wait(benchmark::State& state) {
    const std::vector<double> rates = rates_for(state.range(0));  // answers near 64 or 4,096
    const std::vector<double> t = targets();
    std::size_t i = 0;
    for (auto _ : state) {
        if constexpr (Units) {
            benchmark::DoNotOptimize(library_search(rates[i], t[i]).servers);
        } else {
            benchmark::DoNotOptimize(twin_search(rates[i], t[i]).servers);
        }
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_servers_for_wait, true)->Name("servers_for_wait_units")->Arg(64)->Arg(4096);
BENCHMARK_TEMPLATE(BM_servers_for_wait, false)->Name("servers_for_wait_raw")->Arg(64)->Arg(4096);

// replicas_for_rate: plain functions named BM_<name>_units / _raw (no Arg), which
// bench/instructions.sh finds by name. The rate changes every iteration (256 rates in turn,
// read from memory after ClobberMemory), so nothing is hoisted out of the loop.
template <bool Units>
void run_replicas(benchmark::State& state, std::int64_t slots) {
    const std::vector<double> rates = replica_rates(slots);
    // Read through a volatile, so the compiler cannot specialize the search for one routing
    // (GCC's libbenchmark 1.7 DoNotOptimize(T&) on a register-sized lvalue, "+m,r", garbled the
    // rate here).
    const volatile gpucalc::routing hidden_route = route_for(slots);
    const gpucalc::routing route = hidden_route;
    std::size_t i = 0;
    for (auto _ : state) {
        const double lambda = rates[i];  // reloaded after ClobberMemory, never constant
        if constexpr (Units) {
            const gpucalc::replicas_estimate e = library_replicas(lambda, route);
            benchmark::DoNotOptimize(e.replicas);
            benchmark::DoNotOptimize(e.break_rate.value());
        } else {
            const raw_replicas e = twin_replicas(lambda, route);
            benchmark::DoNotOptimize(e.replicas);
            benchmark::DoNotOptimize(e.break_rate);
        }
        benchmark::ClobberMemory();
        i = (i + 1) & input_mask;
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_replicas_for_rate_64_units(benchmark::State& state) {
    run_replicas<true>(state, replica_slots);
}
void BM_replicas_for_rate_64_raw(benchmark::State& state) {
    run_replicas<false>(state, replica_slots);
}
void BM_replicas_for_rate_4096_units(benchmark::State& state) {
    run_replicas<true>(state, replica_slots * pooled_replicas);
}
void BM_replicas_for_rate_4096_raw(benchmark::State& state) {
    run_replicas<false>(state, replica_slots * pooled_replicas);
}
BENCHMARK(BM_replicas_for_rate_64_units);
BENCHMARK(BM_replicas_for_rate_64_raw);
BENCHMARK(BM_replicas_for_rate_4096_units);
BENCHMARK(BM_replicas_for_rate_4096_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
