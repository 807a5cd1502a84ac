// operations_checkpoint_test.cpp: checkpoint size against ZeRO's byte counts (Rajbhandari et al.
// 2020, §3.1) and the memory model, write and restore times worked by hand, the job-level mean
// time between interruptions from the Llama 3 report's counts (Dubey et al. 2024, §3.3.4, Table 5),
// and the chain to Daly's interval (Daly 2006, Eq. 37) and spot_cost (Eq. 20).
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/operations.hpp>

#include <doctest/doctest.h>

#include <cmath>

using namespace gpucalc;
using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

namespace {
// Llama-2-70B's exact count (model_test pins it to the published checkpoint).
constexpr double llama_2_70b_parameters = 68976648192.0;

parallel_layout tp8_pp4_dp8_zero1() {
    parallel_layout l{};
    l.tensor = 8;
    l.pipeline = 4;
    l.data = 8;
    l.zero_stage = 1;
    return l;
}

// Eight PCIe 4.0 drives a node: 28 GB/s write, 52 GB/s read; instance storage, not durable.
checkpoint_storage nvme() {
    checkpoint_storage s{};
    s.per_node = {8.0 * storage_rates::nvme_pcie_gen4.write, 8.0 * storage_rates::nvme_pcie_gen4.read};
    s.durable = false;
    return s;
}

// FSx for Lustre, 100 TiB at 125 MB/s per TiB (12.5 GB/s for all), over a 100 Gb/s NIC a node.
checkpoint_storage lustre() {
    checkpoint_storage s{};
    s.per_node = {catalog::load_paths::nic_100g.read, catalog::load_paths::nic_100g.read};
    s.shared = true;
    s.aggregate = {100.0 * storage_rates::fsx_lustre_per_tib_125.write,
                   100.0 * storage_rates::fsx_lustre_per_tib_125.read};
    return s;
}

checkpoint_io_setup nvme_setup() {
    checkpoint_io_setup s{};
    s.storage = nvme();
    return s;
}

checkpoint_io_setup lustre_setup() {
    checkpoint_io_setup s{};
    s.storage = lustre();
    return s;
}

// The 70B layout's busiest GPU (TP 8, PP 4, DP 8, ZeRO-1): 2,172,198,912 parameters at 2 bytes
// of weights and 12/8 of optimizer state, 3.5 bytes each: 7.6027 GB.
constexpr double busiest_stage = 2172198912.0;
constexpr double per_gpu_bytes = 3.5 * busiest_stage;
}  // namespace

TEST_CASE("mixed-precision Adam: 14 of ZeRO's 16 bytes per parameter are checkpointed") {
    // ZeRO §3.1: 2 (fp16 weights) + 2 (fp16 gradients) + 12 (fp32 master, momentum, variance).
    // The checkpoint keeps all but the gradients: 2 + 12 = 14 bytes per parameter.
    const training_job job{};
    const auto s = training_checkpoint_size(cat::llama_2_70b, job, parallel_layout{});
    CHECK(in<bytes>(s.weights) == doctest::Approx(2.0 * llama_2_70b_parameters));
    CHECK(in<bytes>(s.optimizer_states) == doctest::Approx(12.0 * llama_2_70b_parameters));
    CHECK(in<bytes>(s.total) == doctest::Approx(14.0 * llama_2_70b_parameters));
    // 965.7 GB: 14 × 68,976,648,192.
    CHECK(in<gigabytes>(s.total) == doctest::Approx(965.673074688));
    // One GPU holds everything.
    CHECK(in<bytes>(s.per_gpu) == doctest::Approx(in<bytes>(s.total)));
    CHECK(s.gpus == 1);
}

TEST_CASE("the total does not depend on the layout; the per-GPU share does") {
    const training_job job{};
    parallel_layout replicas{};
    replicas.data = 4;  // four full copies: one is written
    const auto r = training_checkpoint_size(cat::llama_2_70b, job, replicas);
    CHECK(in<bytes>(r.total) == doctest::Approx(14.0 * llama_2_70b_parameters));
    CHECK(in<bytes>(r.per_gpu) == doctest::Approx(14.0 * llama_2_70b_parameters));
    parallel_layout zero3 = replicas;
    zero3.zero_stage = 3;  // every rank holds and writes a quarter
    const auto z = training_checkpoint_size(cat::llama_2_70b, job, zero3);
    CHECK(in<bytes>(z.total) == doctest::Approx(14.0 * llama_2_70b_parameters));
    CHECK(in<bytes>(z.per_gpu) == doctest::Approx(14.0 * llama_2_70b_parameters / 4.0));
    CHECK(z.gpus == 4);
    parallel_layout zero1 = replicas;
    zero1.zero_stage = 1;  // optimizer sharded, weights replicated: 2 + 12/4 = 5 bytes/parameter
    const auto o = training_checkpoint_size(cat::llama_2_70b, job, zero1);
    CHECK(in<bytes>(o.per_gpu) == doctest::Approx(5.0 * llama_2_70b_parameters));
    // The same shares as the memory model's model states, gradients left out.
    const model_states m = model_states_per_gpu(llama_2_70b_parameters, job, zero1);
    CHECK(in<bytes>(o.weights_per_gpu) == doctest::Approx(in<bytes>(m.weights)));
    CHECK(in<bytes>(o.optimizer_states_per_gpu) == doctest::Approx(in<bytes>(m.optimizer_states)));
}

TEST_CASE("TP 8, PP 4, DP 8, ZeRO-1: the per-GPU share by hand and as the memory model counts it") {
    // A stage of 20 layers; per layer after TP 8: (2·8192·8192 + 2·8192·1024 + 3·8192·28672)/8
    // = 106,954,752, plus two unsplit RMSNorms (16,384). The last stage (head 32000·8192/8 and the
    // final norm, 32,776,192) outweighs the first (embedding 32,768,000): 2,172,198,912 parameters.
    const double stage = 20.0 * (106954752.0 + 16384.0) + 32776192.0;
    CHECK(stage == 2172198912.0);
    const training_job job{};
    const auto s = training_checkpoint_size(cat::llama_2_70b, job, tp8_pp4_dp8_zero1());
    CHECK(in<bytes>(s.weights_per_gpu) == doctest::Approx(2.0 * stage));
    CHECK(in<bytes>(s.optimizer_states_per_gpu) == doctest::Approx(12.0 * stage / 8.0));
    CHECK(s.gpus == 256);
    training_strategy st{};
    st.parallel = tp8_pp4_dp8_zero1();
    const training_memory mem = training_memory_per_gpu(cat::llama_2_70b, job, st);
    CHECK(in<bytes>(s.weights_per_gpu) == doctest::Approx(in<bytes>(mem.weights)));
    CHECK(in<bytes>(s.optimizer_states_per_gpu) == doctest::Approx(in<bytes>(mem.optimizer_states)));
}

TEST_CASE("optimizer and format choices change what is written") {
    training_job job{};
    job.optimizer = optimizer::sgd_momentum;  // 4 bytes of momentum
    job.fp32_master_weights = false;
    const auto s = training_checkpoint_size(check(cat::llama_2_70b), job, parallel_layout{});
    CHECK(in<bytes>(s.total) == doctest::Approx(6.0 * llama_2_70b_parameters));
    job.parameters = formats::fp32;
    job.optimizer = optimizer::adamw;
    job.fp32_master_weights = false;  // fp32 training: no separate master copy, 4 + 8 bytes
    const auto f = training_checkpoint_size(cat::llama_2_70b, job, parallel_layout{});
    CHECK(in<bytes>(f.total) == doctest::Approx(12.0 * llama_2_70b_parameters));
}

TEST_CASE("write and restore to local NVMe, by hand: each node writes what its GPUs hold") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    CHECK(in<bytes>(s.per_gpu) == doctest::Approx(per_gpu_bytes));
    auto setup = nvme_setup();
    const auto io = checkpoint_io_time(s, setup);
    // Each node's 8 GPUs hold 8 × 7.6027 GB = 60.82 GB: at 28 GB/s, 2.172 s.
    CHECK(in<seconds>(io.write) == doctest::Approx(8.0 * per_gpu_bytes / 28e9));
    CHECK(in<seconds>(io.write) == doctest::Approx(2.1722).epsilon(1e-4));
    CHECK(in<seconds>(io.stall) == doctest::Approx(in<seconds>(io.write)));
    // Instance storage with no durable tier: an explicit no.
    CHECK_FALSE(io.durable);
    CHECK(in<seconds>(io.drain) == doctest::Approx(0.0));
    // The local copy read back, were it still there: 60.82 GB at 8 × 6.5 GB/s = 1.170 s.
    CHECK(in<seconds>(io.restore) == doctest::Approx(8.0 * per_gpu_bytes / 52e9));
    CHECK_FALSE(io.shared_binds_write);
    // Asynchronous: DCP's async_save stages the whole local state dict, 7.6027 GB ÷ 50 GB/s =
    // 152.05 ms, and only then does the background write start: on the drives after 0.152 +
    // 2.172 = 2.324 s.
    setup.mode = checkpoint_mode::asynchronous;
    const auto a = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(a.stall) == doctest::Approx(per_gpu_bytes / 50e9));
    CHECK(in<seconds>(a.stall) == doctest::Approx(0.15205).epsilon(1e-4));
    CHECK(in<seconds>(a.write) == doctest::Approx(per_gpu_bytes / 50e9 + 8.0 * per_gpu_bytes / 28e9));
    CHECK(in<seconds>(a.write) == doctest::Approx(2.3243).epsilon(1e-4));
    // A framework that de-duplicates before staging copies an even share, 965.67 GB ÷ 256 =
    // 3.772 GB: 75.4 ms to host memory. The drives can only receive what was staged: 8 × 3.772
    // GB ÷ 28 GB/s = 1.078 s, 1.153 s in all.
    const double share = 14.0 * llama_2_70b_parameters / 256.0;
    setup.deduplicated_staging = true;
    const auto d = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(d.stall) == doctest::Approx(share / 50e9));
    CHECK(in<seconds>(d.write) == doctest::Approx(share / 50e9 + 8.0 * share / 28e9));
    CHECK(in<seconds>(d.write) == doctest::Approx(1.1532).epsilon(1e-4));
    // Durable storage at the same rates, synchronous, takes one copy: each GPU copies and writes
    // only its even share (dcp.save copies the items it writes), 8 × 3.772 GB ÷ 28 GB/s = 1.078 s
    // a node, the 75.4 ms host copy streaming alongside; deduplicated_staging is not read.
    setup.storage.durable = true;
    setup.mode = checkpoint_mode::synchronous;
    const auto durable = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(durable.write) == doctest::Approx(8.0 * share / 28e9));
    CHECK(in<seconds>(durable.write) == doctest::Approx(1.0777).epsilon(1e-4));
    CHECK(in<seconds>(durable.stall) == doctest::Approx(in<seconds>(durable.write)));
    setup.deduplicated_staging = false;
    CHECK(in<seconds>(checkpoint_io_time(s, setup).write) == doctest::Approx(8.0 * share / 28e9));
    // Weights only: 2 of the 14 bytes written, and each GPU reads back its 2 × 2.172e9 = 4.344 GB
    // of weights: 8 × 4.344 GB ÷ 52 GB/s = 0.6684 s per node, 256 × 4.344 GB in all.
    setup = nvme_setup();
    setup.weights_only = true;
    const auto w = checkpoint_io_time(s, setup);
    CHECK(in<bytes>(w.written) == doctest::Approx(2.0 * llama_2_70b_parameters));
    CHECK(in<bytes>(w.read) == doctest::Approx(256.0 * 2.0 * busiest_stage));
    CHECK(in<seconds>(w.restore) == doctest::Approx(8.0 * 2.0 * busiest_stage / 52e9));
    CHECK(in<seconds>(w.restore) == doctest::Approx(0.66838).epsilon(1e-4));
    CHECK(in<seconds>(w.write) == doctest::Approx(8.0 * 2.0 * busiest_stage / 28e9));
}

TEST_CASE("local NVMe drained to a shared file system: durable after the drain, restored from it") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    auto setup = nvme_setup();
    setup.drains = true;
    setup.drain_to = lustre();
    const auto io = checkpoint_io_time(s, setup);
    CHECK(io.durable);
    // The fast write stalls training: 2.172 s, as above.
    CHECK(in<seconds>(io.stall) == doctest::Approx(8.0 * per_gpu_bytes / 28e9));
    // The drain, one copy: each node's 8 × 3.772 GB = 30.18 GB read from the drives at 52 GB/s
    // (0.58 s) and sent over the 12.5 GB/s NIC (2.41 s), but 965.67 GB through Lustre's
    // 12.5 GB/s: 77.25 s.
    CHECK(in<seconds>(io.drain) == doctest::Approx(14.0 * llama_2_70b_parameters / 12.5e9));
    CHECK(io.shared_binds_write);
    // Durable after 2.172 + 77.254 = 79.43 s.
    CHECK(in<seconds>(io.write) == doctest::Approx(79.426).epsilon(1e-4));
    // Restored from Lustre: 256 × 7.6027 GB ÷ 12.5 GB/s = 155.70 s.
    CHECK(io.shared_binds_restore);
    CHECK(in<seconds>(io.restore) == doctest::Approx(256.0 * per_gpu_bytes / 12.5e9));
}

TEST_CASE("a partly filled node: the full one writes its 8 GPUs' parts") {
    // Worked by hand: 900 GB on 9 GPUs, 8 a node, 10 GB/s a node, a fast host link. The
    // full node holds 8 of the 9 GPUs' parts.
    checkpoint_size s{};
    s.total = make<gigabytes>(900.0);
    s.weights = make<gigabytes>(100.0);
    s.per_gpu = make<gigabytes>(100.0);
    s.weights_per_gpu = make<gigabytes>(11.0);
    s.gpus = 9;
    checkpoint_io_setup setup{};
    setup.storage.per_node = {make<gigabytes_per_second>(10.0), make<gigabytes_per_second>(10.0)};
    setup.host_link = make<gigabytes_per_second>(1000.0);
    // Durable: 8 × 900/9 GB = 800 GB ÷ 10 GB/s = 80 s (not 900 GB ÷ 2 nodes = 45 s).
    CHECK(in<seconds>(checkpoint_io_time(s, setup).write) == doctest::Approx(80.0));
    // On 16 GPUs, two full nodes: 8 × 900/16 = 450 GB, 45 s.
    s.gpus = 16;
    CHECK(in<seconds>(checkpoint_io_time(s, setup).write) == doctest::Approx(45.0));
    // Local drives keep what each GPU holds. On 9 GPUs, the full node holds 8 × 100 GB = 800 GB,
    // 80 s; the ninth GPU's node holds 100 GB and finishes in 10 s.
    s.gpus = 9;
    setup.storage.durable = false;
    CHECK(in<seconds>(checkpoint_io_time(s, setup).write) == doctest::Approx(80.0));
    // On 16 GPUs, two full nodes: also 80 s.
    s.gpus = 16;
    CHECK(in<seconds>(checkpoint_io_time(s, setup).write) == doctest::Approx(80.0));
    // Scratch that is shared but not durable, 5 GB/s for all, carries every GPU's whole part (not
    // one copy): 9 × 100 GB = 900 GB ÷ 5 GB/s = 180 s, over the full node's 80 s.
    s.gpus = 9;
    setup.storage.shared = true;
    setup.storage.aggregate = {make<gigabytes_per_second>(5.0), make<gigabytes_per_second>(5.0)};
    const auto scratch = checkpoint_io_time(s, setup);
    CHECK(scratch.shared_binds_write);
    CHECK(in<seconds>(scratch.write) == doctest::Approx(180.0));
    setup.storage.shared = false;
    // One node of 3 GPUs: all three on it, 3 × 300 GB = 900 GB, 90 s.
    s.gpus = 3;
    s.per_gpu = make<gigabytes>(300.0);
    CHECK(in<seconds>(checkpoint_io_time(s, setup).write) == doctest::Approx(90.0));
}

TEST_CASE("an MoE layout: Mixtral-8x7B, EP 8, DP 8, ZeRO-1") {
    // By hand from Mixtral's shape (32 layers, d 4,096, 8 KV heads of 128, FFN 14,336, 8 experts,
    // vocabulary 32,000): experts 32 × 8 × 3 × 4,096 × 14,336 = 45,097,156,608 parameters; the
    // rest (attention 41,943,040 + router 32,768 + norms 8,192 a layer, embedding and head
    // 131,072,000 each, final norm 4,096) 1,605,636,096.
    const double experts = 32.0 * 8.0 * 3.0 * 4096.0 * 14336.0;
    const double dense = 32.0 * (41943040.0 + 32768.0 + 8192.0) + 2.0 * 131072000.0 + 4096.0;
    CHECK(experts == 45097156608.0);
    CHECK(dense == 1605636096.0);
    parallel_layout l{};
    l.expert = 8;
    l.data = 8;
    l.zero_stage = 1;
    const auto s = training_checkpoint_size(cat::mixtral_8x7b, training_job{}, l);
    CHECK(in<bytes>(s.total) == doctest::Approx(14.0 * (experts + dense)));
    // Each GPU: the dense weights whole and their optimizer state over DP 8; one expert per layer
    // (experts ÷ 8), its optimizer state over DP ÷ EP = 1 rank: 84.54 GB.
    const double held = 2.0 * dense + 12.0 * dense / 8.0 + 14.0 * experts / 8.0;
    CHECK(in<bytes>(s.per_gpu) == doctest::Approx(held));
    CHECK(in<gigabytes>(s.per_gpu) == doctest::Approx(84.540).epsilon(1e-4));
    // The replicated dense weights make 8 × held 3.4% more than one copy.
    CHECK(8.0 * held / in<bytes>(s.total) == doctest::Approx(1.0344).epsilon(1e-3));
    // Async stall 84.54 GB ÷ 50 GB/s = 1.691 s; then one node writes 8 × 84.54 GB at 28 GB/s =
    // 24.15 s: on the drives after 25.85 s.
    auto setup = nvme_setup();
    setup.mode = checkpoint_mode::asynchronous;
    const auto io = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(io.stall) == doctest::Approx(held / 50e9));
    CHECK(in<seconds>(io.write) == doctest::Approx(held / 50e9 + 8.0 * held / 28e9));
    CHECK(in<seconds>(io.write) == doctest::Approx(25.845).epsilon(1e-4));
}

TEST_CASE("a shared file system's aggregate limit binds") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    const auto io = checkpoint_io_time(s, lustre_setup());
    // 100 TiB × 125 MB/s/TiB = 12.5 GB/s for all: 965.67 GB ÷ 12.5 GB/s = 77.25 s; each node's
    // 100 Gb/s NIC would take its GPUs' even shares, 8 × 3.772 GB = 30.18 GB ÷ 12.5 GB/s = 2.41 s.
    CHECK(io.shared_binds_write);
    CHECK(in<seconds>(io.write) == doctest::Approx(14.0 * llama_2_70b_parameters / 12.5e9));
    // Every replica reads its own copy: 256 × 7.60 GB ÷ 12.5 GB/s = 155.7 s.
    CHECK(io.shared_binds_restore);
    CHECK(in<seconds>(io.restore) == doctest::Approx(256.0 * in<bytes>(s.per_gpu) / 12.5e9));
    CHECK(in<seconds>(io.restore) == doctest::Approx(155.70).epsilon(1e-3));
}

TEST_CASE("a slow host link binds even a fast drive") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, parallel_layout{});
    checkpoint_io_setup setup = nvme_setup();
    setup.host_link = 1.0_GB_per_s;
    const auto io = checkpoint_io_time(s, setup);
    // One GPU: 965.67 GB over its own 1 GB/s link.
    CHECK(in<seconds>(io.write) == doctest::Approx(965.673074688));
    CHECK(in<seconds>(io.restore) == doctest::Approx(965.673074688));
}

TEST_CASE("Llama 3's interruption rate and the job-level mean time between interruptions") {
    // 419 unexpected interruptions over 54 days on 16,384 GPUs.
    CHECK(llama3_interruptions_per_gpu_hour == doctest::Approx(1.97328e-5).epsilon(1e-5));
    // At 16,384 GPUs the job's mean is the report's: 54 × 24 ÷ 419 = 3.09 h.
    CHECK(in<hours>(mean_time_between_interruptions(llama3_interruptions_per_gpu_hour, 16384)) ==
          doctest::Approx(54.0 * 24.0 / 419.0));
    // 256 GPUs: 64 times longer, 197.96 h.
    const duration m = mean_time_between_interruptions(llama3_interruptions_per_gpu_hour, 256);
    CHECK(in<hours>(m) == doctest::Approx(197.96).epsilon(1e-4));
    // Reclaims add their rate: 1/197.96 + 0.25 per hour → 3.921 h.
    const duration both = mean_time_between_interruptions(llama3_interruptions_per_gpu_hour, 256, 0.25);
    CHECK(in<hours>(both) == doctest::Approx(1.0 / (1.0 / 197.96 + 0.25)).epsilon(1e-5));
    // Spot alone, no hardware failures counted.
    CHECK(in<hours>(mean_time_between_interruptions(0.0, 256, 0.5)) == doctest::Approx(2.0));
}

TEST_CASE("the chain: Daly's interval for the stall, then spot_cost") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    const auto io = checkpoint_io_time(s, lustre_setup());
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    const auto od = checkpointed_run_cost(io, run);
    const duration m = mean_time_between_interruptions(llama3_interruptions_per_gpu_hour, 256);
    CHECK(in<seconds>(od.mean_time_between_interruptions) == doctest::Approx(in<seconds>(m)));
    CHECK(in<seconds>(od.run.interval) == doctest::Approx(in<seconds>(daly_interval(io.write, m))));
    // Young's first-order form, √(2δM) = √(2 × 77.25 s × 712,660 s) = 2.9 h, is close.
    CHECK(in<hours>(od.run.interval) == doctest::Approx(2.9).epsilon(0.02));
    // Synchronous to durable storage: nothing in flight, R = restore + 10 min.
    CHECK(in<seconds>(od.in_flight_loss) == doctest::Approx(0.0));
    CHECK(in<seconds>(od.restart_time) == doctest::Approx(in<seconds>(io.restore) + 600.0));
    CHECK(od.restorable);
    // The same job through spot_cost by hand.
    spot_job job{};
    job.work = run.work;
    job.gpus = run.gpus;
    job.on_demand = run.on_demand;
    job.mean_time_between_preemptions = m;
    job.checkpoint_time = io.stall;
    job.restart_time = od.restart_time;
    const auto direct = spot_cost(job);
    CHECK(in<usd>(od.cost) == doctest::Approx(in<usd>(direct.spot_cost)));
    CHECK(in<usd>(od.cost) > in<usd>(direct.on_demand_cost));  // failures cost something
    // On demand, spot reclaims are not read.
    run.preemptions_per_hour = 5.0;
    CHECK(in<usd>(checkpointed_run_cost(io, run).cost) == doctest::Approx(in<usd>(od.cost)));
    // On spot they shorten M and the interval, and the discount lowers the bill.
    run.spot = true;
    run.preemptions_per_hour = 0.25;
    run.discount = 0.6;
    const auto sp = checkpointed_run_cost(io, run);
    CHECK(in<hours>(sp.mean_time_between_interruptions) == doctest::Approx(3.921).epsilon(1e-3));
    CHECK(sp.run.interval < od.run.interval);
    CHECK(sp.cost < od.cost);
}

TEST_CASE("asynchronous: the stall sets Daly's interval, the period covers the write, a write in flight is lost") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    auto setup = lustre_setup();
    setup.mode = checkpoint_mode::asynchronous;
    const auto io = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(io.stall) == doctest::Approx(per_gpu_bytes / 50e9));  // 152.05 ms
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    // On demand: Daly for a 152 ms stall and M = 712,645 s: √(2 × 0.15205 × 712,645) = 465.5 s,
    // 7.76 min, longer than the 77.25 s write.
    const auto od = checkpointed_run_cost(io, run);
    const duration m = mean_time_between_interruptions(llama3_interruptions_per_gpu_hour, 256);
    CHECK_FALSE(od.interval_raised);
    CHECK(in<seconds>(od.run.interval) == doctest::Approx(in<seconds>(daly_interval(io.stall, m))));
    CHECK(in<minutes>(od.run.interval) == doctest::Approx(7.757).epsilon(2e-3));
    // The write follows the staging: durable after 0.152 + 77.254 = 77.41 s. An interruption
    // during the 77.25 s it runs alongside training loses it too:
    // R = 155.70 s restore + 600 s + 77.254 s = 832.96 s.
    CHECK(in<seconds>(io.write) == doctest::Approx(per_gpu_bytes / 50e9 + 14.0 * llama_2_70b_parameters / 12.5e9));
    CHECK(in<seconds>(od.in_flight_loss) == doctest::Approx(in<seconds>(io.write - io.stall)));
    CHECK(in<seconds>(od.in_flight_loss) == doctest::Approx(77.254).epsilon(1e-4));
    CHECK(in<seconds>(od.restart_time) == doctest::Approx(832.96).epsilon(1e-4));
    // On spot (M = 3.92 h), Daly's 65 s + 0.15 s does not cover the write: the interval is raised
    // to write − stall, 77.25 s.
    run.spot = true;
    run.preemptions_per_hour = 0.25;
    const auto sp = checkpointed_run_cost(io, run);
    CHECK(sp.interval_raised);
    CHECK(in<seconds>(sp.run.interval) == doctest::Approx(in<seconds>(io.write - io.stall)));
    CHECK(in<seconds>(sp.run.interval + io.stall) == doctest::Approx(in<seconds>(io.write)));
    // A caller's interval whose period covers the write is kept.
    run.interval = 10.0_min;
    const auto given = checkpointed_run_cost(io, run);
    CHECK(in<minutes>(given.run.interval) == doctest::Approx(10.0));
    CHECK_FALSE(given.interval_raised);
}

TEST_CASE("synchronous: the stall is the write, so any interval's period covers it") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    const auto io = checkpoint_io_time(s, lustre_setup());  // 77.25 s, stall = write
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    run.interval = 60.0_s;  // shorter than the write, yet 60 + 77.25 s covers it
    const auto e = checkpointed_run_cost(io, run);
    CHECK(in<seconds>(e.run.interval) == doctest::Approx(60.0));
    CHECK_FALSE(e.interval_raised);
}

TEST_CASE("checkpoints nothing durable holds: no bill, on spot and on demand") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    const auto io = checkpoint_io_time(s, nvme_setup());
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    const auto od = checkpointed_run_cost(io, run);
    CHECK_FALSE(od.restorable);
    CHECK(od.refusal == restore_refusal::not_durable);
    CHECK(to_string(od.refusal) == "not_durable");
    CHECK(in<usd>(od.cost) == doctest::Approx(0.0));
    CHECK(in<hours>(od.mean_time_between_interruptions) == doctest::Approx(197.96).epsilon(1e-4));
    run.spot = true;
    run.preemptions_per_hour = 0.25;
    CHECK_FALSE(checkpointed_run_cost(io, run).restorable);
}

TEST_CASE("drained to Lustre, by hand: R synchronous and asynchronous") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    auto setup = nvme_setup();
    setup.drains = true;
    setup.drain_to = lustre();
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    const double drain = 14.0 * llama_2_70b_parameters / 12.5e9;  // 77.254 s through Lustre
    const double restore = 256.0 * per_gpu_bytes / 12.5e9;         // 155.70 s
    // Synchronous: stall 2.172 s (8 × 7.6027 GB ÷ 28 GB/s), durable after 2.172 + 77.254 s; the
    // drain runs alongside training: R = 155.70 + 600 + 77.254 = 832.96 s.
    const auto sync = checkpoint_io_time(s, setup);
    const auto es = checkpointed_run_cost(sync, run);
    CHECK(in<seconds>(es.in_flight_loss) == doctest::Approx(drain));
    CHECK(in<seconds>(es.restart_time) == doctest::Approx(restore + 600.0 + drain));
    CHECK(in<seconds>(es.restart_time) == doctest::Approx(832.96).epsilon(1e-4));
    // Asynchronous: stall 0.152 s; then 2.172 s to the drives and 77.254 s of drain, all in
    // flight: 79.43 s, and R = 155.70 + 600 + 79.43 = 835.13 s.
    setup.mode = checkpoint_mode::asynchronous;
    const auto as = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(as.stall) == doctest::Approx(per_gpu_bytes / 50e9));
    CHECK(in<seconds>(as.write) ==
          doctest::Approx(per_gpu_bytes / 50e9 + 8.0 * per_gpu_bytes / 28e9 + drain));
    const auto ea = checkpointed_run_cost(as, run);
    CHECK(in<seconds>(ea.in_flight_loss) == doctest::Approx(8.0 * per_gpu_bytes / 28e9 + drain));
    CHECK(in<seconds>(ea.in_flight_loss) == doctest::Approx(79.426).epsilon(1e-4));
    CHECK(in<seconds>(ea.restart_time) == doctest::Approx(835.13).epsilon(1e-4));
}

TEST_CASE("synchronous saves copy to host memory only what they write") {
    // Worked by hand: Llama-2-70B, TP 8, DP 32, ZeRO-1, a 200 GB/s path a node. Each GPU
    // holds 2 × 8.622e9 + 12 × 8.622e9 / 32 = 20.48 GB, but writes only its share of one copy,
    // 965.67 GB ÷ 256 = 3.772 GB: 8 × 3.772 ÷ 200 = 0.1509 s a node, above the 75.4 ms copy.
    parallel_layout l{};
    l.tensor = 8;
    l.data = 32;
    l.zero_stage = 1;
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, l);
    checkpoint_io_setup setup{};
    setup.storage.per_node = {make<gigabytes_per_second>(200.0), make<gigabytes_per_second>(200.0)};
    const double share = 14.0 * llama_2_70b_parameters / 256.0;
    const auto io = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(io.stall) == doctest::Approx(8.0 * share / 200e9));
    CHECK(in<seconds>(io.stall) == doctest::Approx(0.15089).epsilon(1e-4));
    // Asynchronous, the whole 20.48 GB is staged first (0.410 s), then the 0.151 s write.
    setup.mode = checkpoint_mode::asynchronous;
    const auto a = checkpoint_io_time(s, setup);
    CHECK(in<seconds>(a.stall) == doctest::Approx(in<bytes>(s.per_gpu) / 50e9));
    CHECK(in<seconds>(a.write) == doctest::Approx(in<bytes>(s.per_gpu) / 50e9 + 8.0 * share / 200e9));
    // The write in flight is lost on an interruption, even when staging takes longer than it.
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    CHECK(in<seconds>(checkpointed_run_cost(a, run).in_flight_loss) ==
          doctest::Approx(8.0 * share / 200e9));
}

TEST_CASE("non-durable shared scratch carries every GPU's whole state") {
    // The same layout on scratch at 100 GB/s for all, not durable: 256 × 20.48 GB = 5.24 TB,
    // 52.4 s (one copy would be 9.66 s). io.written still reports the durable copy, 965.67 GB.
    parallel_layout l{};
    l.tensor = 8;
    l.data = 32;
    l.zero_stage = 1;
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, l);
    checkpoint_io_setup setup{};
    setup.storage.per_node = {make<gigabytes_per_second>(1000.0), make<gigabytes_per_second>(1000.0)};
    setup.storage.shared = true;
    setup.storage.aggregate = {make<gigabytes_per_second>(100.0), make<gigabytes_per_second>(100.0)};
    setup.storage.durable = false;
    setup.host_link = make<gigabytes_per_second>(10000.0);
    const auto io = checkpoint_io_time(s, setup);
    CHECK(io.shared_binds_write);
    CHECK(in<seconds>(io.write) == doctest::Approx(256.0 * in<bytes>(s.per_gpu) / 100e9));
    CHECK(in<seconds>(io.write) == doctest::Approx(52.43).epsilon(1e-3));
    CHECK(in<bytes>(io.written) == doctest::Approx(14.0 * llama_2_70b_parameters));
}

TEST_CASE("a weights-only export cannot resume training: the chain answers no") {
    const auto s = training_checkpoint_size(cat::llama_2_70b, training_job{}, tp8_pp4_dp8_zero1());
    auto setup = lustre_setup();
    setup.weights_only = true;
    const auto io = checkpoint_io_time(s, setup);
    CHECK(io.durable);
    CHECK_FALSE(io.resumable);
    checkpointed_run run{};
    run.work = 720.0_h;
    run.gpus = 256.0_gpu;
    run.on_demand = 6.88_usd_per_gpu_hour;
    run.spot = true;
    run.discount = 0.6;
    run.preemptions_per_hour = 0.25;
    const auto e = checkpointed_run_cost(io, run);
    CHECK_FALSE(e.restorable);
    CHECK(e.refusal == restore_refusal::not_resumable);
    CHECK(to_string(e.refusal) == "not_resumable");
    CHECK(in<usd>(e.cost) == doctest::Approx(0.0));
    // The full checkpoint on the same storage resumes.
    setup.weights_only = false;
    const auto full = checkpointed_run_cost(checkpoint_io_time(s, setup), run);
    CHECK(full.restorable);
    CHECK(full.refusal == restore_refusal::none);
    CHECK(to_string(restore_refusal::none) == "none");
    CHECK(to_string(static_cast<restore_refusal>(7)) == "unknown");
}
