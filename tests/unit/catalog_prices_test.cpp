// catalog_prices_test.cpp: the catalog's dated GPU-hour prices: every record dated, sourced from
// its provider's page, positive and of the kind it says; a few against the per-GPU figures their
// sources print; the lookups, and their errors for bad input.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/price_record.hpp>
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <string_view>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {

/// Whether `price` reads as `printed` at the precision it was printed with (`decimals` places):
/// the tolerance is half a unit of the last printed digit.
bool printed_as(gpu_price price, double printed, int decimals) {
    const double v = in<usd_per_gpu_hour>(price);
    return std::fabs(v - printed) <= 0.5 * std::pow(10.0, -decimals) * (1.0 + 1e-12);
}

/// The host a provider's pricing pages live on.
std::string_view host_of(cloud_provider p) {
    switch (p) {
        case cloud_provider::aws: return "https://aws.amazon.com/";
        case cloud_provider::google_cloud: return "https://cloud.google.com/";
        case cloud_provider::azure: return "https://azure.microsoft.com/";
        case cloud_provider::lambda: return "https://lambda.ai/";
        case cloud_provider::coreweave: return "https://www.coreweave.com/";
        case cloud_provider::runpod: return "https://www.runpod.io/";
        case cloud_provider::digitalocean: return "https://docs.digitalocean.com/";
    }
    return "";
}

bool is_hyperscaler(cloud_provider p) {
    return p == cloud_provider::aws || p == cloud_provider::google_cloud ||
           p == cloud_provider::azure;
}

bool has_on_demand(const gpu_spec& gpu, bool hyperscaler) {
    for (const price_record* r : cat::prices_for(&gpu)) {
        if (r->kind == price_kind::on_demand && is_hyperscaler(r->provider) == hyperscaler) {
            return true;
        }
    }
    return false;
}

/// The newest on-demand record of `table` for the catalog's H100 SXM from AWS.
template <std::size_t N>
const price_record* newest_aws_h100(const price_record (&table)[N]) {
    return newest_price(table, &cat::h100_sxm, cloud_provider::aws);
}

price_record aws_record(calendar_date read, double usd_per_h) {
    price_record r{};
    r.gpu = &cat::h100_sxm;
    r.provider = cloud_provider::aws;
    r.region = "us-east-1";
    r.offer = "p5.48xlarge";
    r.gpus = 8;
    r.basis = price_basis::per_instance_hour;
    r.per_instance = make<usd_per_hour>(usd_per_h);
    r.read = read;
    r.source = "https://aws.amazon.com/ec2/pricing/on-demand/";
    return r;
}

}  // namespace

TEST_CASE("every catalog price is dated, sourced from its provider, positive and of its kind") {
    CHECK(cat::price_count == 41);
    for (const price_record& r : cat::all_prices) {
        CAPTURE(r.gpu->name);
        CAPTURE(r.offer);
        CHECK_NOTHROW(check(r));
        // Dated: a day of the calendar, from the last two years (no undated or mistyped year).
        CHECK(r.read.year >= 2025);
        CHECK(r.read.year <= 2026);
        // Sourced: the provider's own page.
        CHECK(r.source.substr(0, host_of(r.provider).size()) == host_of(r.provider));
        // Positive, and priced the way its basis says, in its own type.
        CHECK(gpu_hour_price(r) > gpu_price{});
        if (r.basis == price_basis::per_instance_hour) {
            CHECK(r.per_instance > cost_rate{});
            CHECK(r.per_gpu == gpu_price{});
        } else {
            CHECK(r.per_gpu > gpu_price{});
            CHECK(r.per_instance == cost_rate{});
        }
        // The GPU is a catalog entry.
        bool in_catalog = false;
        for (const gpu_spec* g : cat::all_gpus) in_catalog = in_catalog || g == r.gpu;
        CHECK(in_catalog);
        // A spot price is an example below the same provider's on-demand price for the GPU.
        if (r.kind == price_kind::spot) {
            const price_record* on_demand = cat::newest_price(r.gpu, r.provider);
            REQUIRE(on_demand != nullptr);
            CHECK(gpu_hour_price(r) < gpu_hour_price(*on_demand));
        }
    }
}

TEST_CASE("coverage: an on-demand price for every catalog GPU a provider was found renting") {
    // From a hyperscaler and from a GPU cloud, where sources for both were found.
    for (const gpu_spec* g : {&cat::a100_40gb_sxm, &cat::a100_80gb_sxm, &cat::a100_80gb_pcie,
                              &cat::h100_sxm, &cat::h100_nvl, &cat::h200, &cat::b200}) {
        CAPTURE(g->name);
        CHECK(has_on_demand(*g, true));
        CHECK(has_on_demand(*g, false));
    }
    // A hyperscaler only: no dated GPU-cloud price was found for the T4 and the L4, and the A10G
    // is AWS's own part.
    for (const gpu_spec* g : {&cat::t4, &cat::l4, &cat::a10g}) {
        CAPTURE(g->name);
        CHECK(has_on_demand(*g, true));
        CHECK_FALSE(has_on_demand(*g, false));
    }
    // A GPU cloud only: no dated hyperscaler price was found for these.
    for (const gpu_spec* g : {&cat::a10, &cat::h100_pcie, &cat::gb200, &cat::mi300x}) {
        CAPTURE(g->name);
        CHECK_FALSE(has_on_demand(*g, true));
        CHECK(has_on_demand(*g, false));
    }
    // Not found at any provider with a date: the MI325X, and the TPUs per chip-hour.
    for (const gpu_spec* g : {&cat::mi325x, &cat::tpu_v5e, &cat::tpu_v5p}) {
        CAPTURE(g->name);
        CHECK(cat::prices_for(g).size() == 0);
    }
}

TEST_CASE("instance prices ÷ their GPUs give the per-GPU figures the sources print") {
    using cp = cloud_provider;
    // data-receipts, "109-gpu-pricing", retrieved 2026-11-09, prints each instance's price and
    // its per-GPU price to 4 decimals.
    const price_record* p4d = cat::newest_price(&cat::a100_40gb_sxm, cp::aws);
    REQUIRE(p4d != nullptr);
    CHECK(p4d->per_instance == 21.957642_usd_per_h);
    CHECK(printed_as(gpu_hour_price(*p4d), 2.7447, 4));
    const price_record* p4de = cat::newest_price(&cat::a100_80gb_sxm, cp::aws);
    REQUIRE(p4de != nullptr);
    CHECK(printed_as(gpu_hour_price(*p4de), 3.4309, 4));
    const price_record* p5 = cat::newest_price(&cat::h100_sxm, cp::aws);
    REQUIRE(p5 != nullptr);
    CHECK(printed_as(gpu_hour_price(*p5), 6.88, 2));
    // Its README: Azure ND96isr_H100_v5 at $12.29 per GPU-hour.
    const price_record* nd = cat::newest_price(&cat::h100_sxm, cp::azure);
    REQUIRE(nd != nullptr);
    CHECK(printed_as(gpu_hour_price(*nd), 12.29, 2));
    // CoreWeave's page prints GB200 NVL72 at $42.00/h for 4 GPUs, and $10.50 as GB200's
    // single-GPU price (api-evangelist's copy, 2026-09-20).
    const price_record* gb = cat::newest_price(&cat::gb200, cp::coreweave);
    REQUIRE(gb != nullptr);
    CHECK(gb->gpus == 4);
    CHECK(printed_as(gpu_hour_price(*gb), 10.50, 2));
    // compute-screener's data/gpu_providers_latest.csv (read 2026-10-24) prints CoreWeave's H100
    // at $6.155 and H200 at $6.305 per GPU-hour: $49.24/h and $50.44/h over 8 GPUs.
    const price_record* cw_h100 = cat::newest_price(&cat::h100_sxm, cp::coreweave);
    const price_record* cw_h200 = cat::newest_price(&cat::h200, cp::coreweave);
    REQUIRE(cw_h100 != nullptr);
    REQUIRE(cw_h200 != nullptr);
    CHECK(printed_as(gpu_hour_price(*cw_h100), 6.155, 3));
    CHECK(printed_as(gpu_hour_price(*cw_h200), 6.305, 3));
    // DigitalOcean's Droplet Pricing page (validated 28 May 2026): MI300X (8x) $15.92/h, and
    // one MI300X $1.99/h.
    const price_record* mi = cat::newest_price(&cat::mi300x, cp::digitalocean);
    REQUIRE(mi != nullptr);
    CHECK(printed_as(gpu_hour_price(*mi), 1.99, 2));
}

TEST_CASE("the named prices are read from their records") {
    const price_record* p5 = cat::newest_price(&cat::h100_sxm, cloud_provider::aws);
    REQUIRE(p5 != nullptr);
    CHECK(cat::prices::aws_p5_48xlarge_on_demand_2026 == p5->per_instance);
    CHECK(cat::prices::aws_p5_48xlarge_on_demand_2026 == 55.04_usd_per_h);
    const price_record* lambda = cat::newest_price(&cat::a100_40gb_sxm, cloud_provider::lambda);
    REQUIRE(lambda != nullptr);
    CHECK(cat::prices::lambda_a100_40gb_on_demand_2026 == lambda->per_gpu);
    CHECK(cat::prices::lambda_a100_40gb_on_demand_2026 == 1.99_usd_per_gpu_hour);
}

TEST_CASE("prices_for finds a GPU's records by name, in table order") {
    const auto h100 = cat::prices_for(&cat::h100_sxm);
    CHECK(h100.size() == 7);
    const price_record* previous = nullptr;
    for (const price_record* r : h100) {
        CHECK(r->gpu == &cat::h100_sxm);
        CHECK((previous == nullptr || previous < r));
        previous = r;
    }
    // A copy of a catalog entry, a field changed, is still the GPU its name says.
    gpu_spec mine = cat::h100_sxm;
    mine.tdp = 600.0_W;
    CHECK(cat::prices_for(&mine).size() == 7);
    // A GPU the table does not price gets an empty list.
    gpu_spec unknown = cat::h100_sxm;
    unknown.name = "H100 SXM (my lab)";
    CHECK(cat::prices_for(&unknown).size() == 0);
}

TEST_CASE("newest_price: the latest read, the first of equally new ones, or none") {
    const price_record table[] = {aws_record({2026, 9, 25}, 55.04), aws_record({2023, 7, 27}, 98.32),
                                  aws_record({2026, 9, 25}, 56.0), aws_record({2026, 1, 2}, 60.0)};
    const price_record* newest = newest_aws_h100(table);
    REQUIRE(newest != nullptr);
    CHECK(newest == &table[0]);
    CHECK(newest_price(table, &cat::h100_sxm, cloud_provider::aws, price_kind::spot) == nullptr);
    CHECK(newest_price(table, &cat::h100_sxm, cloud_provider::azure) == nullptr);
    CHECK(newest_price(table, &cat::h200, cloud_provider::aws) == nullptr);
    // The catalog: spot and on-demand are kept apart.
    const price_record* spot =
        cat::newest_price(&cat::h100_sxm, cloud_provider::aws, price_kind::spot);
    REQUIRE(spot != nullptr);
    CHECK(spot->kind == price_kind::spot);
    CHECK(spot->uncertain);
    CHECK(cat::newest_price(&cat::tpu_v5e, cloud_provider::google_cloud) == nullptr);
}

TEST_CASE("dates compare by year, month and day") {
    CHECK(calendar_date{2026, 9, 25} == calendar_date{2026, 9, 25});
    CHECK(calendar_date{2026, 9, 25} != calendar_date{2026, 9, 26});
    CHECK(calendar_date{2025, 12, 31} < calendar_date{2026, 1, 1});
    CHECK(calendar_date{2026, 1, 31} < calendar_date{2026, 2, 1});
    CHECK_FALSE(calendar_date{2026, 2, 1} < calendar_date{2026, 2, 1});
}

TEST_CASE("enums print their enumerators' names, or unknown") {
    CHECK(to_string(cloud_provider::google_cloud) == "google_cloud");
    CHECK(to_string(cloud_provider::digitalocean) == "digitalocean");
    CHECK(to_string(static_cast<cloud_provider>(7)) == "unknown");
    CHECK(to_string(price_kind::spot) == "spot");
    CHECK(to_string(static_cast<price_kind>(2)) == "unknown");
    CHECK(to_string(price_basis::per_instance_hour) == "per_instance_hour");
    CHECK(to_string(static_cast<price_basis>(-1)) == "unknown");
}

TEST_CASE("bad input is invalid_input naming the function, the field, the value and the rule") {
    CHECK_THROWS_WITH_AS(cat::prices_for(nullptr), "prices_for: gpu = null must point to a GPU",
                         invalid_input);
    gpu_spec unnamed = cat::h100_sxm;
    unnamed.name = "";
    CHECK_THROWS_WITH_AS(cat::newest_price(&unnamed, cloud_provider::aws),
                         "newest_price: gpu->name = \"\" must name the GPU: prices are matched by it",
                         invalid_input);
    CHECK_THROWS_WITH_AS(cat::newest_price(&cat::h100_sxm, static_cast<cloud_provider>(12)),
                         "newest_price: provider = 12 must be a gpucalc::cloud_provider value",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        cat::newest_price(&cat::h100_sxm, cloud_provider::aws, static_cast<price_kind>(-1)),
        "newest_price: kind = -1 must be a gpucalc::price_kind value", invalid_input);

    // A record of the caller's table is named by its index.
    price_record table[] = {aws_record({2026, 9, 25}, 55.04), aws_record({2026, 2, 30}, 55.04)};
    CHECK_THROWS_WITH_AS(prices_for(table, &cat::h100_sxm),
                         "prices_for: table[1].read = 2026-02-30 must be a calendar date from "
                         "2000-01-01 to 2100-12-31",
                         invalid_input);
    table[1] = aws_record({2024, 2, 29}, 55.04);  // a leap day is a date
    CHECK(prices_for(table, &cat::h100_sxm).size() == 2);
    table[1].gpu = nullptr;
    CHECK_THROWS_WITH_AS(newest_price(table, &cat::h100_sxm, cloud_provider::aws),
                         "newest_price: table[1].gpu = null must point to a GPU", invalid_input);

    // One record: its members by name.
    price_record r = aws_record({2026, 9, 25}, 55.04);
    r.provider = static_cast<cloud_provider>(99);
    CHECK_THROWS_WITH_AS(check(r), "check(price_record): provider = 99 must be a "
                                   "gpucalc::cloud_provider value",
                         invalid_input);
    r = aws_record({2026, 9, 25}, -55.04);
    CHECK_THROWS_WITH_AS(gpu_hour_price(r),
                         "gpu_hour_price: per_instance = -$55.04/h must be finite and > 0",
                         invalid_input);
    r = aws_record({2026, 9, 25}, 55.04);
    r.per_gpu = 6.88_usd_per_gpu_hour;
    CHECK_THROWS_WITH_AS(check(r),
                         "check(price_record): per_gpu = $6.88/GPU·h must be 0: the record's "
                         "basis names the other price",
                         invalid_input);
    r = aws_record({2026, 9, 25}, 55.04);
    r.gpus = 0;
    CHECK_THROWS_WITH_AS(gpu_hour_price(r), "gpu_hour_price: gpus = 0 must be >= 1",
                         invalid_input);
    r = aws_record({2026, 9, 25}, 55.04);
    r.source = "aws.amazon.com/ec2/pricing/on-demand/";
    CHECK_THROWS_WITH_AS(check(r),
                         "check(price_record): source = aws.amazon.com/ec2/pricing/on-demand/ "
                         "must be the https:// address of the pricing page",
                         invalid_input);
    r = aws_record({2026, 9, 25}, 55.04);
    r.region = "";
    CHECK_THROWS_WITH_AS(check(r), "check(price_record): region = \"\" must name a region",
                         invalid_input);
}
