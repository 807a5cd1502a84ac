#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;

    gpucalc::data_size weights = 13.48_GB;                      // enter with a literal
    gpucalc::bandwidth hbm = 2.039_TB_per_s;
    gpucalc::duration per_token = weights / hbm;                // B / (B/s) is a duration
    double ms = gpucalc::in<gpucalc::milliseconds>(per_token);  // leave in a named unit
    std::cout << per_token << " = " << ms << " ms\n";

    auto capacity = gpucalc::make<gpucalc::gibibytes>(80.0);    // a named constructor
    std::cout << capacity << " = " << gpucalc::in<gpucalc::gigabytes>(capacity) << " GB\n";
    std::cout << gpucalc::to_string(capacity, {4, gpucalc::byte_prefixes::decimal}) << "\n";

    // Prices: per instance ($/h) and per GPU ($/GPU·h) are different types.
    gpucalc::cost_rate instance = 98.32_usd_per_h;
    gpucalc::gpu_price per_gpu = instance / 8.0_gpu;
    gpucalc::money week = per_gpu * 8.0_gpu * 7.0_days;
    std::cout << instance << " per instance, " << per_gpu << " per GPU, " << week << " a week\n";

    // Energy is the SI joule: kW × h, priced in $/kWh, emitting g/kWh.
    gpucalc::energy used = 10.2_kW * 1.25 * 24.0_h;             // a DGX H100 at PUE 1.25, a day
    std::cout << used << ", " << 0.0806_usd_per_kWh * used << ", "
              << 400.0_g_per_kWh * used << " CO2e\n";

    // Budgets compare with a relative tolerance, at compile time too.
    static_assert(gpucalc::approx_equal(2.99_usd_per_gpu_hour * 1000.0_gpu_hours, 2990.0_usd));
    std::cout << gpucalc::significant_figures(5) << 2.99_usd_per_gpu_hour * 1000.0_gpu_hours
              << "\n";
}
