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
    // One GPU's share of a DGX H100 over 4 years, with support and colocation.
    const gpucalc::ownership share{.capex = prices::dgx_h100_2023 / 8.0,
                                   .service_life = 4.0_years,
                                   .gpus = 1.0_gpu,
                                   .full_power = prices::dgx_h100_power / 8.0,
                                   .pue = 1.25,
                                   .electricity = prices::us_industrial_electricity_2023,
                                   .maintenance_per_year = 0.10,
                                   .space = (10.2 / 8.0) * prices::colocation_per_kw_2024};
    const auto plan = gpucalc::base_load_and_burst(year, share, prices::lambda_h100_on_demand_2026);
    std::cout << "own " << plan.owned << ", rent the rest: " << plan.total << " a year\n"
              << "all cloud: " << plan.all_cloud << " (saving " << plan.all_cloud - plan.total << ")\n"
              << "own the peak: " << plan.all_owned << " (saving " << plan.all_owned - plan.total << ")\n";
}
