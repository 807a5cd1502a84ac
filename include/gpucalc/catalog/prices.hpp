// catalog/prices.hpp: example prices, each dated and sourced, and the table of dated GPU-hour
// prices. Prices go stale: these are examples for docs and tests, never defaults inside a
// function, and a user's own prices are the ones to pass.
#pragma once

#include <cstddef>

#include "../literals.hpp"
#include "../units.hpp"
#include "gpus.hpp"
#include "price_record.hpp"

namespace gpucalc {
namespace catalog {

// ---------------------------------------------------------------------------------------------
// GPU-hour prices as dated records (price_record.hpp). Conventions:
// - Each record is what one provider's pricing page printed on one day: the date is the day the
//   page was read, by this catalog or by the dated copy of the page the comment names (copies
//   made by third parties who transcribe pages or price feeds, each stating the day it read).
// - A page that prices an instance is kept as its $/h for all its GPUs (basis
//   per_instance_hour); gpu_hour_price() divides it by the instance's GPUs. A page that prices a
//   GPU-hour is kept as its $/GPU·h.
// - Prices are Linux, on-demand unless the kind says spot. Spot records are examples only:
//   spot prices move daily (Google: "can change up to once every day"), by zone (AWS) or with
//   the market, and the comment gives the range seen.
// - Where a provider prints one list for all its regions, the region is "any".
// - "uncertain" marks a record whose sources disagree; the comment gives the range.
// - A GPU at a provider that no dated source was found for is left out, never estimated.
// ---------------------------------------------------------------------------------------------
namespace detail_prices {
using namespace literals;

inline constexpr std::string_view aws_on_demand = "https://aws.amazon.com/ec2/pricing/on-demand/";
inline constexpr std::string_view aws_spot = "https://aws.amazon.com/ec2/spot/pricing/";
inline constexpr std::string_view azure_linux =
    "https://azure.microsoft.com/en-us/pricing/details/virtual-machines/linux/";
inline constexpr std::string_view google_vm =
    "https://cloud.google.com/compute/vm-instance-pricing";
inline constexpr std::string_view google_spot = "https://cloud.google.com/spot-vms/pricing";
inline constexpr std::string_view lambda_instances = "https://lambda.ai/instances";
inline constexpr std::string_view runpod_pricing = "https://www.runpod.io/pricing";
inline constexpr std::string_view coreweave_pricing = "https://www.coreweave.com/pricing";
inline constexpr std::string_view digitalocean_pricing =
    "https://docs.digitalocean.com/products/droplets/details/pricing/";

/// A record for a page that prices a whole instance: `price` per hour for its `gpus` GPUs.
constexpr price_record instance_hour(const gpu_spec& gpu, cloud_provider provider,
                                     std::string_view region, price_kind kind,
                                     std::string_view offer, std::int64_t gpus, cost_rate price,
                                     calendar_date read, std::string_view source,
                                     bool uncertain = false) {
    price_record r{};
    r.gpu = &gpu;
    r.provider = provider;
    r.region = region;
    r.kind = kind;
    r.offer = offer;
    r.gpus = gpus;
    r.basis = price_basis::per_instance_hour;
    r.per_instance = price;
    r.read = read;
    r.source = source;
    r.uncertain = uncertain;
    return r;
}

/// A record for a page that prices a GPU-hour, in an offer of `gpus` GPUs.
constexpr price_record gpu_hour(const gpu_spec& gpu, cloud_provider provider,
                                std::string_view region, price_kind kind, std::string_view offer,
                                std::int64_t gpus, gpu_price price, calendar_date read,
                                std::string_view source, bool uncertain = false) {
    price_record r{};
    r.gpu = &gpu;
    r.provider = provider;
    r.region = region;
    r.kind = kind;
    r.offer = offer;
    r.gpus = gpus;
    r.basis = price_basis::per_gpu_hour;
    r.per_gpu = price;
    r.read = read;
    r.source = source;
    r.uncertain = uncertain;
    return r;
}

constexpr cloud_provider aws = cloud_provider::aws;
constexpr cloud_provider google = cloud_provider::google_cloud;
constexpr cloud_provider azure = cloud_provider::azure;
constexpr cloud_provider lambda = cloud_provider::lambda;
constexpr cloud_provider coreweave = cloud_provider::coreweave;
constexpr cloud_provider runpod = cloud_provider::runpod;
constexpr cloud_provider digitalocean = cloud_provider::digitalocean;
constexpr price_kind on_demand = price_kind::on_demand;
constexpr price_kind spot = price_kind::spot;

/// AWS p5.48xlarge (8 × H100 SXM), us-east-1: $55.04/h ($6.88 per GPU-hour), as the Amazon EC2
/// On-Demand Pricing page's price feed lists it on 2026-09-25, the same in us-east-2 and
/// us-west-2 (copies of the feed; data-receipts' "109-gpu-pricing" copy, retrieved
/// 2026-11-09, lists the same). The price since AWS's cut of June 2025 (AWS What's New: up to
/// 45% off P4 and P5 on-demand prices); $98.32/h before it.
inline constexpr price_record aws_p5_48xlarge = instance_hour(
    h100_sxm, aws, "us-east-1", on_demand, "p5.48xlarge", 8, 55.04_usd_per_h, {2026, 9, 25},
    aws_on_demand);

/// Lambda 8x NVIDIA A100 SXM 40 GB: $1.99 per GPU-hour (lambda.ai/instances, as api-evangelist's
/// transcription of the page read on 2026-09-20 records it). Uncertain: that copy lists it as
/// an 8-GPU instance; data-receipts' copy (2026-11-16) lists a 1-GPU instance at the same $1.99.
inline constexpr price_record lambda_a100_40gb = gpu_hour(
    a100_40gb_sxm, lambda, "any", on_demand, "8x NVIDIA A100 SXM 40 GB", 8, 1.99_usd_per_gpu_hour,
    {2026, 9, 20}, lambda_instances, true);

/// The table behind all_prices.
inline constexpr price_record records[] = {
    // T4 ----------------------------------------------------------------------------------------
    // AWS g4dn.xlarge (1 × T4), us-west-2: $0.526/h (SkyPilot's AWS catalog, 2026-09-08; another,
    // undated copy lists the same for us-east-1).
    instance_hour(t4, aws, "us-west-2", on_demand, "g4dn.xlarge", 1, 0.526_usd_per_h, {2026, 9, 8},
                  aws_on_demand),
    // Spot example, uncertain: $0.0631/h in the cheapest us-west-2 zone, $0.2086/h in the
    // dearest (same copy, 2026-09-08): 12% to 40% of on-demand.
    instance_hour(t4, aws, "us-west-2", spot, "g4dn.xlarge", 1, 0.0631_usd_per_h, {2026, 9, 8},
                  aws_spot, true),

    // L4 ----------------------------------------------------------------------------------------
    // AWS g6.xlarge (1 × L4), us-west-2: $0.8048/h (SkyPilot's AWS catalog, 2026-09-08; another,
    // undated copy lists the same for us-east-1).
    instance_hour(l4, aws, "us-west-2", on_demand, "g6.xlarge", 1, 0.8048_usd_per_h, {2026, 9, 8},
                  aws_on_demand),

    // A10 ---------------------------------------------------------------------------------------
    // Lambda 1x NVIDIA A10: $1.29 per GPU-hour (lambda.ai/instances, api-evangelist's copy read
    // 2026-09-20; silybench-data's copy of 2026-09-25 lists the same).
    gpu_hour(a10, lambda, "any", on_demand, "1x NVIDIA A10", 1, 1.29_usd_per_gpu_hour,
             {2026, 9, 20}, lambda_instances),

    // A10G (AWS-only) ---------------------------------------------------------------------------
    // AWS g5.xlarge (1 × A10G), us-west-2: $1.006/h (SkyPilot's AWS catalog, 2026-09-08; another,
    // undated copy lists the same for us-east-1).
    instance_hour(a10g, aws, "us-west-2", on_demand, "g5.xlarge", 1, 1.006_usd_per_h, {2026, 9, 8},
                  aws_on_demand),

    // A100 40GB SXM -----------------------------------------------------------------------------
    // AWS p4d.24xlarge (8 × A100 40GB), us-east-1: $21.957642/h, which the copy prints as
    // $2.7447 per GPU-hour (data-receipts, retrieved 2026-11-09). $32.7726/h before AWS's cut of
    // June 2025.
    instance_hour(a100_40gb_sxm, aws, "us-east-1", on_demand, "p4d.24xlarge", 8,
                  21.957642_usd_per_h, {2026, 11, 9}, aws_on_demand),
    // Google Cloud a2-highgpu-1g (1 × A100 40GB, 12 vCPUs, 85 GB), us-central1: $3.673385/h, the
    // machine type's price with its GPU (Cyclenerd's copy of the Cloud Billing Catalog,
    // generated 2025-03-06). The oldest record here: check Google's page before use.
    instance_hour(a100_40gb_sxm, google, "us-central1", on_demand, "a2-highgpu-1g", 1,
                  3.673385_usd_per_h, {2025, 3, 6}, google_vm),
    // Spot example: $1.293355/h in us-central1 (same copy, 2025-03-06); from $1.10 to $2.23 by
    // region in that copy.
    instance_hour(a100_40gb_sxm, google, "us-central1", spot, "a2-highgpu-1g", 1,
                  1.293355_usd_per_h, {2025, 3, 6}, google_spot),
    // Lambda 8x NVIDIA A100 SXM 40 GB: $1.99 per GPU-hour (see lambda_a100_40gb).
    lambda_a100_40gb,

    // A100 80GB SXM -----------------------------------------------------------------------------
    // AWS p4de.24xlarge (8 × A100 80GB), us-east-1: $27.44705/h, which the copy prints as
    // $3.4309 per GPU-hour (data-receipts, retrieved 2026-11-09).
    instance_hour(a100_80gb_sxm, aws, "us-east-1", on_demand, "p4de.24xlarge", 8,
                  27.44705_usd_per_h, {2026, 11, 9}, aws_on_demand),
    // Google Cloud a2-ultragpu-1g (1 × A100 80GB, 12 vCPUs, 170 GB, 375 GB local SSD),
    // us-central1: $5.06879789041096/h with its GPU and SSD (Cyclenerd's copy of the Cloud
    // Billing Catalog, generated 2025-03-06).
    instance_hour(a100_80gb_sxm, google, "us-central1", on_demand, "a2-ultragpu-1g", 1,
                  5.06879789041096_usd_per_h, {2025, 3, 6}, google_vm),
    // Lambda 8x NVIDIA A100 SXM 80 GB: $2.79 per GPU-hour (api-evangelist's copy, 2026-09-20;
    // silybench-data's, 2026-09-25, the same).
    gpu_hour(a100_80gb_sxm, lambda, "any", on_demand, "8x NVIDIA A100 SXM 80 GB", 8,
             2.79_usd_per_gpu_hour, {2026, 9, 20}, lambda_instances),
    // RunPod A100 SXM, Secure Cloud (RunPod's own data centres): $1.79 per GPU-hour
    // (data-receipts' copy, read 2026-11-09; $1.59 on 2026-09-25 in silybench-data's copy; the
    // Community Cloud of third-party hosts, $1.39).
    gpu_hour(a100_80gb_sxm, runpod, "any", on_demand, "A100 SXM, Secure Cloud", 1,
             1.79_usd_per_gpu_hour, {2026, 11, 9}, runpod_pricing),
    // CoreWeave NVIDIA A100 (8 GPUs, 80 GB), on-demand: $21.60/h (api-evangelist's copy of
    // coreweave.com/pricing, read 2026-09-20): $2.70 per GPU-hour.
    instance_hour(a100_80gb_sxm, coreweave, "North America", on_demand, "NVIDIA A100 (8 GPUs)", 8,
                  21.60_usd_per_h, {2026, 9, 20}, coreweave_pricing),
    // Spot example: "Spot $9.65/hour (NA)" for the same 8 GPUs (same copy).
    instance_hour(a100_80gb_sxm, coreweave, "North America", spot, "NVIDIA A100 (8 GPUs)", 8,
                  9.65_usd_per_h, {2026, 9, 20}, coreweave_pricing),

    // A100 80GB PCIe ----------------------------------------------------------------------------
    // Azure Standard_NC24ads_A100_v4 (1 × A100 80GB PCIe), eastus: $3.673/h (data-receipts'
    // copy of Azure's retail prices, retrieved 2026-11-09; the 2- and 4-GPU sizes are $4.777 per
    // GPU-hour).
    instance_hour(a100_80gb_pcie, azure, "eastus", on_demand, "Standard_NC24ads_A100_v4", 1,
                  3.673_usd_per_h, {2026, 11, 9}, azure_linux),
    // RunPod A100 PCIe, Secure Cloud: $1.79 per GPU-hour (data-receipts' copy, 2026-11-09;
    // Community Cloud $1.19).
    gpu_hour(a100_80gb_pcie, runpod, "any", on_demand, "A100 PCIe, Secure Cloud", 1,
             1.79_usd_per_gpu_hour, {2026, 11, 9}, runpod_pricing),

    // H100 SXM ----------------------------------------------------------------------------------
    // AWS p5.48xlarge (8 × H100), us-east-1: $55.04/h (see aws_p5_48xlarge).
    aws_p5_48xlarge,
    // Spot example, uncertain: $19.9398/h in the cheapest us-west-2 zone, $21.0363/h in the
    // dearest (SkyPilot's AWS catalog, 2026-09-08): 36% to 38% of on-demand.
    instance_hour(h100_sxm, aws, "us-west-2", spot, "p5.48xlarge", 8, 19.9398_usd_per_h,
                  {2026, 9, 8}, aws_spot, true),
    // Azure Standard_ND96isr_H100_v5 (8 × H100), eastus: $98.32/h, $12.29 per GPU-hour as the
    // copy prints it (data-receipts, retrieved 2026-11-09). Uncertain: the region of this row
    // is not printed beside it; every other Azure row of the copy is eastus.
    instance_hour(h100_sxm, azure, "eastus", on_demand, "Standard_ND96isr_H100_v5", 8,
                  98.32_usd_per_h, {2026, 11, 9}, azure_linux, true),
    // Lambda 8x NVIDIA H100 SXM: $3.99 per GPU-hour (api-evangelist's copy, 2026-09-20;
    // silybench-data's, 2026-09-25, the same; the 1-GPU instance is $4.29). Above
    // prices::lambda_h100_on_demand_2026's $2.99, a March 2026 survey's figure.
    gpu_hour(h100_sxm, lambda, "any", on_demand, "8x NVIDIA H100 SXM", 8, 3.99_usd_per_gpu_hour,
             {2026, 9, 20}, lambda_instances),
    // RunPod H100 SXM, Secure Cloud: $3.99 per GPU-hour (data-receipts' copy, 2026-11-09; $3.49
    // on 2026-09-25 in silybench-data's copy; Community Cloud $2.69).
    gpu_hour(h100_sxm, runpod, "any", on_demand, "H100 SXM, Secure Cloud", 1, 3.99_usd_per_gpu_hour,
             {2026, 11, 9}, runpod_pricing),
    // CoreWeave NVIDIA HGX H100 (8 GPUs), on-demand: $49.24/h (api-evangelist's copy,
    // 2026-09-20): $6.155 per GPU-hour.
    instance_hour(h100_sxm, coreweave, "North America", on_demand, "NVIDIA HGX H100 (8 GPUs)", 8,
                  49.24_usd_per_h, {2026, 9, 20}, coreweave_pricing),
    // Spot example: "Spot Price: $19.71 / Hour (NA)" (same copy).
    instance_hour(h100_sxm, coreweave, "North America", spot, "NVIDIA HGX H100 (8 GPUs)", 8,
                  19.71_usd_per_h, {2026, 9, 20}, coreweave_pricing),

    // H100 PCIe ---------------------------------------------------------------------------------
    // Lambda 1x NVIDIA H100 PCIe: $3.29 per GPU-hour (api-evangelist's copy, 2026-09-20).
    gpu_hour(h100_pcie, lambda, "any", on_demand, "1x NVIDIA H100 PCIe", 1, 3.29_usd_per_gpu_hour,
             {2026, 9, 20}, lambda_instances),
    // RunPod H100 PCIe, Secure Cloud: $2.89 per GPU-hour (data-receipts' copy, 2026-11-09;
    // Community Cloud $1.99).
    gpu_hour(h100_pcie, runpod, "any", on_demand, "H100 PCIe, Secure Cloud", 1,
             2.89_usd_per_gpu_hour, {2026, 11, 9}, runpod_pricing),

    // H100 NVL ----------------------------------------------------------------------------------
    // Azure Standard_NC40ads_H100_v5 (1 × H100 NVL), eastus: $6.98/h (data-receipts' copy,
    // 2026-11-09; the 2-GPU size is $8.82 per GPU-hour).
    instance_hour(h100_nvl, azure, "eastus", on_demand, "Standard_NC40ads_H100_v5", 1,
                  6.98_usd_per_h, {2026, 11, 9}, azure_linux),
    // RunPod H100 NVL, Secure Cloud: $3.19 per GPU-hour (data-receipts' copy, 2026-11-09;
    // Community Cloud $2.59).
    gpu_hour(h100_nvl, runpod, "any", on_demand, "H100 NVL, Secure Cloud", 1, 3.19_usd_per_gpu_hour,
             {2026, 11, 9}, runpod_pricing),

    // H200 --------------------------------------------------------------------------------------
    // AWS p5en.48xlarge (8 × H200), us-west-2: $63.296/h (SkyPilot's AWS catalog, 2026-09-08,
    // where p5e.48xlarge had no on-demand price: AWS sells it through Capacity Blocks).
    instance_hour(h200, aws, "us-west-2", on_demand, "p5en.48xlarge", 8, 63.296_usd_per_h,
                  {2026, 9, 8}, aws_on_demand),
    // Google Cloud a3-ultragpu-8g (8 × H200), us-central1: $10.4365 per GPU-hour, the machine
    // type's price ÷ 8 as the copy prints it ("cloud-gpu-list-prices", from Google's Cloud
    // Billing Catalog, snapshot 2026-10-13; the same in us-east4 and us-west1).
    gpu_hour(h200, google, "us-central1", on_demand, "a3-ultragpu-8g", 8, 10.4365_usd_per_gpu_hour,
             {2026, 10, 13}, google_vm),
    // Spot example: $6.2607 per GPU-hour in us-central1 (same copy; $5.6357 in us-east4).
    gpu_hour(h200, google, "us-central1", spot, "a3-ultragpu-8g", 8, 6.2607_usd_per_gpu_hour,
             {2026, 10, 13}, google_spot),
    // RunPod H200, Secure Cloud: $4.59 per GPU-hour (silybench-data's copy, 2026-09-25;
    // api-evangelist's of 2026-10-07, the same; Community Cloud $3.59).
    gpu_hour(h200, runpod, "any", on_demand, "H200, Secure Cloud", 1, 4.59_usd_per_gpu_hour,
             {2026, 9, 25}, runpod_pricing),
    // CoreWeave NVIDIA HGX H200 (8 GPUs), on-demand: $50.44/h (api-evangelist's copy,
    // 2026-09-20): $6.305 per GPU-hour.
    instance_hour(h200, coreweave, "North America", on_demand, "NVIDIA HGX H200 (8 GPUs)", 8,
                  50.44_usd_per_h, {2026, 9, 20}, coreweave_pricing),
    // Spot example: "Spot Price: $20.93 / Hour (NA)" (same copy).
    instance_hour(h200, coreweave, "North America", spot, "NVIDIA HGX H200 (8 GPUs)", 8,
                  20.93_usd_per_h, {2026, 9, 20}, coreweave_pricing),

    // B200 --------------------------------------------------------------------------------------
    // AWS p6-b200.48xlarge (8 × B200), us-west-2: $113.9328/h (SkyPilot's AWS catalog,
    // 2026-09-08): $14.2416 per GPU-hour.
    instance_hour(b200, aws, "us-west-2", on_demand, "p6-b200.48xlarge", 8, 113.9328_usd_per_h,
                  {2026, 9, 8}, aws_on_demand),
    // Lambda 8x NVIDIA B200 SXM6: $6.69 per GPU-hour (api-evangelist's copy, 2026-09-20; the
    // 1-GPU instance is $6.99).
    gpu_hour(b200, lambda, "any", on_demand, "8x NVIDIA B200 SXM6", 8, 6.69_usd_per_gpu_hour,
             {2026, 9, 20}, lambda_instances),
    // RunPod B200, Secure Cloud: $6.79 per GPU-hour (silybench-data's copy, 2026-09-25;
    // api-evangelist's of 2026-10-07, the same; Community Cloud $5.98).
    gpu_hour(b200, runpod, "any", on_demand, "B200, Secure Cloud", 1, 6.79_usd_per_gpu_hour,
             {2026, 9, 25}, runpod_pricing),
    // CoreWeave NVIDIA HGX B200 (8 GPUs), on-demand: $68.80/h (api-evangelist's copy,
    // 2026-09-20): $8.60 per GPU-hour.
    instance_hour(b200, coreweave, "North America", on_demand, "NVIDIA HGX B200 (8 GPUs)", 8,
                  68.80_usd_per_h, {2026, 9, 20}, coreweave_pricing),
    // Spot example: "Spot Price: $34.11 / Hour (NA)" (same copy).
    instance_hour(b200, coreweave, "North America", spot, "NVIDIA HGX B200 (8 GPUs)", 8,
                  34.11_usd_per_h, {2026, 9, 20}, coreweave_pricing),

    // GB200 -------------------------------------------------------------------------------------
    // CoreWeave NVIDIA GB200 NVL72, on-demand, North America: $42.00/h for an instance of 4 GPUs
    // (api-evangelist's copy, 2026-09-20): $10.50 per GPU-hour, the figure the same page prints
    // as its single-GPU price for GB200.
    instance_hour(gb200, coreweave, "North America", on_demand, "NVIDIA GB200 NVL72 (4 GPUs)", 4,
                  42.00_usd_per_h, {2026, 9, 20}, coreweave_pricing),

    // MI300X ------------------------------------------------------------------------------------
    // DigitalOcean GPU Droplet, AMD MI300X (8x): $15.92/h; the page prints the 1-GPU Droplet at
    // $1.99/h ("Droplet Pricing", validated on 28 May 2026).
    instance_hour(mi300x, digitalocean, "any", on_demand, "AMD MI300X (8x)", 8, 15.92_usd_per_h,
                  {2026, 5, 28}, digitalocean_pricing),
};

}  // namespace detail_prices

/// Every dated GPU-hour price of the catalog, by GPU (in catalog/gpus.hpp's order), then
/// hyperscalers before GPU clouds, on-demand before spot. docs/cost.md lists them in one table.
/// Copies cited (each with the day it read the page):
/// - SkyPilot's catalog of AWS's price list, as read from it on 2026-09-08 for us-west-2 (a
///   copy of Amazon's EC2 price list; on-demand per instance, spot as the cheapest and dearest
///   zone);
/// - data-receipts, "109-gpu-pricing" (AWS and Azure price feeds, and RunPod's page), retrieved
///   2026-11-09;
/// - api-evangelist's transcriptions of lambda.ai/instances and coreweave.com/pricing, read
///   2026-09-20 ("every price_text was found verbatim in the fetched page text");
/// - silybench-data's prices/gpu_hourly.yaml (RunPod's page), checked 2026-09-25;
/// - Cyclenerd's google-cloud-pricing-cost-calculator pricing.yml (Google's Cloud Billing
///   Catalog), generated 2025-03-06;
/// - the "cloud-gpu-list-prices" data set (Google's Cloud Billing Catalog), snapshot 2026-10-13.
inline constexpr const price_record (&all_prices)[sizeof(detail_prices::records) /
                                                   sizeof(detail_prices::records[0])] =
    detail_prices::records;

/// How many records all_prices holds.
inline constexpr std::size_t price_count = sizeof(all_prices) / sizeof(all_prices[0]);

/// Every record of all_prices that prices `gpu`, in table order (prices_for over the catalog's
/// table). Ranges: gpu not null and named. constexpr.
constexpr price_list<price_count> prices_for(const gpu_spec* gpu) {
    return gpucalc::prices_for(all_prices, gpu);
}

/// The newest record of all_prices for `gpu` from `provider` as `kind`, or nullptr when the
/// catalog has none (newest_price over the catalog's table). Ranges: gpu not null and named;
/// provider and kind one of their enumerators. constexpr.
constexpr const price_record* newest_price(const gpu_spec* gpu, cloud_provider provider,
                                           price_kind kind = price_kind::on_demand) {
    return gpucalc::newest_price(all_prices, gpu, provider, kind);
}

namespace prices {

/// AWS p5.48xlarge (8 × H100) on-demand, us-east-1, Linux: $98.32/h from its July 2023 launch
/// until AWS's price cut of June 2025 (Amazon EC2 On-Demand Pricing page, as third-party copies
/// of it record the price). A past price, kept for the examples that compare against it:
/// aws_p5_48xlarge_on_demand_2026 is the current one.
inline constexpr cost_rate aws_p5_48xlarge_on_demand_2024 = make<usd_per_hour>(98.32);

/// AWS p5.48xlarge (8 × H100) on-demand, us-east-1, Linux: $55.04/h ($6.88 per GPU-hour), the
/// record of all_prices read on 2026-09-25 (detail_prices::aws_p5_48xlarge gives its source).
inline constexpr cost_rate aws_p5_48xlarge_on_demand_2026 =
    detail_prices::aws_p5_48xlarge.per_instance;

/// Lambda on-demand H100 SXM, March 2026 (third-party price survey, costnimbus). Uncertain:
/// $2.49–$2.99 by listing in March 2026, and copies of lambda.ai/pricing from September and
/// October 2026 show $3.99 per GPU-hour for the 8-GPU instance: $2.49–$3.99.
inline constexpr gpu_price lambda_h100_on_demand_2026 = make<usd_per_gpu_hour>(2.99);

/// Lambda on-demand A100 SXM 40 GB, per GPU-hour, in its 8-GPU instance: $1.99, the record of
/// all_prices read on 2026-09-20 (detail_prices::lambda_a100_40gb gives its source). Uncertain:
/// the same copies list the 8-GPU H100 SXM at $3.99, above lambda_h100_on_demand_2026's $2.99,
/// so the two catalog prices are not one day's price list.
inline constexpr gpu_price lambda_a100_40gb_on_demand_2026 =
    detail_prices::lambda_a100_40gb.per_gpu;

/// NVIDIA DGX H100 purchase price, May 2023 (SemiAnalysis, via Epoch AI's training-cost-trends
/// notebook): ~$270,000. Uncertain: $200k–$400k by configuration, support and date.
inline constexpr money dgx_h100_2023 = make<usd>(270000.0);

/// NVIDIA DGX A100 launch price, May 2020 (NVIDIA press release, "starting at $199,000").
inline constexpr money dgx_a100_2020 = make<usd>(199000.0);

/// DGX A100 maximum system power (NVIDIA DGX A100 datasheet): 6.5 kW.
inline constexpr power dgx_a100_power = make<kilowatts>(6.5);

/// DGX H100 maximum system power (NVIDIA DGX H100 datasheet): 10.2 kW.
inline constexpr power dgx_h100_power = make<kilowatts>(10.2);

/// Colocation in North American primary markets, 250–500 kW requirements: $184.06 per kW per
/// month, H2 2024 (CBRE, "North America Data Center Trends H2 2024", February 2025). A price
/// per kW per month is a price per energy ($0.252/kWh of IT capacity reserved): multiply it by
/// the power reserved to get the hourly cost.
inline constexpr energy_price colocation_2024 =
    make<usd>(184.06) / (make<kilowatts>(1.0) * make<months>(1.0));

/// Serverless H100 (80 GB), billed by the second while a worker runs, its start included:
/// RunPod Serverless "flex" workers, $0.00116/s = $4.176/GPU·h (docs.runpod.io/serverless/pricing,
/// as read in November 2026; its "active", always-on workers are $0.00093/s). Uncertain: Modal's
/// H100 was $0.001097/s in 2026.
inline constexpr gpu_price runpod_h100_serverless_2026 = make<usd_per_gpu_second>(0.00116);

/// US average industrial electricity price, 2023: 8.06 ¢/kWh (EIA, Electric Power Monthly:
/// average price to ultimate customers, industrial sector, 2023 annual; uncertain by state:
/// 5–20 ¢).
inline constexpr energy_price us_industrial_electricity_2023 = make<usd_per_kilowatt_hour>(0.0806);

/// Internet egress, first tier: $0.09/GB (Amazon EC2 On-Demand Pricing page, "Data Transfer
/// OUT From Amazon EC2 To Internet", up to 10 TB/month, us-east-1, as third-party copies of the
/// page record it in 2026).
inline constexpr data_price aws_egress_first_tier = make<usd_per_gigabyte>(0.09);

}  // namespace prices

/// Grid carbon intensity, 2023. The two bases differ and are named: "direct" counts the
/// generators' own CO₂ (EIA: 0.81 lb/kWh from US utility-scale generation, EIA FAQ "How much
/// carbon dioxide is produced per kilowatthour" = 367 g/kWh); "lifecycle" adds fuel supply and
/// construction, in CO₂e (Ember's 2023 data via Our World in Data).
namespace grid {
inline constexpr grid_intensity us_2023_direct = make<grams_per_kilowatt_hour>(367.0);
inline constexpr grid_intensity france_2023_lifecycle = make<grams_per_kilowatt_hour>(56.0);
inline constexpr grid_intensity germany_2023_lifecycle = make<grams_per_kilowatt_hour>(381.0);
inline constexpr grid_intensity norway_2023_lifecycle = make<grams_per_kilowatt_hour>(30.0);
inline constexpr grid_intensity india_2023_lifecycle = make<grams_per_kilowatt_hour>(713.0);
inline constexpr grid_intensity china_2023_lifecycle = make<grams_per_kilowatt_hour>(582.0);
}  // namespace grid

}  // namespace catalog
}  // namespace gpucalc
