// prices_static.cpp: the catalog's dated prices, their checks and their lookups are constant
// expressions (C++17 and C++20), so a budget can name a dated price in a static_assert.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/price_record.hpp>
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/testing.hpp>

#include <type_traits>

namespace {
using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

// The price keeps its type: a GPU-hour price and an instance's price per hour stay apart.
static_assert(std::is_same<decltype(price_record{}.per_gpu), gpu_price>::value, "$/GPU·h");
static_assert(std::is_same<decltype(price_record{}.per_instance), cost_rate>::value, "$/h");
static_assert(std::is_same<decltype(gpu_hour_price(cat::all_prices[0])), gpu_price>::value,
              "gpu_hour_price gives $/GPU·h");

// Every record of the table passes its check at compile time.
constexpr bool all_checked() {
    for (const price_record& r : cat::all_prices) check(r);
    return true;
}
static_assert(all_checked(), "every catalog price is dated, sourced and in range");
static_assert(cat::price_count == 41, "the table's size");

// The lookups over the catalog.
static_assert(cat::prices_for(&cat::h100_sxm).size() == 7, "seven H100 SXM prices");
static_assert(cat::prices_for(&cat::tpu_v5e).size() == 0, "no dated TPU price");
static_assert(cat::newest_price(&cat::h100_sxm, cloud_provider::aws)->per_instance ==
                  cat::prices::aws_p5_48xlarge_on_demand_2026,
              "the named price is its record's");
static_assert(approx_equal(gpu_hour_price(*cat::newest_price(&cat::h100_sxm, cloud_provider::aws)),
                           6.88_usd_per_gpu_hour),
              "AWS p5.48xlarge: $55.04/h over 8 GPUs");
static_assert(approx_equal(gpu_hour_price(*cat::newest_price(&cat::gb200, cloud_provider::coreweave)),
                           10.50_usd_per_gpu_hour),
              "CoreWeave GB200 NVL72: $42.00/h over 4 GPUs");
static_assert(cat::newest_price(&cat::b200, cloud_provider::azure) == nullptr,
              "no dated Azure B200 price");
static_assert(cat::newest_price(&cat::h200, cloud_provider::google_cloud, price_kind::spot)->kind ==
                  price_kind::spot,
              "spot kept apart from on-demand");

// A user's own table.
constexpr price_record mine(int day, double usd_per_gpu_h) {
    price_record r{};
    r.gpu = &cat::l4;
    r.provider = cloud_provider::lambda;
    r.region = "any";
    r.offer = "1x L4";
    r.per_gpu = make<usd_per_gpu_hour>(usd_per_gpu_h);
    r.read = {2026, 11, day};
    r.source = "https://example.com/prices";
    return r;
}
constexpr price_record my_table[] = {mine(2, 0.80), mine(20, 0.75), mine(20, 0.70)};
static_assert(newest_price(my_table, &cat::l4, cloud_provider::lambda) == &my_table[1],
              "the newest, the first of equally new ones");
static_assert(prices_for(my_table, &cat::l4).size() == 3, "all three");
static_assert(approx_equal(gpu_hour_price(my_table[0]), 0.80_usd_per_gpu_hour), "as printed");

// Dates.
static_assert(calendar_date{2025, 12, 31} < calendar_date{2026, 1, 1}, "years first");
static_assert(calendar_date{2026, 3, 1} != calendar_date{2026, 3, 2}, "days last");
static_assert(to_string(price_kind::on_demand) == "on_demand", "enumerator names");
}  // namespace
