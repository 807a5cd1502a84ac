// entries_operations_cpu.cpp: fuzz entries for operations: CPUs, and one workload on a CPU and a GPU
// (hardware/cpu.hpp: check, supports, peak, memory_bandwidth, package_power; operations/
// cpu_compare.hpp: op_time on a CPU, compare_cpu_gpu).
#include <gpucalc/catalog/cpus.hpp>
#include <gpucalc/operations.hpp>

#include <cmath>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::cpu_spec& a, const gpucalc::cpu_spec& b, F&& f) {
    FUZZ_FIELD(name); FUZZ_FIELD(sockets); FUZZ_FIELD(cores); FUZZ_FIELD(vector_clock_ghz);
    FUZZ_FIELD(fp32_flops_per_cycle); FUZZ_FIELD(bf16_flops_per_cycle);
    FUZZ_FIELD(memory_channels); FUZZ_FIELD(memory_megatransfers); FUZZ_FIELD(tdp);
}
template <class F>
void fields(const gpucalc::cpu_gpu_assumptions& a, const gpucalc::cpu_gpu_assumptions& b,
            F&& f) {
    FUZZ_FIELD(cpu_compute); FUZZ_FIELD(gpu_compute); FUZZ_FIELD(cpu_efficiency);
    FUZZ_FIELD(gpu_efficiency); FUZZ_FIELD(cpu_power_fraction); FUZZ_FIELD(gpu_power_fraction);
}
template <class F>
void fields(const gpucalc::cpu_gpu_prices& a, const gpucalc::cpu_gpu_prices& b, F&& f) {
    FUZZ_FIELD(cpu_server); FUZZ_FIELD(gpu);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::cpu_spec>() { return "gpucalc::cpu_spec"; }
template <>
inline const char* type_name<gpucalc::cpu_gpu_assumptions>() {
    return "gpucalc::cpu_gpu_assumptions";
}
template <>
inline const char* type_name<gpucalc::cpu_gpu_prices>() { return "gpucalc::cpu_gpu_prices"; }

namespace draw {
/// A CPU from the catalog, on one or two sockets (sometimes more), perturbed.
inline gpucalc::cpu_spec cpu(generator& g) {
    gpucalc::cpu_spec c = *gpucalc::catalog::all_cpus[g.r.below(gpucalc::catalog::all_cpus.size())];
    c.sockets = g.coin(0.7) ? g.keep(g.coin(0.5) ? 1 : 2) : static_cast<std::int64_t>(g.count(2));
    c.cores = g.keep(c.cores);
    c.vector_clock_ghz = g.coin(0.2) ? g.real(c.vector_clock_ghz) : g.keep_real(c.vector_clock_ghz);
    c.fp32_flops_per_cycle = g.keep_real(c.fp32_flops_per_cycle);
    c.bf16_flops_per_cycle = g.coin(0.1) ? 0.0 : g.keep_real(c.bf16_flops_per_cycle);
    c.memory_channels = g.keep(c.memory_channels);
    c.memory_megatransfers =
        g.coin(0.2) ? g.real(c.memory_megatransfers) : g.keep_real(c.memory_megatransfers);
    c.tdp = g.coin(0.1) ? gpucalc::power{} : g.keep_q(c.tdp);
    return c;
}
/// fp32 or bf16 mostly (what a CPU has), now and then a precision it lacks.
inline gpucalc::compute_precision cpu_precision(generator& g, const char* field,
                                                const char* member = nullptr) {
    using p = gpucalc::compute_precision;
    static constexpr p common[] = {p::bf16, p::bf16, p::bf16, p::fp32, p::fp32, p::fp32,
                                   p::fp64, p::fp8};
    return g.keep_enum(g.one_of(common), field, member);
}
inline gpucalc::op_cost work(generator& g) {
    gpucalc::op_cost op{};
    op.flops = g.q<gpucalc::flop_count>(typical::flops);
    op.bytes = g.q<gpucalc::data_size>(typical::bytes);
    return op;
}
inline gpucalc::cpu_gpu_assumptions cpu_gpu_assumptions(generator& g) {
    gpucalc::cpu_gpu_assumptions a{};
    a.cpu_compute = cpu_precision(g, "assumptions", "cpu_compute");
    a.gpu_compute = g.coin(0.8) ? g.keep_enum(a.gpu_compute, "assumptions", "gpu_compute")
                                : precision(g, "assumptions.gpu_compute");
    if (g.coin(0.5)) a.cpu_efficiency = efficiency(g);
    if (g.coin(0.5)) a.gpu_efficiency = efficiency(g);
    a.cpu_power_fraction = g.fraction(1.0);
    a.gpu_power_fraction = g.fraction(1.0);
    return a;
}
inline gpucalc::cpu_gpu_prices cpu_gpu_prices(generator& g) {
    gpucalc::cpu_gpu_prices p{};
    p.cpu_server = g.q_or_zero<gpucalc::cost_rate>(4.0 / 3600.0);
    p.gpu = g.q_or_zero<gpucalc::gpu_price>(typical::gpu_price);
    return p;
}
}  // namespace draw

inline void inspect(inspector& i, const gpucalc::device_run& d) {
    i.nested("timing", [&] { inspect(i, d.timing); });
    i.amount("energy_used", d.energy_used);
    i.amount("cost", d.cost);
}
inline void inspect(inspector& i, const gpucalc::cpu_gpu_comparison& c) {
    i.nested("cpu", [&] { inspect(i, c.cpu); });
    i.nested("gpu", [&] { inspect(i, c.gpu); });
    i.amount("speedup", c.speedup);
    i.flag("energy_known", c.energy_known);
    i.amount("energy_ratio", c.energy_ratio);
    i.flag("priced", c.priced);
    i.amount("cost_ratio", c.cost_ratio);
    i.invariant("speedup > 0", c.speedup > 0.0);
    i.invariant("energy_ratio > 0 iff energy_known", (c.energy_ratio > 0.0) == c.energy_known);
    i.invariant("cost_ratio > 0 iff priced", (c.cost_ratio > 0.0) == c.priced);
    i.invariant("speedup = cpu time / gpu time",
                std::abs(c.speedup * c.gpu.timing.time.value() - c.cpu.timing.time.value()) <=
                    1e-9 * c.cpu.timing.time.value());
}

void register_operations_cpu(registry& r) {
    using namespace gpucalc;

    // hardware/cpu.hpp
    add(r, "check(cpu_spec)", "check(cpu_spec)", "gpucalc::check({0})",
        [](generator& g) { return std::tuple{draw::cpu(g)}; },
        [](const cpu_spec& c) {
            check(c);
            return true;
        });
    add(r, "supports(cpu_spec)", "supports(cpu_spec)", "gpucalc::supports({0}, {1})",
        [](generator& g) { return std::tuple{draw::cpu(g), draw::cpu_precision(g, "precision")}; },
        [](const cpu_spec& c, compute_precision p) { return supports(c, p); });
    add(r, "peak(cpu_spec)", "peak(cpu_spec)", "gpucalc::peak({0}, {1})",
        [](generator& g) { return std::tuple{draw::cpu(g), draw::cpu_precision(g, "precision")}; },
        [](const cpu_spec& c, compute_precision p) { return peak(c, p); });
    add(r, "memory_bandwidth(cpu_spec)", "memory_bandwidth(cpu_spec)",
        "gpucalc::memory_bandwidth({0})", [](generator& g) { return std::tuple{draw::cpu(g)}; },
        [](const cpu_spec& c) { return memory_bandwidth(c); });
    add(r, "package_power(cpu_spec)", "package_power(cpu_spec)", "gpucalc::package_power({0})",
        [](generator& g) { return std::tuple{draw::cpu(g)}; },
        [](const cpu_spec& c) { return package_power(c); });

    // operations/cpu_compare.hpp
    add(r, "op_time(cpu_spec)", "op_time(cpu_spec)", "gpucalc::op_time({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::work(g), draw::cpu(g), draw::cpu_precision(g, "precision"),
                              draw::efficiency(g)};
        },
        [](const op_cost& op, const cpu_spec& c, compute_precision p,
           const kernel_efficiency& e) { return op_time(op, c, p, e); });
    add(r, "compare_cpu_gpu", "compare_cpu_gpu",
        "gpucalc::compare_cpu_gpu({0}, {1}, {2}, {3}, {4})",
        [](generator& g) {
            return std::tuple{draw::work(g), draw::cpu(g), draw::gpu(g), draw::cpu_gpu_prices(g),
                              draw::cpu_gpu_assumptions(g)};
        },
        [](const op_cost& op, const cpu_spec& c, const gpu_spec& gpu, const cpu_gpu_prices& p,
           const cpu_gpu_assumptions& a) { return compare_cpu_gpu(op, c, gpu, p, a); });
}

}  // namespace fuzz
