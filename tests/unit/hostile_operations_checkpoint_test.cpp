// hostile_operations_checkpoint_test.cpp: bad input to the checkpoint functions is invalid_input
// naming the function, the field, the value and the rule (issue 18 §4: a bandwidth of zero, a
// failure rate below zero, an interval shorter than the write time), and input at the edges gets
// a finite answer.
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/operations.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
checkpoint_size seventy_b() {
    return training_checkpoint_size(cat::llama_2_70b, training_job{}, parallel_layout{});
}
checkpoint_io_setup one_gb_per_s() {
    checkpoint_io_setup s{};
    s.storage.per_node = {1.0_GB_per_s, 1.0_GB_per_s};
    return s;
}
checkpointed_run ten_hours() {
    checkpointed_run r{};
    r.work = 10.0_h;
    r.gpus = 8.0_gpu;
    r.on_demand = 2.0_usd_per_gpu_hour;
    return r;
}
}  // namespace

TEST_CASE("a bandwidth of zero or below") {
    auto s = one_gb_per_s();
    s.storage.per_node.write = 0.0_GB_per_s;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(seventy_b(), s),
                         "checkpoint_io_time: setup.storage.per_node.write = 0 B/s must be finite and > 0",
                         invalid_input);
    s = one_gb_per_s();
    s.storage.per_node.read = make<gigabytes_per_second>(-1.0);
    CHECK_THROWS_AS(checkpoint_io_time(seventy_b(), s), invalid_input);
    s = one_gb_per_s();
    s.storage.shared = true;  // a shared system left at zero
    CHECK_THROWS_WITH_AS(checkpoint_io_time(seventy_b(), s),
                         "checkpoint_io_time: setup.storage.aggregate.write = 0 B/s must be finite and > 0",
                         invalid_input);
    s = one_gb_per_s();
    s.host_link = make<gigabytes_per_second>(std::numeric_limits<double>::quiet_NaN());
    CHECK_THROWS_AS(checkpoint_io_time(seventy_b(), s), invalid_input);
    // Not shared: the aggregate is not read.
    s = one_gb_per_s();
    s.storage.aggregate.write = make<gigabytes_per_second>(-5.0);
    CHECK_NOTHROW(checkpoint_io_time(seventy_b(), s));
}

TEST_CASE("counts, the mode and a hand-made size") {
    auto s = one_gb_per_s();
    s.gpus_per_node = 0;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(seventy_b(), s),
                         "checkpoint_io_time: setup.gpus_per_node = 0 must be >= 1", invalid_input);
    s = one_gb_per_s();
    s.mode = static_cast<checkpoint_mode>(7);
    CHECK_THROWS_WITH_AS(checkpoint_io_time(seventy_b(), s),
                         "checkpoint_io_time: setup.mode = 7 must be a gpucalc::checkpoint_mode value",
                         invalid_input);
    auto size = seventy_b();
    size.gpus = 0;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(size, one_gb_per_s()),
                         "checkpoint_io_time: size.gpus = 0 must be >= 1", invalid_input);
    size = seventy_b();
    size.total = data_size{};
    CHECK_THROWS_WITH_AS(checkpoint_io_time(size, one_gb_per_s()),
                         "checkpoint_io_time: size.total = 0 B must be finite and > 0", invalid_input);
}

TEST_CASE("a failure rate below zero, or no interruptions at all") {
    CHECK_THROWS_WITH_AS(mean_time_between_interruptions(-1e-5, 256),
                         "mean_time_between_interruptions: failures_per_gpu_hour = -1e-05 must be 0 "
                         "or in [1e-30, 1e9]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(mean_time_between_interruptions(1e-5, 256, -0.1),
                         "mean_time_between_interruptions: preemptions_per_hour = -0.1 must be 0 or "
                         "in [1e-30, 1e9]",
                         invalid_input);
    CHECK_THROWS_WITH_AS(mean_time_between_interruptions(0.0, 256, 0.0),
                         "mean_time_between_interruptions: failures_per_gpu_hour x gpus + "
                         "preemptions_per_hour = 0 must be in [1e-9, 1e9] per hour",
                         invalid_input);
    CHECK_THROWS_AS(mean_time_between_interruptions(std::nan(""), 8), invalid_input);
    CHECK_THROWS_AS(mean_time_between_interruptions(1e9, std::int64_t{1} << 40), invalid_input);
    CHECK_THROWS_WITH_AS(mean_time_between_interruptions(1e-5, 0),
                         "mean_time_between_interruptions: gpus = 0 must be >= 1", invalid_input);
    auto r = ten_hours();
    r.failures_per_gpu_hour = -1e-5;
    const auto io = checkpoint_io_time(seventy_b(), one_gb_per_s());
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.failures_per_gpu_hour = -1e-05 must be 0 or in "
                         "[1e-30, 1e9]",
                         invalid_input);
}

TEST_CASE("an interval whose period does not cover the write time") {
    // Issue 18 §4's rule, as interval + stall >= write: it bites when the stall is shorter than
    // the write (asynchronous saving, a drain), never for a synchronous write to durable storage.
    auto setup = one_gb_per_s();
    setup.mode = checkpoint_mode::asynchronous;
    // 965.67 GB at 1 GB/s after a 19.3 s stall: write − stall = 965.67 s, 16.09 min.
    const auto io = checkpoint_io_time(seventy_b(), setup);
    auto r = ten_hours();
    r.interval = 1.0_s;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.interval = 1 s must be at least the "
                         "checkpoint's write time less its stall, io.write - io.stall = "
                         "16.0945512448 min (interval + stall must cover the write: the next "
                         "checkpoint cannot start before the previous one is written)",
                         invalid_input);
    r.interval = io.write - io.stall;  // exactly covers the write: allowed
    CHECK_NOTHROW(checkpointed_run_cost(io, r));
    // Synchronous: the stall is the write, so 1 s is allowed.
    const auto sync = checkpoint_io_time(seventy_b(), one_gb_per_s());
    r.interval = 1.0_s;
    CHECK_NOTHROW(checkpointed_run_cost(sync, r));
}

TEST_CASE("a drain to storage that is not durable") {
    auto s = one_gb_per_s();
    s.storage.durable = false;
    s.drains = true;
    s.drain_to.per_node = {1.0_GB_per_s, 1.0_GB_per_s};
    s.drain_to.durable = false;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(seventy_b(), s),
                         "checkpoint_io_time: setup.drain_to.durable = 0 must be true (draining to "
                         "storage a failure also loses does not make the checkpoint durable)",
                         invalid_input);
    s.drain_to.durable = true;
    s.drain_to.per_node.read = 0.0_GB_per_s;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(seventy_b(), s),
                         "checkpoint_io_time: setup.drain_to.per_node.read = 0 B/s must be finite "
                         "and > 0",
                         invalid_input);
    // Durable storage: the drain target is not read.
    s.storage.durable = true;
    CHECK_NOTHROW(checkpoint_io_time(seventy_b(), s));
}

TEST_CASE("a hand-made size that contradicts itself") {
    auto size = seventy_b();
    size.weights = size.total * 2.0;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(size, one_gb_per_s()),
                         "checkpoint_io_time: size.weights = 1.75654909014702 TiB must not exceed "
                         "size.total = 899.353134155274 GiB",
                         invalid_input);
    size = seventy_b();
    size.weights_per_gpu = size.per_gpu * 1.5;
    CHECK_THROWS_AS(checkpoint_io_time(size, one_gb_per_s()), invalid_input);
    size = seventy_b();
    size.per_gpu = size.total * 1.01;
    size.weights_per_gpu = size.weights;
    CHECK_THROWS_AS(checkpoint_io_time(size, one_gb_per_s()), invalid_input);
    // 8 GPUs each holding a tenth of the total cannot hold it all.
    size = seventy_b();
    size.gpus = 8;
    size.per_gpu = size.total * 0.1;
    size.weights_per_gpu = size.per_gpu * 0.1;
    CHECK_THROWS_WITH_AS(checkpoint_io_time(size, one_gb_per_s()),
                         "checkpoint_io_time: size.total = 899.353134155274 GiB must not exceed "
                         "size.per_gpu x size.gpus (the busiest GPU holds at least the average) = "
                         "719.482507324219 GiB",
                         invalid_input);
}

TEST_CASE("the chain's other fields") {
    const auto io = checkpoint_io_time(seventy_b(), one_gb_per_s());
    auto r = ten_hours();
    r.gpus = 2.5_gpu;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.gpus = 2.5 must be a whole count in [1, 2^40]",
                         invalid_input);
    r = ten_hours();
    r.spot = true;
    r.discount = 1.0;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.discount = 1 must be in [0, 1)", invalid_input);
    r = ten_hours();
    r.restart_overhead = -1.0_s;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.restart_overhead = -1 s must be finite and >= 0",
                         invalid_input);
    r = ten_hours();
    r.work = 0.0_h;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.work = 0 s must be finite and > 0",
                         invalid_input);
    // On demand, reclaims are not counted but are checked, and the total names only what counts.
    r = ten_hours();
    r.preemptions_per_hour = std::nan("");
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.preemptions_per_hour = nan must be 0 or in "
                         "[1e-30, 1e9]",
                         invalid_input);
    r.preemptions_per_hour = -0.25;
    CHECK_THROWS_AS(checkpointed_run_cost(io, r), invalid_input);
    r.preemptions_per_hour = 0.25;
    r.failures_per_gpu_hour = 0.0;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.failures_per_gpu_hour x run.gpus = 0 must be "
                         "in [1e-9, 1e9] per hour",
                         invalid_input);
    r.spot = true;  // on spot the reclaims count
    CHECK_NOTHROW(checkpointed_run_cost(io, r));
    auto bad = io;
    bad.stall = io.write * 2.0;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(bad, ten_hours()),
                         "checkpointed_run_cost: io.stall = 32.1891024896 min must not exceed "
                         "io.write = 16.0945512448 min",
                         invalid_input);
    bad = io;
    bad.stall = duration{};
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(bad, ten_hours()),
                         "checkpointed_run_cost: io.stall = 0 s must be finite and > 0", invalid_input);
    // Failures so frequent that the job would never finish: Daly's interval for a 16.09 min
    // stall and M = 450 ms is tiny, the period already covers the write, and 16.09 min of stall
    // plus 26.09 min of restart is over 500 × 450 ms.
    r = ten_hours();
    r.failures_per_gpu_hour = 1e3;
    CHECK_THROWS_WITH_AS(checkpointed_run_cost(io, r),
                         "checkpointed_run_cost: run.interval (or Daly's) + io.stall + R = "
                         "42.1966024896 min must be under 500 x the mean time between "
                         "interruptions, 450 ms (R = io.restore + run.restart_overhead + io.write "
                         "- io.stall; the job would practically never finish)",
                         invalid_input);
}

TEST_CASE("the size's own rules keep their names") {
    training_job lora{};
    lora.lora.enabled = true;
    CHECK_THROWS_WITH_AS(training_checkpoint_size(cat::llama_2_70b, lora, parallel_layout{}),
                         "training_checkpoint_size: lora.enabled = 1 must be false (a LoRA "
                         "checkpoint, the adapter alone, is not modelled)",
                         invalid_input);
    parallel_layout l{};
    l.tensor = 3;
    CHECK_THROWS_WITH_AS(training_checkpoint_size(cat::llama_2_70b, training_job{}, l),
                         "training_checkpoint_size: layout.tensor = 3 must divide attention heads = 64",
                         invalid_input);
    l = parallel_layout{};
    l.zero_stage = 4;
    CHECK_THROWS_AS(training_checkpoint_size(cat::llama_2_70b, training_job{}, l), invalid_input);
    training_job j{};
    j.optimizer = static_cast<optimizer>(9);
    CHECK_THROWS_WITH_AS(training_checkpoint_size(cat::llama_2_70b, j, parallel_layout{}),
                         "training_checkpoint_size: optimizer = 9 must be a gpucalc::optimizer value",
                         invalid_input);
}

TEST_CASE("edges: finite answers") {
    // The largest layout of counts and the smallest bandwidths still give finite times.
    checkpoint_size s{};
    s.total = make<bytes>(1e30);
    s.per_gpu = make<bytes>(1e30);
    s.weights = make<bytes>(1e30);
    s.weights_per_gpu = make<bytes>(1e30);
    s.gpus = std::int64_t{1} << 40;
    // (1e30 B on 2^40 GPUs: the even share is 9.1e17 B.)
    checkpoint_io_setup setup{};
    setup.storage.per_node = {make<bytes_per_second>(1e-30), make<bytes_per_second>(1e-30)};
    setup.storage.shared = true;
    setup.storage.aggregate = {make<bytes_per_second>(1e-30), make<bytes_per_second>(1e-30)};
    setup.host_link = make<bytes_per_second>(1e-30);
    setup.gpus_per_node = 1;
    const auto io = checkpoint_io_time(s, setup);
    CHECK(std::isfinite(io.write.value()));
    CHECK(std::isfinite(io.restore.value()));
    CHECK(std::isfinite(io.read.value()));
    // A tiny stall and a huge mean time between interruptions.
    checkpoint_io tiny{};
    tiny.stall = make<seconds>(1e-30);
    tiny.write = make<seconds>(1e-30);
    auto r = ten_hours();
    r.gpus = 1.0_gpu;
    r.preemptions_per_hour = 0.0;
    r.failures_per_gpu_hour = 1e-9;
    const auto e = checkpointed_run_cost(tiny, r);
    CHECK(std::isfinite(e.run.wall_time.value()));
    CHECK(std::isfinite(e.cost.value()));
}

TEST_CASE("the two functions' ranges chain: the smallest checkpoint at the fastest path") {
    // 1 B on one GPU at 1 PB/s takes 1e-15 s; the even share of 1 B over 2^40 GPUs at 1 PB/s,
    // 9.1e-28 s: both inside checkpointed_run_cost's [1e-30 s, ...].
    checkpoint_size s{};
    s.total = make<bytes>(1.0);
    s.per_gpu = make<bytes>(1.0);
    s.weights = make<bytes>(1.0);
    s.weights_per_gpu = make<bytes>(1.0);
    s.gpus = 1;
    checkpoint_io_setup setup{};
    setup.storage.per_node = {make<bytes_per_second>(1e15), make<bytes_per_second>(1e15)};
    setup.host_link = make<bytes_per_second>(1e15);
    const auto io = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(io.stall) == doctest::Approx(1e-15));
    auto r = ten_hours();
    r.gpus = 1.0_gpu;
    r.preemptions_per_hour = 0.0;
    r.failures_per_gpu_hour = 1e-9;
    CHECK(std::isfinite(checkpointed_run_cost(io, r).cost.value()));
    s.gpus = std::int64_t{1} << 40;
    setup.mode = checkpoint_mode::asynchronous;
    setup.deduplicated_staging = true;
    CHECK(in<seconds>(checkpoint_io_time(s, setup).stall) >= 1e-30);
    // Below 1 B, or above 1 PB/s: invalid_input.
    s.gpus = 1;
    s.weights_per_gpu = make<bytes>(0.5);
    CHECK_THROWS_WITH_AS(checkpoint_io_time(s, setup),
                         "checkpoint_io_time: size.weights_per_gpu = 0.5 B must be at least 1 B",
                         invalid_input);
    s.weights_per_gpu = make<bytes>(1.0);
    setup.host_link = make<bytes_per_second>(2e15);
    CHECK_THROWS_WITH_AS(checkpoint_io_time(s, setup),
                         "checkpoint_io_time: setup.host_link = 2e+15 B/s must be at most 1e15 B/s "
                         "(1 PB/s)",
                         invalid_input);
    setup.host_link = make<bytes_per_second>(1e15);
    setup.storage.shared = true;
    setup.storage.aggregate = {make<bytes_per_second>(1e16), make<bytes_per_second>(1e15)};
    CHECK_THROWS_WITH_AS(checkpoint_io_time(s, setup),
                         "checkpoint_io_time: setup.storage.aggregate.write = 1e+16 B/s must be at "
                         "most 1e15 B/s (1 PB/s)",
                         invalid_input);
}
