// hostile_serving_queueing_test.cpp: input outside the stated ranges of the queueing functions
// is invalid_input naming the function, the field as the caller wrote it, the value and the
// rule; input inside them, however extreme, gives a finite answer or an explicit "no"
// (queue_wait_estimate::stable, server_search::found).
#include <gpucalc/serving/queueing.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace gpucalc;

namespace {
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::int64_t two_to_40 = std::int64_t{1} << 40;
const request_rate ten_per_second = make<requests_per_second>(10.0);
const duration one_second = make<seconds>(1.0);
wait_target p99_within(double s) {
    wait_target t{};
    t.percentile_wait = make<seconds>(s);
    return t;
}
}  // namespace

TEST_CASE("erlang: servers and offered load outside their ranges") {
    CHECK_THROWS_WITH_AS(erlang_b(0, 1.0), "erlang_b: servers = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(erlang_c(-4, 1.0), "erlang_c: servers = -4 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(erlang_b(two_to_40 + 1, 1.0),
                         "erlang_b: servers = 1099511627777 must be <= 2^40", invalid_input);
    CHECK_THROWS_WITH_AS(erlang_b(4, -1.0),
                         "erlang_b: offered_load = -1 Erlangs must be finite and in [0, 2^40]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(erlang_c(4, not_a_number),
                         "erlang_c: offered_load = nan Erlangs must be finite and in [0, 2^40]",
                         invalid_input);
    CHECK_THROWS_AS(erlang_c(4, inf), invalid_input);
    CHECK_THROWS_AS(erlang_b(4, 2e12), invalid_input);
    // The edges of the ranges answer.
    CHECK(erlang_b(1, 0.0) == 0.0);
    CHECK(erlang_c(two_to_40, 1099511627776.0) == 1.0);
    CHECK(std::isfinite(erlang_b(two_to_40, 1099511627776.0)));
    CHECK(erlang_b(1, 5e-324) == 0.0);  // below 1e-300: returned as 0
    CHECK(erlang_b(1, 1e-200) == approx(1e-200));
}

TEST_CASE("queue_wait: each bad field is named") {
    CHECK_THROWS_WITH_AS(queue_wait(make<requests_per_second>(-1.0), one_second, 4),
                         doctest::Contains("queue_wait: arrival_rate = "), invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(make<requests_per_second>(-1.0), one_second, 4),
                         doctest::Contains("must be finite and >= 0"), invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(make<requests_per_second>(2e15), one_second, 4),
                         doctest::Contains("must be at most 1e15 requests/s"), invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, duration{}, 4),
                         doctest::Contains("queue_wait: mean_service_time = "), invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, make<seconds>(-1.0), 4),
                         doctest::Contains("must be finite and > 0"), invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, one_second, 0),
                         "queue_wait: servers = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, one_second, 20, -0.5),
                         "queue_wait: service_scv = -0.5 must be in [0, 1e6]", invalid_input);
    CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, one_second, 20, not_a_number),
                         "queue_wait: service_scv = nan must be in [0, 1e6]", invalid_input);
    for (double p : {0.0, 1.0, -0.1, 1.5, not_a_number, inf}) {
        CAPTURE(p);
        CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, one_second, 20, 1.0, p),
                             doctest::Contains("queue_wait: percentile = "), invalid_input);
    }
    CHECK_THROWS_WITH_AS(queue_wait(ten_per_second, one_second, 20, 1.0, 1.0),
                         "queue_wait: percentile = 1 must be in (0, 1)", invalid_input);
}

TEST_CASE("queue_wait: extreme input inside the ranges stays finite") {
    const double rates[] = {0.0, 1e-30, 1e-3, 1.0, 1e6, 1e15};
    const double services[] = {1e-30, 1e-6, 1.0, 3600.0, 1e6 * 365.0 * 86400.0};
    const std::int64_t counts[] = {1, 2, 64, 4096, 100000, two_to_40};
    for (double lambda : rates) {
        for (double s : services) {
            for (std::int64_t c : counts) {
                for (double scv : {0.0, 1.0, 1e6}) {
                    for (double p : {1e-300, 0.5, 1.0 - 1e-16}) {
                        const queue_wait_estimate q = queue_wait(
                            make<requests_per_second>(lambda), make<seconds>(s), c, scv, p);
                        CAPTURE(lambda);
                        CAPTURE(s);
                        CAPTURE(c);
                        CHECK(std::isfinite(q.utilization));
                        CHECK(std::isfinite(q.wait_probability));
                        CHECK(q.wait_probability >= 0.0);
                        CHECK(q.wait_probability <= 1.0);
                        CHECK(std::isfinite(q.mean_wait.value()));
                        CHECK(q.mean_wait.value() >= 0.0);
                        CHECK(std::isfinite(q.percentile_wait.value()));
                        CHECK(q.percentile_wait.value() >= 0.0);
                        CHECK(q.stable == (lambda * s < static_cast<double>(c)));
                    }
                }
            }
        }
    }
}

TEST_CASE("servers_for_wait: bad targets and caps are named; no count is an explicit no") {
    CHECK_THROWS_WITH_AS(servers_for_wait(ten_per_second, one_second, p99_within(0.0)),
                         doctest::Contains("servers_for_wait: target.percentile_wait = "),
                         invalid_input);
    wait_target negative_mean = p99_within(1.0);
    negative_mean.mean_wait = make<seconds>(-1.0);
    CHECK_THROWS_WITH_AS(servers_for_wait(ten_per_second, one_second, negative_mean),
                         doctest::Contains("servers_for_wait: target.mean_wait = "),
                         invalid_input);
    // The percentile is named as the caller wrote it, a member of the target (it was named
    // "percentile", queue_wait's argument).
    wait_target bad_p = p99_within(1.0);
    bad_p.percentile = 1.0;
    CHECK_THROWS_WITH_AS(servers_for_wait(ten_per_second, one_second, bad_p),
                         "servers_for_wait: target.percentile = 1 must be in (0, 1)", invalid_input);
    CHECK_THROWS_WITH_AS(servers_for_wait(ten_per_second, one_second, p99_within(1.0), 1.0, 0),
                         "servers_for_wait: largest_servers = 0 must be >= 1", invalid_input);
    CHECK_THROWS_WITH_AS(
        servers_for_wait(make<requests_per_second>(-3.0), one_second, p99_within(1.0)),
        doctest::Contains("servers_for_wait: arrival_rate = "), invalid_input);
    CHECK_THROWS_WITH_AS(servers_for_wait(ten_per_second, duration{}, p99_within(1.0)),
                         doctest::Contains("servers_for_wait: mean_service_time = "),
                         invalid_input);
    // The most traffic there is: more servers than 2^40 would be needed, an explicit no.
    const server_search none = servers_for_wait(make<requests_per_second>(1e15),
                                                make<seconds>(1e6), p99_within(1.0));
    CHECK_FALSE(none.found);
    CHECK(none.servers == 0);
    // A tiny target at huge scale is found, with few evaluations.
    const server_search big = servers_for_wait(make<requests_per_second>(1e6),
                                               make<seconds>(0.1), p99_within(1e-9));
    CHECK(big.found);
    CHECK(big.servers > 100000);
    CHECK(big.evaluations < 50);
}
