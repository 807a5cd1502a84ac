// How many batch slots keep the p99 queueing wait under 200 ms, from a few slots to 10^4: each
// request holds a slot for 8 s (its prefill and 256 output tokens), arrivals are Poisson, and
// the service time is exponential (C_s² = 1) or less variable (C_s² = 0.25).
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iostream>

int main() {
    using namespace gpucalc::literals;

    const gpucalc::duration holds_slot = 8.0_s;
    const gpucalc::wait_target target{.percentile_wait = 200.0_ms, .percentile = 0.99};

    std::cout << "  requests/s  load (Erl)   slots  utilization  P(wait)   p99 wait  mean wait"
                 "  slots at C_s^2 0.25\n";
    for (double rate : {0.5, 2.0, 10.0, 50.0, 250.0, 1250.0}) {
        const gpucalc::request_rate lambda = gpucalc::make<gpucalc::requests_per_second>(rate);
        const gpucalc::server_search exp = gpucalc::servers_for_wait(lambda, holds_slot, target);
        const gpucalc::server_search low = gpucalc::servers_for_wait(lambda, holds_slot, target, 0.25);
        const gpucalc::queue_wait_estimate& q = exp.queue;
        char line[160];
        std::snprintf(line, sizeof line, "%12.1f %11.0f %7lld %11.1f%% %8.4f %8.1f ms %7.2f ms %10lld\n",
                      rate, q.offered_load, static_cast<long long>(exp.servers),
                      100.0 * q.utilization, q.wait_probability,
                      gpucalc::in<gpucalc::milliseconds>(q.percentile_wait),
                      gpucalc::in<gpucalc::milliseconds>(q.mean_wait),
                      static_cast<long long>(low.servers));
        std::cout << line;
    }

    // One slot fewer than the answer at 250 requests/s misses the target.
    const auto lambda = 250.0_requests_per_s;
    const auto fewest = gpucalc::servers_for_wait(lambda, holds_slot, target);
    const auto short_one = gpucalc::queue_wait(lambda, holds_slot, fewest.servers - 1);
    std::cout << "at " << fewest.servers - 1 << " slots the p99 wait is "
              << short_one.percentile_wait << " (" << fewest.evaluations << " evaluations)\n";

    // Past the slots' capacity the queue has no steady state: an explicit answer, not infinity.
    const auto overloaded = gpucalc::queue_wait(lambda, holds_slot, 2000);
    std::cout << "250 requests/s on 2,000 slots: stable = " << std::boolalpha << overloaded.stable
              << ", utilization " << overloaded.utilization << "\n";
}
