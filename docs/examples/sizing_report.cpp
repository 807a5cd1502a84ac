// sizing_report.cpp: gpucalc-report, the main job. It prints a fixed set of sizing scenarios
// from the catalogs as plain-text tables; later modules add memory, throughput and cost.
// Written in C++17 so it builds in every configuration.
#include <gpucalc/gpucalc.hpp>

#include <algorithm>
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
    units_section();
    return 0;
}
