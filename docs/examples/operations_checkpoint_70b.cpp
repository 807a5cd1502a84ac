// Llama-2-70B on 256 H100s: checkpoint size, write time to local NVMe and to a network file
// system, and the Daly interval and bill on demand and on spot.
#include <gpucalc/gpucalc.hpp>

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

    // Local NVMe: a p5.48xlarge's 8 drives, taken as PCIe 4.0 data-center drives.
    gpucalc::checkpoint_io_setup nvme{};
    nvme.storage.per_node = {8.0 * gpucalc::storage_rates::nvme_pcie_gen4.write,
                             8.0 * gpucalc::storage_rates::nvme_pcie_gen4.read};
    // Network: FSx for Lustre, 100 TiB at 125 MB/s per TiB, over one 100 Gb/s NIC per node.
    gpucalc::checkpoint_io_setup lustre{};
    lustre.storage.per_node = {cat::load_paths::nic_100g.read, cat::load_paths::nic_100g.read};
    lustre.storage.shared = true;
    lustre.storage.aggregate = {100.0 * gpucalc::storage_rates::fsx_lustre_per_tib_125.write,
                                100.0 * gpucalc::storage_rates::fsx_lustre_per_tib_125.read};

    // Thirty days of useful compute at AWS's p5.48xlarge on-demand price per GPU.
    gpucalc::checkpointed_run run{.work = 720.0_h, .gpus = 256.0_gpu,
                                  .on_demand = cat::prices::aws_p5_48xlarge_on_demand_2026 / 8.0_gpu};
    for (const auto* name : {"NVMe", "Lustre"}) {
        auto setup = name[0] == 'N' ? nvme : lustre;
        for (auto mode : {gpucalc::checkpoint_mode::synchronous, gpucalc::checkpoint_mode::asynchronous}) {
            setup.mode = mode;
            const auto io = gpucalc::checkpoint_io_time(size, setup);
            std::cout << name << (mode == gpucalc::checkpoint_mode::synchronous ? " sync" : " async")
                      << ": stall " << io.stall << ", write " << io.write << ", restore "
                      << io.restore << "\n";
            for (bool spot : {false, true}) {
                run.spot = spot;
                run.discount = 0.6;               // an example spot discount
                run.preemptions_per_hour = 0.25;  // an example: the job reclaimed every 4 h
                const auto e = gpucalc::checkpointed_run_cost(io, run);
                std::cout << "  " << (spot ? "spot     " : "on demand") << ": M "
                          << e.mean_time_between_interruptions << ", every " << e.run.interval
                          << ", wall " << e.run.wall_time << ", " << e.cost << "\n";
            }
        }
    }
}
