// catalog/instances.hpp: the GPUs, vCPUs, host memory and network of common cloud instance shapes
#pragma once

#include "../hardware.hpp"
#include "../literals.hpp"
#include "gpus.hpp"

namespace gpucalc {
namespace catalog {

// Conventions:
// - Sources are the providers' own instance documentation:
//   AWS: "Specifications for Amazon EC2 accelerated computing instances"
//        (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html), performance and network tables.
//   Google Cloud: "Accelerator-optimized machine family" (cloud.google.com/compute/docs/
//        accelerator-optimized-machines) and "Networking and GPU machines"
//        (cloud.google.com/compute/docs/gpus/gpu-network-bandwidth).
//   Azure: the ND-H100-v5, ND-H200-v5 and ND-GB200-v6 size-series pages (learn.microsoft.com,
//        azure/virtual-machines/sizes/gpu-accelerated/).
// - Host memory is in GiB. AWS and Azure print GiB; Google prints "GB" but means 2^30 bytes
//   (its API reports memoryMb = GB x 1024, e.g. 1.7 GB as 1740 MB for g1-small).
// - `network` is the instance's total scale-out bandwidth in one direction, from the provider's
//   Gb/s figure (AWS: "bandwidth applies to both inbound and outbound traffic"). Where a provider
//   prints a baseline and a burst, the sustained baseline is taken and the comment gives both.
// - `gpu` is the catalog's per-device entry; the provider's GPU-memory column is quoted in the
//   comment, because some providers print usable memory (AWS: A10G 22 GiB, B200 179 GiB).
// - "uncertain" marks values that sources disagree on, with the range; tests never assert them.
// - A price is not part of the shape: prices go stale and live in catalog/prices.hpp.

// ---------------------------------------------------------------------------------------------
// AWS
// ---------------------------------------------------------------------------------------------

/// AWS p4d.24xlarge: 8 × A100 40GB SXM.
inline constexpr instance_spec aws_p4d_24xlarge = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "AWS";
    i.name = "p4d.24xlarge";
    i.gpu = a100_40gb_sxm;                    // AWS ac.html: 8 x A100, 320 GiB (8 x 40 GiB)
    i.gpus = 8;                               // AWS ac.html
    i.vcpus = 96;                             // AWS ac.html: 96 vCPUs (Xeon Platinum 8275CL)
    i.host_memory = 1152.0_GiB;               // AWS ac.html: 1152.00 GiB
    i.network = 400.0_Gb_per_s;               // AWS ac.html: "4x 100 Gigabit" (EFA)
    return i;
}();

/// AWS p5.48xlarge: 8 × H100 80GB SXM.
inline constexpr instance_spec aws_p5_48xlarge = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "AWS";
    i.name = "p5.48xlarge";
    i.gpu = h100_sxm;                         // AWS ac.html: 8 x H100, 640 GiB (8 x 80 GiB)
    i.gpus = 8;                               // AWS ac.html
    i.vcpus = 192;                            // AWS ac.html: 192 vCPUs (AMD EPYC 7R13)
    i.host_memory = 2048.0_GiB;               // AWS ac.html: 2048.00 GiB
    i.network = 3200.0_Gb_per_s;              // AWS ac.html: "3200 Gigabit", 32 network cards (EFA)
    return i;
}();

/// AWS p5e.48xlarge: 8 × H200 141GB.
inline constexpr instance_spec aws_p5e_48xlarge = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "AWS";
    i.name = "p5e.48xlarge";
    i.gpu = h200;                             // AWS ac.html: 8 x H200, 1128 GiB (8 x 141)
    i.gpus = 8;                               // AWS ac.html
    i.vcpus = 192;                            // AWS ac.html: 192 vCPUs (AMD EPYC 7R13)
    i.host_memory = 2048.0_GiB;               // AWS ac.html: 2048.00 GiB
    i.network = 3200.0_Gb_per_s;              // AWS ac.html: "3200 Gigabit", 32 network cards (EFA)
    return i;
}();

/// AWS p6-b200.48xlarge: 8 × B200.
inline constexpr instance_spec aws_p6_b200_48xlarge = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "AWS";
    i.name = "p6-b200.48xlarge";
    i.gpu = b200;                             // AWS ac.html: 8 x B200, 1432 GiB (8 x 179)
    i.gpus = 8;                               // AWS ac.html
    i.vcpus = 192;                            // AWS ac.html: 192 vCPUs (Xeon Emerald Rapids)
    i.host_memory = 2048.0_GiB;               // AWS ac.html: 2048.00 GiB
    i.network = 3200.0_Gb_per_s;              // AWS ac.html: "3200 Gigabit", 8 network cards (EFA)
    return i;
}();

/// AWS g5.xlarge: 1 × A10G (the AWS-only A10 variant).
inline constexpr instance_spec aws_g5_xlarge = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "AWS";
    i.name = "g5.xlarge";
    i.gpu = a10g;                             // AWS ac.html: 1 x A10G, 22 GiB (usable of 24 GB)
    i.gpus = 1;                               // AWS ac.html
    i.vcpus = 4;                              // AWS ac.html: 4 vCPUs (AMD EPYC 7R32)
    i.host_memory = 16.0_GiB;                 // AWS ac.html: 16.00 GiB
    i.network = 2.5_Gb_per_s;                 // AWS ac.html: 2.5 baseline / 10 burst Gb/s
    return i;
}();

/// AWS g4dn.xlarge: 1 × T4.
inline constexpr instance_spec aws_g4dn_xlarge = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "AWS";
    i.name = "g4dn.xlarge";
    i.gpu = t4;                               // AWS ac.html: "1 x NVIDIA T4 GPU", 16 GiB
    i.gpus = 1;                               // AWS ac.html
    i.vcpus = 4;                              // AWS ac.html: 4 vCPUs (Xeon P-8259L)
    i.host_memory = 16.0_GiB;                 // AWS ac.html: 16.00 GiB
    i.network = 5.0_Gb_per_s;                 // AWS ac.html: 5 baseline / 25 burst Gb/s
    return i;
}();

// ---------------------------------------------------------------------------------------------
// Google Cloud
// ---------------------------------------------------------------------------------------------

/// Google Cloud a3-highgpu-8g (A3 High): 8 × H100 80GB.
inline constexpr instance_spec gcp_a3_highgpu_8g = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Google Cloud";
    i.name = "a3-highgpu-8g";
    i.gpu = h100_sxm;                         // Google A3 High: NVIDIA H100 80GB
    i.gpus = 8;                               // Google: machine type name "-8g", 8 GPUs
    i.vcpus = 208;                            // Google: "The A3 machine series has 208 vCPUs"
    i.host_memory = 1872.0_GiB;               // Google: "1,872 GB of memory"
    i.network = 1000.0_Gb_per_s;              // Google GPU networking: A3 High 1,000 Gbps
    return i;
}();

/// Google Cloud a3-megagpu-8g (A3 Mega): 8 × H100 80GB. An H100 shape, not Blackwell.
inline constexpr instance_spec gcp_a3_megagpu_8g = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Google Cloud";
    i.name = "a3-megagpu-8g";
    i.gpu = h100_sxm;                         // Google GPU networking: A3 Mega is H100 80GB
    i.gpus = 8;                               // Google: 8 GPUs, 8 GPU NICs (GPUDirect-TCPXO)
    i.vcpus = 208;                            // Google: A3 Mega/High have 208 vCPUs
    i.host_memory = 1872.0_GiB;               // Google: 1,872 GB
    i.network = 1800.0_Gb_per_s;              // uncertain: 1,600-1,800 Gbps by doc revision
    return i;
}();

/// Google Cloud a3-ultragpu-8g (A3 Ultra): 8 × H200 141GB.
inline constexpr instance_spec gcp_a3_ultragpu_8g = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Google Cloud";
    i.name = "a3-ultragpu-8g";
    i.gpu = h200;                             // Google GPU networking: NVIDIA H200 141GB
    i.gpus = 8;                               // Google: 8 GPUs, one CX-7 NIC each
    i.vcpus = 224;                            // Google: A3 "up to 224 vCPUs" (A3 Ultra)
    i.host_memory = 2952.0_GiB;               // uncertain: 2,944-2,952 GB by doc revision
    i.network = 3600.0_Gb_per_s;              // Google: 3,600 = 3,200 CX-7 RDMA + 400 gVNIC
    return i;
}();

/// Google Cloud g2-standard-4: 1 × L4, the smallest G2 shape.
inline constexpr instance_spec gcp_g2_standard_4 = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Google Cloud";
    i.name = "g2-standard-4";
    i.gpu = l4;                               // Google accelerator-optimized: G2 is L4
    i.gpus = 1;                               // Google G2 table (secondary copies)
    i.vcpus = 4;                              // Google G2 table (secondary copies)
    i.host_memory = 16.0_GiB;                 // Google G2 table (secondary copies)
    i.network = 10.0_Gb_per_s;                // uncertain: 10 (recalled); G2 max 100 Gbps
    return i;
}();

// ---------------------------------------------------------------------------------------------
// Azure
// ---------------------------------------------------------------------------------------------

/// Azure Standard_ND96isr_H100_v5 (ND H100 v5): 8 × H100 80GB.
inline constexpr instance_spec azure_nd96isr_h100_v5 = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Azure";
    i.name = "Standard_ND96isr_H100_v5";
    i.gpu = h100_sxm;                         // Azure ND-H100-v5: H100 80 GiB, 640 per VM
    i.gpus = 8;                               // Azure ND-H100-v5: 8 GPUs
    i.vcpus = 96;                             // Azure ND-H100-v5: 96 (Sapphire Rapids)
    i.host_memory = 1900.0_GiB;               // Azure specs: 1900 GiB (sizes tab: "GB")
    i.network = 3200.0_Gb_per_s;              // Azure: 8 x 400 Gb/s IB, 3.2 Tbps per VM
    return i;
}();

/// Azure Standard_ND96isr_H200_v5 (ND H200 v5): 8 × H200 141GB.
inline constexpr instance_spec azure_nd96isr_h200_v5 = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Azure";
    i.name = "Standard_ND96isr_H200_v5";
    i.gpu = h200;                             // Azure ND-H200-v5: H200 141GB, 1128 per VM
    i.gpus = 8;                               // Azure ND-H200-v5: 8 GPUs
    i.vcpus = 96;                             // Azure ND-H200-v5: 96 (Sapphire Rapids)
    i.host_memory = 1850.0_GiB;               // Azure specs: 1,850 GiB (sizes tab: "GB")
    i.network = 3200.0_Gb_per_s;              // Azure: 8 x 400 Gb/s IB, 3.2 Tb/s per VM
    return i;
}();

/// Azure Standard_ND128isr_NDR_GB200_v6 (ND GB200 v6): one VM is 2 Grace CPUs + 4 Blackwell GPUs
/// of a GB200 NVL72 rack (18 VMs per rack).
inline constexpr instance_spec azure_nd128isr_gb200_v6 = [] {
    using namespace literals;
    instance_spec i{};
    i.provider = "Azure";
    i.name = "Standard_ND128isr_NDR_GB200_v6";
    i.gpu = gb200;                            // Azure ND-GB200-v6: Blackwell GPU 192 GiB
    i.gpus = 4;                               // Azure ND-GB200-v6: 4 GPUs per VM
    i.vcpus = 128;                            // Azure ND-GB200-v6: 128 vCPUs (Grace)
    i.host_memory = 900.0_GiB;                // Azure ND-GB200-v6: 900 GiB LPDDR5X
    i.network = 1600.0_Gb_per_s;              // Azure: 4 x 400 Gb/s IB (sizes tab garbled)
    return i;
}();

/// Every instance above, for iteration (the sizing report, the plan search).
inline constexpr std::array<const instance_spec*, 13> all_instances{
    &aws_p4d_24xlarge,      &aws_p5_48xlarge,       &aws_p5e_48xlarge,  &aws_p6_b200_48xlarge,
    &aws_g5_xlarge,         &aws_g4dn_xlarge,       &gcp_a3_highgpu_8g, &gcp_a3_megagpu_8g,
    &gcp_a3_ultragpu_8g,    &gcp_g2_standard_4,     &azure_nd96isr_h100_v5,
    &azure_nd96isr_h200_v5, &azure_nd128isr_gb200_v6};

}  // namespace catalog
}  // namespace gpucalc
