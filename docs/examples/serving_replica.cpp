// Llama-3-8B chat on one L4 and on one H100 SXM: the largest batch that keeps 30 tokens/s
// (33 ms per token) and a 500 ms first token, and what each replica sustains when prefill stalls
// the batch, is chunked into it, or runs on other GPUs. The request lengths (1,024-token prompts,
// 256-token answers, p90 2,048 and 512) are illustrative, not measured.
#include <gpucalc/gpucalc.hpp>

#include <cstddef>
#include <iostream>
#include <string>

namespace {
std::string padded(const std::string& text, std::size_t width) {
    std::size_t shown = 0;
    for (char c : text) shown += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return text + std::string(shown < width ? width - shown : 0, ' ');
}
}  // namespace

int main() {
    namespace cat = gpucalc::catalog;
    using namespace gpucalc;
    const checked_model llama = check(cat::llama_3_8b);
    const request_profile chat{.prompt_mean = 1024, .output_mean = 256, .prompt_p90 = 2048,
                               .output_p90 = 512};
    const serving_slo slo{.time_to_first_token = make<milliseconds>(500.0),
                          .time_per_output_token = make<milliseconds>(33.0)};
    serving_setup setup{};
    setup.kv_block_tokens = 16;  // vLLM's paged blocks

    std::cout << padded("GPU, mode", 26) << padded("batch", 7) << padded("T(B)", 10)
              << padded("prefill", 10) << padded("TTFT floor", 12) << padded("no-prefill", 17)
              << padded("capacity", 17) << padded("at SLO", 17) << "TPOT at SLO rate\n";
    // bf16; fp8 weights and matmuls (both GPUs have fp8 tensor cores); int4 weights with
    // group-128 scales (AWQ-style), dequantized to bf16 matmuls.
    struct option {
        const gpu_spec* gpu;
        const char* label;
        storage_format weights;
        compute_precision compute;
    };
    for (const option& o :
         {option{&cat::l4, "", formats::bf16, compute_precision::bf16},
          option{&cat::l4, " fp8", formats::fp8_e4m3, compute_precision::fp8},
          option{&cat::l4, " int4", formats::int4_g128, compute_precision::bf16},
          option{&cat::h100_sxm, "", formats::bf16, compute_precision::bf16}}) {
        const checked_cluster node = check(cluster{.node = {.gpu = *o.gpu, .gpus_per_node = 1}});
        setup.weights = o.weights;
        setup.compute = o.compute;
        for (prefill_mode mode :
             {prefill_mode::stall, prefill_mode::chunked, prefill_mode::disaggregated}) {
            const replica_capacity_estimate r =
                replica_capacity(llama, node, setup, chat, slo, mode);
            std::cout << padded(std::string(o.gpu->name) + o.label + ", " + std::string(to_string(mode)), 26);
            if (!r.feasible) {
                std::cout << "not feasible: " << to_string(r.verdict) << "\n";
                continue;
            }
            std::cout << padded(std::to_string(r.batch), 7)
                      << padded(to_string(r.time_per_token), 10)
                      << padded(to_string(r.prefill_time), 10)
                      << padded(to_string(r.time_to_first_token), 12)
                      << padded(to_string(r.decode_only_rate), 17)
                      << padded(to_string(r.capacity), 17)
                      << padded(to_string(r.sustainable_rate), 17)
                      << to_string(r.time_per_token_at_rate) << "\n";
            if (mode == prefill_mode::disaggregated) {
                std::cout << "  prefill GPUs per decode GPU at that rate: "
                          << std::to_string(r.prefill_replicas_per_decode_replica).substr(0, 4)
                          << "\n";
            }
        }
    }
}
