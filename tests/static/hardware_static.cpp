// hardware_static.cpp: the catalog and number formats are usable in constant expressions.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/precision.hpp>

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

// A link's collective bandwidth: 0.82 of NVLink 4's 450 GB/s each way (nccl-tests busbw).
static_assert(approx_equal(bus_bandwidth(cat::nvlink4), 0.82 * 450.0_GB_per_s), "busbw");

// A GPU is cheap to copy: its MIG table stays in the catalog (432 bytes on LP64 when it did not).
static_assert(sizeof(gpu_spec) <= 256, "no profile table inside a gpu_spec");
static_assert(cat::h100_sxm == cat::h100_sxm && cat::h100_pcie != cat::h100_sxm, "value equality");
}  // namespace
