// Llama-2-70B on 64 H100s (8 HGX nodes): at the predicted step's tokens/s, pre-tokenized input
// is a trickle of bytes, and nothing on the input side binds even on slow storage.
#include <gpucalc/gpucalc.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

namespace {
/// x with `decimals` decimals.
std::string fixed(double x, int decimals) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << x;
    return out.str();
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    const auto model = check(cat::llama_2_70b);
    const auto pod =
        check({.node = {.gpu = cat::h100_sxm}, .nodes = 8, .inter_node = cat::infiniband_ndr});
    const training_job job{.sequence = 4096, .global_batch = 512};
    const training_strategy layout{
        .parallel = {.tensor = 8, .pipeline = 4, .data = 2, .sequence_parallel = true,
                     .zero_stage = 1},
        .micro_batch = 1,
        .recompute = recompute::selective};
    const training_step step = training_step_time(model, pod, job, layout);

    // Llama 2's 32,000-token vocabulary fits 2-byte ids.
    const input_demand demand = token_demand(step, token_id_bytes(cat::llama_2_70b.vocab));
    std::cout << "demand: " << demand.tokens << " x " << demand.bytes_per_item << " = "
              << demand.bytes << "\n";

    // 1 GB/s of shared storage, 100 Gb/s into each node, token ids read as stored (no CPU
    // stage).
    const input_pipeline pipeline{.nodes = 8,
                                  .gpus_per_node = 8,
                                  .cpu_threads_per_node = 192,
                                  .storage_read = make<gigabytes_per_second>(1.0),
                                  .storage = storage_scope::shared,
                                  .network_per_node = make<gigabits_per_second>(100.0),
                                  .preprocess_time_per_item = duration{}};
    const feed_verdict v = input_pipeline_verdict(demand, pipeline);
    std::cout << "storage headroom " << fixed(v.storage.headroom, 0) << "x, network headroom "
              << fixed(v.network.headroom, 0) << "x, CPU stage "
              << (v.preprocessing.present ? "modelled" : "none") << "\n"
              << (v.input_bound ? "input-bound" : "compute-bound") << "; tightest stage "
              << to_string(v.tightest) << ", GPU utilization "
              << fixed(100.0 * v.gpu_utilization, 1) << "%\n"
              << "storage needed " << v.storage_needed << ", network per node "
              << v.network_needed_per_node << "\n";
}
