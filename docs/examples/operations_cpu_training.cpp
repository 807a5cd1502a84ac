// A small language-model training run on CPUs and on one H100: compute-bound, so the GPU's lead is the ratio of peaks.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>

int main() {
    using namespace gpucalc;
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;

    // The run's total work: 6·N·D FLOPs (Kaplan et al. 2020), N the non-embedding parameters of
    // the 1.7B GPT in Megatron-LM's table, D = 1 B tokens. Bytes: each step of 0.5 M tokens reads
    // and writes the 16 B per parameter of mixed-precision Adam state (ZeRO, §3): an assumption
    // that leaves the run far past both ridge points, as training is.
    const parameter_counts n = parameter_count(cat::megatron_1_7b);
    const double params = static_cast<double>(n.active - n.embedding);
    const double tokens = 1e9, tokens_per_step = 0.5e6, state_bytes_per_param = 16.0;
    const op_cost run{make<flops>(6.0 * params * tokens),
                      make<bytes>(tokens / tokens_per_step * 2.0 * state_bytes_per_param * params)};
    std::printf("run: %.3g parameters x %.0e tokens = %.3g FLOP, %.3g B (%.0f FLOP/B)\n", params,
                tokens, in<flops>(run.flops), in<bytes>(run.bytes),
                in<flops_per_byte>(run.flops / run.bytes));

    // Prices: the H100 at the catalog's Lambda on-demand price; the CPU servers' hourly prices
    // are assumptions for illustration ($4/h a server socket, $0.50/h a desktop), not quotes.
    cpu_spec two_socket = cat::epyc_9654;
    two_socket.name = "2 x EPYC 9654";
    two_socket.sockets = 2;
    cpu_gpu_assumptions fp32{};
    fp32.cpu_compute = compute_precision::fp32;
    struct row {
        const cpu_spec* cpu;
        cpu_gpu_assumptions assumptions;
        const char* precision;
        cost_rate price;
    };
    const row rows[] = {{&cat::epyc_9654, {}, "BF16", 4.0_usd_per_h},
                        {&cat::epyc_9654, fp32, "FP32", 4.0_usd_per_h},
                        {&two_socket, {}, "BF16", 8.0_usd_per_h},
                        {&cat::xeon_8480_plus, {}, "BF16 (AMX)", 4.0_usd_per_h},
                        {&cat::ryzen_9_7950x, {}, "BF16", 0.5_usd_per_h}};
    std::printf("%-20s %-10s %10s %9s %8s %10s %9s\n", "CPU", "precision", "CPU time", "H100",
                "GPU lead", "CPU energy", "CPU cost");
    for (const row& r : rows) {
        cpu_gpu_prices prices{};
        prices.cpu_server = r.price;
        prices.gpu = cat::prices::lambda_h100_on_demand_2026;
        const cpu_gpu_comparison c = compare_cpu_gpu(run, *r.cpu, cat::h100_sxm, prices,
                                                     r.assumptions);
        std::printf("%-20s %-10s %7.1f d %7.2f h %7.1fx %7.0f kWh %8.0f $\n",
                    std::string(r.cpu->name).c_str(), r.precision, in<days>(c.cpu.timing.time),
                    in<hours>(c.gpu.timing.time), c.speedup, in<kilowatt_hours>(c.cpu.energy_used),
                    in<usd>(c.cpu.cost));
    }
    const cpu_gpu_comparison epyc = compare_cpu_gpu(run, cat::epyc_9654, cat::h100_sxm);
    std::printf("H100: %.1f kWh, $%.2f at $%.2f/GPU-h; EPYC 9654 (BF16) uses %.1fx the energy\n",
                in<kilowatt_hours>(epyc.gpu.energy_used),
                in<usd>(cat::prices::lambda_h100_on_demand_2026 * (1.0_gpu * epyc.gpu.timing.time)),
                in<usd_per_gpu_hour>(cat::prices::lambda_h100_on_demand_2026), epyc.energy_ratio);
}
