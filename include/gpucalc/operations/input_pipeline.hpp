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
/// workers on the nodes' CPU cores. The workers of a node's GPUs share its cores as one pool
/// (they are processes the OS schedules on any core, not pinned to a GPU).
///
/// Ranges: nodes, gpus_per_node, cpu_threads_per_node and workers_per_gpu in [1, 2^40];
/// threads_per_core in [1, 8] and at most cpu_threads_per_node; smt_throughput_gain in [0, 1];
/// cores_reserved_per_gpu in [0, 2^40]; storage_read and network_per_node in [1e-30 B/s,
/// 1e30 B/s] (0 is invalid: a stage that carries nothing starves the job; give the real
/// figure, or a large one for a stage that does not apply); storage one of storage_scope;
/// preprocess_time_per_item 0 (no CPU stage) or in [1e-30 s, 1e6 years].
struct input_pipeline {
    std::int64_t nodes = 1;
    std::int64_t gpus_per_node = 8;
    /// Hardware threads per node: the vCPUs a cloud instance lists (96 on a p4d.24xlarge).
    std::int64_t cpu_threads_per_node = 96;
    /// Hardware threads per physical core: 2, as an x86 cloud vCPU is one hyperthread of a
    /// core (AWS's p4d.24xlarge: 96 vCPUs on 2 × 24-core Xeon Platinum 8275CL); 1 for a CPU
    /// without SMT or with it off. Physical cores = ⌊cpu_threads_per_node ÷ threads_per_core⌋.
    std::int64_t threads_per_core = 2;
    /// What a physical core's further hardware threads add, all of them running a worker, as
    /// a fraction of one worker alone on the core: 0.25, so a core gives at most 1.25 workers'
    /// throughput, whatever its threads_per_core. Each busy sibling thread adds
    /// smt_throughput_gain ÷ (threads_per_core − 1) (derived: the gain spread evenly over the
    /// siblings; 0.25 a sibling with 2 threads a core, 0.0357 with 8). Uncertain: 0–0.3 for
    /// 2-way SMT; decode workers on sibling threads share one core's execution units and
    /// caches, so together they give far less than one worker per thread (no primary
    /// measurement for this workload was verified; measure yours).
    double smt_throughput_gain = 0.25;
    bandwidth storage_read{};                      ///< the read bandwidth storage sustains
    storage_scope storage = storage_scope::shared; ///< one aggregate limit, or each node's
    bandwidth network_per_node{};  ///< what the NICs carry into one node for input data
    /// One physical core's CPU time per item (read, decode, augment) with one worker alone on
    /// it: 1 ÷ items per second per core, e.g. imagenet_preprocess_time_per_image for ImageNet
    /// JPEGs. Default 0: no CPU stage (pre-tokenized text read as stored); give it for any
    /// decoded or augmented sample, and for text tokenized on the fly.
    duration preprocess_time_per_item{};
    /// Data-loader worker processes per GPU (PyTorch's DataLoader num_workers in each rank).
    std::int64_t workers_per_gpu = 8;
    /// Physical cores per GPU kept from the workers: 1, the training process itself (PyTorch
    /// DDP runs one process per GPU; derived). A reserved core is kept whole, sibling threads
    /// included: conservative, as the training process uses a thread while its sibling could
    /// run a worker at smt_throughput_gain (on a p4d, 8 such threads: at most 2 core
    /// equivalents, under 4%, left unused).
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
    /// Physical cores per node the workers may use: ⌊cpu_threads_per_node ÷ threads_per_core⌋
    /// − gpus_per_node × cores_reserved_per_gpu, at least 0.
    std::int64_t usable_cores_per_node = 0;
    /// Workers per node that get a hardware thread: min(workers_per_gpu × gpus_per_node,
    /// usable cores × threads_per_core); workers beyond them wait and add nothing.
    std::int64_t running_workers_per_node = 0;
    /// The running workers in units of a worker alone on a core: min(running, usable cores) +
    /// smt_throughput_gain ÷ (threads_per_core − 1) × the rest, at most usable cores × (1 +
    /// smt_throughput_gain).
    double core_equivalents_per_node = 0.0;
    /// Workers per GPU that add something: min(workers_per_gpu, ⌈usable cores ×
    /// threads_per_core ÷ gpus_per_node⌉).
    std::int64_t effective_workers_per_gpu = 0;
    /// When cores_suffice: the fewest workers per GPU on this node's cores whose supply (the
    /// same expression as the preprocessing stage's) meets the demand. 0 when the cores do not
    /// suffice (no worker count keeps up: see cores_per_gpu_needed) and with no CPU stage.
    std::int64_t workers_per_gpu_needed = 0;
    /// The fewest usable physical cores per GPU (beyond cores_reserved_per_gpu) that keep up
    /// with every hardware thread of each running a worker, so each core gives 1 +
    /// smt_throughput_gain (1 with threads_per_core = 1): the node needs gpus_per_node ×
    /// (this + cores_reserved_per_gpu) physical cores. Found on the supply expression; capped
    /// at 2^40; 0 with no CPU stage.
    std::int64_t cores_per_gpu_needed = 0;
    /// Whether this node's usable cores, every hardware thread running a worker, can meet the
    /// demand. false is the explicit "no": decode on the GPU, more cores, or lighter
    /// augmentation.
    bool cores_suffice = true;
    /// The storage bandwidth that keeps up: demand bytes/s (shared) or ÷ nodes (per node).
    bandwidth storage_needed{};
    bandwidth network_needed_per_node{};  ///< demand bytes/s ÷ nodes
};

namespace detail {

/// The most hardware threads per core any CPU has shipped with: 8 (IBM POWER8 SMT8; derived
/// bound, wide enough for every x86 and Arm server part).
inline constexpr std::int64_t largest_threads_per_core = 8;

constexpr void check(const input_pipeline& p, const char* function) {
    require_count(function, "pipeline.nodes", p.nodes);
    require_count(function, "pipeline.gpus_per_node", p.gpus_per_node);
    require_count(function, "pipeline.cpu_threads_per_node", p.cpu_threads_per_node);
    if (!(p.threads_per_core >= 1 && p.threads_per_core <= largest_threads_per_core)) {
        throw_invalid(function, "pipeline.threads_per_core",
                      static_cast<double>(p.threads_per_core), "", "must be in [1, 8]");
    }
    if (p.threads_per_core > p.cpu_threads_per_node) {
        throw_invalid(function, "pipeline.threads_per_core",
                      static_cast<double>(p.threads_per_core), "",
                      "must be <= pipeline.cpu_threads_per_node");
    }
    if (!(p.smt_throughput_gain >= 0.0 && p.smt_throughput_gain <= 1.0)) {
        throw_invalid(function, "pipeline.smt_throughput_gain", p.smt_throughput_gain, "",
                      "must be in [0, 1]");
    }
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

/// The node's CPU pool: usable physical cores and the hardware threads on them (derived).
struct cpu_pool {
    double cores = 0.0;    ///< usable physical cores per node
    double threads = 0.0;  ///< cores × threads_per_core
};

/// What one busy sibling thread adds: smt_throughput_gain ÷ (threads_per_core − 1), so a core
/// with all its threads busy gives 1 + smt_throughput_gain; 0 without SMT (derived).
constexpr double sibling_gain(const input_pipeline& p) {
    return p.threads_per_core > 1
               ? p.smt_throughput_gain / static_cast<double>(p.threads_per_core - 1)
               : 0.0;
}

/// A node's workers in units of a worker alone on a core: one each up to the cores, then
/// sibling_gain each up to the threads (derived).
constexpr double core_equivalents(double workers, const cpu_pool& pool, double per_sibling) {
    const double running = workers < pool.threads ? workers : pool.threads;
    const double alone = running < pool.cores ? running : pool.cores;
    return alone + per_sibling * (running - alone);
}

/// The preprocessing supply, items/s for the job, at `per_gpu` workers per GPU (derived):
/// nodes × core_equivalents(per_gpu × gpus_per_node) ÷ preprocess_time_per_item.
constexpr double preprocessing_supply(double per_gpu, const input_pipeline& p,
                                      const cpu_pool& pool) {
    const double gpus_per_node = static_cast<double>(p.gpus_per_node);
    return static_cast<double>(p.nodes) *
           core_equivalents(per_gpu * gpus_per_node, pool, sibling_gain(p)) /
           p.preprocess_time_per_item.value();
}

/// The usable physical cores per node and their threads when each GPU has `cores_per_gpu`.
constexpr cpu_pool pool_of(double cores_per_gpu, const input_pipeline& p) {
    cpu_pool pool{};
    pool.cores = cores_per_gpu * static_cast<double>(p.gpus_per_node);
    pool.threads = pool.cores * static_cast<double>(p.threads_per_core);
    return pool;
}

/// The fewest usable cores per GPU, every thread running a worker, whose supply meets `rate`,
/// by bisection on the supply expression itself (derived); 2^40 if even that falls short.
constexpr std::int64_t cores_per_gpu_for(double rate, const input_pipeline& p) {
    const double threads = static_cast<double>(p.threads_per_core);
    const auto keeps_up = [&](std::int64_t c) {
        const double cores = static_cast<double>(c);
        return preprocessing_supply(cores * threads, p, pool_of(cores, p)) / rate >= 1.0;
    };
    std::int64_t low = 0;  // 0 cores supply nothing
    std::int64_t high = largest_count;
    if (!keeps_up(high)) return high;
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        if (keeps_up(mid)) {
            high = mid;
        } else {
            low = mid;
        }
    }
    return high;
}

}  // namespace detail

/// Whether the input pipeline keeps the GPUs fed. Each stage's supply, in the demand's items
/// per second for the whole job (derived):
/// - storage: storage_read ÷ bytes_per_item, × nodes when per node;
/// - network: nodes × network_per_node ÷ bytes_per_item;
/// - preprocessing: nodes × core equivalents per node ÷ preprocess_time_per_item, where a
///   node's workers_per_gpu × gpus_per_node workers share its usable physical cores as one
///   pool: one core equivalent per worker up to the cores, smt_throughput_gain ÷
///   (threads_per_core − 1) per worker on the further hardware threads (a core gives at most
///   1 + smt_throughput_gain), nothing beyond them.
/// The stages run concurrently (prefetching overlaps them with the step), so the slowest sets
/// the rate and the GPUs run at min(1, supply ÷ demand) of their compute-bound speed.
/// demand.bytes is recomputed from the rate, not read. The per-core rate is taken to hold with
/// every core busy; measured DataLoader throughput grows less than linearly with workers
/// (memory bandwidth, caches, turbo clocks), so measure one worker per core under full load.
///
/// Ranges: the demand as a demand function returns it: its item's rate in [1e-80, 1e80]
/// items/s, the other rate 0, bytes_per_item in [1e-30 B, 1e30 B], gpus 0 or nodes ×
/// gpus_per_node; the pipeline as input_pipeline says.
constexpr feed_verdict input_pipeline_verdict(const input_demand& demand,
                                              const input_pipeline& pipeline) {
    constexpr const char* function = "input_pipeline_verdict";
    detail::check(demand, function);
    detail::check(pipeline, function);
    const double rate = detail::demand_rate(demand);
    const double item_bytes = demand.bytes_per_item.value();
    const double nodes = static_cast<double>(pipeline.nodes);
    const double gpus = nodes * static_cast<double>(pipeline.gpus_per_node);
    if (demand.gpus != 0 && !detail::exactly_equal(static_cast<double>(demand.gpus), gpus)) {
        detail::throw_invalid(function, "demand.gpus", static_cast<double>(demand.gpus), "",
                              "must equal pipeline.nodes × pipeline.gpus_per_node = ", gpus, "");
    }

    feed_verdict v{};
    v.demand = detail::make_demand(demand.item, rate, demand.bytes_per_item, demand.gpus);
    const double storage_bytes = pipeline.storage == storage_scope::per_node
                                     ? nodes * pipeline.storage_read.value()
                                     : pipeline.storage_read.value();
    v.storage =
        detail::supply_of(input_stage::storage, storage_bytes / item_bytes, demand, rate);
    v.network = detail::supply_of(input_stage::network,
                                  nodes * pipeline.network_per_node.value() / item_bytes,
                                  demand, rate);

    // The node's pool of physical cores, less the training processes' (derived).
    const std::int64_t cores = pipeline.cpu_threads_per_node / pipeline.threads_per_core;
    const double reserved = static_cast<double>(pipeline.cores_reserved_per_gpu) *
                            static_cast<double>(pipeline.gpus_per_node);
    v.usable_cores_per_node = static_cast<double>(cores) > reserved
                                  ? cores - static_cast<std::int64_t>(reserved)
                                  : 0;
    detail::cpu_pool pool{};
    pool.cores = static_cast<double>(v.usable_cores_per_node);
    pool.threads = pool.cores * static_cast<double>(pipeline.threads_per_core);
    const double gpus_per_node = static_cast<double>(pipeline.gpus_per_node);
    const double workers = static_cast<double>(pipeline.workers_per_gpu) * gpus_per_node;
    v.running_workers_per_node =
        static_cast<std::int64_t>(workers < pool.threads ? workers : pool.threads);
    v.core_equivalents_per_node =
        detail::core_equivalents(workers, pool, detail::sibling_gain(pipeline));
    // Workers per GPU past which the pool's threads are all busy (at most 2^43: no overflow).
    const std::int64_t useful_per_gpu =
        static_cast<std::int64_t>(detail::ceil_whole(pool.threads / gpus_per_node));
    v.effective_workers_per_gpu = pipeline.workers_per_gpu < useful_per_gpu
                                      ? pipeline.workers_per_gpu
                                      : useful_per_gpu;

    const double t_item = pipeline.preprocess_time_per_item.value();
    if (t_item > 0.0) {
        const double supply = detail::preprocessing_supply(
            static_cast<double>(pipeline.workers_per_gpu), pipeline, pool);
        v.preprocessing = detail::supply_of(input_stage::preprocessing, supply, demand, rate);
        // Every hardware thread busy: the most this pool can supply.
        const double most =
            detail::preprocessing_supply(static_cast<double>(useful_per_gpu), pipeline, pool);
        v.cores_suffice = useful_per_gpu >= 1 && most / rate >= 1.0;
        if (v.cores_suffice) {
            // The fewest workers per GPU that keep up, by bisection on the supply itself, so
            // the answer agrees with the headroom exactly (a ceil of the quotient can land one
            // worker high when the demand is an exact multiple; derived).
            std::int64_t low = 0;  // does not keep up (0 workers supply nothing)
            std::int64_t high = useful_per_gpu;
            while (high - low > 1) {
                const std::int64_t mid = low + (high - low) / 2;
                if (detail::preprocessing_supply(static_cast<double>(mid), pipeline, pool) /
                        rate >=
                    1.0) {
                    high = mid;
                } else {
                    low = mid;
                }
            }
            v.workers_per_gpu_needed = high;
        }
        // Otherwise workers_per_gpu_needed stays 0: no worker count on these cores keeps up.
        v.cores_per_gpu_needed = detail::cores_per_gpu_for(rate, pipeline);
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
