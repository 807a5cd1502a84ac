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

    // A cluster, checked once. Its intra-node link is derived: H100 SXM's NVLink spans the
    // 8 GPUs of an HGX board. Links hold one direction; collectives reach a measured fraction.
    gpucalc::cluster pod{};
    pod.node.gpu = cat::h100_sxm;
    pod.nodes = 16;
    pod.inter_node = cat::infiniband_ndr;
    const gpucalc::checked_cluster checked = gpucalc::check(pod);
    const gpucalc::link_spec& nvlink = gpucalc::intra_node_link(checked);
    std::cout << gpucalc::total_gpus(checked) << " GPUs, " << nvlink.name << " "
              << nvlink.per_direction << " each way, " << gpucalc::bus_bandwidth(nvlink)
              << " for collectives, " << gpucalc::node_network_bandwidth(checked)
              << " per node out\n";

    // Eight PCIe cards: NVLink bridges join pairs only, so a ring over all 8 crosses PCIe.
    const gpucalc::node pcie_server{.gpu = cat::a100_80gb_pcie, .gpus_per_node = 8};
    const gpucalc::link_spec pcie = gpucalc::intra_node_link(pcie_server);
    std::cout << "8 x " << cat::a100_80gb_pcie.name << ": " << pcie.name << ", "
              << gpucalc::bus_bandwidth(pcie) << " for collectives\n";

    // A cloud shape: GPUs, host and network.
    const gpucalc::instance_spec& p5 = cat::aws_p5_48xlarge;
    std::cout << p5.name << ": " << p5.gpus << " x " << p5.gpu.name << ", " << p5.vcpus
              << " vCPUs, " << p5.host_memory << ", " << p5.network << "\n";
}
