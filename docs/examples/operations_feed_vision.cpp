// ResNet-50 trained on ImageNet on one AWS p4d.24xlarge (8 A100s, 96 vCPUs): does the CPU
// keep up with the GPUs' 16,621 images/s, and how many data-loader workers would it take?
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
    stage("preprocessing: ", v.preprocessing);
    std::cout << "  " << (v.input_bound ? "input-bound" : "compute-bound") << ", binding stage "
              << to_string(v.binding) << ", GPU utilization " << fixed(100.0 * v.gpu_utilization, 1)
              << "%\n  workers per GPU: " << v.effective_workers_per_gpu << " running, "
              << v.workers_per_gpu_needed << " needed, " << v.usable_cores_per_gpu
              << " usable cores: " << (v.cores_suffice ? "enough" : "not enough") << "\n";
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    // NVIDIA's published ResNet-50 v1.5 training rate on 8 A100s, mixed precision, and the
    // mean ImageNet training JPEG (138 GB / 1,281,167 images).
    const input_demand demand =
        sample_demand(resnet50_dgx_a100_8gpu_training, imagenet_mean_jpeg);
    std::cout << "demand: " << fixed(in<samples_per_second>(demand.samples), 0) << " images/s ("
              << fixed(in<samples_per_second>(demand.samples) / 8.0, 1) << " a GPU), "
              << demand.bytes << " of " << demand.bytes_per_item << " JPEGs\n";
    // The same rate from the FLOPs: 8 × 0.16 × 312 TFLOP/s / (3 × 8.18 GFLOP).
    const input_demand from_flops =
        item_training_demand(cat::resnet50, cat::a100_40gb_sxm, 8, imagenet_mean_jpeg);
    std::cout << "from FLOPs at 16% of peak: "
              << fixed(in<samples_per_second>(from_flops.samples), 0) << " images/s\n";

    const instance_spec& node = cat::aws_p4d_24xlarge;
    const input_pipeline p4d{.nodes = 1,
                             .gpus_per_node = node.gpus,
                             .cpu_cores_per_node = node.vcpus,
                             .storage_read = make<gigabytes_per_second>(10.0),
                             .storage = storage_scope::shared,
                             .network_per_node = node.network,
                             .preprocess_time_per_item = imagenet_preprocess_time_per_image,
                             .workers_per_gpu = 11,
                             .cores_reserved_per_gpu = 1};
    std::cout << node.name << ", 11 workers per GPU at 150 images/s a core:\n";
    report(input_pipeline_verdict(demand, p4d));

    // A host with 16 vCPUs per GPU runs the 14 workers it takes.
    input_pipeline roomier = p4d;
    roomier.cpu_cores_per_node = 8 * 16;
    roomier.workers_per_gpu = 14;
    std::cout << "16 vCPUs per GPU, 14 workers:\n";
    report(input_pipeline_verdict(demand, roomier));
}
