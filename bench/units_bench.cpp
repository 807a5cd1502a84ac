// units_bench.cpp: what gpucalc's unit-safe types cost against raw doubles, on the two shapes
// every module repeats: a roofline time, max(flops/peak, bytes/bandwidth), and a cost product,
// price × GPUs × hours. Each function has a raw-double twin; the ratio of the two is the figure.
#include <gpucalc/units.hpp>

#include <benchmark/benchmark.h>

#include "twin_support.hpp"

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace {

constexpr std::size_t input_count = 1024;  // a power of two, so the index wraps with a mask
constexpr std::size_t input_mask = input_count - 1;

// --- the functions under test: gpucalc types, and the same arithmetic on doubles ---------------

inline gpucalc::duration roofline_time(gpucalc::flop_count work, gpucalc::flop_rate peak,
                                       gpucalc::data_size traffic, gpucalc::bandwidth bw) {
    return std::max(work / peak, traffic / bw);
}
inline double roofline_time_raw(double work, double peak, double traffic, double bw) {
    return std::max(work / peak, traffic / bw);
}

inline gpucalc::money gpu_cost(gpucalc::gpu_price price, gpucalc::gpu_count gpus,
                               gpucalc::duration hours) {
    return price * gpus * hours;
}
inline double gpu_cost_raw(double price, double gpus, double hours) {
    return price * gpus * hours;
}

// --- inputs: varied values, so nothing folds to a constant --------------------------------------

struct raw_inputs {
    std::vector<double> a, b, c, d;
};

const raw_inputs& inputs() {
    static const raw_inputs values = [] {
        std::mt19937_64 rng(20261121);
        std::uniform_real_distribution<double> spread(0.5, 2.0);
        raw_inputs v;
        for (std::size_t i = 0; i < input_count; ++i) {
            v.a.push_back(1e15 * spread(rng));
            v.b.push_back(1e14 * spread(rng));
            v.c.push_back(1e10 * spread(rng));
            v.d.push_back(2e12 * spread(rng));
        }
        return v;
    }();
    return values;
}

template <class Quantity>
std::vector<Quantity> as_quantities(const std::vector<double>& raw) {
    std::vector<Quantity> out;
    for (double x : raw) out.push_back(Quantity::from_value(x));
    return out;
}

// Each twin must give the same result as its typed function, bit for bit, on every input.
void check_twins() {
    const raw_inputs& v = inputs();
    for (std::size_t i = 0; i < input_count; ++i) {
        twin::expect_same("roofline time",
                          roofline_time(gpucalc::flop_count::from_value(v.a[i]), gpucalc::flop_rate::from_value(v.b[i]),
                                        gpucalc::data_size::from_value(v.c[i]), gpucalc::bandwidth::from_value(v.d[i])),
                          roofline_time_raw(v.a[i], v.b[i], v.c[i], v.d[i]));
        twin::expect_same("gpu cost",
                          gpu_cost(gpucalc::gpu_price::from_value(v.a[i]), gpucalc::gpu_count::from_value(v.b[i]),
                                   gpucalc::duration::from_value(v.c[i])),
                          gpu_cost_raw(v.a[i], v.b[i], v.c[i]));
    }
}

void BM_roofline_time_units(benchmark::State& state) {
    const auto work = as_quantities<gpucalc::flop_count>(inputs().a);
    const auto peak = as_quantities<gpucalc::flop_rate>(inputs().b);
    const auto traffic = as_quantities<gpucalc::data_size>(inputs().c);
    const auto bw = as_quantities<gpucalc::bandwidth>(inputs().d);
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::duration t = roofline_time(work[i], peak[i], traffic[i], bw[i]);
        benchmark::DoNotOptimize(t.value());  // a quantity is not trivially copyable
        i = (i + 1) & input_mask;
    }
}
BENCHMARK(BM_roofline_time_units);

void BM_roofline_time_raw(benchmark::State& state) {
    // Local copies, as the units twin makes, so both loops read their inputs the same way.
    const std::vector<double> work = inputs().a, peak = inputs().b, traffic = inputs().c,
                              bw = inputs().d;
    std::size_t i = 0;
    for (auto _ : state) {
        const double t = roofline_time_raw(work[i], peak[i], traffic[i], bw[i]);
        benchmark::DoNotOptimize(t);
        i = (i + 1) & input_mask;
    }
}
BENCHMARK(BM_roofline_time_raw);

void BM_gpu_cost_units(benchmark::State& state) {
    const auto price = as_quantities<gpucalc::gpu_price>(inputs().a);
    const auto gpus = as_quantities<gpucalc::gpu_count>(inputs().b);
    const auto hours = as_quantities<gpucalc::duration>(inputs().c);
    std::size_t i = 0;
    for (auto _ : state) {
        const gpucalc::money cost = gpu_cost(price[i], gpus[i], hours[i]);
        benchmark::DoNotOptimize(cost.value());
        i = (i + 1) & input_mask;
    }
}
BENCHMARK(BM_gpu_cost_units);

void BM_gpu_cost_raw(benchmark::State& state) {
    const std::vector<double> price = inputs().a, gpus = inputs().b, hours = inputs().c;
    std::size_t i = 0;
    for (auto _ : state) {
        const double cost = gpu_cost_raw(price[i], gpus[i], hours[i]);
        benchmark::DoNotOptimize(cost);
        i = (i + 1) & input_mask;
    }
}
BENCHMARK(BM_gpu_cost_raw);

}  // namespace

int main(int argc, char** argv) { return twin::run_benchmarks(argc, argv, check_twins); }
