// catalog/prices.hpp: example prices, each dated and sourced. Prices go stale: these are
// examples for docs and tests, never defaults inside a function.
#pragma once

#include "../literals.hpp"
#include "../units.hpp"

namespace gpucalc {
namespace catalog {
namespace prices {

/// AWS p5.48xlarge (8 × H100) on-demand, us-east-1, Linux: $98.32/h from its July 2023 launch
/// until AWS's price cut of June 2025 (Amazon EC2 On-Demand Pricing page, as third-party copies
/// of it record the price). A past price: aws_p5_48xlarge_on_demand_2026 is the current one.
inline constexpr cost_rate aws_p5_48xlarge_on_demand_2024 = make<usd_per_hour>(98.32);

/// AWS p5.48xlarge (8 × H100) on-demand, us-east-1, Linux: $55.04/h ($6.88 per GPU-hour), as
/// the Amazon EC2 On-Demand Pricing page's price feed lists it on 2026-09-25, the same in
/// us-east-2 and us-west-2 (copies of the feed; the p5.4xlarge, one H100, is $6.88/h). The
/// price since AWS's cut of June 2025 (AWS What's New: up to 45% off P4 and P5 on-demand
/// prices); $98.32/h before it.
inline constexpr cost_rate aws_p5_48xlarge_on_demand_2026 = make<usd_per_hour>(55.04);

/// Lambda on-demand H100 SXM, March 2026 (third-party price survey, costnimbus). Uncertain:
/// $2.49–$2.99 by listing in March 2026, and copies of lambda.ai/pricing from September and
/// October 2026 show $3.99 per GPU-hour for the 8-GPU instance: $2.49–$3.99.
inline constexpr gpu_price lambda_h100_on_demand_2026 = make<usd_per_gpu_hour>(2.99);

/// Lambda on-demand A100 SXM 40 GB, per GPU-hour, in its 8-GPU instance: $1.99 (lambda.ai
/// instances page, as copies of it read on 2026-09-20 and 2026-11-09 record it). Uncertain:
/// the same copies list the 8-GPU H100 SXM at $3.99, above lambda_h100_on_demand_2026's $2.99,
/// so the two catalog prices are not one day's price list.
inline constexpr gpu_price lambda_a100_40gb_on_demand_2026 = make<usd_per_gpu_hour>(1.99);

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
