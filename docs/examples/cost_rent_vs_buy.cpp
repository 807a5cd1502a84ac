// Renting A100s at a few dollars per GPU-hour against owning an 8-GPU server for 3 or 5 years.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace prices = gpucalc::catalog::prices;

    for (gpucalc::duration life : {3.0_years, 5.0_years}) {
        // A DGX A100 at its launch price, with the hidden costs: 10% a year of support, CBRE's
        // 2024 colocation rate for its 6.5 kW, PUE 1.25 and US industrial power.
        const gpucalc::ownership server{.capex = prices::dgx_a100_2020,
                                        .service_life = life,
                                        .gpus = 8.0_gpu,
                                        .full_power = prices::dgx_a100_power,
                                        .pue = 1.25,
                                        .electricity = prices::us_industrial_electricity_2023,
                                        .maintenance_per_year = 0.10,
                                        .space = prices::colocation_2024 * prices::dgx_a100_power};
        std::cout << gpucalc::in<gpucalc::years>(life) << "-year life: owned "
                  << gpucalc::owned_price(server, 1.0) << " at full use, "
                  << gpucalc::owned_price(server, 0.5) << " at half\n";
        for (gpucalc::gpu_price cloud : {1.5_usd_per_gpu_hour, 2.0_usd_per_gpu_hour, 3.0_usd_per_gpu_hour}) {
            const auto be = gpucalc::rent_vs_buy(server, cloud, 0.7);
            char line[160];
            if (be.reached) {
                std::snprintf(line, sizeof line, "  rent at %s: buy above %.0f%% utilization; at 70%% %s%s\n",
                              gpucalc::to_string(cloud).c_str(), 100.0 * be.utilization,
                              be.pays_back ? "it pays back in " : "it does not pay back within the life",
                              be.pays_back ? gpucalc::to_string(be.payback).c_str() : "");
            } else {
                std::snprintf(line, sizeof line, "  rent at %s: owning never pays\n", gpucalc::to_string(cloud).c_str());
            }
            std::cout << line;
        }
    }
}
