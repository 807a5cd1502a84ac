// hardware_static.cpp: the catalog, number formats, derived links and checked clusters are
// usable in constant expressions.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/precision.hpp>

#include <cstdint>
#include <type_traits>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// Bits per element, block scales included (exact binary fractions).
static_assert(bits_per_element(formats::int4_g128) == 4.125, "int4 + fp16 scale / 128");
static_assert(bits_per_element(formats::mxfp4) == 4.25, "OCP MX: e8m0 scale / 32");
static_assert(bits_per_element(formats::nvfp4) == 4.5, "fp8 scale / 16");
static_assert(bits_per_element(formats::nf4) == 4.5, "QLoRA without double quantization");
static_assert(bits_per_element(formats::bf16) == 16.0, "bf16");
static_assert(storage_size(7e9, formats::fp16) == 14.0_GB, "7B at fp16 is 14 GB");
static_assert(storage_bits(number_format::e8m0) == 8.0, "an enumerator's bits, checked at compile time");
static_assert(bytes_per_element(formats::nvfp4) == 0.5625, "4.5 bits");

// Dense peaks from the datasheets, at compile time.
static_assert(peak(cat::h100_sxm, compute_precision::bf16) == 989.4_TFLOPS, "H100 SXM bf16");
static_assert(peak(cat::a100_80gb_sxm, compute_precision::fp16) == 312.0_TFLOPS, "A100 fp16");
static_assert(peak(cat::a100_80gb_sxm, compute_precision::tf32) == 156.0_TFLOPS, "A100 tf32");
static_assert(!supports(cat::a100_80gb_sxm, compute_precision::fp8), "no fp8 on Ampere");
static_assert(!supports(cat::t4, compute_precision::bf16), "no bf16 on Turing");
static_assert(cat::h200.dense_peak.bf16 == cat::h100_sxm.dense_peak.bf16, "H200: H100 compute");
static_assert(cat::a100_80gb_sxm.memory == 80.0_GiB, "80 GB of HBM is 80 GiB");
static_assert(in<gigabytes_per_second>(cat::h100_sxm.scale_up.per_direction) == 450.0,
              "NVLink 4: 900 GB/s bidirectional");

// Cloud shapes.
static_assert(cat::aws_p5_48xlarge.gpus == 8, "p5.48xlarge has 8 GPUs");
static_assert(cat::aws_p5_48xlarge.network == 400.0_GB_per_s, "3,200 Gb/s is 400 GB/s");

// A cluster's size and scale-out bandwidth.
constexpr cluster pod = [] {
    cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = 8;
    c.node.intra_node = cat::nvlink4;
    c.nodes = 16;
    c.inter_node = cat::infiniband_ndr;
    c.nics_per_node = 8;
    return c;
}();
static_assert(total_gpus(pod) == 128, "16 nodes x 8 GPUs");
static_assert(node_network_bandwidth(pod) == 400.0_GB_per_s, "8 x 400 Gb/s");

// Checked once, at compile time; the handle answers without checking again.
constexpr checked_cluster checked_pod = check(pod);
static_assert(total_gpus(checked_pod) == total_gpus(pod), "the two paths agree");
static_assert(node_network_bandwidth(checked_pod) == node_network_bandwidth(pod),
              "the two paths agree");
static_assert(intra_node_link(checked_pod) == cat::nvlink4, "set explicitly");
static_assert(checked_pod.spec().node.gpu == cat::h100_sxm, "a copy of what was checked");

// The intra-node link, derived: NVSwitch joins an HGX board's 8 GPUs; NVLink bridges join
// pairs, so 8 PCIe cards talk over PCIe.
constexpr node node_of(const gpu_spec& gpu, std::int64_t gpus) {
    node n{};
    n.gpu = gpu;
    n.gpus_per_node = gpus;
    return n;
}
static_assert(intra_node_link(node_of(cat::h100_sxm, 8)) == cat::nvlink4, "HGX H100");
static_assert(intra_node_link(node_of(cat::a100_80gb_pcie, 8)) == cat::pcie_gen4_x16, "8 x PCIe");
static_assert(intra_node_link(node_of(cat::a100_80gb_pcie, 2)) == cat::nvlink_bridge, "a pair");
static_assert(intra_node_link(node_of(cat::gb200, 72)) == cat::nvlink5_nvl72, "NVL72");
static_assert(approx_equal(bus_bandwidth(cat::nvlink4), 0.82 * 450.0_GB_per_s), "busbw");

// A GPU is cheap to copy: its MIG table stays in the catalog (432 bytes on LP64 when it did not).
static_assert(sizeof(gpu_spec) <= 256, "no profile table inside a gpu_spec");
static_assert(cat::h100_sxm == cat::h100_sxm && cat::h100_pcie != cat::h100_sxm, "value equality");

// Counts are one integer type, 64-bit, everywhere: a cluster sized from a 64-bit GPU count
// needs no cast (under -Wconversion -Werror a narrower field would not compile).
constexpr cluster of_gpus(std::int64_t gpus) {
    cluster c{};
    c.node.gpus_per_node = 8;
    c.nodes = gpus / c.node.gpus_per_node;
    c.nics_per_node = c.node.gpus_per_node;
    return c;
}
static_assert(of_gpus(1024).nodes == 128, "1,024 GPUs on 8-GPU nodes");
static_assert(std::is_same<decltype(cluster{}.nodes), std::int64_t>::value &&
                  std::is_same<decltype(node{}.gpus_per_node), std::int64_t>::value &&
                  std::is_same<decltype(instance_spec{}.gpus), std::int64_t>::value &&
                  std::is_same<decltype(link_spec{}.span), std::int64_t>::value,
              "64-bit counts");

#if __cplusplus >= 202002L
// A user's own device, in designated initializers: NVIDIA L40S datasheet (dense figures are
// half the "with sparsity" ones; no NVLink, no MIG).
constexpr gpu_spec l40s{
    .name = "L40S",
    .memory = 48.0_GiB,
    .memory_bandwidth = 864.0_GB_per_s,
    .dense_peak = {.fp32 = 91.6_TFLOPS, .tf32 = 183.0_TFLOPS, .bf16 = 362.05_TFLOPS,
                   .fp16 = 362.05_TFLOPS, .fp8 = 733.0_TFLOPS, .int8 = 733.0_TFLOPS},
    .tdp = 350.0_W,
    .host = cat::pcie_gen4_x16,
};
static_assert((check(l40s), true), "a valid spec");
static_assert(intra_node_link(node_of(l40s, 8)) == cat::pcie_gen4_x16, "no NVLink: PCIe");
static_assert(l40s != cat::l4 && l40s == gpu_spec{l40s}, "compared by value");
#endif
}  // namespace
