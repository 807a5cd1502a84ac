// Base load and burst: own the steady demand, rent the peaks.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace prices = gpucalc::catalog::prices;

    // A year's load-duration curve: 64 GPUs for 300 h of launches, 32 for 1,500 h of
    // experiments, 16 always.
    const gpucalc::demand_step year[] = {
        {64.0_gpu, 300.0_h}, {32.0_gpu, 1500.0_h}, {16.0_gpu, 6960.0_h}};
    // A DGX H100 over 4 years, with support and colocation; capacity is owned GPU by GPU.
    const gpucalc::ownership server{.capex = prices::dgx_h100_2023,
                                    .service_life = 4.0_years,
                                    .gpus = 8.0_gpu,
                                    .full_power = prices::dgx_h100_power,
                                    .pue = 1.25,
                                    .electricity = prices::us_industrial_electricity_2023,
                                    .maintenance_per_year = 0.10,
                                    .space = prices::colocation_2024 * prices::dgx_h100_power};
    const gpucalc::hybrid_capacity split = gpucalc::base_load_and_burst(year, server, prices::lambda_h100_on_demand_2026);
    std::cout << "own " << split.owned << ", rent the rest: " << split.total << " a year\n"
              << "all cloud: " << split.all_cloud << " (saving " << split.saving_vs_cloud << ")\n"
              << "own the peak: " << split.all_owned << " (saving " << split.saving_vs_owned << ")\n";
}
