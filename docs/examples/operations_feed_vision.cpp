// ResNet-50 trained on ImageNet on one AWS p4d.24xlarge (8 A100s, 96 vCPUs = 48 cores): does
// the CPU keep up with the GPUs' 16,621 images/s, and what would it take?
#include <gpucalc/gpucalc.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

namespace {
/// x with `decimals` decimals.
std::string fixed(double x, int decimals) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << x;
    return out.str();
}

void report(const gpucalc::feed_verdict& v) {
    using gpucalc::in;
    using gpucalc::samples_per_second;
    const auto stage = [](const char* name, const gpucalc::stage_supply& s) {
        std::cout << "  " << name << fixed(in<samples_per_second>(s.samples), 0)
                  << " images/s (" << s.bytes << "), headroom " << fixed(s.headroom, 2) << "\n";
    };
    stage("storage:       ", v.storage);
    stage("network:       ", v.network);
    if (v.preprocessing.present) {
        stage("preprocessing: ", v.preprocessing);
    } else {
        std::cout << "  preprocessing: none on the CPU\n";
    }
    std::cout << "  " << (v.input_bound ? "input-bound" : "compute-bound") << ", binding stage "
              << to_string(v.binding) << ", GPU utilization " << fixed(100.0 * v.gpu_utilization, 1)
              << "%\n";
    if (v.preprocessing.present) {
        std::cout << "  " << v.usable_cores_per_node << " usable cores a node, "
                  << v.running_workers_per_node << " workers running ("
                  << fixed(v.core_equivalents_per_node, 1) << " core equivalents)\n  ";
        if (v.cores_suffice) {
            std::cout << v.workers_per_gpu_needed << " workers per GPU keep up\n";
        } else {
            std::cout << "no worker count keeps up; " << v.cores_per_gpu_needed
                      << " usable cores per GPU, both threads busy, would\n";
        }
    }
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    // NVIDIA's published ResNet-50 v1.5 training rate on 8 A100s, mixed precision, and the
    // mean ImageNet training JPEG (147,897,477,120 B / 1,281,167 images).
    const input_demand demand =
        sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg);
    std::cout << "demand: " << fixed(in<samples_per_second>(demand.samples), 0) << " images/s ("
              << fixed(in<samples_per_second>(demand.samples) / 8.0, 1) << " a GPU), "
              << demand.bytes << " of " << demand.bytes_per_item << " JPEGs\n";
    // From the FLOPs at the fraction of peak NVIDIA's one-GPU 2,470 images/s implies: 8 ×
    // 0.194 × 312 TFLOP/s / (3 × 8.18 GFLOP), above the measured 8-GPU rate.
    const input_demand from_flops =
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg);
    std::cout << "from FLOPs at 19.4% of peak: "
              << fixed(in<samples_per_second>(from_flops.samples), 0) << " images/s\n";

    const instance_spec& node = cat::aws_p4d_24xlarge;
    const input_pipeline p4d{.nodes = 1,
                             .gpus_per_node = node.gpus,
                             .cpu_threads_per_node = node.vcpus,
                             .threads_per_core = 2,
                             .smt_throughput_gain = 0.25,
                             .storage_read = make<gigabytes_per_second>(10.0),
                             .storage = storage_scope::shared,
                             .network_per_node = node.network,
                             .preprocess_time_per_item = imagenet_preprocess_time_per_image,
                             .workers_per_gpu = 11,
                             .cores_reserved_per_gpu = 1};
    std::cout << node.name << ", 11 workers per GPU at 150 images/s a core:\n";
    report(input_pipeline_verdict(demand, p4d));

    // Fix 1: decode and augment on the GPU (NVIDIA DALI): no CPU stage left. The GPU time
    // the decode takes is not modelled here.
    input_pipeline gpu_decode = p4d;
    gpu_decode.preprocess_time_per_item = duration{};
    std::cout << "decode on the GPUs (DALI):\n";
    report(input_pipeline_verdict(demand, gpu_decode));

    // Fix 2: a host with 16 cores per GPU (128 cores, 256 vCPUs) runs 14 workers per GPU,
    // each alone on a core.
    input_pipeline roomier = p4d;
    roomier.cpu_threads_per_node = 256;
    roomier.workers_per_gpu = 14;
    std::cout << "128 cores (256 vCPUs), 14 workers per GPU:\n";
    report(input_pipeline_verdict(demand, roomier));
}
