// entries_serving_queueing.cpp: the fuzz table's entries for serving/queueing.hpp: Erlang B and
// C, the M/M/c (approximate M/G/c) wait, and the fewest servers for a percentile wait.
//
// The new types' printing (fields, type_name) and checking (inspect) live here, beside the
// draws, as in entries_scaling_laws.cpp.
#include <gpucalc/serving/queueing.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::wait_target& a, const gpucalc::wait_target& b, F&& f) {
    FUZZ_FIELD(percentile_wait); FUZZ_FIELD(percentile); FUZZ_FIELD(mean_wait);
}
template <class F>
void fields(const gpucalc::queue_wait_estimate& a, const gpucalc::queue_wait_estimate& b, F&& f) {
    FUZZ_FIELD(offered_load); FUZZ_FIELD(utilization); FUZZ_FIELD(stable);
    FUZZ_FIELD(wait_probability); FUZZ_FIELD(service_factor); FUZZ_FIELD(mean_wait);
    FUZZ_FIELD(percentile); FUZZ_FIELD(percentile_wait);
}
#undef FUZZ_FIELD

template <>
inline const char* type_name<gpucalc::wait_target>() { return "gpucalc::wait_target"; }

inline void inspect(inspector& i, const gpucalc::queue_wait_estimate& q) {
    i.amount("offered_load", q.offered_load);
    i.amount("utilization", q.utilization);
    i.flag("stable", q.stable);
    i.amount("wait_probability", q.wait_probability);
    i.amount("service_factor", q.service_factor);
    i.amount("percentile", q.percentile);
    i.invariant("0 <= wait_probability <= 1", q.wait_probability >= 0.0 && q.wait_probability <= 1.0);
    i.invariant("stable == (utilization < 1)", q.stable == (q.utilization < 1.0));
    if (!q.stable) {
        i.no_answer("mean_wait");
        i.no_answer("percentile_wait");
        i.invariant("unstable => wait_probability == 1", q.wait_probability >= 1.0);
        return;
    }
    i.amount("mean_wait", q.mean_wait);
    i.amount("percentile_wait", q.percentile_wait);
}

inline void inspect(inspector& i, const gpucalc::server_search& s) {
    i.flag("found", s.found);
    i.count("evaluations", s.evaluations);
    if (!s.found) {
        i.no_answer("servers");
        i.no_answer("queue");
        return;
    }
    i.count("servers", s.servers);
    i.nested("queue", [&] { inspect(i, s.queue); });
    i.invariant("1 <= servers <= 2^40", s.servers >= 1 && s.servers <= (std::int64_t{1} << 40));
    i.invariant("found => queue.stable", s.queue.stable);
}

namespace draw {

/// An offered load in Erlangs: 0, a few, near a count of servers, or hostile. Near the count
/// only up to 2^20 servers: the recurrence costs about 53√a steps (erlang_b), 0.05 s at
/// a = 2^40 when optimised, and the run's time budget is for many calls.
inline double offered_load(generator& g, std::int64_t servers) {
    if (g.hostile()) return g.hostile_double();
    switch (g.r.below(4)) {
        case 0: return 0.0;
        case 1:
            return servers <= (std::int64_t{1} << 20)
                       ? static_cast<double>(servers) * (0.5 + 0.6 * g.r.unit())
                       : g.real(8.0);
        default: return g.real(8.0);
    }
}

/// A request rate of a few hundred per second, sometimes 0.
inline gpucalc::request_rate arrivals(generator& g) {
    return g.q_or_zero<gpucalc::request_rate>(300.0);
}

/// A service time of a few seconds (a request's prefill and decode).
inline gpucalc::duration service(generator& g) { return g.q<gpucalc::duration>(4.0); }

/// A squared coefficient of variation: 0, 1, a few, or hostile.
inline double scv(generator& g) {
    if (g.hostile()) return g.hostile_double();
    switch (g.r.below(3)) {
        case 0: return 1.0;
        case 1: return 0.0;
        default: return 4.0 * g.r.unit();
    }
}

inline double percentile(generator& g) {
    if (g.hostile()) {
        static constexpr double edges[] = {0.0, 1.0, -1e-12, 1.0 + 1e-12, 1.0 - 1e-16, 1e-300};
        return g.coin() ? g.hostile_double() : g.one_of(edges);
    }
    return g.coin() ? 0.99 : 0.5 + 0.499 * g.r.unit();
}

inline gpucalc::wait_target target(generator& g) {
    gpucalc::wait_target t{};
    t.percentile_wait = g.q<gpucalc::duration>(0.2);
    t.percentile = percentile(g);
    t.mean_wait = g.q_or_zero<gpucalc::duration>(0.05);
    return t;
}

}  // namespace draw

void register_serving_queueing(registry& r) {
    using namespace gpucalc;

    add(r, "erlang_b", "erlang_b", "gpucalc::erlang_b({0}, {1})",
        [](generator& g) {
            const std::int64_t c = g.count(64);
            return std::tuple{c, draw::offered_load(g, c)};
        },
        [](std::int64_t c, double a) { return erlang_b(c, a); });
    add(r, "erlang_c", "erlang_c", "gpucalc::erlang_c({0}, {1})",
        [](generator& g) {
            const std::int64_t c = g.count(64);
            return std::tuple{c, draw::offered_load(g, c)};
        },
        [](std::int64_t c, double a) { return erlang_c(c, a); });
    add(r, "queue_wait", "queue_wait", "gpucalc::queue_wait({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{draw::arrivals(g), draw::service(g), g.count(2048), draw::scv(g),
                              draw::percentile(g)};
        },
        [](const request_rate& lambda, const duration& s, std::int64_t c, double scv, double p) {
            return queue_wait(lambda, s, c, scv, p);
        });
    add(r, "servers_for_wait", "servers_for_wait",
        "gpucalc::servers_for_wait({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{draw::arrivals(g), draw::service(g), draw::target(g), draw::scv(g),
                              g.coin(0.8) ? std::int64_t{1} << 40 : g.count(4096)};
        },
        [](const request_rate& lambda, const duration& s, const wait_target& t, double scv,
           std::int64_t cap) { return servers_for_wait(lambda, s, t, scv, cap); });
}

}  // namespace fuzz
