// An image classifier: a ResNet-50 that takes 100 ms per image on an 8 GB laptop GPU (a
// measurement, at batch 1), serving 10,000 and 100,000 requests an hour at a p99 latency of
// 500 ms, on that laptop GPU, a T4 and an L4. Beside the measured answer, the roofline's bound:
// the same model at the kernels' speed with nothing else in the way.
//
// The laptop GPU is a GeForce RTX 4060 Laptop GPU, stated here (no datasheet of NVIDIA's gives
// its tensor peak): 8 GB of GDDR6 on a 128-bit bus (NVIDIA's product page); 16 Gbps per pin,
// hence 128 × 16 ÷ 8 = 256 GB/s (derived; the data rate as notebook reviews report it); dense
// fp16 tensor math with fp32 accumulation at 28 TFLOPS (derived: 24 SMs × 512 FLOP per clock
// per SM × 2.3 GHz, Ada's GeForce rate at the 110 W boost clock; uncertain: 18–28 TFLOPS, the
// clock falling with the laptop's 35–115 W power limit).
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <string>

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    using namespace gpucalc::literals;

    gpu_spec laptop_spec{};
    laptop_spec.name = "RTX 4060 Laptop";
    laptop_spec.memory = 8.0_GiB;
    laptop_spec.memory_bandwidth = 256.0_GB_per_s;
    laptop_spec.dense_peak.fp16 = 28.0_TFLOPS;
    const gpu_spec& laptop = laptop_spec;

    item_workload classifier = cat::resnet50;
    classifier.measured = {.time_per_item = make<milliseconds>(100.0), .device = laptop,
                           .batch = 1};
    const duration p99 = make<milliseconds>(500.0);

    std::printf("ResNet-50, %.2f GFLOP and %.1f MB of fp16 weights per image\n\n",
                in<gigaflops>(classifier.flops_per_item),
                in<megabytes>(item_weight_bytes(classifier)));
    // A measurement is held unchanged on the other GPUs by default: the 100 ms is taken as
    // overhead a faster GPU does not cut. The "scaled" column carries it by the two GPUs'
    // roofline times instead: the answer if all of it were kernel time.
    item_serving_assumptions scaled{};
    scaled.transfer = measurement_transfer::scale;
    std::printf("%-16s %-10s %-20s %-24s %s\n", "GPU", "batch fit", "roofline, batch 1",
                "used (source)", "scaled");
    for (const gpu_spec* gpu : {&laptop, &cat::t4, &cat::l4}) {
        const item_service s = item_service_time(classifier, *gpu);
        const item_service sc = item_service_time(classifier, *gpu, 1, scaled);
        const item_batch_fit fit = largest_item_batch(classifier, *gpu);
        std::printf("%-16s %-10lld %.3f ms (%-6s)    %6.2f ms (%-13s)  %6.2f ms\n",
                    std::string(gpu->name).c_str(), static_cast<long long>(fit.batch),
                    in<milliseconds>(s.roofline.time),
                    std::string(to_string(s.roofline.bound)).c_str(), in<milliseconds>(s.time),
                    std::string(to_string(s.source)).c_str(), in<milliseconds>(sc.time));
    }

    std::printf("\n%-9s %-16s %-28s %s\n", "req/h", "GPU", "measured: GPUs (util., p99)",
                "roofline: GPUs at batch (util., p99)");
    // The last row of each rate uses the scaled measurement.
    for (double per_hour : {10000.0, 100000.0}) {
        const request_rate rate = make<requests_per_second>(per_hour / 3600.0);
        for (int row = 0; row < 4; ++row) {
            const gpu_spec* gpu = row == 0 ? &laptop : row == 2 ? &cat::l4 : &cat::t4;
            const item_replicas_estimate e =
                row == 3 ? item_replicas_for_rate(classifier, *gpu, rate, p99, scaled)
                         : item_replicas_for_rate(classifier, *gpu, rate, p99);
            const auto show = [](const item_gpu_plan& p) {
                char text[64];
                if (p.verdict != item_verdict::feasible) {
                    std::snprintf(text, sizeof text, "no: %s",
                                  std::string(to_string(p.verdict)).c_str());
                } else {
                    std::snprintf(text, sizeof text, "%lld at %lld (%.3f, %.1f ms)",
                                  static_cast<long long>(p.gpus), static_cast<long long>(p.batch),
                                  p.queue.queue.utilization, in<milliseconds>(p.latency));
                }
                return std::string(text);
            };
            const std::string name =
                std::string(gpu->name) + (row == 3 ? " (scaled)" : "");
            std::printf("%-9.0f %-16s %-28s %s\n", per_hour, name.c_str(),
                        show(e.chosen).c_str(), show(e.roofline).c_str());
        }
    }
}
