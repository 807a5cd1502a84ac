// operations/input_pipeline.hpp: keeping the GPUs fed: the input rate training consumes against what storage, network and data-loader workers supply
#pragma once

#include <cstdint>
#include <string_view>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../scaling/step.hpp"
#include "../units.hpp"
#include "../workload/item.hpp"

namespace gpucalc {

/// Samples per second (images, clips, fixed-length records). A training sample is a sequence
/// (quantities.hpp's sequence dimension: "one sample of a training batch"), so a sample rate
/// is a request_rate under a name that says what it counts here.
using sample_rate = request_rate;
/// The named unit of a sample_rate: make<samples_per_second>(16621.0), in<samples_per_second>(r).
struct samples_per_second : scaled_unit<request_rate, 1> {};

/// What one input item is: a sample (an image, read, decoded and augmented on a CPU core) or
/// a token (a language model's pre-tokenized id).
enum class input_item { sample, token };
inline constexpr int input_item_count = 2;

/// A stage of the input pipeline; none when no stage binds (the job is compute-bound).
enum class input_stage { none, storage, network, preprocessing };
inline constexpr int input_stage_count = 4;

/// Whether storage_read is one aggregate limit for the whole job (a parallel file system, an
/// object store behind one gateway) or each node's own (local NVMe).
enum class storage_scope { shared, per_node };
inline constexpr int storage_scope_count = 2;

// ---------------------------------------------------------------------------------------------
// Sourced figures
// ---------------------------------------------------------------------------------------------

/// ILSVRC-2012 classification training images: 1,281,167 (Russakovsky et al. 2015, "ImageNet
/// Large Scale Visual Recognition Challenge", IJCV 115, Table 2).
inline constexpr double imagenet_train_images = 1281167.0;
/// ILSVRC-2012 training archive: "138GB" (image-net.org, ILSVRC 2012 download page, "Training
/// images (Task 1 & 2)"; rounded as the page prints it, so the mean below is good to ~0.4%).
/// NVIDIA's DALI/A100 post (developer.nvidia.com, 2020) gives "150 GB" for the whole of
/// ImageNet, train, validation and test together, consistent with it.
inline constexpr data_size imagenet_train_bytes = make<gigabytes>(138.0);
/// The mean ImageNet training JPEG: 138 GB ÷ 1,281,167 = 107,714 B (derived).
inline constexpr data_size imagenet_mean_jpeg = imagenet_train_bytes / imagenet_train_images;

/// CPU time one core spends to read, JPEG-decode, random-resized-crop to 224², flip and
/// normalize one ImageNet training image in a PyTorch/PIL data-loader worker: 1/150 s, that is
/// 150 images/s per core. Uncertain: 100–300 images/s per core (3.3–10 ms) depending on the
/// decoder (libjpeg-turbo, PIL-SIMD), the CPU and its clock; no primary table was verified
/// for this figure. Mohan et al. 2021 ("Analyzing and Mitigating Data Stalls in DNN
/// Training", PVLDB 14(5)) show that this CPU stage, not the GPU, often sets ResNet-class
/// training speed. Measure your own pipeline (one worker, data in page cache) and pass it.
inline constexpr duration imagenet_preprocess_time_per_image = make<seconds>(1.0 / 150.0);

/// ResNet-50 v1.5 training on a DGX A100 (8 × A100 80GB), mixed precision: 16,621 images/s
/// for 8 GPUs, 2,470 for one (NVIDIA DeepLearningExamples, PyTorch ResNet50 v1.5 README,
/// "Training performance: NVIDIA DGX A100 (8x A100 80GB)", pytorch-21.03 container).
inline constexpr sample_rate resnet50_dgx_a100_8gpu_training = make<samples_per_second>(16621.0);

/// The largest vocabulary whose ids fit 2 bytes: 2^16 = 65,536 ids, 0 … 65,535 (derived).
inline constexpr std::int64_t largest_two_byte_vocabulary = std::int64_t{1} << 16;

/// Bytes one stored token id takes: 2 (uint16) for a vocabulary of at most 65,536 ids, such
/// as GPT-2's 50,257 (Radford et al. 2019, §2.2), else 4 (uint32), as for Llama 3's 128,256
/// (derived: the smallest common integer width that holds every id). Ranges: vocabulary in
/// [1, 2^40].
constexpr data_size token_id_bytes(std::int64_t vocabulary) {
    detail::require_count("token_id_bytes", "vocabulary", vocabulary);
    return make<bytes>(vocabulary <= largest_two_byte_vocabulary ? 2.0 : 4.0);
}

// ---------------------------------------------------------------------------------------------
// Demand
// ---------------------------------------------------------------------------------------------

/// The input rate the GPUs consume, in the item it counts (samples or tokens; the other rate
/// is 0), and the bytes storage and the network carry for it.
struct input_demand {
    input_item item = input_item::sample;
    sample_rate samples{};       ///< item == sample: the job's samples/s (all GPUs); else 0
    token_rate tokens{};         ///< item == token: the job's tokens/s (all GPUs); else 0
    data_size bytes_per_item{};  ///< as stored: an encoded JPEG, a token id
    bandwidth bytes{};           ///< rate × bytes_per_item
};

/// The assumptions that turn an item workload's FLOPs into a training rate.
///
/// Ranges: training_flops_per_forward in [1, 10]; achieved_fraction in [0.001, 1].
struct item_training_assumptions {
    /// Training FLOPs over forward FLOPs: 3, the backward pass costing twice the forward
    /// (Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1: C ≈ 6N per token
    /// for training against 2N forward).
    double training_flops_per_forward = 3.0;
    /// The fraction of the GPU's dense peak the training step reaches: 0.16, derived from
    /// resnet50_dgx_a100_8gpu_training: 16,621 × 3 × 8.178 GFLOP ÷ (8 × 312 TFLOP/s) = 0.163.
    /// Uncertain: 0.15–0.35 across frameworks, GPUs and batch sizes.
    double achieved_fraction = 0.16;
};

namespace detail {

constexpr void check(const item_training_assumptions& a, const char* function) {
    const double m = a.training_flops_per_forward;
    if (!(m >= 1.0 && m <= 10.0)) {
        throw_invalid(function, "assumptions.training_flops_per_forward", m, "",
                      "must be in [1, 10]");
    }
    const double f = a.achieved_fraction;
    if (!(f >= 0.001 && f <= 1.0)) {
        throw_invalid(function, "assumptions.achieved_fraction", f, "", "must be in [0.001, 1]");
    }
}

/// The widest demand rate the verdict judges, in items/s: item_training_demand's extremes
/// (2^40 GPUs at 1e30 FLOP/s over 1e-30 FLOP per item, or 0.001 of 1e-30 FLOP/s over 10 ×
/// 1e40 FLOP) stay inside [1e-80, 1e80], and every ratio of a supply to it stays finite.
inline constexpr double smallest_demand_rate = 1e-80;
inline constexpr double largest_demand_rate = 1e80;

/// A demand's rate must be in [1e-80, 1e80] items/s (wider than the demand functions' input
/// ranges: a rate item_training_demand returns must still be judged) and its bytes per item
/// in [1e-30 B, 1e30 B].
constexpr void check(const input_demand& d, const char* function) {
    require_enumerator(function, "demand.item", d.item, input_item_count, "input_item");
    const bool samples = d.item == input_item::sample;
    const double rate = samples ? d.samples.value() : d.tokens.value();
    const double other = samples ? d.tokens.value() : d.samples.value();
    if (!(rate >= smallest_demand_rate && rate <= largest_demand_rate)) {
        throw_invalid(function, samples ? "demand.samples" : "demand.tokens", rate,
                      samples ? "samples/s" : "tokens/s", "must be in [1e-80, 1e80]");
    }
    if (!exactly_equal(other, 0.0)) {
        throw_invalid(function, samples ? "demand.tokens" : "demand.samples", other,
                      samples ? "tokens/s" : "samples/s", "must be 0 for this demand.item");
    }
    require_positive(function, "demand.bytes_per_item", d.bytes_per_item);
}

constexpr double demand_rate(const input_demand& d) {
    return d.item == input_item::sample ? d.samples.value() : d.tokens.value();
}

constexpr input_demand make_demand(input_item item, double rate, data_size bytes_per_item) {
    input_demand d{};
    d.item = item;
    if (item == input_item::sample) {
        d.samples = sample_rate::from_value(rate);
    } else {
        d.tokens = token_rate::from_value(rate);
    }
    d.bytes_per_item = bytes_per_item;
    d.bytes = bandwidth::from_value(rate * bytes_per_item.value());
    return d;
}

}  // namespace detail

/// Demand at a stated sample rate (a measured images/s, a target). Ranges: rate in
/// [1e-30, 1e15] samples/s; bytes_per_sample in [1e-30 B, 1e30 B].
constexpr input_demand sample_demand(sample_rate rate, data_size bytes_per_sample) {
    constexpr const char* function = "sample_demand";
    detail::require_positive(function, "rate", rate);
    detail::require_positive(function, "bytes_per_sample", bytes_per_sample);
    return detail::make_demand(input_item::sample, rate.value(), bytes_per_sample);
}

/// Demand at a stated token rate. Ranges: rate in [1e-30, 1e20] tokens/s; bytes_per_token in
/// [1e-30 B, 1e30 B] (token_id_bytes gives it from the vocabulary).
constexpr input_demand token_demand(token_rate rate, data_size bytes_per_token) {
    constexpr const char* function = "token_demand";
    detail::require_positive(function, "rate", rate);
    detail::require_positive(function, "bytes_per_token", bytes_per_token);
    return detail::make_demand(input_item::token, rate.value(), bytes_per_token);
}

/// Demand at a predicted training step's throughput: step.tokens_per_second (training_step_time)
/// × bytes_per_token. Ranges: the step's tokens_per_second in [1e-30, 1e20] tokens/s;
/// bytes_per_token in [1e-30 B, 1e30 B].
constexpr input_demand token_demand(const training_step& step, data_size bytes_per_token) {
    constexpr const char* function = "token_demand";
    detail::require_positive(function, "step.tokens_per_second", step.tokens_per_second);
    detail::require_positive(function, "bytes_per_token", bytes_per_token);
    return detail::make_demand(input_item::token, step.tokens_per_second.value(),
                               bytes_per_token);
}

/// Demand of a non-transformer model trained on `gpus` GPUs: samples/s = gpus ×
/// achieved_fraction × peak(gpu, workload.compute) ÷ (training_flops_per_forward ×
/// flops_per_item) (derived; the factor 3 from Kaplan et al. 2020 §2.1).
///
/// Ranges: the workload as item_workload says; the gpu must have a peak at workload.compute;
/// gpus in [1, 2^40]; bytes_per_sample in [1e-30 B, 1e30 B]; assumptions as
/// item_training_assumptions says.
constexpr input_demand item_training_demand(const item_workload& workload, const gpu_spec& gpu,
                                            std::int64_t gpus, data_size bytes_per_sample,
                                            const item_training_assumptions& assumptions = {}) {
    constexpr const char* function = "item_training_demand";
    detail::check(workload, function);
    detail::require_count(function, "gpus", gpus);
    detail::require_positive(function, "bytes_per_sample", bytes_per_sample);
    detail::check(assumptions, function);
    const flop_rate p = detail::peak_of(gpu, workload.compute, function, "workload.compute");
    const double rate = static_cast<double>(gpus) * assumptions.achieved_fraction * p.value() /
                        (assumptions.training_flops_per_forward *
                         workload.flops_per_item.value());
    return detail::make_demand(input_item::sample, rate, bytes_per_sample);
}

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

/// The name of an item: "sample", "token"; "unknown" for a value that is neither.
constexpr std::string_view to_string(input_item item) {
    switch (item) {
        case input_item::sample: return "sample";
        case input_item::token: return "token";
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
