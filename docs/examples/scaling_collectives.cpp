// A gradient all-reduce on 8 GPUs over NVLink or PCIe, and on 64 and 1,024 GPUs over
// InfiniBand or Ethernet: time, bus bandwidth, and which link binds.
#include <gpucalc/gpucalc.hpp>

#include <cstddef>
#include <iostream>
#include <string>

namespace {
using namespace gpucalc::literals;

/// `text` padded to `width` characters on screen ("µ" is one character, two bytes).
std::string padded(const std::string& text, std::size_t width) {
    std::size_t shown = 0;
    for (char c : text) shown += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return text + std::string(shown < width ? width - shown : 0, ' ');
}

void row(const std::string& label, const gpucalc::checked_cluster& c, std::int64_t gpus) {
    std::cout << padded(label, 34);
    for (gpucalc::data_size gradients : {1.0_MiB, 64.0_MiB, 1.0_GiB}) {
        const auto e = gpucalc::collective_time(
            {.op = gpucalc::collective::all_reduce, .bytes = gradients, .ranks = gpus}, c);
        std::cout << padded(to_string(e.time) + " " + std::string(to_string(e.algorithm)), 15);
        if (gradients == 1.0_GiB) std::cout << e.bus_bandwidth << ", " << e.binding << "\n";
    }
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    std::cout << padded("all-reduce of", 34) << padded("1 MiB", 15) << padded("64 MiB", 15)
              << padded("1 GiB", 15) << "busbw at 1 GiB, binds\n";

    // One node: an HGX H100 board's NVSwitch, or 8 H100 PCIe cards whose bridges join pairs
    // only, so their ring crosses PCIe Gen5.
    const auto hgx = gpucalc::check({.node = {.gpu = cat::h100_sxm}, .nodes = 1});
    const auto pcie = gpucalc::check({.node = {.gpu = cat::h100_pcie}, .nodes = 1});
    row("8 x H100 SXM, NVLink 4", hgx, 8);
    row("8 x H100 PCIe, PCIe Gen5", pcie, 8);

    // 128 HGX H100 nodes, a NIC per GPU: InfiniBand NDR, 400G Ethernet (RoCE), 100G Ethernet.
    for (const gpucalc::link_spec* network :
         {&cat::infiniband_ndr, &cat::ethernet_400g_roce, &cat::ethernet_100g}) {
        const auto pod = gpucalc::check(
            {.node = {.gpu = cat::h100_sxm}, .nodes = 128, .inter_node = *network});
        for (std::int64_t gpus : {64, 1024}) {
            row(std::to_string(gpus) + " x H100, " + std::string(network->name), pod, gpus);
        }
    }

    // A data-parallel group of TP = 8 replicas, one rank per node, shares each node's NICs
    // with the 7 other groups there: one NIC's worth each.
    const auto pod = gpucalc::check(
        {.node = {.gpu = cat::h100_sxm}, .nodes = 128, .inter_node = cat::infiniband_ndr});
    const gpucalc::collective_spec gradients{
        .op = gpucalc::collective::all_reduce, .bytes = 1.0_GiB, .ranks = 128};
    const auto dp = gpucalc::collective_time(gradients, pod, {.ranks_per_node = 1});
    std::cout << "DP of 128 (1 rank/node): " << dp.time << ", " << dp.inter_node_bandwidth
              << " of network each\n";

    // An uneven group: 12 ranks fill one node and put 4 on the next, whose NICs it shares with
    // the 4 GPUs' other work there; NVLink carries 7/8 of the ring's volume, the NICs all of it.
    const auto twelve = gpucalc::collective_time(
        {.op = gpucalc::collective::all_reduce, .bytes = 1.0_GiB, .ranks = 12}, pod);
    std::cout << "12 ranks (" << twelve.ranks_per_node << " + " << twelve.ranks_on_emptiest_node
              << "): " << twelve.time << ", NVLink term " << twelve.intra_node_term
              << ", network term " << twelve.inter_node_term << " at "
              << twelve.inter_node_bandwidth << "\n";
}
