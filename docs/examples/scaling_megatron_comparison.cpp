// The step model against two published sets of Megatron-LM trainings of GPT models on A100
// 80GB clusters (8 GPUs and 8 HDR InfiniBand NICs a node): the 2021 runs of Narayanan et al.
// (Table 1) and the 2022 runs of Korthikanti et al. (Table 5). Nothing here is fitted to them:
// the model runs with its defaults, and with the one setting the 2021 software differs in.
#include <gpucalc/gpucalc.hpp>

#include <cmath>
#include <cstdio>

namespace {
namespace cat = gpucalc::catalog;

gpucalc::cluster a100_cluster(std::int64_t gpus) {
    return {.node = {.gpu = cat::a100_80gb_sxm, .gpus_per_node = 8},
            .nodes = static_cast<std::int64_t>((gpus + 7) / 8),
            .inter_node = cat::infiniband_hdr,
            .nics_per_node = 8};
}

/// Both papers' runs: 2,048-token sequences, fp16 weights, activations and gradients, Adam
/// with an fp32 master copy, Megatron-LM's unfused attention with dropout.
gpucalc::training_job megatron_job(std::int64_t global_batch) {
    return {.sequence = 2048,
            .global_batch = global_batch,
            .parameters = gpucalc::formats::fp16,
            .gradients = gpucalc::formats::fp16,
            .activations = gpucalc::formats::fp16,
            .compute = gpucalc::compute_precision::fp16,
            .flash_attention = false,
            .dropout = true};
}

/// The FLOPs a step of Narayanan et al. 2021 counts for its Table 1, recompute included (§5.1):
/// 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)).
double narayanan_flops(const gpucalc::transformer& m, double batch) {
    const double s = 2048, l = static_cast<double>(m.layers), h = static_cast<double>(m.hidden),
                 v = static_cast<double>(m.vocab);
    return 96.0 * batch * s * l * h * h * (1.0 + s / (6.0 * h) + v / (16.0 * l * h));
}

struct tally {
    double sum = 0, worst = 0;
    int n = 0;
    void add(double error) {
        sum += std::fabs(error);
        worst = std::fabs(error) > worst ? std::fabs(error) : worst;
        ++n;
    }
};
}  // namespace

int main() {
    // Narayanan et al. 2021, Table 1, with the layouts of NVIDIA/Megatron-LM's
    // examples/sc21/run_table_1.sh (micro-batch, global batch, interleaving; PyTorch DDP, which
    // overlaps the gradient all-reduce, for the four smallest) and full recompute.
    struct run_2021 {
        const gpucalc::transformer& model;
        std::int64_t tp, pp, dp, micro, global, chunks;
        bool torch_ddp;
        double published;  // TFLOP/s a GPU
    };
    const run_2021 runs_2021[] = {
        {cat::megatron_1_7b, 1, 1, 32, 16, 512, 1, true, 137},
        {cat::megatron_3_6b, 2, 1, 32, 16, 512, 1, true, 138},
        {cat::megatron_7_5b, 4, 1, 32, 16, 512, 1, true, 142},
        {cat::megatron_18_4b, 8, 1, 32, 8, 1024, 1, true, 135},
        {cat::megatron_39_1b, 8, 2, 32, 4, 1536, 1, false, 138},
        {cat::megatron_76_1b, 8, 4, 32, 2, 1792, 3, false, 140},
        {cat::megatron_145_6b, 8, 8, 24, 2, 2304, 2, false, 148},
        {cat::megatron_310_1b, 8, 16, 15, 1, 2160, 2, false, 155},
        {cat::megatron_529_6b, 8, 35, 9, 1, 2520, 3, false, 163},
        {cat::megatron_1008b, 8, 64, 6, 1, 3072, 1, false, 163},
    };
    std::printf("Narayanan et al. 2021, Table 1: TFLOP/s a GPU (full recompute)\n");
    std::printf("%-22s %-14s %9s %9s %7s %9s %7s\n", "model", "TP PP DP v", "published",
                "defaults", "error", "unfused", "error");
    tally defaults_2021, unfused_2021;
    for (const run_2021& r : runs_2021) {
        gpucalc::training_strategy s{.parallel = {.tensor = r.tp, .pipeline = r.pp, .data = r.dp,
                                                  .interleave = r.chunks},
                                     .micro_batch = r.micro,
                                     .recompute = gpucalc::recompute::full};
        gpucalc::step_assumptions a{};
        if (r.torch_ddp) a.data_parallel_overlap = 1.0;
        const auto cluster = a100_cluster(r.tp * r.pp * r.dp);
        const auto job = megatron_job(r.global);
        const double gpus = static_cast<double>(r.tp * r.pp * r.dp);
        const double flops = narayanan_flops(r.model, static_cast<double>(r.global));
        const double with_defaults =
            flops / training_step_time(r.model, cluster, job, s, a).time.value() / gpus / 1e12;
        a.fused_gradient_accumulation = false;  // the 2021 code predates the fusion
        const double unfused =
            flops / training_step_time(r.model, cluster, job, s, a).time.value() / gpus / 1e12;
        const double e1 = 100.0 * (with_defaults / r.published - 1.0);
        const double e2 = 100.0 * (unfused / r.published - 1.0);
        defaults_2021.add(e1);
        unfused_2021.add(e2);
        char layout[32];
        std::snprintf(layout, sizeof layout, "%lld %lld %lld %lld", static_cast<long long>(r.tp),
                      static_cast<long long>(r.pp), static_cast<long long>(r.dp),
                      static_cast<long long>(r.chunks));
        std::printf("%-22.*s %-14s %9.0f %9.1f %+6.1f%% %9.1f %+6.1f%%\n",
                    static_cast<int>(r.model.name.size()), r.model.name.data(), layout,
                    r.published, with_defaults, e1, unfused, e2);
    }
    std::printf("mean |error| %.1f%% (worst %.1f%%) with the defaults, %.1f%% (worst %.1f%%) "
                "with unfused gradient accumulation\n\n",
                defaults_2021.sum / defaults_2021.n, defaults_2021.worst,
                unfused_2021.sum / unfused_2021.n, unfused_2021.worst);

    // Korthikanti et al. 2022, Table 5: iteration time, full recompute without sequence
    // parallelism against selective recompute with it; the layouts of their Table 3, DP 1.
    struct run_2022 {
        const gpucalc::transformer& model;
        std::int64_t tp, pp, global, micro, chunks;
        double full, selective;  // seconds an iteration
    };
    const run_2022 runs_2022[] = {
        {cat::korthikanti_22b, 8, 1, 4, 4, 1, 1.42, 1.10},
        {cat::korthikanti_175b, 8, 8, 64, 1, 3, 18.13, 13.75},
        {cat::korthikanti_530b, 8, 35, 280, 1, 3, 49.05, 37.83},
        {cat::korthikanti_1t, 8, 64, 512, 1, 1, 94.42, 71.49},
    };
    std::printf("Korthikanti et al. 2022, Table 5: seconds an iteration (throughput error)\n");
    std::printf("%-22s %-10s %9s %9s %7s\n", "model", "recompute", "published", "predicted",
                "error");
    tally t2022;
    for (const run_2022& r : runs_2022) {
        for (bool selective : {false, true}) {
            const gpucalc::training_strategy s{
                .parallel = {.tensor = r.tp, .pipeline = r.pp, .sequence_parallel = selective,
                             .interleave = r.chunks},
                .micro_batch = r.micro,
                .recompute = selective ? gpucalc::recompute::selective : gpucalc::recompute::full};
            const double t = training_step_time(r.model, a100_cluster(r.tp * r.pp),
                                                megatron_job(r.global), s)
                                 .time.value();
            const double published = selective ? r.selective : r.full;
            const double error = 100.0 * (published / t - 1.0);
            t2022.add(error);
            std::printf("%-22.*s %-10s %9.2f %9.2f %+6.1f%%\n",
                        static_cast<int>(r.model.name.size()), r.model.name.data(),
                        selective ? "selective" : "full", published, t, error);
        }
    }
    std::printf("mean |error| %.1f%% (worst %.1f%%)\n", t2022.sum / t2022.n, t2022.worst);
}
