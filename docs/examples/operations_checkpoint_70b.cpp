// Llama-2-70B on 256 H100s: checkpoint size, write time to local NVMe (draining to a network file
// system, or not) and to the network file system directly, and the interval and bill on demand
// and on spot.
#include <gpucalc/gpucalc.hpp>

#include <cmath>
#include <iostream>

int main() {
    using namespace gpucalc::literals;
    namespace cat = gpucalc::catalog;

    // TP 8 within a node, PP 4, DP 8, and the distributed optimizer (ZeRO-1): 256 GPUs.
    const gpucalc::training_job job{};  // bf16 weights, AdamW, fp32 master copy
    const gpucalc::parallel_layout layout{.tensor = 8, .pipeline = 4, .data = 8, .zero_stage = 1};
    const auto size = gpucalc::training_checkpoint_size(cat::llama_2_70b, job, layout);
    std::cout << "checkpoint " << size.total << " (weights " << size.weights << "), "
              << size.per_gpu << " per GPU\n";

    // Network: FSx for Lustre, 100 TiB at 125 MB/s per TiB, over one 100 Gb/s NIC per node.
    const gpucalc::checkpoint_storage lustre{
        .per_node = {cat::load_paths::nic_100g.read, cat::load_paths::nic_100g.read},
        .shared = true,
        .aggregate = {100.0 * gpucalc::storage_rates::fsx_lustre_per_tib_125.write,
                      100.0 * gpucalc::storage_rates::fsx_lustre_per_tib_125.read}};
    // Local NVMe: a p5.48xlarge's 8 drives, taken as PCIe 4.0 data-center drives. Instance
    // storage: a reclaim wipes it and a failed node takes it along.
    const gpucalc::checkpoint_storage nvme{
        .per_node = {8.0 * gpucalc::storage_rates::nvme_pcie_gen4.write,
                     8.0 * gpucalc::storage_rates::nvme_pcie_gen4.read},
        .durable = false};

    // Thirty days of useful compute at AWS's p5.48xlarge on-demand price per GPU.
    gpucalc::checkpointed_run run{.work = 720.0_h, .gpus = 256.0_gpu,
                                  .on_demand = cat::prices::aws_p5_48xlarge_on_demand_2026 / 8.0_gpu};
    run.discount = 0.6;               // an example spot discount
    run.preemptions_per_hour = 0.25;  // an example: the job reclaimed every 4 h
    struct choice {
        const char* name;
        gpucalc::checkpoint_io_setup setup;
    };
    const auto hours = [](gpucalc::duration d) {  // to one decimal
        return std::round(gpucalc::in<gpucalc::hours>(d) * 10.0) / 10.0;
    };
    const choice choices[] = {{"NVMe alone", {.storage = nvme}},
                              {"NVMe, drained to Lustre", {.storage = nvme, .drains = true, .drain_to = lustre}},
                              {"Lustre", {.storage = lustre}}};
    for (const choice& c : choices) {
        for (auto mode : {gpucalc::checkpoint_mode::synchronous, gpucalc::checkpoint_mode::asynchronous}) {
            auto setup = c.setup;
            setup.mode = mode;
            const auto io = gpucalc::checkpoint_io_time(size, setup);
            std::cout << c.name << ", " << to_string(mode) << ": stall " << io.stall;
            if (io.durable) {
                std::cout << ", durable after " << io.write << ", restore " << io.restore << "\n";
            } else {
                std::cout << ", never durable\n";
            }
            for (bool spot : {false, true}) {
                run.spot = spot;
                const auto e = gpucalc::checkpointed_run_cost(io, run);
                std::cout << "  " << (spot ? "spot     " : "on demand") << ": ";
                if (!e.restorable) {
                    std::cout << "no: nothing durable to restore from\n";
                    continue;
                }
                std::cout << "every " << e.run.interval << ", R " << e.restart_time << ", wall "
                          << e.run.wall_time << ", " << e.cost << "\n";
                if (spot) {  // where the time beyond the 720 h of work goes, in hours
                    std::cout << "             checkpoints " << hours(e.run.checkpointing)
                              << " h, lost work " << hours(e.run.lost_work) << " h, restarts "
                              << hours(e.run.restarting) << " h\n";
                }
            }
            if (!io.durable) break;  // asynchronous saving does not make it durable either
        }
    }
}
