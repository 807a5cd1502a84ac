// A week-long 64-GPU run on spot capacity with checkpoints, against on-demand.
#include <gpucalc/gpucalc.hpp>

#include <cstdio>
#include <iostream>

int main() {
    using namespace gpucalc::literals;

    gpucalc::spot_job job{.work = 168.0_h,               // a week of useful compute
                          .gpus = 64.0_gpu,
                          .on_demand = 2.99_usd_per_gpu_hour,
                          .discount = 0.6,
                          .mean_time_between_preemptions = 8.0_h,
                          .checkpoint_time = 2.0_min,     // write sharded state to fast storage
                          .restart_time = 15.0_min};      // get capacity back and reload
    const auto best = gpucalc::spot_cost(job);
    char overhead[16];
    std::snprintf(overhead, sizeof overhead, "%.0f%%", 100.0 * best.overhead);
    std::cout << "checkpoint every " << best.interval << " (Young: "
              << gpucalc::young_interval(job.checkpoint_time, job.mean_time_between_preemptions) << ")\n"
              << "expected wall time " << best.wall_time << ", overhead " << overhead << "\n"
              << "spot " << best.spot_cost << " vs on-demand " << best.on_demand_cost << "\n";

    // Checkpointing every 2 hours instead loses more work per reclaim.
    job.interval = 2.0_h;
    const auto lazy = gpucalc::spot_cost(job);
    std::cout << "every 2 h: wall time " << lazy.wall_time << ", spot " << lazy.spot_cost << "\n";

    // Reclaims every 30 minutes with a thin discount: on-demand wins.
    job.interval = 0.0_h;
    job.mean_time_between_preemptions = 0.5_h;
    job.discount = 0.2;
    const auto stormy = gpucalc::spot_cost(job);
    std::cout << "stormy: wall time " << stormy.wall_time << ", spot " << stormy.spot_cost
              << (stormy.spot_is_cheaper ? " (cheaper)" : " (dearer than on-demand)") << "\n";
}
