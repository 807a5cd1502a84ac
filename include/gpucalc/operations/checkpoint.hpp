// operations/checkpoint.hpp: checkpoint size for a training setup and layout, and its write and restore time
#pragma once

#include <cstdint>
#include <string_view>

#include "../catalog/links.hpp"
#include "../detail/checks.hpp"
#include "../memory/training.hpp"
#include "../model.hpp"
#include "../parallelism.hpp"
#include "../units.hpp"
#include "../workload.hpp"

namespace gpucalc {

/// What a training checkpoint holds: the model states a resumed run needs, and the weights alone
/// (the export a serving stack loads). Gradients are not written: a checkpoint is taken after
/// the optimizer step, when the next step recomputes them from scratch.
struct checkpoint_size {
    // The whole model, each value once:
    data_size weights{};           ///< every parameter in job.parameters' format (weights only)
    data_size optimizer_states{};  ///< the optimizer's states and the fp32 master copy
    data_size total{};             ///< weights + optimizer_states: the resumable checkpoint
    // On the most loaded GPU (the first pipeline stage's), as the layout shards it:
    data_size weights_per_gpu{};
    data_size optimizer_states_per_gpu{};
    data_size per_gpu{};           ///< what that GPU reads back on a restart
    std::int64_t gpus = 0;         ///< the layout's GPUs: TP × PP × CP × DP
};

namespace detail {
constexpr checkpoint_size checkpoint_size_of(const checked_model& cm, const training_job& job,
                                             const parallel_layout& par, const char* function) {
    check(cm, par, layout_path{function, "layout."});
    check_model_state_fields(job, function);
    if (job.lora.enabled) {
        throw_invalid(function, "lora.enabled", 1.0, "",
                      "must be false (a LoRA checkpoint, the adapter alone, is not modelled)");
    }
    checkpoint_size s{};
    // The whole model once, whatever the layout: data-parallel replicas hold copies of the same
    // values, and ZeRO's shards over them add up to one copy (Rajbhandari et al. 2020, §5).
    const double p = static_cast<double>(cm.parameters().total);
    s.weights = storage_size(p, job.parameters);
    s.optimizer_states = make<bytes>(p * optimizer_bytes_per_parameter(job));
    s.total = s.weights + s.optimizer_states;
    // Per GPU: the model states training_memory_per_gpu counts, gradients left out: the worst
    // stage's parameters after TP, PP and EP, the dense ones sharded by ZeRO over DP × CP, the
    // experts over the DP × CP ÷ EP ranks that hold the same experts.
    const stage_weights w = weights_on_worst_stage(cm, par.tensor, par.pipeline, par.expert);
    const double cp = static_cast<double>(par.context_parallel);
    const double dense_ranks = static_cast<double>(par.data) * cp;
    const double expert_ranks = static_cast<double>(exact_quotient(par.data, par.expert)) * cp;
    const model_states dense = shard_model_states(w.linear + w.embedding_class - w.experts, job,
                                                  par.zero_stage, dense_ranks);
    s.weights_per_gpu = dense.weights;
    s.optimizer_states_per_gpu = dense.optimizer_states;
    if (w.experts > 0.0) {
        const model_states e = shard_model_states(w.experts, job, par.zero_stage, expert_ranks);
        s.weights_per_gpu += e.weights;
        s.optimizer_states_per_gpu += e.optimizer_states;
    }
    s.per_gpu = s.weights_per_gpu + s.optimizer_states_per_gpu;
    s.gpus = gpus_unchecked(par);
    return s;
}
}  // namespace detail

/// The checkpoint of training `m` as `job` on `layout` (derived from the memory model's model
/// states). In total: every parameter once in the stored format, plus the optimizer's states
/// and the fp32 master copy (optimizer_state_bytes + 4 with fp32_master_weights): with
/// mixed-precision Adam 2 + 12 = 14 bytes per parameter of the 16 that ZeRO counts in memory
/// (Rajbhandari et al. 2020, §3.1), the 2 bytes of fp16/bf16 gradients being left out. The total
/// does not depend on the layout: without ZeRO the data-parallel replicas hold copies and one
/// replica's worth is written; with ZeRO every data-parallel rank holds (and writes) a 1/DP shard
/// of what it shards, and the shards add up to one copy. Per GPU: what the most loaded GPU holds,
/// as model_states_per_gpu shards it (the first or last pipeline stage, whichever holds more).
/// Ranges: the model's (check()); of the job, the optimizer and the parameter and gradient
/// formats (see training_job), with lora.enabled false; the layout as parallel_layout's rules
/// for `m` say (errors name "layout.<degree>").
constexpr checkpoint_size training_checkpoint_size(const checked_model& m, const training_job& job,
                                                   const parallel_layout& layout) {
    return detail::checkpoint_size_of(m, job, layout, "training_checkpoint_size");
}
constexpr checkpoint_size training_checkpoint_size(const transformer& m, const training_job& job,
                                                   const parallel_layout& layout) {
    constexpr const char* function = "training_checkpoint_size";
    return detail::checkpoint_size_of(check(m, function), job, layout, function);
}

/// A storage path's sequential bandwidths: writing a checkpoint and reading it back.
struct storage_rate {
    bandwidth write{};
    bandwidth read{};
};

/// Named storage figures. Each is one device or one provisioned unit: multiply by the drives per
/// node, or by the TiB provisioned.
namespace storage_rates {
/// One data-center NVMe drive on PCIe 4.0 x4 (Samsung PM9A3 U.2): 3.5 GB/s sequential write
/// (Samsung's PM9A3 specifications, May 2020; the E1.S form 3.2 GB/s) and 6.5 GB/s read
/// (catalog::load_paths::nvme_pcie_gen4, the same drive).
inline constexpr storage_rate nvme_pcie_gen4{make<gigabytes_per_second>(3.5),
                                             catalog::load_paths::nvme_pcie_gen4.read};
/// One data-center NVMe drive on PCIe 5.0 x4 (Samsung PM1743): 6.6 GB/s sequential write
/// (Samsung's announcement, December 2021) and 13 GB/s read (catalog::load_paths::nvme_pcie_gen5).
inline constexpr storage_rate nvme_pcie_gen5{make<gigabytes_per_second>(6.6),
                                             catalog::load_paths::nvme_pcie_gen5.read};
/// Amazon FSx for Lustre, PERSISTENT_2 SSD, per TiB provisioned: 125, 250, 500 or 1,000 MB/s
/// of read and write throughput (AWS, FSx for Lustre User Guide, "Managing throughput
/// capacity": throughput = TiB × the per-unit figure). The highest tier is taken here.
inline constexpr storage_rate fsx_lustre_per_tib_1000{make<megabytes_per_second>(1000.0),
                                                      make<megabytes_per_second>(1000.0)};
/// The lowest PERSISTENT_2 SSD tier: 125 MB/s per TiB (same page).
inline constexpr storage_rate fsx_lustre_per_tib_125{make<megabytes_per_second>(125.0),
                                                     make<megabytes_per_second>(125.0)};
}  // namespace storage_rates

/// Where checkpoints go. Every node has its own path (local NVMe drives, or its NICs to remote
/// storage); a shared system (a parallel file system, object storage) also has an aggregate
/// limit over all nodes. The slower of the two binds.
struct checkpoint_storage {
    storage_rate per_node{};   ///< each node's own path
    bool shared = false;       ///< whether `aggregate` limits the nodes together
    storage_rate aggregate{};  ///< the shared system's total; read only when shared
};

/// How training waits for a checkpoint. Synchronous: until it is written. Asynchronous (PyTorch
/// Distributed Checkpoint's async_save; Megatron-LM's --async-save): only while each GPU copies
/// its part to host memory; the host then writes it while training runs.
enum class checkpoint_mode { synchronous, asynchronous };

/// The mode's name ("synchronous", "asynchronous"); "unknown" for a value cast from another
/// integer.
constexpr std::string_view to_string(checkpoint_mode m) {
    switch (m) {
        case checkpoint_mode::synchronous: return "synchronous";
        case checkpoint_mode::asynchronous: return "asynchronous";
    }
    return "unknown";
}

/// What checkpoint_io_time assumes besides the storage.
struct checkpoint_io_setup {
    checkpoint_storage storage{};
    checkpoint_mode mode = checkpoint_mode::synchronous;
    /// Each GPU's link to host memory, which every checkpoint crosses first: PCIe Gen5 x16,
    /// 50 GB/s (catalog::load_paths::host_memory_pcie_gen5, measured H100 copies; uncertain,
    /// 35–55.6 GB/s).
    bandwidth host_link = catalog::load_paths::host_memory_pcie_gen5.read;
    std::int64_t gpus_per_node = 8;  ///< GPUs sharing a node's storage path (an HGX board's 8)
    bool weights_only = false;       ///< write and restore the weights alone (a serving export)
};

/// Times of one checkpoint.
struct checkpoint_io {
    duration stall{};    ///< training paused per checkpoint: the write, or (async) the host copy
    duration write{};    ///< until the checkpoint is on storage: the next cannot start before
    duration restore{};  ///< reading it back on a restart
    data_size written{};           ///< bytes written, all GPUs
    data_size read{};              ///< bytes read on a restore, all GPUs
    bool shared_binds_write = false;    ///< the shared system's aggregate limit bound the write
    bool shared_binds_restore = false;  ///< and the restore
};

/// A checkpoint's stall, write and restore times (derived). Writes are spread evenly over the
/// GPUs, as PyTorch Distributed Checkpoint's de-duplicating save planner and Megatron-LM's fully
/// parallel save spread the replicated parts over the data-parallel ranks: each GPU copies
/// W ÷ gpus to host memory over host_link, and each of the N nodes writes W ÷ N over its path;
/// with a shared system the whole W also crosses its aggregate limit. Write = the slowest of
/// those; the stall is the write when synchronous, the host copy when asynchronous. A restore
/// reads what each GPU holds (size.per_gpu, or weights_per_gpu when weights only): every
/// data-parallel replica reads its own copy, so a node reads its GPUs' shares and a shared
/// system carries gpus × that (no file-system cache is counted: conservative); each GPU's share
/// also crosses its host link, the slowest of the three binding. Nodes hold
/// gpus_per_node GPUs, the last one possibly fewer. Ranges: size.total, per_gpu, weights and
/// weights_per_gpu in [1e-30 B, 1e30 B]; size.gpus in [1, 2^40]; every bandwidth of the setup
/// that is read in [1e-30 B/s, 1e30 B/s] (zero is invalid_input: a path that moves nothing
/// never finishes); gpus_per_node in [1, 2^40]; mode an enumerator.
inline checkpoint_io checkpoint_io_time(const checkpoint_size& size, const checkpoint_io_setup& setup) {
    constexpr const char* function = "checkpoint_io_time";
    detail::require_positive(function, "size.total", size.total);
    detail::require_positive(function, "size.per_gpu", size.per_gpu);
    detail::require_positive(function, "size.weights", size.weights);
    detail::require_positive(function, "size.weights_per_gpu", size.weights_per_gpu);
    detail::require_count(function, "size.gpus", size.gpus);
    detail::require_enumerator(function, "setup.mode", setup.mode, 2, "gpucalc::checkpoint_mode");
    detail::require_positive(function, "setup.host_link", setup.host_link);
    detail::require_count(function, "setup.gpus_per_node", setup.gpus_per_node);
    detail::require_positive(function, "setup.storage.per_node.write", setup.storage.per_node.write);
    detail::require_positive(function, "setup.storage.per_node.read", setup.storage.per_node.read);
    if (setup.storage.shared) {
        detail::require_positive(function, "setup.storage.aggregate.write",
                                 setup.storage.aggregate.write);
        detail::require_positive(function, "setup.storage.aggregate.read",
                                 setup.storage.aggregate.read);
    }
    const double gpus = static_cast<double>(size.gpus);
    const double per_node = static_cast<double>(setup.gpus_per_node);
    const double nodes = static_cast<double>(detail::ceil_div(size.gpus, setup.gpus_per_node));
    const double on_busiest_node = gpus < per_node ? gpus : per_node;
    const data_size written = setup.weights_only ? size.weights : size.total;
    const data_size held = setup.weights_only ? size.weights_per_gpu : size.per_gpu;

    checkpoint_io io{};
    io.written = written;
    const duration host_copy = (written / gpus) / setup.host_link;
    const duration node_write = (written / nodes) / setup.storage.per_node.write;
    io.write = host_copy > node_write ? host_copy : node_write;
    if (setup.storage.shared) {
        const duration shared_write = written / setup.storage.aggregate.write;
        io.shared_binds_write = shared_write > io.write;
        if (io.shared_binds_write) io.write = shared_write;
    }
    io.stall = setup.mode == checkpoint_mode::asynchronous ? host_copy : io.write;

    io.read = gpus * held;
    io.restore = (on_busiest_node * held) / setup.storage.per_node.read;
    const duration host_load = held / setup.host_link;  // each GPU's share crosses its host link
    if (host_load > io.restore) io.restore = host_load;
    if (setup.storage.shared) {
        const duration shared_read = io.read / setup.storage.aggregate.read;
        io.shared_binds_restore = shared_read > io.restore;
        if (io.shared_binds_restore) io.restore = shared_read;
    }
    return io;
}

}  // namespace gpucalc
