#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;
    using gpucalc::compute_precision;

    // Storage: bits per element, block scales included.
    std::cout << gpucalc::bits_per_element(gpucalc::formats::int4_g128) << " bits, "
              << gpucalc::storage_size(7e9, gpucalc::formats::fp16) << " for 7B at fp16\n";

    // Compute: a dense peak per precision, and the ridge point it makes with bandwidth.
    auto bf16 = gpucalc::peak(cat::h100_sxm, compute_precision::bf16);
    std::cout << cat::h100_sxm.name << ": " << bf16 << ", ridge "
              << bf16 / cat::h100_sxm.memory_bandwidth << "\n";

    // A precision the device lacks is an error, not a number.
    try {
        gpucalc::peak(cat::a100_80gb_sxm, compute_precision::fp8);
    } catch (const gpucalc::invalid_input& e) {
        std::cout << e.what() << "\n";
    }

    // MIG: the smallest A100 80GB slice and what it holds.
    const gpucalc::mig_profile& smallest = cat::a100_80gb_sxm.mig[0];
    std::cout << smallest.name << ": " << smallest.memory << ", " << smallest.max_instances
              << " per GPU\n";

    // Links hold one direction; a cluster multiplies them out.
    gpucalc::cluster pod{};
    pod.node.gpu = cat::h100_sxm;
    pod.node.intra_node = cat::nvlink4;
    pod.nodes = 16;
    pod.inter_node = cat::infiniband_ndr;
    std::cout << gpucalc::total_gpus(pod) << " GPUs, NVLink " << pod.node.intra_node.per_direction
              << " each way, " << gpucalc::node_network_bandwidth(pod) << " per node out\n";

    // A cloud shape: GPUs, host and network.
    const gpucalc::instance_spec& p5 = cat::aws_p5_48xlarge;
    std::cout << p5.name << ": " << p5.gpus << " x " << p5.gpu.name << ", " << p5.vcpus
              << " vCPUs, " << p5.host_memory << ", " << p5.network << "\n";
}
