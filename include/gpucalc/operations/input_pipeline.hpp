// operations/input_pipeline.hpp: keeping the GPUs fed: the input rate training consumes against what storage, network and data-loader workers supply
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../scaling/step_compute.hpp"
#include "../units.hpp"
#include "input_demand.hpp"

namespace gpucalc {

/// A stage of the input pipeline; none when no stage binds (the job is compute-bound).
enum class input_stage { none, storage, network, preprocessing };
inline constexpr int input_stage_count = 4;

/// Whether storage_read is one aggregate limit for the whole job (a parallel file system, an
/// object store behind one gateway) or each node's own (local NVMe).
enum class storage_scope { shared, per_node };
inline constexpr int storage_scope_count = 2;

// ---------------------------------------------------------------------------------------------
// Supply and verdict
// ---------------------------------------------------------------------------------------------

/// The input side of a training job: storage, the network into each node, and data-loader
/// workers on the nodes' CPU cores.
///
/// Ranges: nodes, gpus_per_node, cpu_cores_per_node and workers_per_gpu in [1, 2^40];
/// cores_reserved_per_gpu in [0, 2^40]; storage_read and network_per_node in [1e-30 B/s,
/// 1e30 B/s] (0 is invalid: a stage that carries nothing starves the job; give the real
/// figure, or a large one for a stage that does not apply); storage one of storage_scope;
/// preprocess_time_per_item 0 (no CPU stage, as for pre-tokenized text read as is) or in
/// [1e-30 s, 1e6 years].
struct input_pipeline {
    std::int64_t nodes = 1;
    std::int64_t gpus_per_node = 8;
    /// Logical CPUs (vCPUs, as cloud instances list them) per node; one worker runs on one.
    std::int64_t cpu_cores_per_node = 96;
    bandwidth storage_read{};                      ///< the read bandwidth storage sustains
    storage_scope storage = storage_scope::shared; ///< one aggregate limit, or each node's
    bandwidth network_per_node{};  ///< what the NICs carry into one node for input data
    /// One core's CPU time per item (read, decode, augment): 1 ÷ items per second per core,
    /// e.g. imagenet_preprocess_time_per_image. 0: no CPU stage.
    duration preprocess_time_per_item = imagenet_preprocess_time_per_image;
    /// Data-loader worker processes per GPU (PyTorch's DataLoader num_workers in each rank).
    std::int64_t workers_per_gpu = 8;
    /// Cores per GPU kept from the workers: 1, the training process itself (PyTorch DDP runs
    /// one process per GPU; derived).
    std::int64_t cores_reserved_per_gpu = 1;
};

/// What one stage supplies, in the demand's item and in bytes.
struct stage_supply {
    input_stage stage = input_stage::none;
    bool present = true;     ///< false: not modelled (no CPU stage); the fields below are 0
    sample_rate samples{};   ///< the supply, when the demand counts samples; else 0
    token_rate tokens{};     ///< the supply, when the demand counts tokens; else 0
    bandwidth bytes{};       ///< the supply × bytes per item
    /// supply ÷ demand: above 1 the stage has slack, below 1 it starves the GPUs.
    double headroom = 0.0;
};

/// The verdict: compute- or input-bound, the stage that binds, each stage's headroom, the GPU
/// utilization the input allows, and how much of each stage the job needs.
struct feed_verdict {
    input_demand demand{};
    stage_supply storage{};
    stage_supply network{};
    stage_supply preprocessing{};
    bool input_bound = false;                  ///< some stage's headroom is below 1
    input_stage binding = input_stage::none;   ///< the stage with the least headroom if < 1
    input_stage tightest = input_stage::none;  ///< the stage with the least headroom
    double gpu_utilization = 1.0;              ///< min(1, the least headroom)
    /// Cores per GPU the workers may use: floor(cpu_cores_per_node ÷ gpus_per_node) −
    /// cores_reserved_per_gpu, at least 0.
    std::int64_t usable_cores_per_gpu = 0;
    /// Workers that run at once: min(workers_per_gpu, usable_cores_per_gpu).
    std::int64_t effective_workers_per_gpu = 0;
    /// Workers per GPU that keep up: ceil(demand per GPU × preprocess_time_per_item), capped
    /// at 2^40; 0 with no CPU stage.
    std::int64_t workers_per_gpu_needed = 0;
    /// Whether workers_per_gpu_needed fits in usable_cores_per_gpu. false is the explicit
    /// "no": even every core cannot keep up (decode on the GPU, or fewer augmentations).
    bool cores_suffice = true;
    /// The storage bandwidth that keeps up: demand bytes/s (shared) or ÷ nodes (per node).
    bandwidth storage_needed{};
    bandwidth network_needed_per_node{};  ///< demand bytes/s ÷ nodes
};

namespace detail {

constexpr void check(const input_pipeline& p, const char* function) {
    require_count(function, "pipeline.nodes", p.nodes);
    require_count(function, "pipeline.gpus_per_node", p.gpus_per_node);
    require_count(function, "pipeline.cpu_cores_per_node", p.cpu_cores_per_node);
    require_positive(function, "pipeline.storage_read", p.storage_read);
    require_enumerator(function, "pipeline.storage", p.storage, storage_scope_count,
                       "storage_scope");
    require_positive(function, "pipeline.network_per_node", p.network_per_node);
    require_non_negative(function, "pipeline.preprocess_time_per_item",
                         p.preprocess_time_per_item);
    require_count(function, "pipeline.workers_per_gpu", p.workers_per_gpu);
    if (!(p.cores_reserved_per_gpu >= 0 && p.cores_reserved_per_gpu <= largest_count)) {
        throw_invalid(function, "pipeline.cores_reserved_per_gpu",
                      static_cast<double>(p.cores_reserved_per_gpu), "", "must be in [0, 2^40]");
    }
}

constexpr stage_supply supply_of(input_stage stage, double items_per_second,
                                 const input_demand& d, double demand) {
    stage_supply s{};
    s.stage = stage;
    if (d.item == input_item::sample) {
        s.samples = sample_rate::from_value(items_per_second);
    } else {
        s.tokens = token_rate::from_value(items_per_second);
    }
    s.bytes = bandwidth::from_value(items_per_second * d.bytes_per_item.value());
    s.headroom = items_per_second / demand;
    return s;
}

}  // namespace detail

/// Whether the input pipeline keeps the GPUs fed. Each stage's supply, in the demand's items
/// per second for the whole job (derived):
/// - storage: storage_read ÷ bytes_per_item, × nodes when per node;
/// - network: nodes × network_per_node ÷ bytes_per_item;
/// - preprocessing: nodes × gpus_per_node × min(workers_per_gpu, usable cores per GPU) ÷
///   preprocess_time_per_item (workers beyond the cores share them and add nothing).
/// The stages run concurrently (prefetching overlaps them with the step), so the slowest sets
/// the rate and the GPUs run at min(1, supply ÷ demand) of their compute-bound speed.
/// demand.bytes is recomputed from the rate, not read.
///
/// Ranges: the demand as a demand function returns it: its item's rate in [1e-80, 1e80]
/// items/s, the other rate 0, bytes_per_item in [1e-30 B, 1e30 B]; the pipeline as
/// input_pipeline says.
constexpr feed_verdict input_pipeline_verdict(const input_demand& demand,
                                              const input_pipeline& pipeline) {
    constexpr const char* function = "input_pipeline_verdict";
    detail::check(demand, function);
    detail::check(pipeline, function);
    const double rate = detail::demand_rate(demand);
    const double item_bytes = demand.bytes_per_item.value();
    const double nodes = static_cast<double>(pipeline.nodes);
    const double gpus = nodes * static_cast<double>(pipeline.gpus_per_node);

    feed_verdict v{};
    v.demand = detail::make_demand(demand.item, rate, demand.bytes_per_item);
    const double storage_bytes = pipeline.storage == storage_scope::per_node
                                     ? nodes * pipeline.storage_read.value()
                                     : pipeline.storage_read.value();
    v.storage =
        detail::supply_of(input_stage::storage, storage_bytes / item_bytes, demand, rate);
    v.network = detail::supply_of(input_stage::network,
                                  nodes * pipeline.network_per_node.value() / item_bytes,
                                  demand, rate);

    const std::int64_t per_gpu = pipeline.cpu_cores_per_node / pipeline.gpus_per_node;
    v.usable_cores_per_gpu =
        per_gpu > pipeline.cores_reserved_per_gpu ? per_gpu - pipeline.cores_reserved_per_gpu : 0;
    v.effective_workers_per_gpu = pipeline.workers_per_gpu < v.usable_cores_per_gpu
                                      ? pipeline.workers_per_gpu
                                      : v.usable_cores_per_gpu;
    const double t_item = pipeline.preprocess_time_per_item.value();
    if (t_item > 0.0) {
        v.preprocessing = detail::supply_of(
            input_stage::preprocessing,
            gpus * static_cast<double>(v.effective_workers_per_gpu) / t_item, demand, rate);
        // Compared with the cap before rounding: a cast of a double past 2^63 is undefined.
        const double exact = rate / gpus * t_item;
        const double cap = static_cast<double>(detail::largest_count);
        const double needed = exact < cap ? detail::ceil_whole(exact) : cap;
        v.workers_per_gpu_needed = static_cast<std::int64_t>(needed < 1.0 ? 1.0 : needed);
        v.cores_suffice = v.workers_per_gpu_needed <= v.usable_cores_per_gpu;
    } else {
        v.preprocessing.stage = input_stage::preprocessing;
        v.preprocessing.present = false;
    }

    v.tightest = input_stage::storage;
    double least = v.storage.headroom;
    if (v.network.headroom < least) {
        least = v.network.headroom;
        v.tightest = input_stage::network;
    }
    if (v.preprocessing.present && v.preprocessing.headroom < least) {
        least = v.preprocessing.headroom;
        v.tightest = input_stage::preprocessing;
    }
    v.input_bound = least < 1.0;
    v.binding = v.input_bound ? v.tightest : input_stage::none;
    v.gpu_utilization = v.input_bound ? least : 1.0;

    const double demand_bytes = rate * item_bytes;
    v.storage_needed = bandwidth::from_value(
        pipeline.storage == storage_scope::per_node ? demand_bytes / nodes : demand_bytes);
    v.network_needed_per_node = bandwidth::from_value(demand_bytes / nodes);
    return v;
}

/// The name of a stage, for reports: "none", "storage", "network", "preprocessing"; "unknown"
/// for a value that is none of them.
constexpr std::string_view to_string(input_stage stage) {
    switch (stage) {
        case input_stage::none: return "none";
        case input_stage::storage: return "storage";
        case input_stage::network: return "network";
        case input_stage::preprocessing: return "preprocessing";
    }
    return "unknown";
}

/// The name of a storage scope: "shared", "per_node"; "unknown" for a value that is neither.
constexpr std::string_view to_string(storage_scope scope) {
    switch (scope) {
        case storage_scope::shared: return "shared";
        case storage_scope::per_node: return "per_node";
    }
    return "unknown";
}

}  // namespace gpucalc
