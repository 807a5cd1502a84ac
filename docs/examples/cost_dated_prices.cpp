// The catalog's dated prices for an H100 SXM, the newest AWS on-demand one per GPU-hour, and a
// price of your own as a record: prices move weekly, and yours is the one to pass.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iomanip>
#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;

    for (const gpucalc::price_record* r : cat::prices_for(&cat::h100_sxm)) {
        char date[16];
        std::snprintf(date, sizeof date, "%04d-%02d-%02d", r->read.year, r->read.month,
                      r->read.day);
        std::cout << date << "  " << std::left << std::setw(11) << to_string(r->provider)
                  << std::setw(15) << r->region << std::setw(5)
                  << (r->kind == gpucalc::price_kind::spot ? "spot" : "")
                  << gpucalc::gpu_hour_price(*r) << (r->uncertain ? " (uncertain)" : "") << "\n";
    }

    const gpucalc::price_record* aws =
        cat::newest_price(&cat::h100_sxm, gpucalc::cloud_provider::aws);
    std::cout << "AWS " << aws->offer << ", " << gpucalc::to_string(aws->per_instance, {4})
              << " for " << aws->gpus
              << " GPUs: " << gpucalc::gpu_hour_price(*aws) << "\n";
    std::cout << "1,000 GPU·h at it: "
              << gpucalc::job_cost(1000.0_gpu_hours, gpucalc::gpu_hour_price(*aws)) << "\n";

    // Your own price, dated and sourced like the catalog's.
    constexpr gpucalc::price_record ours{.gpu = &cat::h100_sxm,
                                         .provider = gpucalc::cloud_provider::lambda,
                                         .region = "any",
                                         .offer = "1-year reservation",
                                         .gpus = 8,
                                         .per_gpu = 2.10_usd_per_gpu_hour,
                                         .read = {2026, 11, 28},
                                         .source = "https://example.com/our-contract"};
    std::cout << "1,000 GPU·h at ours: "
              << gpucalc::job_cost(1000.0_gpu_hours, gpucalc::gpu_hour_price(ours)) << "\n";
}
