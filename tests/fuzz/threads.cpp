// threads.cpp: gpucalc_fuzz_threads, the threaded sweep. The library is pure (it keeps no
// global mutable state), so a call's answer may not depend on what other threads are doing.
// The sweep computes every call's answer once on one thread, then makes the same calls from
// 8 threads at once, each thread in its own order, so that different entry points run side by
// side, and requires bit-identical answers (the fingerprint of every field, or of the
// exception's message). Built with -fsanitize=thread in the tsan configuration, where
// ThreadSanitizer also reports any data race it sees (and fails the run, exit code 66).
//
//   gpucalc_fuzz_threads [--seed N] [--calls N] [--threads N]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "entry_points.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace {

using fuzz::call_outcome;
using fuzz::entry_point;
using fuzz::generator;

struct planned_call {
    std::size_t entry;
    std::int64_t index;
};

/// What a call answered, reduced to one number: the fingerprint of an accepted answer's fields,
/// or of a rejection's message, tagged with the kind of outcome (counted in `accepted`).
std::uint64_t answer(const std::vector<entry_point>& table, std::uint64_t seed,
                     const planned_call& c, std::int64_t* accepted = nullptr) {
    const entry_point& e = table[c.entry];
    // Drawn, never pinned: the pinned inputs include the known hangs, which the fuzz run's
    // watchdog catches and a thread could not.
    generator g(fuzz::call_seed(seed, e.label, c.index), fuzz::profile::sweep);
    const call_outcome out = e.run(g);
    if (accepted != nullptr && out.what == call_outcome::kind::accepted) ++*accepted;
    return fuzz::mix(out.fingerprint, static_cast<std::uint64_t>(out.what));
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t seed = 20260101;
    std::int64_t calls = 100000;
    int threads = 8;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) {
            seed = std::strtoull(argv[++i], nullptr, 0);
        } else if (a == "--calls" && i + 1 < argc) {
            calls = std::strtoll(argv[++i], nullptr, 0);
        } else if (a == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--seed N] [--calls N] [--threads N]\n", argv[0]);
            return 2;
        }
    }
    if (calls < 1 || threads < 1) {
        std::fprintf(stderr, "--calls and --threads must be >= 1\n");
        return 2;
    }

    const std::vector<entry_point> table = fuzz::all_entry_points();
    // Every entry point in turn, so each thread's share mixes all of them.
    std::vector<planned_call> plan;
    plan.reserve(static_cast<std::size_t>(calls));
    for (std::int64_t k = 0; k < calls; ++k) {
        const std::size_t n = table.size();
        plan.push_back({static_cast<std::size_t>(k) % n, k / static_cast<std::int64_t>(n)});
    }

    const auto started = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> expected(plan.size());
    std::int64_t accepted = 0;
    for (std::size_t k = 0; k < plan.size(); ++k) {
        expected[k] = answer(table, seed, plan[k], &accepted);
    }
    const auto single_done = std::chrono::steady_clock::now();

    std::atomic<std::int64_t> mismatches{0};
    std::mutex report;
    std::vector<std::string> first_mismatches;
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            // This thread's calls (every threads-th), in an order of its own.
            std::vector<std::size_t> mine;
            for (std::size_t k = static_cast<std::size_t>(t); k < plan.size();
                 k += static_cast<std::size_t>(threads)) {
                mine.push_back(k);
            }
            fuzz::rng shuffle(fuzz::mix(seed, static_cast<std::uint64_t>(t)));
            for (std::size_t i = mine.size(); i > 1; --i) {
                std::swap(mine[i - 1], mine[shuffle.below(i)]);
            }
            for (std::size_t k : mine) {
                if (answer(table, seed, plan[k]) == expected[k]) continue;
                mismatches.fetch_add(1);
                const std::lock_guard<std::mutex> lock(report);
                if (first_mismatches.size() < 10) {
                    first_mismatches.push_back(table[plan[k].entry].label + ", call " +
                                               std::to_string(plan[k].index));
                }
            }
        });
    }
    for (std::thread& w : workers) w.join();
    const auto done = std::chrono::steady_clock::now();

    const auto seconds = [](auto a, auto b) {
        return std::chrono::duration<double>(b - a).count();
    };
    std::printf("gpucalc_fuzz_threads: seed %llu, %zu entry points, %lld calls (%.1f%% answered, "
                "the rest rejected) on 1 thread in %.2f s, then on %d threads in %.2f s\n",
                static_cast<unsigned long long>(seed), table.size(), static_cast<long long>(calls),
                100.0 * static_cast<double>(accepted) / static_cast<double>(calls),
                seconds(started, single_done), threads, seconds(single_done, done));
    if (mismatches.load() == 0) {
        std::printf("every answer bit-identical to the single-threaded one\n");
        return 0;
    }
    std::printf("%lld answer(s) differ from the single-threaded ones, e.g.:\n",
                static_cast<long long>(mismatches.load()));
    for (const std::string& m : first_mismatches) {
        std::printf("  %s (gpucalc_fuzz_threads --seed %llu)\n", m.c_str(),
                    static_cast<unsigned long long>(seed));
    }
    return 1;
}
