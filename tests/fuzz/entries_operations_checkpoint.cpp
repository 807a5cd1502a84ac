// entries_operations_checkpoint.cpp: fuzz entries for operations: checkpoint size and I/O, interruptions, the chain to the bill
#include <gpucalc/operations.hpp>

#include <cmath>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::checkpoint_mode> {
    static constexpr const char* name = "gpucalc::checkpoint_mode";
    static constexpr int count = 2;
};
template <>
struct enum_traits<gpucalc::restore_refusal> {
    static constexpr const char* name = "gpucalc::restore_refusal";
    static constexpr int count = 3;
};
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::checkpoint_size& a, const gpucalc::checkpoint_size& b, F&& f) {
    FUZZ_FIELD(weights); FUZZ_FIELD(optimizer_states); FUZZ_FIELD(total);
    FUZZ_FIELD(weights_per_gpu); FUZZ_FIELD(optimizer_states_per_gpu); FUZZ_FIELD(per_gpu);
    FUZZ_FIELD(gpus);
}
template <class F>
void fields(const gpucalc::storage_rate& a, const gpucalc::storage_rate& b, F&& f) {
    FUZZ_FIELD(write); FUZZ_FIELD(read);
}
template <class F>
void fields(const gpucalc::checkpoint_storage& a, const gpucalc::checkpoint_storage& b, F&& f) {
    FUZZ_FIELD(per_node); FUZZ_FIELD(shared); FUZZ_FIELD(aggregate); FUZZ_FIELD(durable);
}
template <class F>
void fields(const gpucalc::checkpoint_io_setup& a, const gpucalc::checkpoint_io_setup& b, F&& f) {
    FUZZ_FIELD(storage); FUZZ_FIELD(drains); FUZZ_FIELD(drain_to); FUZZ_FIELD(mode);
    FUZZ_FIELD(host_link); FUZZ_FIELD(gpus_per_node); FUZZ_FIELD(weights_only);
    FUZZ_FIELD(deduplicated_staging);
}
template <class F>
void fields(const gpucalc::checkpoint_io& a, const gpucalc::checkpoint_io& b, F&& f) {
    FUZZ_FIELD(stall); FUZZ_FIELD(write); FUZZ_FIELD(drain); FUZZ_FIELD(restore);
    FUZZ_FIELD(written); FUZZ_FIELD(read); FUZZ_FIELD(shared_binds_write);
    FUZZ_FIELD(shared_binds_restore); FUZZ_FIELD(durable); FUZZ_FIELD(resumable);
}
template <class F>
void fields(const gpucalc::checkpointed_run& a, const gpucalc::checkpointed_run& b, F&& f) {
    FUZZ_FIELD(work); FUZZ_FIELD(gpus); FUZZ_FIELD(on_demand); FUZZ_FIELD(spot);
    FUZZ_FIELD(discount); FUZZ_FIELD(preemptions_per_hour); FUZZ_FIELD(failures_per_gpu_hour);
    FUZZ_FIELD(restart_overhead); FUZZ_FIELD(interval);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::checkpoint_size>() { return "gpucalc::checkpoint_size"; }
template <>
inline const char* type_name<gpucalc::storage_rate>() { return "gpucalc::storage_rate"; }
template <>
inline const char* type_name<gpucalc::checkpoint_storage>() { return "gpucalc::checkpoint_storage"; }
template <>
inline const char* type_name<gpucalc::checkpoint_io_setup>() {
    return "gpucalc::checkpoint_io_setup";
}
template <>
inline const char* type_name<gpucalc::checkpoint_io>() { return "gpucalc::checkpoint_io"; }
template <>
inline const char* type_name<gpucalc::checkpointed_run>() { return "gpucalc::checkpointed_run"; }

namespace draw {
inline gpucalc::storage_rate rate(generator& g, double write, double read) {
    return {g.q<gpucalc::bandwidth>(write), g.q<gpucalc::bandwidth>(read)};
}
/// A checkpoint near a 70B model's on 256 GPUs, written by hand (sizes may disagree, and then
/// checkpoint_io_time refuses them; mostly the per-GPU share is kept at or above the average).
inline gpucalc::checkpoint_size checkpoint(generator& g) {
    gpucalc::checkpoint_size s{};
    s.weights = g.q<gpucalc::data_size>(1.4e11);
    s.optimizer_states = g.q<gpucalc::data_size>(8.3e11);
    s.total = g.q<gpucalc::data_size>(9.7e11);
    s.weights_per_gpu = g.q<gpucalc::data_size>(4.3e9);
    s.optimizer_states_per_gpu = g.q<gpucalc::data_size>(3.3e9);
    s.gpus = g.count(256);
    s.per_gpu = g.coin(0.5) ? g.q<gpucalc::data_size>(7.6e9)
                            : g.keep_q(s.total / static_cast<double>(s.gpus > 0 ? s.gpus : 1));
    return s;
}
inline gpucalc::checkpoint_storage storage(generator& g, double write, double read) {
    gpucalc::checkpoint_storage s{};
    s.per_node = rate(g, write, read);
    s.shared = g.coin(0.5);
    s.aggregate = s.shared || g.coin(0.5) ? rate(g, 12.5e9, 12.5e9) : gpucalc::storage_rate{};
    s.durable = g.coin(0.6);
    return s;
}
inline gpucalc::checkpoint_io_setup io_setup(generator& g) {
    gpucalc::checkpoint_io_setup s{};
    s.storage = storage(g, 28e9, 52e9);  // 8 PCIe 4.0 NVMe drives
    s.drains = g.coin(0.7);
    if (s.drains || g.coin(0.3)) s.drain_to = storage(g, 12.5e9, 12.5e9);  // a NIC to Lustre
    if (g.coin(0.8)) s.drain_to.durable = true;
    s.mode = g.coin(0.9) ? g.keep_enum(gpucalc::checkpoint_mode::asynchronous, "setup", "mode")
                         : g.any_enum<gpucalc::checkpoint_mode>(2, "setup.mode");
    s.host_link = g.q<gpucalc::bandwidth>(50e9);
    s.gpus_per_node = g.count(8);
    s.weights_only = g.coin(0.2);
    s.deduplicated_staging = g.coin(0.3);
    return s;
}
/// Checkpoint times as checkpoint_io_time gives them: a stall no longer than the write.
inline gpucalc::checkpoint_io io(generator& g) {
    gpucalc::checkpoint_io io{};
    io.write = g.q<gpucalc::duration>(77.0);
    io.stall = g.coin(0.5) ? g.keep_q(io.write) : g.q<gpucalc::duration>(0.075);
    io.restore = g.q_or_zero<gpucalc::duration>(156.0);
    io.durable = g.coin(0.9);
    io.resumable = g.coin(0.9);
    return io;
}
inline gpucalc::checkpointed_run run(generator& g) {
    gpucalc::checkpointed_run r{};
    r.work = g.q<gpucalc::duration>(720.0 * typical::hour);
    r.gpus = g.coin(0.8) ? gpucalc::make<gpucalc::gpus>(static_cast<double>(g.count(256)))
                         : g.q<gpucalc::gpu_count>(256.0);
    r.on_demand = g.q<gpucalc::gpu_price>(typical::gpu_price);
    r.spot = g.coin(0.5);
    r.discount = g.unit_interval(0.6);
    r.preemptions_per_hour = g.real_or_zero(0.25);
    r.failures_per_gpu_hour = g.coin(0.5) ? g.keep_real(gpucalc::llama3_interruptions_per_gpu_hour)
                                          : g.real_or_zero(2e-5);
    r.restart_overhead = g.q_or_zero<gpucalc::duration>(600.0);
    r.interval = g.coin(0.6) ? gpucalc::duration{} : g.q<gpucalc::duration>(typical::hour);
    return r;
}
}  // namespace draw

inline void inspect(inspector& i, const gpucalc::checkpoint_size& s) {
    i.amount("weights", s.weights);
    i.amount("optimizer_states", s.optimizer_states);
    i.amount("total", s.total);
    i.amount("weights_per_gpu", s.weights_per_gpu);
    i.amount("optimizer_states_per_gpu", s.optimizer_states_per_gpu);
    i.amount("per_gpu", s.per_gpu);
    i.count("gpus", s.gpus);
    i.invariant("total = weights + optimizer_states", s.total == s.weights + s.optimizer_states);
    i.invariant("per_gpu = weights_per_gpu + optimizer_states_per_gpu",
                s.per_gpu == s.weights_per_gpu + s.optimizer_states_per_gpu);
    i.invariant("per_gpu <= total", s.per_gpu.value() <= s.total.value() * (1.0 + 1e-12),
                number_text(s.per_gpu.value()) + " B > " + number_text(s.total.value()) + " B");
    i.invariant("gpus >= 1", s.gpus >= 1);
    // checkpoint_io_time's rule: the busiest GPU holds at least the average.
    i.invariant("per_gpu x gpus >= total",
                s.per_gpu.value() * static_cast<double>(s.gpus) >= s.total.value() * (1.0 - 1e-9),
                number_text(s.per_gpu.value()) + " B x " + number_text(static_cast<double>(s.gpus)) +
                    " < " + number_text(s.total.value()) + " B");
    i.invariant("weights_per_gpu <= per_gpu, weights <= total",
                s.weights_per_gpu <= s.per_gpu && s.weights <= s.total);
}

inline void inspect(inspector& i, const gpucalc::checkpoint_io& io) {
    i.amount("stall", io.stall);
    i.amount("write", io.write);
    i.amount("drain", io.drain);
    i.amount("restore", io.restore);
    i.amount("written", io.written);
    i.amount("read", io.read);
    i.flag("shared_binds_write", io.shared_binds_write);
    i.flag("shared_binds_restore", io.shared_binds_restore);
    i.flag("durable", io.durable);
    i.flag("resumable", io.resumable);
    i.invariant("drain <= write", io.drain <= io.write,
                number_text(io.drain.value()) + " s > " + number_text(io.write.value()) + " s");
    i.invariant("stall <= write", io.stall <= io.write,
                number_text(io.stall.value()) + " s > " + number_text(io.write.value()) + " s");
    i.invariant("write > 0", io.write.value() > 0.0);
    i.invariant("restore > 0", io.restore.value() > 0.0);
}

/// checkpoint_io_time's answer with the setup it was asked about.
struct io_answer {
    gpucalc::checkpoint_io io;
    gpucalc::checkpoint_io_setup setup;
};
inline void inspect(inspector& i, const io_answer& a) {
    inspect(i, a.io);
    i.invariant("resumable = !setup.weights_only", a.io.resumable == !a.setup.weights_only);
    i.invariant("durable = storage.durable or drains",
                a.io.durable == (a.setup.storage.durable || a.setup.drains));
    const double fast = (a.io.write - a.io.drain).value();
    // write = fast + drain is rounded once, so write - drain is the fast write to within an
    // ulp of write: a drain of 1e40 s absorbs a fast write of 0.08 s whole.
    const double rounding = 0x1.0p-52 * a.io.write.value();
    if (a.setup.mode == gpucalc::checkpoint_mode::synchronous) {
        i.invariant("synchronous: stall = write - drain",
                    std::abs(a.io.stall.value() - fast) <= 1e-9 * fast + rounding);
    } else {
        // async_save stages, then writes: the storage part follows the stall (strictly after
        // it, but a storage time far below the stall may round away).
        i.invariant("asynchronous: stall <= write - drain", a.io.stall.value() <= fast + rounding,
                    number_text(a.io.stall.value()) + " s > " + number_text(fast) + " s");
    }
}

/// checkpointed_run_cost's answer with the checkpoint times and work it was asked about.
struct checkpointed_answer {
    gpucalc::checkpointed_estimate estimate;
    gpucalc::checkpoint_io io;
    gpucalc::duration work;
};
inline void inspect(inspector& i, const checkpointed_answer& a) {
    const gpucalc::checkpointed_estimate& e = a.estimate;
    i.flag("restorable", e.restorable);
    i.enumeration("refusal", e.refusal, 3);
    i.amount("mean_time_between_interruptions", e.mean_time_between_interruptions);
    i.amount("in_flight_loss", e.in_flight_loss);
    i.amount("restart_time", e.restart_time);
    i.flag("interval_raised", e.interval_raised);
    i.amount("cost", e.cost);
    i.invariant("restorable = io.durable and io.resumable",
                e.restorable == (a.io.durable && a.io.resumable));
    i.invariant("refusal names why not (not_resumable first)",
                e.refusal == (!a.io.resumable  ? gpucalc::restore_refusal::not_resumable
                              : !a.io.durable ? gpucalc::restore_refusal::not_durable
                                              : gpucalc::restore_refusal::none));
    if (!e.restorable) return;  // the explicit no: nothing but M is filled
    i.nested("run", [&] { inspect(i, spot_answer{e.run, a.work}); });
    const gpucalc::duration period = e.run.interval + a.io.stall;
    i.invariant("interval + stall >= write", period.value() >= a.io.write.value() * (1.0 - 1e-12),
                number_text(period.value()) + " s < " + number_text(a.io.write.value()) + " s");
    i.invariant("in_flight_loss = write - stall", e.in_flight_loss == a.io.write - a.io.stall);
    i.invariant("cost = run.spot_cost", e.cost == e.run.spot_cost);
}

void register_operations_checkpoint(registry& r) {
    using namespace gpucalc;

    const auto size_args = [](generator& g) {
        const transformer m = draw::model(g);
        const training_strategy s = draw::strategy(g, m);
        return std::tuple{m, draw::job(g, s), s.parallel};
    };
    add(r, "training_checkpoint_size", "training_checkpoint_size",
        "gpucalc::training_checkpoint_size({0}, {1}, {2})", size_args,
        [](const transformer& m, const training_job& j, const parallel_layout& p) {
            return training_checkpoint_size(m, j, p);
        });
    add(r, "training_checkpoint_size [checked_model]", "training_checkpoint_size",
        "gpucalc::training_checkpoint_size(gpucalc::check({0}), {1}, {2})", size_args,
        [](const transformer& m, const training_job& j, const parallel_layout& p) {
            return training_checkpoint_size(checked(m), j, p);
        });
    add_enum_to_string<checkpoint_mode>(r, "to_string(checkpoint_mode)", 2);
    add_enum_to_string<restore_refusal>(r, "to_string(restore_refusal)", 3);
    add(r, "checkpoint_io_time", "checkpoint_io_time", "gpucalc::checkpoint_io_time({0}, {1})",
        [](generator& g) { return std::tuple{draw::checkpoint(g), draw::io_setup(g)}; },
        [](const checkpoint_size& s, const checkpoint_io_setup& setup) {
            return io_answer{checkpoint_io_time(s, setup), setup};
        });
    add(r, "mean_time_between_interruptions", "mean_time_between_interruptions",
        "gpucalc::mean_time_between_interruptions({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.real_or_zero(2e-5), g.count(256), g.real_or_zero(0.25)};
        },
        [](double failures, std::int64_t gpus, double preemptions) {
            return mean_time_between_interruptions(failures, gpus, preemptions);
        });
    add(r, "checkpointed_run_cost", "checkpointed_run_cost",
        "gpucalc::checkpointed_run_cost({0}, {1})",
        [](generator& g) { return std::tuple{draw::io(g), draw::run(g)}; },
        [](const checkpoint_io& io, const checkpointed_run& run) {
            return checkpointed_answer{checkpointed_run_cost(io, run), io, run.work};
        });
}

}  // namespace fuzz
