// Llama 2 7B decode at batch 1 on CPUs and on one H100: memory-bound, so the gap narrows to the ratio of bandwidths.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>

int main() {
    using namespace gpucalc;
    namespace cat = gpucalc::catalog;

    // One decode step's work, as roofline's decode() counts it: the BF16 weights read once and
    // the 4,096-token KV cache read, for the step's forward FLOPs.
    const auto step_of = [](std::int64_t batch, std::int64_t context) {
        const decode_estimate d = decode(cat::llama_2_7b, cat::h100_sxm,
                                         serving_setup{.batch = batch, .context = context});
        return op_cost{d.flops, d.bytes};
    };
    const op_cost step = step_of(1, 4096);
    std::printf("step: %.2f GFLOP, %.2f GB (%.2f FLOP/B)\n", in<gigaflops>(step.flops),
                in<gigabytes>(step.bytes), in<flops_per_byte>(step.flops / step.bytes));

    cpu_spec two_socket = cat::epyc_9654;
    two_socket.name = "2 x EPYC 9654";
    two_socket.sockets = 2;
    std::printf("%-20s %10s %11s %8s %9s %12s\n", "CPU", "bandwidth", "CPU tok/s", "H100",
                "GPU lead", "bw ratio");
    const cpu_spec* cpus[] = {&cat::epyc_9654, &two_socket, &cat::xeon_8480_plus,
                              &cat::ryzen_9_7950x};
    for (const cpu_spec* cpu : cpus) {
        const cpu_gpu_comparison c = compare_cpu_gpu(step, *cpu, cat::h100_sxm);
        std::printf("%-20s %6.1f GB/s %7.1f/s %6.0f/s %8.2fx %11.2fx (%s-bound)\n",
                    std::string(cpu->name).c_str(),
                    in<gigabytes_per_second>(memory_bandwidth(*cpu)),
                    1.0 / in<seconds>(c.cpu.timing.time), 1.0 / in<seconds>(c.gpu.timing.time),
                    c.speedup, (cat::h100_sxm.memory_bandwidth / memory_bandwidth(*cpu)).value(),
                    std::string(to_string(c.cpu.timing.bound)).c_str());
    }
    // Batching shares the weight read (each sequence still reads its own KV cache, so take a
    // short 128-token context): the CPU reaches its ridge (47 FLOP/B for an EPYC 9654 at BF16)
    // long before the H100 (295), and the gap widens towards the ratio of peaks (45). The
    // step reads all it holds (weights and KV cache), so "held" is its footprint: every batch
    // here fits one H100's 80 GB.
    std::printf("EPYC 9654 against H100 as the batch grows, 128-token context:\n");
    for (std::int64_t batch : {1, 16, 64, 256, 512}) {
        const op_cost work = step_of(batch, 128);
        const cpu_gpu_comparison c = compare_cpu_gpu(work, cat::epyc_9654, cat::h100_sxm);
        std::printf("  batch %4lld: %5.1f GB held, CPU %s-bound, H100 %s-bound, GPU lead %5.1fx\n",
                    static_cast<long long>(batch), in<gigabytes>(work.bytes),
                    std::string(to_string(c.cpu.timing.bound)).c_str(),
                    std::string(to_string(c.gpu.timing.bound)).c_str(), c.speedup);
    }
}
