// serving_bench.cpp: how fast a capacity planner can size a serving fleet: queue_wait (one
// Erlang C and the M/M/c waits) and servers_for_wait (the fewest servers for a p99 wait) at about
// 64 and 4,096 servers (batch slots), each beside its raw-double twin (twin_support.hpp says how
// a twin is written), so the ratio is the price of gpucalc's unit types. The Erlang recurrence
// takes no quantity, so it is the library's own code on both sides.
#include <gpucalc/serving/queueing.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <cmath>
#include <cstdint>
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
    const double waits = detail::erlang_c_stable(servers, a);
    q.wait_probability = waits;
    const double drain_time = s / (c - a);
    q.mean_wait = q.service_factor * waits * drain_time;
    const double tail_ratio = waits / (1.0 - percentile);
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

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
