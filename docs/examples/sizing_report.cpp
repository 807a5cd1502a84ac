// sizing_report.cpp: gpucalc-report, the main job. It prints a fixed set of sizing scenarios
// from the catalogs as plain-text tables. Every assumption is named once below, with its
// source, and each table's heading prints the ones it rests on.
// Written in C++17 so it builds in every configuration.
#include <gpucalc/gpucalc.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace gpucalc::literals;
namespace cat = gpucalc::catalog;
namespace prices = gpucalc::catalog::prices;

// ---------------------------------------------------------------------------------------------
// The report's assumptions. Catalog figures keep their own sources (catalog/*.hpp); the ones
// below are the report's choices. "Uncertain" follows the catalog: where it marks a figure
// uncertain, the report prints the range too.
// ---------------------------------------------------------------------------------------------

/// Memory kept free on every GPU, for training and serving alike: what the footprint does not
/// count (allocator caching, CUDA graphs, kernel workspaces, a long outlier sequence). 10% is
/// vLLM's default (its gpu_memory_utilization engine argument defaults to 0.9).
constexpr double headroom = 0.10;

/// GPUs in one node: the 8 SXM GPUs of one HGX board (NVIDIA DGX A100 and DGX H100
/// datasheets), as the catalog's H100 and H200 instances have them. Tensor parallelism stays
/// inside a node, on NVLink, so a serving replica is searched up to one node.
constexpr std::int64_t gpus_per_node = 8;
static_assert(cat::aws_p5_48xlarge.gpus == gpus_per_node &&
                  cat::aws_p5e_48xlarge.gpus == gpus_per_node,
              "a node is the catalog's 8-GPU H100 and H200 instance");

/// Accelerators the catalog marks uncertain throughout (catalog/gpus.hpp gives the ranges):
/// the A10G's compute and TDP, and every figure of the H100 NVL, B200 and GB200. The report
/// marks their names with a "*".
constexpr const gpucalc::gpu_spec* uncertain_gpus[] = {&cat::a10g, &cat::h100_nvl, &cat::b200,
                                                       &cat::gb200};

/// Parameters of the model the storage formats are shown for: a 7B model (illustrative).
constexpr double storage_parameters = 7e9;

/// Tokens a served sequence holds (prompt and output): Llama 2's context length, 4,096
/// (Touvron et al. 2023, Table 1). Decode attends over all of them, so a decode row is the cost
/// at the end of a full context, the dearest step.
constexpr std::int64_t serving_context = 4096;
/// Tokens in a prompt, for the time to first token: half the context (illustrative).
constexpr std::int64_t serving_prompt = 2048;
/// Sequences decoded together for the serving cost: an illustrative batch, below the largest
/// that one H100 holds for Llama-3-8B at the serving context (the serving table gives it).
constexpr std::int64_t serving_cost_batch = 64;

/// Tokens per training sequence: Llama 2's pretraining context, 4,096 (Touvron et al. 2023,
/// Table 1). One sequence per micro-batch, the least memory, so the fewest GPUs is a floor.
constexpr std::int64_t training_sequence = 4096;
constexpr std::int64_t training_micro_batch = 1;
/// Llama-2-7B's pretraining: 2 trillion tokens (Touvron et al. 2023, Table 1), and the A100 80GB
/// GPU-hours Meta reported for it (Table 2: 184,320).
constexpr gpucalc::token_count llama_2_tokens = 2.0_T_tokens;
constexpr gpucalc::gpu_time llama_2_7b_reported_usage = 184320.0_gpu_hours;
/// GPUs for the time to train: 1,024, the A100 count of Narayanan et al. 2021's GPT-3
/// estimate (34 days for 300B tokens).
constexpr std::int64_t training_gpus = 1024;
/// Model FLOPs utilization: the library's planning default, 0.40 (roofline/training.hpp gives
/// its sources; uncertain: 0.35–0.56). The quick estimate: communication, the pipeline bubble
/// and the kernels' efficiency are all inside it; the scaling section composes them instead.
constexpr double assumed_mfu = gpucalc::default_training_mfu;
constexpr double assumed_mfu_low = 0.35;   // roofline/training.hpp's range
constexpr double assumed_mfu_high = 0.56;

/// The scaling section's cluster: H100 SXM nodes of 8 joined in the node by NVLink 4 (the
/// catalog GPU's scale-up link, spanning the HGX board), each GPU with one InfiniBand NDR
/// 400 Gb/s port (the DGX H100 datasheet: 8 single-port ConnectX-7 adapters a node, the
/// cluster's default nics_per_node), 1,024 GPUs in all (training_gpus above).
constexpr std::int64_t scaling_gpus = training_gpus;
/// Llama 3's main pretraining phase: sequences of 8,192 tokens, 16M tokens a step, so 2,048
/// sequences (Dubey et al. 2024, "The Llama 3 Herd of Models", §3.4.1).
constexpr std::int64_t scaling_sequence = 8192;
constexpr std::int64_t scaling_global_batch = 2048;
/// The token budget: about 15T tokens, Llama 3's pretraining corpus (Dubey et al. 2024, §1).
constexpr gpucalc::token_count llama_3_tokens = 15.0_T_tokens;
/// The published figure beside the prediction: Llama 3 405B at 38% to 43% BF16 MFU on 8,192 to
/// 16,384 H100 (Dubey et al. 2024, Table 4; other GPU counts and batch per DP rank than here).
constexpr double llama_3_405b_mfu_low = 0.38;
constexpr double llama_3_405b_mfu_high = 0.43;
/// The strategy around the layout: Megatron-LM's, as Korthikanti et al. 2022 train with it:
/// one sequence per micro-batch, sequence parallelism with tensor parallelism, selective
/// activation recompute (full recompute where no layout fits with selective: their Table 2,
/// the memory it saves), and the distributed optimizer (ZeRO stage 1); no interleaving.
constexpr std::int64_t scaling_micro_batch = 1;
constexpr std::int64_t scaling_zero_stage = 1;
/// The layout rule: the smallest model-parallel size t·p that fits in memory (with the
/// headroom above), tensor parallelism first, up to a node, then pipeline stages across
/// nodes, data parallelism over the rest (Narayanan et al. 2021 §3.3, Takeaways #1 and #2).
/// The candidates, in the order tried: (t, p).
constexpr std::int64_t scaling_candidates[][2] = {{1, 1}, {2, 1},  {4, 1},  {8, 1},
                                                  {8, 2}, {8, 4},  {8, 8},  {8, 16}, {8, 32}};

/// H100 SXM on demand, per GPU-hour, at two dated prices (catalog/prices.hpp): Lambda's,
/// which the catalog marks uncertain, and AWS's p5.48xlarge over its GPUs. The labels say
/// where and when, as the catalog's comments do.
constexpr const char* lambda_price_label = "Lambda, March 2026";
constexpr const char* aws_price_label = "us-east-1, September 2026";
constexpr gpucalc::gpu_price lambda_price = prices::lambda_h100_on_demand_2026;
constexpr gpucalc::gpu_price lambda_price_low = 2.49_usd_per_gpu_hour;   // the catalog's range
constexpr gpucalc::gpu_price lambda_price_high = 3.99_usd_per_gpu_hour;
constexpr gpucalc::gpu_count p5_gpus = static_cast<double>(cat::aws_p5_48xlarge.gpus) * 1.0_gpu;
constexpr gpucalc::gpu_price aws_price =
    gpucalc::per_gpu(prices::aws_p5_48xlarge_on_demand_2026, p5_gpus);

/// The server one would own instead: a DGX H100 at the catalog's price, which it marks
/// uncertain ($200,000–$400,000 by configuration, support and date), at its 10.2 kW maximum.
constexpr gpucalc::money dgx_price = prices::dgx_h100_2023;
constexpr gpucalc::money dgx_price_low = 200000.0_usd;   // the catalog's range
constexpr gpucalc::money dgx_price_high = 400000.0_usd;
constexpr gpucalc::gpu_count dgx_gpus = 8.0_gpu;         // DGX H100 datasheet: 8 × H100
/// Service lives: 3 years, as practitioners plan for GPU generations turning over, and 5, the
/// US tax recovery period for computers (IRS Publication 946, MACRS 5-year property).
constexpr gpucalc::duration service_lives[] = {3.0_years, 5.0_years};
/// Support and maintenance, a fraction of the price a year: an assumption, not a quote
/// (uncertain: support contracts are priced per deal).
constexpr double maintenance_per_year = 0.10;
/// Electricity, which the catalog marks uncertain by state (5–20 ¢/kWh).
constexpr gpucalc::energy_price electricity = prices::us_industrial_electricity_2023;
constexpr gpucalc::energy_price electricity_low = 0.05_usd_per_kWh;   // the catalog's range
constexpr gpucalc::energy_price electricity_high = 0.20_usd_per_kWh;

/// The checkpoint section's storage, for the scaling section's runs: local NVMe, eight PCIe 4.0
/// data-center drives a node (storage_rates::nvme_pcie_gen4, Samsung PM9A3: 3.5 GB/s write, 6.5
/// GB/s read; a p5.48xlarge has eight local NVMe drives), instance storage that a failed node
/// takes along, so drained to the shared file system and restored from it; or the shared file
/// system directly, FSx for Lustre PERSISTENT_2 at 1,000 MB/s per TiB over 100 TiB (AWS FSx for
/// Lustre User Guide), reached over one 100 Gb/s NIC a node. Synchronous writes; failures at the
/// Llama 3 report's rate (llama3_interruptions_per_gpu_hour, derived), on demand.
constexpr double checkpoint_drives_per_node = 8.0;
constexpr double checkpoint_lustre_tib = 100.0;

/// A week of work on 64 GPUs, on spot capacity or on demand.
constexpr gpucalc::duration spot_work = 168.0_h;
constexpr gpucalc::gpu_count spot_gpus = 64.0_gpu;
/// Spot discount: 60%, the low end of Google Cloud's 60–91% for Spot VMs (Google Cloud
/// documentation, "Spot VMs").
constexpr double spot_discount = 0.6;
/// Reclaims, checkpoints and restarts: illustrative (uncertain: providers publish no reclaim
/// rate for GPU capacity). A checkpoint writes sharded state to fast storage; a restart gets
/// capacity back and reloads it.
constexpr gpucalc::duration spot_mean_time_between_reclaims = 8.0_h;
constexpr gpucalc::duration spot_checkpoint_time = 2.0_min;
constexpr gpucalc::duration spot_restart_time = 15.0_min;

/// The serving-capacity section: chat traffic, as docs/examples/serving_replicas.cpp sizes it.
/// Request lengths: 1,024-token prompts and 256-token answers, p90 2,048 and 512
/// (illustrative, not measured); the KV cache is sized at the p90s.
constexpr std::int64_t chat_prompt = 1024;
constexpr std::int64_t chat_output = 256;
constexpr std::int64_t chat_prompt_p90 = 2048;
constexpr std::int64_t chat_output_p90 = 512;
/// The chat SLO: p99 time to first token 500 ms (the replica search's default percentile), and
/// 33 ms per output token, about 30 tokens/s (issue 16's example; illustrative).
constexpr gpucalc::duration chat_ttft = 500.0_ms;
constexpr gpucalc::duration chat_tpot = 33.0_ms;
/// Request rates sized for (illustrative).
constexpr double chat_rates[] = {10.0, 100.0};
/// Tokens per KV-cache block: vLLM's paged-attention default block size, 16 (Kwon et al. 2023).
constexpr std::int64_t chat_kv_block_tokens = 16;
/// The mixed-fleet rows (serving/fleet.hpp): the chat SLO over a mix of four request sizes, as
/// docs/examples/serving_mixed_fleet.cpp has it (prompt, answer, their p90s, share; illustrative).
struct fleet_mix_bucket {
    std::int64_t prompt, output, prompt_p90, output_p90;
    double share;
};
constexpr fleet_mix_bucket fleet_mix[] = {{128, 64, 256, 128, 0.4},
                                          {512, 256, 1024, 512, 0.3},
                                          {2048, 512, 4096, 1024, 0.2},
                                          {8192, 512, 12288, 1024, 0.1}};
/// An L4's price per GPU-hour: illustrative (about a single-L4 cloud VM's on-demand price; the
/// catalog holds none).
constexpr gpucalc::gpu_price l4_example_price = gpucalc::make<gpucalc::usd_per_gpu_hour>(0.70);

/// The energy line: a DGX H100 at full power for a day, at the library's PUE (energy.hpp's
/// default_pue gives its source).
constexpr gpucalc::duration energy_time = 24.0_h;

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

/// Text built by appending its parts in turn. `"literal" + std::string(...)` would insert at
/// the front of the temporary, which GCC 12 at -O2 and above can flag with a false -Wrestrict
/// (GCC Bugzilla 105329).
template <class... Parts>
std::string join(const Parts&... parts) {
    std::string text;
    ((text += parts), ...);
    return text;
}

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

/// A fraction as a whole percentage: 0.1 → "10%".
std::string percent_text(double fraction) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * fraction);
    return text;
}

/// A count with thousands separators: 4096 → "4,096".
std::string count_text(std::int64_t count) {
    const std::string digits = std::to_string(count);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
        text += digits[i];
    }
    return text;
}

std::string gpu_count_text(std::int64_t gpus) {
    return count_text(gpus) + (gpus == 1 ? " GPU" : " GPUs");
}

/// GPUs as a planner buys and rents them: "15 GPUs (2 nodes)".
std::string gpus_in_nodes_text(std::int64_t gpus) {
    const std::int64_t nodes = (gpus + gpus_per_node - 1) / gpus_per_node;
    return gpu_count_text(gpus) + " (" + count_text(nodes) + (nodes == 1 ? " node)" : " nodes)");
}

/// One node, for headings: "1 node of 8 GPUs".
std::string node_text() { return join("1 node of ", gpu_count_text(gpus_per_node)); }

/// A GPU's name, with "*" where the catalog marks its figures uncertain.
std::string gpu_name_text(const gpucalc::gpu_spec& gpu) {
    const bool uncertain = std::find(std::begin(uncertain_gpus), std::end(uncertain_gpus),
                                     &gpu) != std::end(uncertain_gpus);
    return std::string(gpu.name) + (uncertain ? "*" : "");
}

std::string kept_free_text() { return percent_text(headroom) + " of memory kept free"; }

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

/// The catalog's range for a figure it marks uncertain: "$2.49/GPU·h to $3.99/GPU·h".
template <class Quantity>
std::string range_text(Quantity low, Quantity high) {
    return gpucalc::to_string(low) + " to " + gpucalc::to_string(high);
}

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------

void gpu_section() {
    std::cout << "== Accelerators (dense peaks; links per direction) ==\n\n";
    std::vector<std::vector<std::string>> rows{
        {"GPU", "memory", "bandwidth", "BF16", "FP8", "FP64", "TDP", "scale-up link"}};
    for (const gpucalc::gpu_spec* gpu : cat::all_gpus) {
        rows.push_back({gpu_name_text(*gpu), gpucalc::to_string(gpu->memory),
                        gpucalc::to_string(gpu->memory_bandwidth),
                        peak_text(*gpu, gpucalc::compute_precision::bf16),
                        peak_text(*gpu, gpucalc::compute_precision::fp8),
                        peak_text(*gpu, gpucalc::compute_precision::fp64),
                        gpu->tdp > 0.0_W ? gpucalc::to_string(gpu->tdp) : "n/p",
                        link_text(gpu->scale_up)});
    }
    print_table(rows);
    std::cout << "* Uncertain: the catalog marks these figures uncertain (the A10G's compute and"
                 " TDP, every figure of the others); catalog/gpus.hpp gives the ranges.\n\n";
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
    char parameters[32];
    std::snprintf(parameters, sizeof parameters, "%.0f billion", storage_parameters / 1e9);
    std::cout << "== Storage formats: " << parameters
              << " parameters (GB = 10^9 bytes, GiB = 2^30 bytes) ==\n\n";
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
    std::vector<std::vector<std::string>> rows{
        {"format", "bits/element", "weights (GB)", "weights (GiB)"}};
    for (const named_format& n : formats) {
        const gpucalc::data_size size = gpucalc::storage_size(storage_parameters, n.format);
        rows.push_back({n.name, bits_text(gpucalc::bits_per_element(n.format)),
                        gpucalc::to_string(size, {3, gpucalc::byte_prefixes::decimal}),
                        gpucalc::to_string(size, {3, gpucalc::byte_prefixes::binary})});
    }
    print_table(rows);
}

void models_section() {
    std::cout << "== Models: parameters and KV cache ==\n\n";
    std::vector<std::vector<std::string>> rows{
        {"model", "parameters", "active", "KV/token (16-bit)",
         join("KV at ", count_text(serving_context), " tokens"), "weights (bf16)"}};
    for (const gpucalc::transformer* m : cat::all_models) {
        const gpucalc::parameter_counts c = gpucalc::parameter_count(*m);
        const gpucalc::data_size kv = gpucalc::kv_cache_bytes_per_token(*m, gpucalc::formats::bf16);
        rows.push_back({std::string(m->name), billions(c.total), billions(c.active),
                        gpucalc::to_string(kv),
                        gpucalc::to_string(static_cast<double>(serving_context) * kv),
                        gpucalc::to_string(gpucalc::storage_size(static_cast<double>(c.total),
                                                                 gpucalc::formats::bf16))});
    }
    print_table(rows);
}

/// The serving setup every serving table starts from: one sequence of the serving context.
gpucalc::serving_setup one_sequence() {
    gpucalc::serving_setup setup{};
    setup.batch = 1;
    setup.context = serving_context;
    setup.prompt = serving_prompt;
    return setup;
}

void serving_section() {
    std::cout << "== Serving at bf16, " << kept_free_text()
              << ": tensor-parallel GPUs for one " << count_text(serving_context)
              << "-token sequence (up to " << node_text()
              << "), and the largest batch of such sequences at that degree ==\n\n";
    const gpucalc::gpu_spec* gpus[] = {&cat::l4, &cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200,
                                       &cat::mi300x};
    std::vector<std::string> header{"model"};
    for (const gpucalc::gpu_spec* g : gpus) header.push_back(std::string(g->name));
    std::vector<std::vector<std::string>> rows{header};
    for (const gpucalc::transformer* m : cat::all_models) {
        if (m->name == cat::gpt3_175b.name) continue;  // no public weights to serve
        std::vector<std::string> row{std::string(m->name)};
        const gpucalc::serving_setup setup = one_sequence();
        for (const gpucalc::gpu_spec* g : gpus) {
            const gpucalc::serving_fit fit =
                gpucalc::min_gpus_for_inference(*m, setup, *g, headroom, gpus_per_node);
            if (fit.outcome != gpucalc::fit_outcome::found) {
                row.push_back("> 1 node");
                continue;
            }
            gpucalc::serving_setup at = setup;
            at.parallel.tensor = fit.tensor_parallel;
            const std::int64_t batch = gpucalc::max_batch_for_inference(*m, at, *g, headroom);
            row.push_back(gpu_count_text(fit.gpus) + ", batch " + count_text(batch));
        }
        rows.push_back(row);
    }
    print_table(rows);
}

void training_section() {
    std::cout << "== Full training, AdamW mixed precision, ZeRO-3, full recompute, micro-batch "
              << training_micro_batch << " x " << count_text(training_sequence) << " tokens, "
              << kept_free_text() << ": fewest GPUs (and the nodes of "
              << gpus_per_node << " they take), and memory per GPU on " << node_text() << " ==\n\n";
    const gpucalc::gpu_spec* gpus[] = {&cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200};
    std::vector<std::string> header{"model"};
    for (const gpucalc::gpu_spec* g : gpus) header.push_back(std::string(g->name));
    header.push_back("per GPU on 1 node");
    std::vector<std::vector<std::string>> rows{header};
    gpucalc::training_job job{};
    job.sequence = training_sequence;
    gpucalc::training_strategy strategy{};
    strategy.micro_batch = training_micro_batch;
    strategy.parallel.zero_stage = 3;
    strategy.recompute = gpucalc::recompute::full;
    for (const gpucalc::transformer* m : {&cat::llama_2_7b, &cat::llama_3_8b, &cat::mistral_7b,
                                          &cat::llama_2_13b, &cat::llama_2_70b}) {
        std::vector<std::string> row{std::string(m->name)};
        for (const gpucalc::gpu_spec* g : gpus) {
            const gpucalc::training_fit fit =
                gpucalc::min_gpus_for_training(*m, job, strategy, *g, headroom);
            row.push_back(fit.outcome == gpucalc::fit_outcome::found
                              ? gpus_in_nodes_text(fit.gpus)
                              : std::string(gpucalc::to_string(fit.outcome)));
        }
        gpucalc::training_strategy one_node = strategy;
        one_node.parallel.data = gpus_per_node;
        row.push_back(
            gpucalc::to_string(gpucalc::training_memory_per_gpu(*m, job, one_node).total));
        rows.push_back(row);
    }
    print_table(rows);
}

void throughput_section() {
    const gpucalc::kernel_efficiency efficiency{};
    std::cout << "== Throughput at the fewest GPUs that hold the model; cells on more than one GPU"
                 " include the tensor-parallel all-reduces ==\n\n"
              << "Roofline at " << percent_text(efficiency.compute) << " of peak compute and "
              << percent_text(efficiency.memory) << " of peak bandwidth, bf16, "
              << kept_free_text() << ". Each cell: GPUs (tensor parallel, up to "
              << node_text() << "), decode tokens/s per stream at batch 1 and a "
              << count_text(serving_context) << "-token context, and time to first token for a "
              << count_text(serving_prompt) << "-token prompt.\n"
              << "Composed by scaling/inference.hpp on one node: each GPU's roofline time plus the"
                 " all-reduces over the node's link (NVLink, Infinity Fabric, or PCIe where a GPU"
                 " has no link spanning 8), none hidden behind compute.\n\n";
    const gpucalc::gpu_spec* gpus[] = {&cat::l4, &cat::a100_80gb_sxm, &cat::h100_sxm, &cat::h200,
                                       &cat::mi300x};
    std::vector<std::string> header{"model"};
    for (const gpucalc::gpu_spec* g : gpus) header.push_back(std::string(g->name));
    std::vector<std::vector<std::string>> rows{header};
    for (const gpucalc::transformer* m : {&cat::llama_3_8b, &cat::mistral_7b, &cat::mixtral_8x7b,
                                          &cat::llama_2_70b, &cat::llama_3_70b}) {
        std::vector<std::string> row{std::string(m->name)};
        // One setup for memory, decode and prefill: the layout found is said once.
        const gpucalc::serving_setup serve = one_sequence();
        for (const gpucalc::gpu_spec* g : gpus) {
            const gpucalc::serving_fit fit =
                gpucalc::min_gpus_for_inference(*m, serve, *g, headroom, gpus_per_node);
            if (fit.outcome != gpucalc::fit_outcome::found) {
                row.push_back("> 1 node");
                continue;
            }
            gpucalc::serving_setup at = serve;
            at.parallel.tensor = fit.tensor_parallel;
            // One node of this GPU; with TP 1 the answer is roofline's decode and prefill.
            gpucalc::cluster node{};
            node.node.gpu = *g;
            node.node.gpus_per_node = static_cast<std::int64_t>(gpus_per_node);
            char rate[32];
            std::snprintf(rate, sizeof rate, ": %.0f tok/s, ",
                          gpucalc::in<gpucalc::tokens_per_second_per_stream>(
                              gpucalc::decode_step_time(*m, node, at).stream_rate));
            row.push_back(gpu_count_text(fit.gpus) + rate +
                          gpucalc::to_string(
                              gpucalc::prefill_time(*m, node, at).time_to_first_token));
        }
        rows.push_back(row);
    }
    print_table(rows);

    std::cout << "== Time to train Llama-2-7B on " << gpucalc::to_string(llama_2_tokens) << " at "
              << percent_text(assumed_mfu) << " MFU on " << gpus_in_nodes_text(training_gpus)
              << ": the quick estimate at an assumed MFU ==\n\n"
              << "FLOPs counted exactly per token at " << count_text(training_sequence)
              << "-token sequences with full attention (every key scored, the MFU convention);"
                 " 6·N·D (Kaplan et al. 2020) beside it.\n"
              << "Meta reported " << gpucalc::to_string(llama_2_7b_reported_usage, {6})
              << " on A100 80GB (Touvron et al. 2023, Table 2). The MFU is a planning figure"
                 " (uncertain: " << percent_text(assumed_mfu_low) << " to "
              << percent_text(assumed_mfu_high) << " in published runs), with communication,"
                 " the pipeline bubble and the kernels' efficiency inside it; the next section"
                 " composes them for a layout instead. * Uncertain GPU figures, as in the first"
                 " table.\n\n";
    std::vector<std::vector<std::string>> train{
        {"GPUs", "time (exact count)", "GPU-hours (exact count)", "GPU-hours (6·N·D)"}};
    gpucalc::training_job job{};
    job.sequence = training_sequence;
    gpucalc::parallel_layout layout{};
    layout.data = training_gpus;
    gpucalc::mfu_assumption exact{};
    exact.mfu = assumed_mfu;
    gpucalc::mfu_assumption six_n_d = exact;
    six_n_d.six_n_d = true;
    const gpucalc::gpu_count cluster = static_cast<double>(training_gpus) * 1.0_gpu;
    for (const gpucalc::gpu_spec* g : {&cat::a100_80gb_sxm, &cat::h100_sxm, &cat::b200}) {
        const gpucalc::duration t =
            gpucalc::time_to_train_at_mfu(cat::llama_2_7b, *g, llama_2_tokens, job, layout, exact);
        const gpucalc::duration t6 =
            gpucalc::time_to_train_at_mfu(cat::llama_2_7b, *g, llama_2_tokens, job, layout, six_n_d);
        train.push_back({count_text(training_gpus) + " x " + gpu_name_text(*g),
                         gpucalc::to_string(t), gpucalc::to_string(cluster * t),
                         gpucalc::to_string(cluster * t6)});
    }
    print_table(train);
}

/// A training run the scaling section predicts: the model, its layout and its composed step.
struct scaled_run {
    const gpucalc::transformer* model;
    gpucalc::training_strategy strategy;
    gpucalc::training_step step;
    bool found;  ///< false: no candidate layout fits
};

/// The scaling section's cluster: scaling_gpus H100 SXM in nodes of gpus_per_node.
gpucalc::cluster scaling_cluster() {
    gpucalc::cluster c{};
    c.node.gpu = cat::h100_sxm;
    c.node.gpus_per_node = static_cast<std::int64_t>(gpus_per_node);
    c.nodes = static_cast<std::int64_t>(scaling_gpus / gpus_per_node);
    c.inter_node = cat::infiniband_ndr;
    return c;
}

gpucalc::training_job scaling_job() {
    gpucalc::training_job job{};
    job.sequence = scaling_sequence;
    job.global_batch = scaling_global_batch;
    return job;
}

/// The first candidate layout (scaling_candidates) whose memory fits with the headroom, with
/// selective recompute, else with full recompute.
scaled_run predict(const gpucalc::transformer& m) {
    const gpucalc::checked_model model = gpucalc::check(m);
    const gpucalc::checked_cluster cluster = gpucalc::check(scaling_cluster());
    const gpucalc::training_job job = scaling_job();
    for (gpucalc::recompute recompute :
         {gpucalc::recompute::selective, gpucalc::recompute::full}) {
        for (const auto& tp : scaling_candidates) {
            const std::int64_t model_parallel = tp[0] * tp[1];
            if (scaling_gpus % model_parallel != 0) continue;
            gpucalc::training_strategy s{};
            s.parallel.tensor = tp[0];
            s.parallel.pipeline = tp[1];
            s.parallel.data = scaling_gpus / model_parallel;
            s.parallel.sequence_parallel = tp[0] > 1;
            s.parallel.zero_stage = scaling_zero_stage;
            s.micro_batch = scaling_micro_batch;
            s.recompute = recompute;
            if (scaling_global_batch % (s.micro_batch * s.parallel.data) != 0) continue;
            const gpucalc::training_step step =
                gpucalc::training_step_time(model, cluster, job, s);
            if (gpucalc::fits(step.memory, cat::h100_sxm, headroom).ok) {
                return {&m, s, step, true};
            }
        }
    }
    return {&m, gpucalc::training_strategy{}, gpucalc::training_step{}, false};
}

/// The models the scaling section predicts, Llama 3's three sizes.
std::vector<scaled_run> scaled_runs() {
    std::vector<scaled_run> runs;
    for (const gpucalc::transformer* m : {&cat::llama_3_8b, &cat::llama_3_70b,
                                          &cat::llama_3_1_405b}) {
        runs.push_back(predict(*m));
    }
    return runs;
}

/// "TP8 PP16 DP8", with ", full recompute" where selective did not fit.
std::string layout_text(const gpucalc::training_strategy& s) {
    const gpucalc::parallel_layout& p = s.parallel;
    return join("TP", std::to_string(p.tensor), " PP", std::to_string(p.pipeline), " DP",
                std::to_string(p.data),
                s.recompute == gpucalc::recompute::full ? ", full recompute" : "");
}

/// A share of a step: 0.1234 → "12.3%".
std::string share_text(double fraction) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", 100.0 * fraction);
    return text;
}

void scaling_section() {
    std::cout << "== Training step on " << count_text(scaling_gpus) << " H100 SXM ("
              << count_text(scaling_gpus / gpus_per_node) << " nodes of " << gpus_per_node
              << ", scaling/step.hpp): Llama 3 at " << count_text(scaling_global_batch)
              << " sequences of " << count_text(scaling_sequence) << " tokens a step, "
              << gpucalc::to_string(llama_3_tokens) << " to train ==\n\n"
              << "Composed, not assumed: each step is its compute, recompute, exposed tensor-,"
                 " pipeline- and data-parallel communication, pipeline bubble and optimizer"
                 " step, from the layout on the cluster (1F1B schedule; docs/scaling.md gives the"
                 " terms and their sources). NVLink 4 in a node, one InfiniBand NDR port a GPU"
                 " between nodes.\n"
              << "Layout: the smallest tensor x pipeline size that fits with "
              << kept_free_text() << ", tensor parallel first up to the node, then pipeline"
                 " stages, data parallel over the rest (Narayanan et al. 2021, Section 3.3);"
                 " sequence parallel, selective recompute (full where selective fits no"
                 " candidate), ZeRO-" << scaling_zero_stage
              << " (distributed optimizer), micro-batch " << scaling_micro_batch
              << ", AdamW, bf16.\n"
              << "Batch and token budget as Llama 3's pretraining (Dubey et al. 2024, Section"
                 " 3.4.1 and Section 1). Shares are of the step: compute includes recompute;"
                 " communication is the exposed part only.\n"
              << "Published for comparison: Llama 3 405B trained at "
              << percent_text(llama_3_405b_mfu_low) << " to " << percent_text(llama_3_405b_mfu_high)
              << " MFU on 8,192 to 16,384 H100 (Dubey et al. 2024, Table 4), with other GPU"
                 " counts and layouts than here.\n\n";
    std::vector<std::vector<std::string>> rows{
        {"model", "layout", "memory/GPU", "step", "tokens/s", "MFU", "compute", "comm.",
         "bubble", "time to train", "GPU-hours"}};
    for (const scaled_run& r : scaled_runs()) {
        if (!r.found) {
            rows.push_back({std::string(r.model->name), "no candidate layout fits", "-", "-",
                            "-", "-", "-", "-", "-", "-", "-"});
            continue;
        }
        const gpucalc::training_step& s = r.step;
        const double step = s.time.value();
        const double compute = (s.compute + s.recompute).value() / step;
        const double comm = (s.tensor_comm + s.pipeline_comm + s.expert_comm + s.context_comm +
                             s.data_comm)
                                .value() /
                            step;
        const gpucalc::duration time = gpucalc::time_to_train(s, llama_3_tokens);
        char rate[32];
        std::snprintf(rate, sizeof rate, "%.3g M",
                      gpucalc::in<gpucalc::tokens_per_second>(s.tokens_per_second) / 1e6);
        rows.push_back({std::string(r.model->name), layout_text(r.strategy),
                        gpucalc::to_string(s.memory.total), gpucalc::to_string(s.time), rate,
                        percent_text(s.mfu), share_text(compute), share_text(comm),
                        share_text(s.bubble.value() / step), gpucalc::to_string(time),
                        gpucalc::to_string(static_cast<double>(s.gpus) * 1.0_gpu * time)});
    }
    print_table(rows);
}

void checkpoint_section() {
    gpucalc::checkpoint_storage nvme{};
    nvme.per_node = {checkpoint_drives_per_node * gpucalc::storage_rates::nvme_pcie_gen4.write,
                     checkpoint_drives_per_node * gpucalc::storage_rates::nvme_pcie_gen4.read};
    nvme.durable = false;  // instance storage
    gpucalc::checkpoint_storage lustre{};
    lustre.per_node = {cat::load_paths::nic_100g.read, cat::load_paths::nic_100g.read};
    lustre.shared = true;
    lustre.aggregate = {checkpoint_lustre_tib * gpucalc::storage_rates::fsx_lustre_per_tib_1000.write,
                        checkpoint_lustre_tib * gpucalc::storage_rates::fsx_lustre_per_tib_1000.read};
    const gpucalc::duration between = gpucalc::mean_time_between_interruptions(
        gpucalc::llama3_interruptions_per_gpu_hour, scaling_gpus);
    std::cout << "== Checkpoints of the training runs above (operations/): synchronous, on"
                 " demand, an interruption every "
              << gpucalc::to_string(between) << " on " << count_text(scaling_gpus)
              << " GPUs at the Llama 3 report's rate ==\n\n"
              << "A checkpoint is the bf16 weights, the fp32 master copy and AdamW's two moments"
                 " (14 bytes a parameter); the total is one copy whatever the layout. Each node"
                 " writes what its GPUs hold to NVMe; to Lustre, an even share of one copy; the"
                 " interval is Daly's for the stall, the period"
                 " covering the write; overhead is checkpoints, lost work and restarts (restore,"
                 " a write in flight, plus "
              << gpucalc::to_string(gpucalc::default_restart_overhead)
              << ") over the time to train.\n"
              << "NVMe: " << checkpoint_drives_per_node
              << " PCIe 4.0 drives a node (Samsung PM9A3), drained to Lustre and restored from it"
                 " (local drives alone are lost with a failed node). Lustre: FSx for Lustre, "
              << checkpoint_lustre_tib << " TiB at 1,000 MB/s per TiB, one 100 Gb/s NIC a"
                 " node.\n\n";
    std::vector<std::vector<std::string>> rows{
        {"model", "checkpoint", "per GPU", "NVMe stall", "durable", "every", "overhead",
         "Lustre write", "every", "overhead"}};
    for (const scaled_run& r : scaled_runs()) {
        if (!r.found) continue;
        const gpucalc::checkpoint_size size =
            gpucalc::training_checkpoint_size(*r.model, scaling_job(), r.strategy.parallel);
        std::vector<std::string> row{std::string(r.model->name), gpucalc::to_string(size.total),
                                     gpucalc::to_string(size.per_gpu)};
        for (const bool local : {true, false}) {
            gpucalc::checkpoint_io_setup setup{};
            setup.storage = local ? nvme : lustre;
            setup.drains = local;
            setup.drain_to = lustre;
            setup.gpus_per_node = gpus_per_node;
            const gpucalc::checkpoint_io io = gpucalc::checkpoint_io_time(size, setup);
            gpucalc::checkpointed_run run{};
            run.work = gpucalc::time_to_train(r.step, llama_3_tokens);
            run.gpus = static_cast<double>(r.step.gpus) * 1.0_gpu;
            run.on_demand = aws_price;
            const gpucalc::checkpointed_estimate e = gpucalc::checkpointed_run_cost(io, run);
            if (local) row.push_back(gpucalc::to_string(io.stall));
            row.push_back(gpucalc::to_string(io.write));
            row.push_back(gpucalc::to_string(e.run.interval));
            row.push_back(share_text(e.run.overhead));
        }
        rows.push_back(row);
    }
    print_table(rows);
}

void cost_section() {
    std::cout << "== Cost at dated prices (catalog/prices.hpp): H100 SXM on demand at "
              << gpucalc::to_string(lambda_price) << " (" << lambda_price_label
              << "; uncertain*) and " << gpucalc::to_string(aws_price) << " (AWS "
              << cat::aws_p5_48xlarge.name << ", "
              << gpucalc::to_string(prices::aws_p5_48xlarge_on_demand_2026, {4}) << " over "
              << cat::aws_p5_48xlarge.gpus << " GPUs, " << aws_price_label << ") ==\n\n";
    const gpucalc::gpu_price columns_at[] = {lambda_price, aws_price};
    std::vector<std::vector<std::string>> rows{
        {"question", join("at ", gpucalc::to_string(lambda_price), "*"),
         join("at ", gpucalc::to_string(aws_price))}};

    gpucalc::training_job job{};
    job.sequence = training_sequence;
    gpucalc::parallel_layout layout{};
    layout.data = training_gpus;
    gpucalc::mfu_assumption exact{};
    exact.mfu = assumed_mfu;
    std::vector<std::string> train{join("train Llama-2-7B on ", gpucalc::to_string(llama_2_tokens),
                                        " (", count_text(training_gpus), " H100, ",
                                        percent_text(assumed_mfu),
                                        " MFU, exact FLOP count): the quick estimate")};
    for (gpucalc::gpu_price p : columns_at) {
        train.push_back(gpucalc::to_string(
            gpucalc::training_cost(cat::llama_2_7b, cat::h100_sxm, llama_2_tokens, job, layout, p,
                                   exact)
                .cost));
    }
    rows.push_back(train);
    // The scaling section's runs, priced at their composed steps' pace.
    for (const scaled_run& r : scaled_runs()) {
        if (!r.found) continue;
        std::vector<std::string> row{join("train ", r.model->name, " on ",
                                          gpucalc::to_string(llama_3_tokens), " (",
                                          count_text(scaling_gpus), " H100, ",
                                          layout_text(r.strategy), ", composed step)")};
        for (gpucalc::gpu_price p : columns_at) {
            row.push_back(gpucalc::to_string(
                gpucalc::training_cost(r.step, llama_3_tokens, p).cost));
        }
        rows.push_back(row);
    }

    gpucalc::serving_setup serve = one_sequence();
    serve.batch = serving_cost_batch;
    const bool serve_fits =
        gpucalc::fits(gpucalc::inference_memory_per_gpu(cat::llama_3_8b, serve), cat::h100_sxm,
                      headroom)
            .ok;
    std::vector<std::string> serving{"serve Llama-3-8B, 1 H100, batch " +
                                     count_text(serving_cost_batch) + ", " +
                                     count_text(serving_context) +
                                     "-token context: per output token, decode only"};
    for (gpucalc::gpu_price p : columns_at) {
        serving.push_back(serve_fits ? gpucalc::to_string(gpucalc::serving_cost_per_million_tokens(
                                           cat::llama_3_8b, cat::h100_sxm, serve, p))
                                     : std::string("does not fit"));
    }
    rows.push_back(serving);

    gpucalc::ownership dgx{};
    dgx.capex = dgx_price;
    dgx.gpus = dgx_gpus;
    dgx.full_power = prices::dgx_h100_power;
    dgx.electricity = electricity;
    dgx.maintenance_per_year = maintenance_per_year;
    dgx.space = prices::colocation_2024 * prices::dgx_h100_power;
    for (gpucalc::duration life : service_lives) {
        dgx.service_life = life;
        char label[96];
        std::snprintf(label, sizeof label, "own a DGX H100 (%s*) for %.0f years instead?",
                      gpucalc::to_string(dgx_price).c_str(), gpucalc::in<gpucalc::years>(life));
        std::vector<std::string> row{label};
        for (gpucalc::gpu_price p : columns_at) {
            const gpucalc::breakeven b = gpucalc::rent_vs_buy(dgx, p);
            row.push_back(b.reached ? join("buy above ", percent_text(b.utilization), " use")
                                    : std::string("never buy"));
        }
        rows.push_back(row);
    }

    gpucalc::spot_job week{};
    week.work = spot_work;
    week.gpus = spot_gpus;
    week.discount = spot_discount;
    week.mean_time_between_preemptions = spot_mean_time_between_reclaims;
    week.checkpoint_time = spot_checkpoint_time;
    week.restart_time = spot_restart_time;
    char spot_label[112];
    std::snprintf(spot_label, sizeof spot_label,
                  "a week on %.0f GPUs, spot (%s off, a reclaim every %s) vs on demand",
                  gpucalc::in<gpucalc::gpus>(spot_gpus), percent_text(spot_discount).c_str(),
                  gpucalc::to_string(spot_mean_time_between_reclaims).c_str());
    std::vector<std::string> spot{spot_label};
    for (gpucalc::gpu_price p : columns_at) {
        week.on_demand = p;
        const gpucalc::spot_estimate e = gpucalc::spot_cost(week);
        spot.push_back(gpucalc::to_string(e.spot_cost) + " vs " +
                       gpucalc::to_string(e.on_demand_cost));
    }
    rows.push_back(spot);
    print_table(rows);

    std::cout << "* Uncertain, with the catalog's ranges: Lambda's H100 price, "
              << range_text(lambda_price_low, lambda_price_high)
              << " by listing and month; the DGX H100's price, "
              << range_text(dgx_price_low, dgx_price_high)
              << " by configuration, support and date. Also uncertain: electricity, "
              << gpucalc::to_string(electricity) << " (US industrial, 2023), "
              << range_text(electricity_low, electricity_high) << " by state.\n"
              << "Owning also pays " << percent_text(maintenance_per_year)
              << " of the price a year for support (an assumption), colocation for "
              << gpucalc::to_string(prices::dgx_h100_power) << " at CBRE's H2 2024 rate, and power"
                 " at PUE " << dgx.pue << ", idling at " << percent_text(dgx.idle_power_fraction)
              << " of full draw.\n"
              << "The serving cost is decode only: each request's prefill (its "
              << count_text(serving_prompt) << "-token prompt) would add to it.\n\n";

    const gpucalc::energy day = gpucalc::job_energy(prices::dgx_h100_power, energy_time);
    std::cout << "A DGX H100 at full power (" << gpucalc::to_string(prices::dgx_h100_power)
              << ") for " << gpucalc::to_string(energy_time) << ": " << day << " at PUE "
              << gpucalc::default_pue << ", "
              << gpucalc::emissions(day, cat::grid::us_2023_direct) << " CO2 on the 2023 US grid, "
              << gpucalc::emissions(day, cat::grid::france_2023_lifecycle) << " in France.\n\n";
}

/// One serving-capacity row's replica: a model on a GPU at a weight format; one GPU a replica,
/// or (search_tensor) the tensor-parallel degree chosen as the section's heading says.
struct capacity_case {
    const gpucalc::transformer* model;
    const gpucalc::gpu_spec* gpu;
    gpucalc::storage_format weights;
    const char* weights_name;
    bool search_tensor;
};

/// One sizing at a tensor-parallel degree.
struct capacity_choice {
    std::int64_t tensor = 0;
    gpucalc::replicas_estimate estimate{};
};

void serving_capacity_section() {
    gpucalc::request_profile chat{};
    chat.prompt_mean = chat_prompt;
    chat.output_mean = chat_output;
    chat.prompt_p90 = chat_prompt_p90;
    chat.output_p90 = chat_output_p90;
    gpucalc::serving_slo slo{};
    slo.time_to_first_token = chat_ttft;
    slo.time_per_output_token = chat_tpot;
    const gpucalc::replicas_assumptions assumptions = [] {
        gpucalc::replicas_assumptions a{};
        a.replica.memory_headroom = headroom;
        return a;
    }();
    std::cout << "== Serving capacity (serving/replicas.hpp): replicas for a request rate at a"
                 " chat SLO, p" << 100.0 * assumptions.ttft_percentile << " time to first token "
              << gpucalc::to_string(chat_ttft) << " and " << gpucalc::to_string(chat_tpot)
              << " per output token ==\n\n"
              << "Requests: " << count_text(chat_prompt) << "-token prompts and "
              << count_text(chat_output) << "-token answers (p90 " << count_text(chat_prompt_p90)
              << " and " << count_text(chat_output_p90) << ", the KV cache sized at the p90s;"
                 " illustrative), Poisson arrivals, routed round-robin. Continuous batching, "
              << kept_free_text() << ". Llama-3-8B: one GPU a replica. Llama-3-70B: of the"
                 " tensor-parallel degrees in " << node_text() << " from the smallest that holds"
                 " one sequence of that context, the one needing the fewest GPUs at the rate (the"
                 " smaller on a tie). Batch: a replica's, the largest that fits and meets the time"
                 " per token.\n"
              << "Two modes: prefill stalls the batch on the replica, or runs on separate prefill"
                 " GPUs (disaggregated; GPUs then read decode+prefill, the KV hand-over not"
                 " modelled). Break: the rate at which that many replicas stop meeting the SLO."
                 " $/M: per million output tokens at " << gpucalc::to_string(lambda_price)
              << "* (" << lambda_price_label << "), the GPUs paid for busy or idle; the catalog"
                 " holds no L4 price.\n\n";
    namespace f = gpucalc::formats;
    const capacity_case cases[] = {{&cat::llama_3_8b, &cat::h100_sxm, f::bf16, "bf16", false},
                                   {&cat::llama_3_8b, &cat::l4, f::int4_g128, "int4", false},
                                   {&cat::llama_3_70b, &cat::h100_sxm, f::bf16, "bf16", true}};
    std::vector<std::vector<std::string>> rows{{"model", "GPU", "mode", "req/s", "replicas",
                                                "batch", "GPUs", "util.", "p99 TTFT", "break",
                                                "$/M tok"}};
    std::string smallest_notes;
    for (const capacity_case& k : cases) {
        gpucalc::serving_setup setup{};
        setup.weights = k.weights;
        setup.kv_block_tokens = chat_kv_block_tokens;
        gpucalc::serving_setup one = setup;
        one.batch = 1;
        one.context = chat_prompt_p90 + chat_output_p90;
        one.prompt = chat_prompt_p90;
        const gpucalc::serving_fit fit =
            gpucalc::min_gpus_for_inference(*k.model, one, *k.gpu, headroom, gpus_per_node);
        const std::string gpu_text = std::string(k.gpu->name) + " " + k.weights_name;
        if (fit.outcome != gpucalc::fit_outcome::found) {
            rows.push_back({std::string(k.model->name), gpu_text, "> 1 node"});
            continue;
        }
        gpucalc::cluster node{};
        node.node.gpu = *k.gpu;
        node.node.gpus_per_node = static_cast<std::int64_t>(gpus_per_node);
        const gpucalc::checked_model m = gpucalc::check(*k.model);
        const gpucalc::checked_cluster c = gpucalc::check(node);
        for (gpucalc::prefill_mode mode :
             {gpucalc::prefill_mode::stall, gpucalc::prefill_mode::disaggregated}) {
            // Each degree's replica, estimated once for both rates.
            std::vector<std::pair<std::int64_t, gpucalc::replica_capacity_estimate>> replicas;
            const std::int64_t largest = k.search_tensor ? gpus_per_node : fit.tensor_parallel;
            for (std::int64_t t = fit.tensor_parallel; t <= largest; t *= 2) {
                gpucalc::serving_setup at = setup;
                at.parallel.tensor = t;
                replicas.emplace_back(t, gpucalc::replica_capacity(m, c, at, chat, slo, mode,
                                                                   assumptions.replica));
            }
            for (double rate : chat_rates) {
                capacity_choice best{};
                capacity_choice smallest{};
                for (const auto& r : replicas) {
                    const gpucalc::replicas_estimate e = gpucalc::replicas_for_rate(
                        r.second, chat, gpucalc::routing::round_robin,
                        gpucalc::make<gpucalc::requests_per_second>(rate), assumptions);
                    if (r.first == fit.tensor_parallel) smallest = {r.first, e};
                    if (e.found && (!best.estimate.found ||
                                    e.total_gpus < best.estimate.total_gpus)) {
                        best = {r.first, e};
                    }
                }
                const gpucalc::replicas_estimate& e = best.estimate;
                std::vector<std::string> row{
                    std::string(k.model->name),
                    best.tensor > 1 ? gpu_text + ", TP" + std::to_string(best.tensor) : gpu_text,
                    std::string(gpucalc::to_string(mode)),
                    count_text(static_cast<std::int64_t>(rate))};
                if (!e.found) {
                    row.push_back(join("no: ", gpucalc::to_string(smallest.estimate.verdict)));
                    rows.push_back(row);
                    continue;
                }
                if (best.tensor != smallest.tensor && smallest.estimate.found &&
                    mode == gpucalc::prefill_mode::stall &&
                    rate == chat_rates[std::size(chat_rates) - 1]) {  // the largest rate
                    char note[256];
                    std::snprintf(note, sizeof note,
                                  "%s on %s: TP%lld, the smallest degree that holds a sequence,"
                                  " runs a batch of %lld and would take %s GPUs at %.0f req/s"
                                  " (stall).\n",
                                  k.model->name.data(), k.gpu->name.data(),
                                  static_cast<long long>(smallest.tensor),
                                  static_cast<long long>(smallest.estimate.replica.batch),
                                  count_text(smallest.estimate.total_gpus).c_str(), rate);
                    smallest_notes += note;
                }
                char util[16], brk[32], ttft[32];
                std::snprintf(util, sizeof util, "%.2f", e.utilization);
                std::snprintf(brk, sizeof brk, "%.1f/s",
                              gpucalc::in<gpucalc::requests_per_second>(e.break_rate));
                std::snprintf(ttft, sizeof ttft, "%.0f ms",
                              gpucalc::in<gpucalc::milliseconds>(e.time_to_first_token));
                row.push_back(count_text(e.replicas));
                row.push_back(count_text(e.replica.batch));
                // Appended, not "+" + text: see join().
                std::string gpus_text = count_text(e.gpus);
                if (e.prefill_gpus > 0) gpus_text.append("+").append(count_text(e.prefill_gpus));
                row.push_back(gpus_text);
                row.push_back(util);
                row.push_back(ttft);
                row.push_back(brk);
                if (k.gpu == &cat::h100_sxm) {
                    char cost[32];
                    std::snprintf(cost, sizeof cost, "$%.3f*",
                                  gpucalc::in<gpucalc::usd_per_million_tokens>(
                                      gpucalc::replicas_cost_per_million_tokens(e, chat_output,
                                                                                lambda_price)));
                    row.push_back(cost);
                } else {
                    row.push_back("-");
                }
                rows.push_back(row);
            }
        }
    }
    print_table(rows);
    std::cout << smallest_notes
              << "* Uncertain: Lambda's H100 price, as in the cost section. The replica model,"
                 " its assumptions and where it departs from a simulation: docs/serving.md.\n\n";
}

/// The mixed-fleet rows: the cheapest mix of L4 (int4), A100 40 GB and H100 for Llama-3-8B over
/// a request-size mix, at the chat SLO and rates, against the best single type.
void mixed_fleet_section() {
    gpucalc::serving_slo slo{};
    slo.time_to_first_token = chat_ttft;
    slo.time_per_output_token = chat_tpot;
    gpucalc::fleet_assumptions assumptions{};
    assumptions.replicas.replica.memory_headroom = headroom;
    gpucalc::serving_setup bf16{};
    bf16.kv_block_tokens = chat_kv_block_tokens;
    gpucalc::serving_setup int4 = bf16;
    int4.weights = gpucalc::formats::int4_g128;
    const auto one = [](const gpucalc::gpu_spec& g) {
        gpucalc::cluster c{};
        c.node.gpu = g;
        c.node.gpus_per_node = 1;
        return c;
    };
    const gpucalc::fleet_gpu_type types[] = {
        {"L4", one(cat::l4), int4, l4_example_price},
        {"A100", one(cat::a100_40gb_sxm), bf16, prices::lambda_a100_40gb_on_demand_2026},
        {"H100", one(cat::h100_sxm), bf16, lambda_price}};
    std::vector<gpucalc::fleet_bucket> buckets;
    std::string mix;
    for (const fleet_mix_bucket& b : fleet_mix) {
        buckets.push_back({{b.prompt, b.output, b.prompt_p90, b.output_p90}, b.share});
        mix += join(mix.empty() ? "" : ", ", percent_text(b.share), " ", count_text(b.prompt), "+",
                    count_text(b.output));
    }
    std::cout << "== Mixed fleet (serving/fleet.hpp): Llama-3-8B at the chat SLO over a mix of"
                 " request sizes, the cheapest mix of L4 (int4), A100 40 GB and H100 against the"
                 " best single type ==\n\n"
              << "Requests (share, prompt+answer tokens; p90s twice the means, 1.5 times for the"
                 " longest prompts; illustrative): " << mix << ". Each size goes to one GPU type;"
                 " a type runs the replicas its summed load fractions need (Griggs et al. 2024,"
                 " Mélange). One GPU a replica. Prices: L4 " << gpucalc::to_string(l4_example_price)
              << " (illustrative), A100 "
              << gpucalc::to_string(prices::lambda_a100_40gb_on_demand_2026)
              << "* (Lambda, 2026), H100 " << gpucalc::to_string(lambda_price) << "* ("
              << lambda_price_label << "). Buckets: the type serving each size, shortest first.\n\n";
    std::vector<std::vector<std::string>> rows{
        {"mode", "req/s", "cheapest fleet", "buckets", "$/h", "$/M tok", "best single", "$/h",
         "saving"}};
    const gpucalc::checked_model m = gpucalc::check(cat::llama_3_8b);
    const auto fleet_text = [&](const gpucalc::fleet_choice& c) {
        std::string text;
        for (std::size_t g = 0; g < std::size(types); ++g) {
            if (c.replicas[g] == 0) continue;
            text += join(text.empty() ? "" : " + ", count_text(c.replicas[g]), " ", types[g].name);
        }
        return text;
    };
    for (gpucalc::prefill_mode mode : {gpucalc::prefill_mode::stall, gpucalc::prefill_mode::chunked}) {
        for (double rate : chat_rates) {
            const gpucalc::fleet_plan p = gpucalc::plan_fleet(
                m, types, buckets, gpucalc::make<gpucalc::requests_per_second>(rate), slo, mode,
                gpucalc::routing::round_robin, assumptions);
            std::vector<std::string> row{std::string(gpucalc::to_string(mode)),
                                         count_text(static_cast<std::int64_t>(rate))};
            if (!p.found) {
                row.push_back(join("no: ", gpucalc::to_string(p.verdict)));
                rows.push_back(row);
                continue;
            }
            std::string map;
            for (std::size_t b = 0; b < buckets.size(); ++b) {
                map += std::string(types[p.cheapest.bucket_type[b]].name).substr(0, 1);
            }
            char hourly[32], per_m[32], single[32], saving[48];
            std::snprintf(hourly, sizeof hourly, "$%.2f",
                          gpucalc::in<gpucalc::usd_per_hour>(p.cheapest.hourly));
            std::snprintf(per_m, sizeof per_m, "$%.3f",
                          gpucalc::in<gpucalc::usd_per_million_tokens>(p.cheapest.per_million));
            std::snprintf(single, sizeof single, "$%.2f",
                          gpucalc::in<gpucalc::usd_per_hour>(p.best_single.hourly));
            std::snprintf(saving, sizeof saving, "$%.2f/h (%s)",
                          gpucalc::in<gpucalc::usd_per_hour>(p.saving),
                          percent_text(p.saving_share).c_str());
            row.insert(row.end(), {fleet_text(p.cheapest), map, hourly, per_m,
                                   fleet_text(p.best_single), single, saving});
            rows.push_back(row);
        }
    }
    print_table(rows);
    std::cout << "* Uncertain: Lambda's prices, as in the cost section (the A100's and the H100's"
                 " are not from one price list). The method, its assumptions and an example at"
                 " more rates: docs/serving.md, \"Mixed GPU fleets\".\n\n";
}

void units_section() {
    std::cout << "== Units at the boundaries ==\n\n";
    const gpucalc::cost_rate instance = prices::aws_p5_48xlarge_on_demand_2026;
    const gpucalc::gpu_time budget_usage = 1000.0_gpu_hours;  // an illustrative budget
    std::vector<std::vector<std::string>> rows{{"question", "answer"}};
    rows.push_back({join("AWS p5.48xlarge at ", gpucalc::to_string(instance, {4}), " for ",
                         gpu_count_text(cat::aws_p5_48xlarge.gpus), ", per GPU"),
                    gpucalc::to_string(gpucalc::per_gpu(instance, p5_gpus))});
    rows.push_back({gpucalc::to_string(budget_usage) + " at " + gpucalc::to_string(lambda_price),
                    gpucalc::to_string(gpucalc::job_cost(budget_usage, lambda_price))});
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
    scaling_section();
    checkpoint_section();
    cost_section();
    serving_capacity_section();
    mixed_fleet_section();
    units_section();
    return 0;
}
