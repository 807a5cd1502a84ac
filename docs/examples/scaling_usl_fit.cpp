// Fit the Universal Scalability Law and Amdahl's law to four throughput measurements, then ask
// how far the job scales before the extra GPUs stop paying.
#include <gpucalc/gpucalc.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>

int main() {
    using namespace gpucalc::literals;

    // Training throughput of one data-parallel job on 1, 2, 4 and 8 GPUs of one node
    // (illustrative numbers, not a published measurement).
    const gpucalc::scaling_measurement<gpucalc::token_rate> measured[] = {
        {.gpus = 1, .throughput = 3100.0_tokens_per_s},
        {.gpus = 2, .throughput = 5900.0_tokens_per_s},
        {.gpus = 4, .throughput = 10800.0_tokens_per_s},
        {.gpus = 8, .throughput = 18200.0_tokens_per_s}};
    const auto usl = gpucalc::fit_usl(measured);
    const auto amdahl = gpucalc::fit_amdahl(measured);

    char line[160];
    std::snprintf(line, sizeof line, "USL:    sigma %.4f, kappa %.6f, R^2 %.5f, rms error %.2f%%\n",
                  usl.parameters.contention, usl.parameters.coherency, usl.r_squared,
                  100.0 * usl.rms_relative_error);
    std::cout << line << "        one GPU " << usl.single_gpu << "\n";
    std::snprintf(line, sizeof line, "Amdahl: serial fraction %.4f, R^2 %.5f, rms error %.2f%%\n",
                  amdahl.serial_fraction, amdahl.r_squared, 100.0 * amdahl.rms_relative_error);
    std::cout << line;

    const auto peak = gpucalc::usl_peak(usl.parameters);
    std::int64_t counts[] = {16, 64, peak.best_gpus};
    std::sort(std::begin(counts), std::end(counts));
    for (std::int64_t gpus : counts) {
        std::snprintf(line, sizeof line, "%3lld GPUs: USL efficiency %3.0f%% (Amdahl %3.0f%%), ",
                      static_cast<long long>(gpus),
                      100.0 * gpucalc::predicted_efficiency(usl, gpus),
                      100.0 * gpucalc::predicted_efficiency(amdahl, gpus));
        std::cout << line << gpucalc::predicted_throughput(usl, gpus)
                  << (gpus == peak.best_gpus ? " (the USL peak)" : "") << "\n";
    }

    for (double floor : {gpucalc::good_scaling_efficiency, gpucalc::wasteful_scaling_efficiency}) {
        const auto u = gpucalc::largest_gpus(usl, floor);
        const auto a = gpucalc::largest_gpus(amdahl, floor);
        std::snprintf(line, sizeof line, "efficiency >= %.0f%%: up to %lld GPUs (Amdahl: %lld)\n",
                      100.0 * floor, static_cast<long long>(u.gpus),
                      static_cast<long long>(a.gpus));
        std::cout << line;
    }
}
