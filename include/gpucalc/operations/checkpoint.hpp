// operations/checkpoint.hpp: checkpoint size for a training setup and layout, and its write and restore time
#pragma once

#include <cstdint>
#include <string>
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
    // On the most loaded GPU (the first or last pipeline stage's, whichever holds more), as the
    // layout shards it:
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
/// node, or by the TiB provisioned. Local drives in a cloud instance are instance storage: a
/// checkpoint_storage made of them sets durable = false and drains to a durable tier.
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
    /// Whether a checkpoint here survives the loss of a node and a spot reclaim: true for remote
    /// storage (a parallel file system, object storage), false for local NVMe (instance storage:
    /// a reclaim stops or terminates the instance and wipes it, and a failed node's drives leave
    /// with the node; AWS EC2 User Guide, "Instance store temporary block storage", on the data
    /// persistence of instance store volumes).
    bool durable = true;
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
    /// Where the checkpoint is first written: the fast tier when it is not durable.
    checkpoint_storage storage{};
    /// Whether a non-durable `storage` drains each checkpoint to `drain_to` while training runs
    /// (and restores from there); read only when storage.durable is false.
    bool drains = false;
    checkpoint_storage drain_to{};  ///< the durable tier; must be durable; read only when drained
    checkpoint_mode mode = checkpoint_mode::synchronous;
    /// Each GPU's link to host memory, which every checkpoint crosses first: PCIe Gen5 x16,
    /// 50 GB/s (catalog::load_paths::host_memory_pcie_gen5, measured H100 copies; uncertain,
    /// 35–55.6 GB/s).
    bandwidth host_link = catalog::load_paths::host_memory_pcie_gen5.read;
    std::int64_t gpus_per_node = 8;  ///< GPUs sharing a node's storage path (an HGX board's 8)
    /// Write and restore the weights alone (a serving export): not a checkpoint training can
    /// resume from, so io.resumable is false and checkpointed_run_cost answers no.
    bool weights_only = false;
    /// Asynchronous only: whether each GPU stages only its even share of the checkpoint, total ÷
    /// gpus, to host memory (a framework that de-duplicates replicated state over the
    /// data-parallel ranks before staging). False by default: PyTorch Distributed Checkpoint's
    /// async_save by default stages a CPU copy of each rank's whole state dict, and only then do
    /// dcp.save and its planner de-duplicate (PyTorch API docs,
    /// torch.distributed.checkpoint.staging, AsyncStager; PyTorch tutorial "Asynchronous Saving
    /// with Distributed Checkpoint (DCP)", July 2024), so each GPU copies what it holds. A
    /// synchronous dcp.save copies only the items it writes (its share, or on local drives what
    /// it keeps), so this flag is not read then.
    bool deduplicated_staging = false;
};

/// Times of one checkpoint.
struct checkpoint_io {
    duration stall{};    ///< training paused per checkpoint: the fast write, or (async) the host copy
    /// Until the checkpoint is on durable storage (the fast write plus the drain; asynchronous,
    /// the host copy then the storage write): the next checkpoint period, interval + stall, must
    /// cover it.
    duration write{};
    duration drain{};    ///< of write, the copy from the fast tier to the durable one (0 if none)
    duration restore{};  ///< reading it back from the durable tier on a restart
    /// Bytes of the durable copy, all GPUs: one copy, what durable storage (or drain_to)
    /// receives. Non-durable local drives keep more: each GPU's staged part, gpus × that.
    data_size written{};
    data_size read{};              ///< bytes read on a restore, all GPUs
    bool shared_binds_write = false;    ///< a shared system's aggregate limit bound the write or drain
    bool shared_binds_restore = false;  ///< and the restore
    /// Whether the checkpoint reaches storage that survives a node's failure and a spot reclaim.
    /// False, an explicit "no": non-durable storage with no drain; the restore is then what
    /// reading the local copy would take, were it still there.
    bool durable = true;
    /// Whether training can resume from it: false, an explicit "no", for a weights-only export
    /// (setup.weights_only), which lacks the optimizer states and master copy.
    bool resumable = true;
};

namespace detail {
/// Per-node and shared limits of moving `per_gpu` bytes from each GPU of the busiest node
/// (`on_node` GPUs), `all` bytes in total, over `path` (derived).
inline duration storage_time(const checkpoint_storage& path, bool write, data_size on_node,
                             data_size all, bool& shared_binds) {
    const duration node = on_node / (write ? path.per_node.write : path.per_node.read);
    shared_binds = false;
    if (!path.shared) return node;
    const duration shared = all / (write ? path.aggregate.write : path.aggregate.read);
    shared_binds = shared > node;
    return shared_binds ? shared : node;
}
/// The fastest path checkpoint_io_time accepts, 1 PB/s (an assumption, far above any one link
/// or file system), and its smallest size, 1 B: so that every time it returns is at least
/// 1 B ÷ 2^40 GPUs ÷ 1 PB/s, about 9e-28 s, inside checkpointed_run_cost's [1e-30 s, ...].
inline constexpr bandwidth fastest_checkpoint_path = make<bytes_per_second>(1e15);
inline constexpr data_size smallest_checkpoint_part = make<bytes>(1.0);
inline void require_checkpoint_rate(const char* function, const char* field, bandwidth b) {
    require_positive(function, field, b);
    if (b > fastest_checkpoint_path) {
        throw_invalid(function, field, b.value(), "B/s", "must be at most 1e15 B/s (1 PB/s)");
    }
}
inline void require_checkpoint_size(const char* function, const char* field, data_size d) {
    require_positive(function, field, d);
    if (d < smallest_checkpoint_part) {
        throw_invalid(function, field, d.value(), "B", "must be at least 1 B");
    }
}
inline void check_storage(const checkpoint_storage& s, const char* function, const char* write_name,
                          const char* read_name, const char* aggregate_write_name,
                          const char* aggregate_read_name) {
    require_checkpoint_rate(function, write_name, s.per_node.write);
    require_checkpoint_rate(function, read_name, s.per_node.read);
    if (s.shared) {
        require_checkpoint_rate(function, aggregate_write_name, s.aggregate.write);
        require_checkpoint_rate(function, aggregate_read_name, s.aggregate.read);
    }
}
/// Throws unless a ≤ b within rounding, naming both.
inline void require_at_most(const char* function, const char* field, data_size a,
                            const char* bound, data_size b) {
    constexpr double rounding = 1e-9;  // relative: sums of a few products in double
    if (!(a.value() <= b.value() * (1.0 + rounding))) {
        throw_invalid_name(function, field, error_value_text(a), "must not exceed ",
                           std::string(bound) + error_value_text(b), "");
    }
}
}  // namespace detail

/// A checkpoint's stall, write and restore times (derived). Each GPU copies its part to host
/// memory over host_link. Synchronous: what it writes (dcp.save copies the items it writes).
/// Asynchronous: what it holds (size.per_gpu, or weights_per_gpu when weights only), as DCP's
/// async_save stages the rank's whole local state dict, or with deduplicated_staging an even
/// share, total ÷ gpus. Durable storage takes one copy (DCP's save planner writes each
/// replicated value once, spreading them over the ranks; Megatron-LM's fully parallel save
/// likewise): each GPU writes the even share (an assumption: a pipeline stage holding the
/// embedding or the head has more of its own to write, about 14% over the average for
/// Llama-3-8B at PP 4, uncertain by planner), so the busiest node (gpus_per_node GPUs, or all of
/// them on one partly filled node) writes its GPUs' shares over its path, and a shared system's
/// aggregate limit carries the whole copy. Non-durable local storage keeps what each GPU staged
/// (local checkpoints are not de-duplicated across nodes): the busiest node writes its GPUs'
/// parts, and a shared scratch system's aggregate carries gpus × that. Synchronous, the fast
/// write is the slower of the host copy and the storage (they stream together) and stalls
/// training; asynchronous, async_save finishes staging before the background write starts, so
/// the fast write is the host copy plus the storage time, and only the host copy stalls.
/// Non-durable storage drains each checkpoint to `drain_to` after the fast write: one copy, read
/// from the local drives and written to the durable tier, each GPU's even share at the node and
/// shared limits; write = fast write + drain (sequential, conservative), and the restore reads
/// from `drain_to`. Non-durable storage with no drain: io.durable is false. Weights only:
/// io.resumable is false. A restore reads what each GPU holds: every data-parallel replica
/// reads its own copy, so a node reads its GPUs' parts and a shared system carries gpus × held
/// (no file-system cache counted: conservative); each GPU's part crosses its host link, the
/// slowest binding. Ranges: size.total, per_gpu, weights and weights_per_gpu in [1 B, 1e30 B],
/// with weights <= total, weights_per_gpu <= per_gpu <= total and per_gpu × gpus >= total (the
/// busiest GPU holds at least the average); size.gpus in [1, 2^40]; every bandwidth of the
/// setup that is read in [1e-30 B/s, 1e15 B/s] (zero is invalid_input: a path that moves
/// nothing never finishes; the bounds keep every time at least about 9e-28 s, which
/// checkpointed_run_cost accepts); drain_to.durable true when read; gpus_per_node in [1, 2^40];
/// mode an enumerator.
inline checkpoint_io checkpoint_io_time(const checkpoint_size& size, const checkpoint_io_setup& setup) {
    constexpr const char* function = "checkpoint_io_time";
    detail::require_checkpoint_size(function, "size.total", size.total);
    detail::require_checkpoint_size(function, "size.per_gpu", size.per_gpu);
    detail::require_checkpoint_size(function, "size.weights", size.weights);
    detail::require_checkpoint_size(function, "size.weights_per_gpu", size.weights_per_gpu);
    detail::require_count(function, "size.gpus", size.gpus);
    detail::require_at_most(function, "size.weights", size.weights, "size.total = ",
                            size.total);
    detail::require_at_most(function, "size.weights_per_gpu", size.weights_per_gpu,
                            "size.per_gpu = ", size.per_gpu);
    detail::require_at_most(function, "size.per_gpu", size.per_gpu, "size.total = ", size.total);
    const double gpus = static_cast<double>(size.gpus);
    detail::require_at_most(function, "size.total", size.total,
                            "size.per_gpu x size.gpus (the busiest GPU holds at least the "
                            "average) = ", size.per_gpu * gpus);
    detail::require_enumerator(function, "setup.mode", setup.mode, 2, "gpucalc::checkpoint_mode");
    detail::require_checkpoint_rate(function, "setup.host_link", setup.host_link);
    detail::require_count(function, "setup.gpus_per_node", setup.gpus_per_node);
    detail::check_storage(setup.storage, function, "setup.storage.per_node.write",
                          "setup.storage.per_node.read", "setup.storage.aggregate.write",
                          "setup.storage.aggregate.read");
    const bool drained = !setup.storage.durable && setup.drains;
    if (drained) {
        if (!setup.drain_to.durable) {
            detail::throw_invalid(function, "setup.drain_to.durable", 0.0, "",
                                  "must be true (draining to storage a failure also loses does "
                                  "not make the checkpoint durable)");
        }
        detail::check_storage(setup.drain_to, function, "setup.drain_to.per_node.write",
                              "setup.drain_to.per_node.read", "setup.drain_to.aggregate.write",
                              "setup.drain_to.aggregate.read");
    }
    const double per_node = static_cast<double>(setup.gpus_per_node);
    const double on_busiest_node = gpus < per_node ? gpus : per_node;
    const data_size written = setup.weights_only ? size.weights : size.total;
    const data_size held = setup.weights_only ? size.weights_per_gpu : size.per_gpu;
    const data_size share = written / gpus;  // one copy spread evenly: a GPU's de-duplicated part
    const bool async = setup.mode == checkpoint_mode::asynchronous;
    // To host memory: a synchronous save copies what it writes (the share to durable storage,
    // the whole state to local drives); async_save stages the whole state unless de-duplicated.
    const data_size staged = async ? (setup.deduplicated_staging ? share : held)
                                   : (setup.storage.durable ? share : held);
    // On the first tier, per GPU: durable storage one copy's share; local drives what reached
    // host memory (bytes never staged cannot be written).
    const data_size kept = setup.storage.durable ? share : staged;
    // The shared limit's load: one copy when durable; each GPU's whole part on local scratch.
    const data_size first_tier = setup.storage.durable ? written : gpus * kept;

    checkpoint_io io{};
    io.written = written;
    io.durable = setup.storage.durable || drained;
    io.resumable = !setup.weights_only;
    const duration host_copy = staged / setup.host_link;
    bool binds = false;
    const duration storage =
        detail::storage_time(setup.storage, true, on_busiest_node * kept, first_tier, binds);
    if (async) {
        // async_save returns once staging is done and only then writes in the background
        // (PyTorch tutorial "Asynchronous Saving with Distributed Checkpoint (DCP)", July 2024;
        // AsyncStager's API docs): sequential.
        io.write = host_copy + storage;
        io.shared_binds_write = binds;
        io.stall = host_copy;
    } else {
        // A synchronous save streams through host memory: the slower of the two binds (derived;
        // optimistic by at most the shorter of the two if the framework does not overlap them).
        io.write = host_copy > storage ? host_copy : storage;
        io.shared_binds_write = binds && storage > host_copy;
        io.stall = io.write;
    }
    const checkpoint_storage& restore_from = drained ? setup.drain_to : setup.storage;
    if (drained) {
        bool from_binds = false;
        bool to_binds = false;
        const duration out = detail::storage_time(setup.storage, false, on_busiest_node * share,
                                                  written, from_binds);
        const duration in = detail::storage_time(setup.drain_to, true, on_busiest_node * share,
                                                 written, to_binds);
        io.drain = out > in ? out : in;
        io.shared_binds_write = io.shared_binds_write || (out > in ? from_binds : to_binds);
        io.write += io.drain;
    }

    io.read = gpus * held;
    bool restore_binds = false;
    io.restore = detail::storage_time(restore_from, false,
                                      on_busiest_node * held, io.read, restore_binds);
    const duration host_load = held / setup.host_link;  // each GPU's part crosses its host link
    io.shared_binds_restore = restore_binds && io.restore > host_load;
    if (host_load > io.restore) io.restore = host_load;
    return io;
}

}  // namespace gpucalc
