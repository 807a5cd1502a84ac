// sizing_report.cpp: gpucalc-report, the main job. It prints a fixed set of sizing scenarios
// from the catalogs as plain-text tables; later modules add memory, throughput and cost.
// Written in C++17 so it builds in every configuration.
#include <gpucalc/gpucalc.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;

/// Display width of UTF-8 text: continuation bytes take no column.
std::size_t columns(const std::string& text) {
    std::size_t n = 0;
    for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    return n;
}

/// A plain-text table: the first row is the header; columns are padded to fit.
void print_table(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], columns(row[i]));
    auto print_row = [&](const std::vector<std::string>& row) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size()) line += std::string(width[i] - columns(row[i]) + 2, ' ');
        }
        std::cout << line << "\n";
    };
    print_row(rows.front());
    std::string rule;
    for (std::size_t i = 0; i < width.size(); ++i) rule += std::string(width[i], '-') + (i + 1 < width.size() ? "  " : "");
    std::cout << rule << "\n";
    for (std::size_t r = 1; r < rows.size(); ++r) print_row(rows[r]);
    std::cout << "\n";
}

std::string peak_text(const gpucalc::gpu_spec& gpu, gpucalc::compute_precision p) {
    return gpucalc::supports(gpu, p) ? gpucalc::to_string(gpucalc::peak(gpu, p)) : "-";
}

std::string link_text(const gpucalc::link_spec& link) {
    return link.per_direction > 0.0_B_per_s
               ? std::string(link.name) + " " + gpucalc::to_string(link.per_direction)
               : "-";
}

void gpu_section() {
    std::cout << "== Accelerators (dense peaks; links per direction) ==\n\n";
    std::vector<std::vector<std::string>> rows{
        {"GPU", "memory", "bandwidth", "BF16", "FP8", "FP64", "TDP", "scale-up link"}};
    for (const gpucalc::gpu_spec* gpu : cat::all_gpus) {
        rows.push_back({std::string(gpu->name), gpucalc::to_string(gpu->memory),
                        gpucalc::to_string(gpu->memory_bandwidth),
                        peak_text(*gpu, gpucalc::compute_precision::bf16),
                        peak_text(*gpu, gpucalc::compute_precision::fp8),
                        peak_text(*gpu, gpucalc::compute_precision::fp64),
                        gpu->tdp > 0.0_W ? gpucalc::to_string(gpu->tdp) : "n/p",
                        link_text(gpu->scale_up)});
    }
    print_table(rows);
}

std::string gpu_count_text(std::int64_t gpus) {
    return std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
}

std::string billions(std::int64_t count) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2fB", static_cast<double>(count) / 1e9);
    return text;
}

std::string bits_text(double bits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", bits);
    return text;
}

void instance_section() {
    std::cout << "== Cloud instance shapes ==\n\n";
    std::vector<std::vector<std::string>> rows{
        {"provider", "instance", "GPUs", "GPU memory", "vCPUs", "host memory", "network"}};
    for (const gpucalc::instance_spec* i : cat::all_instances) {
        rows.push_back({std::string(i->provider), std::string(i->name),
                        std::to_string(i->gpus) + " x " + std::string(i->gpu.name),
                        gpucalc::to_string(static_cast<double>(i->gpus) * i->gpu.memory),
                        std::to_string(i->vcpus), gpucalc::to_string(i->host_memory),
                        gpucalc::to_string(i->network)});
    }
    print_table(rows);
}

void storage_section() {
    std::cout << "== Storage formats: 7 billion parameters ==\n\n";
    struct named_format {
        const char* name;
        gpucalc::storage_format format;
    };
    namespace f = gpucalc::formats;
    const named_format formats[] = {
        {"fp32", f::fp32},           {"bf16", f::bf16},
        {"fp8 (e4m3)", f::fp8_e4m3}, {"int8", f::int8},
        {"int4, fp16 scale / 128", f::int4_g128},
        {"nf4, double quant (QLoRA)", f::nf4_double_quant},
        {"mxfp4", f::mxfp4},         {"nvfp4", f::nvfp4}};
    std::vector<std::vector<std::string>> rows{{"format", "bits/element", "weights", "weights"}};
    const double parameters = 7e9;
    for (const named_format& n : formats) {
        const gpucalc::data_size size = gpucalc::storage_size(parameters, n.format);
        rows.push_back({n.name, bits_text(gpucalc::bits_per_element(n.format)),
                        gpucalc::to_string(size, {3, gpucalc::byte_prefixes::decimal}),
                        gpucalc::to_string(size, {3, gpucalc::byte_prefixes::binary})});
    }
    print_table(rows);
}

void models_section() {
    std::cout << "== Models: parameters and KV cache ==\n\n";
    std::vector<std::vector<std::string>> rows{
        {"model", "parameters", "active", "KV/token (16-bit)", "KV at 4k tokens", "weights (bf16)"}};
    for (const gpucalc::transformer* m : cat::all_models) {
        const gpucalc::parameter_counts c = gpucalc::parameter_count(*m);
        const gpucalc::data_size kv = gpucalc::kv_cache_bytes_per_token(*m, gpucalc::formats::bf16);
        rows.push_back({std::string(m->name), billions(c.total), billions(c.active),
                        gpucalc::to_string(kv), gpucalc::to_string(4096.0 * kv),
                        gpucalc::to_string(gpucalc::storage_size(static_cast<double>(c.total),
                                                                 gpucalc::formats::bf16))});
    }
    print_table(rows);
}

void serving_section() {
    std::cout << "== Serving at bf16: tensor-parallel GPUs for one 4k sequence, and the largest"
                 " batch of 4k sequences at that degree (10% of memory kept free) ==\n\n";
    const gpucalc::gpu_spec* gpus[] = {&cat::l4, &cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200,
                                       &cat::mi300x};
    std::vector<std::string> header{"model"};
    for (const gpucalc::gpu_spec* g : gpus) header.push_back(std::string(g->name));
    std::vector<std::vector<std::string>> rows{header};
    const double headroom = 0.1;
    for (const gpucalc::transformer* m : cat::all_models) {
        if (m->name == cat::gpt3_175b.name) continue;  // no public weights to serve
        std::vector<std::string> row{std::string(m->name)};
        gpucalc::serving_setup setup{};
        setup.batch = 1;
        setup.context = 4096;
        for (const gpucalc::gpu_spec* g : gpus) {
            const gpucalc::serving_fit fit =
                gpucalc::min_gpus_for_inference(*m, setup, *g, headroom, 8);
            if (fit.outcome != gpucalc::fit_outcome::found) {
                row.push_back("> 8 GPUs");
                continue;
            }
            gpucalc::serving_setup at = setup;
            at.parallel.tensor = fit.tensor_parallel;
            const std::int64_t batch = gpucalc::max_batch_for_inference(*m, at, *g, headroom);
            row.push_back(gpu_count_text(fit.gpus) + ", batch " + std::to_string(batch));
        }
        rows.push_back(row);
    }
    print_table(rows);
}

void training_section() {
    std::cout << "== Full training, AdamW mixed precision, ZeRO-3, full recompute, micro-batch"
                 " 1 x 4,096 tokens: fewest GPUs, and memory per GPU at 8 GPUs ==\n\n";
    const gpucalc::gpu_spec* gpus[] = {&cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200};
    std::vector<std::string> header{"model"};
    for (const gpucalc::gpu_spec* g : gpus) header.push_back(std::string(g->name));
    header.push_back("per GPU at 8 GPUs");
    std::vector<std::vector<std::string>> rows{header};
    gpucalc::training_job job{};
    job.sequence = 4096;
    gpucalc::training_strategy strategy{};
    strategy.micro_batch = 1;
    strategy.parallel.zero_stage = 3;
    strategy.recompute = gpucalc::recompute::full;
    for (const gpucalc::transformer* m : {&cat::llama_2_7b, &cat::llama_3_8b, &cat::mistral_7b,
                                          &cat::llama_2_13b, &cat::llama_2_70b}) {
        std::vector<std::string> row{std::string(m->name)};
        for (const gpucalc::gpu_spec* g : gpus) {
            const gpucalc::training_fit fit = gpucalc::min_gpus_for_training(*m, job, strategy, *g);
            row.push_back(fit.outcome == gpucalc::fit_outcome::found
                              ? gpu_count_text(fit.gpus)
                              : std::string(gpucalc::to_string(fit.outcome)));
        }
        gpucalc::training_strategy eight = strategy;
        eight.parallel.data = 8;
        row.push_back(gpucalc::to_string(gpucalc::training_memory_per_gpu(*m, job, eight).total));
        rows.push_back(row);
    }
    print_table(rows);
}

void throughput_section() {
    std::cout << "== Throughput (roofline, default efficiency 0.80 compute / 0.85 memory, bf16):"
                 " decode tokens/s per stream at batch 1 and 4k context, and time to first token"
                 " for a 2k prompt, at the fewest GPUs that hold the model ==\n\n";
    const gpucalc::gpu_spec* gpus[] = {&cat::l4, &cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200,
                                       &cat::mi300x};
    std::vector<std::string> header{"model"};
    for (const gpucalc::gpu_spec* g : gpus) header.push_back(std::string(g->name));
    std::vector<std::vector<std::string>> rows{header};
    for (const gpucalc::transformer* m : {&cat::llama_3_8b, &cat::mistral_7b, &cat::mixtral_8x7b,
                                          &cat::llama_2_70b, &cat::llama_3_70b}) {
        std::vector<std::string> row{std::string(m->name)};
        // One setup for memory, decode and prefill: the layout found is said once.
        gpucalc::serving_setup serve{};
        serve.batch = 1;
        serve.context = 4096;
        serve.prompt = 2048;
        for (const gpucalc::gpu_spec* g : gpus) {
            const gpucalc::serving_fit fit = gpucalc::min_gpus_for_inference(*m, serve, *g, 0.1, 8);
            if (fit.outcome != gpucalc::fit_outcome::found) {
                row.push_back("> 8 GPUs");
                continue;
            }
            gpucalc::serving_setup at = serve;
            at.parallel.tensor = fit.tensor_parallel;
            char cell[64];
            std::snprintf(cell, sizeof cell, "%.0f tok/s, ",
                          gpucalc::in<gpucalc::tokens_per_second_per_stream>(gpucalc::decode(*m, *g, at).stream_rate));
            row.push_back(cell + gpucalc::to_string(gpucalc::prefill(*m, *g, at).time_to_first_token));
        }
        rows.push_back(row);
    }
    print_table(rows);

    std::cout << "== Time to train Llama-2-7B on 2T tokens at 40% MFU ==\n\n";
    std::vector<std::vector<std::string>> train{{"GPUs", "time", "GPU-hours"}};
    for (const gpucalc::gpu_spec* g : {&cat::a100_80gb_sxm, &cat::h100_sxm, &cat::b200}) {
        gpucalc::training_job job{};
        job.sequence = 4096;
        gpucalc::parallel_layout layout{};
        layout.data = 1024;
        const gpucalc::duration t = gpucalc::time_to_train(cat::llama_2_7b, *g, 2.0_T_tokens, job, layout);
        train.push_back({"1024 x " + std::string(g->name), gpucalc::to_string(t),
                         gpucalc::to_string(1024.0_gpu * t)});
    }
    print_table(train);
}

void cost_section() {
    namespace prices = gpucalc::catalog::prices;
    const gpucalc::gpu_price lambda = prices::lambda_h100_on_demand_2026;
    const gpucalc::gpu_price aws = gpucalc::per_gpu(prices::aws_p5_48xlarge_on_demand_2024, 8.0_gpu);
    std::cout << "== Cost at example prices (catalog/prices.hpp, dated): H100 at "
              << gpucalc::to_string(lambda) << " (Lambda, 2026) and " << gpucalc::to_string(aws)
              << " (AWS p5 on demand, 2024) ==\n\n";
    std::vector<std::vector<std::string>> rows{{"question", "at " + gpucalc::to_string(lambda), "at " + gpucalc::to_string(aws)}};

    gpucalc::training_job job{};
    job.sequence = 4096;
    gpucalc::parallel_layout layout{};
    layout.data = 1024;
    const auto train_a = gpucalc::training_cost(cat::llama_2_7b, cat::h100_sxm, 2.0_T_tokens, job, layout, lambda);
    const auto train_b = gpucalc::training_cost(cat::llama_2_7b, cat::h100_sxm, 2.0_T_tokens, job, layout, aws);
    rows.push_back({"train Llama-2-7B on 2T tokens (1024 H100, 40% MFU)", gpucalc::to_string(train_a.cost),
                    gpucalc::to_string(train_b.cost)});

    gpucalc::serving_setup serve{};
    serve.batch = 64;
    serve.context = 2048;
    rows.push_back({"serve Llama-3-8B, batch 64: cost per output token",
                    gpucalc::to_string(gpucalc::serving_cost_per_million_tokens(cat::llama_3_8b, cat::h100_sxm, serve, lambda)),
                    gpucalc::to_string(gpucalc::serving_cost_per_million_tokens(cat::llama_3_8b, cat::h100_sxm, serve, aws))});

    gpucalc::ownership dgx{};
    dgx.capex = prices::dgx_h100_2023;
    dgx.gpus = 8.0_gpu;
    dgx.full_power = prices::dgx_h100_power;
    dgx.electricity = prices::us_industrial_electricity_2023;
    dgx.maintenance_per_year = 0.10;
    dgx.space = prices::colocation_2024 * prices::dgx_h100_power;
    for (gpucalc::duration life : {3.0_years, 5.0_years}) {
        dgx.service_life = life;
        auto breakeven_text = [&](gpucalc::gpu_price cloud) {
            const gpucalc::breakeven b = gpucalc::rent_vs_buy(dgx, cloud);
            char text[48];
            if (b.reached) std::snprintf(text, sizeof text, "buy above %.0f%% use", 100.0 * b.utilization);
            else std::snprintf(text, sizeof text, "never buy");
            return std::string(text);
        };
        char label[80];
        std::snprintf(label, sizeof label, "own a DGX H100 for %.0f years instead?", gpucalc::in<gpucalc::years>(life));
        rows.push_back({label, breakeven_text(lambda), breakeven_text(aws)});
    }

    gpucalc::spot_job week{};
    week.work = 168.0_h;
    week.gpus = 64.0_gpu;
    week.discount = 0.6;
    week.mean_time_between_preemptions = 8.0_h;
    week.checkpoint_time = 2.0_min;
    week.restart_time = 15.0_min;
    auto spot_text = [&](gpucalc::gpu_price price) {
        week.on_demand = price;
        const gpucalc::spot_estimate e = gpucalc::spot_cost(week);
        return gpucalc::to_string(e.spot_cost) + " vs " + gpucalc::to_string(e.on_demand_cost);
    };
    rows.push_back({"a week on 64 GPUs, spot (60% off, reclaim every 8 h) vs on demand", spot_text(lambda), spot_text(aws)});
    print_table(rows);

    const gpucalc::energy day = gpucalc::job_energy(prices::dgx_h100_power, 24.0_h);
    std::cout << "A DGX H100 at full power for a day: " << day << " at PUE 1.25, "
              << gpucalc::emissions(day, cat::grid::us_2023_direct) << " CO2 on the 2023 US grid, "
              << gpucalc::emissions(day, cat::grid::france_2023_lifecycle) << " in France.\n\n";
}

void units_section() {
    std::cout << "== Units at the boundaries ==\n\n";
    const gpucalc::cost_rate instance = 98.32_usd_per_h;  // an 8 x H100 instance, example price
    const gpucalc::gpu_price per_gpu = instance / 8.0_gpu;
    const gpucalc::money budget_use = 2.99_usd_per_gpu_hour * 1000.0_gpu_hours;
    std::vector<std::vector<std::string>> rows{{"question", "answer"}};
    rows.push_back({"8-GPU instance at $98.32/h, per GPU", gpucalc::to_string(per_gpu)});
    rows.push_back({"1,000 GPU-hours at $2.99/GPU-h", gpucalc::to_string(budget_use)});
    rows.push_back({"InfiniBand NDR port, 400 Gb/s, in bytes",
                    gpucalc::to_string(cat::infiniband_ndr.per_direction)});
    rows.push_back({"NVLink 4, 900 GB/s bidirectional, one way",
                    gpucalc::to_string(cat::nvlink4.per_direction)});
    rows.push_back({"H100 80GB memory, decimal", gpucalc::to_string(cat::h100_sxm.memory, {3, gpucalc::byte_prefixes::decimal})});
    print_table(rows);
}

}  // namespace

int main() {
    std::cout << "gpucalc " << gpucalc::version << " sizing report\n\n";
    gpu_section();
    instance_section();
    storage_section();
    models_section();
    serving_section();
    training_section();
    throughput_section();
    cost_section();
    units_section();
    return 0;
}
