// catalog/models.hpp: published transformer configurations, each citing its config or paper
#pragma once

#include <array>

#include "../model.hpp"

namespace gpucalc {
namespace catalog {

// Llama and Mistral models: gated (SwiGLU) MLP, RMSNorm, rotary positions, no biases, untied
// embeddings. Their exact parameter counts (tests/unit/model_test.cpp) are derived from the
// configs each entry cites; Llama-2-7b-hf's 6,738,415,616 is also the count transformers reports
// for the loaded checkpoint.

namespace detail_models {
constexpr transformer llama_like(std::string_view name, std::int64_t layers, std::int64_t hidden,
                                 std::int64_t heads, std::int64_t kv_heads,
                                 std::int64_t ffn_hidden, std::int64_t vocab,
                                 std::int64_t max_context) {
    transformer m{};
    m.name = name;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = kv_heads;
    m.head_dim = hidden / heads;
    m.ffn_hidden = ffn_hidden;
    m.vocab = vocab;
    m.max_context = max_context;
    return m;
}

/// The GPT-2/3 family as Megatron-LM trains it: a plain 4h MLP (GELU), LayerNorm, learned
/// positions, biases on every linear layer, and the output head tied to the input embedding.
constexpr transformer gpt(std::string_view name, std::int64_t layers, std::int64_t hidden,
                          std::int64_t heads, std::int64_t vocab, std::int64_t sequence) {
    transformer m{};
    m.name = name;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.head_dim = hidden / heads;
    m.ffn_hidden = 4 * hidden;
    m.vocab = vocab;
    m.max_context = sequence;
    m.mlp = mlp_kind::plain;
    m.norm = norm_kind::layer_norm;
    m.positions = position_kind::learned;
    m.linear_biases = true;
    m.tied_embeddings = true;
    return m;
}
}  // namespace detail_models

/// Llama-2-7B: HF config meta-llama/Llama-2-7b-hf; Touvron et al. 2023. Multi-head attention
/// (kv_heads = heads = 32): some listings wrongly give it 8 KV heads.
inline constexpr transformer llama_2_7b =
    detail_models::llama_like("Llama-2-7B", 32, 4096, 32, 32, 11008, 32000, 4096);
/// Llama-2-13B: HF config meta-llama/Llama-2-13b-hf (MHA, 40 KV heads).
inline constexpr transformer llama_2_13b =
    detail_models::llama_like("Llama-2-13B", 40, 5120, 40, 40, 13824, 32000, 4096);
/// Llama-2-70B: HF config meta-llama/Llama-2-70b-hf (GQA, 8 KV heads).
inline constexpr transformer llama_2_70b =
    detail_models::llama_like("Llama-2-70B", 80, 8192, 64, 8, 28672, 32000, 4096);
/// Llama-3-8B: meta-llama/llama-models sku_list.py; FFN from ffn_dim_multiplier 1.3,
/// multiple_of 1024.
inline constexpr transformer llama_3_8b =
    detail_models::llama_like("Llama-3-8B", 32, 4096, 32, 8, 14336, 128256, 8192);
/// Llama-3-70B: meta-llama/llama-models sku_list.py; FFN from 1.3, multiple_of 4096.
inline constexpr transformer llama_3_70b =
    detail_models::llama_like("Llama-3-70B", 80, 8192, 64, 8, 28672, 128256, 8192);
/// Llama-3.1-405B: meta-llama/llama-models sku_list.py; Llama 3 paper (Dubey et al. 2024)
/// Table 3; FFN from 1.2, multiple_of 4096; 128k context.
inline constexpr transformer llama_3_1_405b =
    detail_models::llama_like("Llama-3.1-405B", 126, 16384, 128, 8, 53248, 128256, 131072);

/// Mistral-7B-v0.1: HF config mistralai/Mistral-7B-v0.1; Jiang et al. 2023. Sliding-window
/// attention over 4,096 tokens; the reference implementation's rolling buffer caps the KV cache
/// there.
inline constexpr transformer mistral_7b = [] {
    transformer m =
        detail_models::llama_like("Mistral-7B-v0.1", 32, 4096, 32, 8, 14336, 32000, 32768);
    m.sliding_window = 4096;
    return m;
}();

/// Mixtral-8x7B-v0.1: HF config mistralai/Mixtral-8x7B-v0.1; Jiang et al. 2024: 8 experts,
/// top-2 routing ("47B total, 13B active"). Uncertain: the paper describes "a fully dense
/// context length of 32k tokens" (no sliding window, as modelled here) while some listings
/// give it Mistral's 4,096-token window.
inline constexpr transformer mixtral_8x7b = [] {
    transformer m =
        detail_models::llama_like("Mixtral-8x7B-v0.1", 32, 4096, 32, 8, 14336, 32000, 32768);
    m.experts = 8;
    m.experts_per_token = 2;
    return m;
}();

/// GPT-3 175B: Brown et al. 2020, Table 2.1 (96 layers, d_model 12,288, 96 heads of 128,
/// context 2,048); GPT-2 BPE vocabulary of 50,257; tied embeddings.
inline constexpr transformer gpt3_175b =
    detail_models::gpt("GPT-3 175B", 96, 12288, 96, 50257, 2048);

/// Narayanan et al. 2021 (SC21), Table 1: the GPT models of the Megatron-LM scaling study
/// (vocabulary 51,200, sequence 2,048).
inline constexpr transformer megatron_1_7b = detail_models::gpt("GPT 1.7B (Megatron)", 24, 2304, 24, 51200, 2048);
inline constexpr transformer megatron_3_6b = detail_models::gpt("GPT 3.6B (Megatron)", 30, 3072, 32, 51200, 2048);
inline constexpr transformer megatron_7_5b = detail_models::gpt("GPT 7.5B (Megatron)", 36, 4096, 32, 51200, 2048);
inline constexpr transformer megatron_18_4b = detail_models::gpt("GPT 18.4B (Megatron)", 40, 6144, 48, 51200, 2048);
inline constexpr transformer megatron_39_1b = detail_models::gpt("GPT 39.1B (Megatron)", 48, 8192, 64, 51200, 2048);
inline constexpr transformer megatron_76_1b = detail_models::gpt("GPT 76.1B (Megatron)", 60, 10240, 80, 51200, 2048);
inline constexpr transformer megatron_145_6b = detail_models::gpt("GPT 145.6B (Megatron)", 80, 12288, 96, 51200, 2048);
inline constexpr transformer megatron_310_1b = detail_models::gpt("GPT 310.1B (Megatron)", 96, 16384, 128, 51200, 2048);
inline constexpr transformer megatron_529_6b = detail_models::gpt("GPT 529.6B (Megatron)", 105, 20480, 128, 51200, 2048);
inline constexpr transformer megatron_1008b = detail_models::gpt("GPT 1008.0B (Megatron)", 128, 25600, 160, 51200, 2048);

/// Korthikanti et al. 2022, Table 3: the models of the activation-memory study (vocabulary
/// 51,200, sequence 2,048).
inline constexpr transformer korthikanti_22b = detail_models::gpt("GPT 22B (Korthikanti)", 48, 6144, 64, 51200, 2048);
inline constexpr transformer korthikanti_175b = detail_models::gpt("GPT 175B (Korthikanti)", 96, 12288, 96, 51200, 2048);
inline constexpr transformer korthikanti_530b = detail_models::gpt("GPT 530B (Korthikanti)", 105, 20480, 128, 51200, 2048);
inline constexpr transformer korthikanti_1t = detail_models::gpt("GPT 1T (Korthikanti)", 128, 25600, 160, 51200, 2048);

/// The named production models above, for iteration (the sizing report, the plan search).
inline constexpr std::array<const transformer*, 9> all_models{
    &llama_2_7b, &llama_2_13b, &llama_2_70b, &llama_3_8b,  &llama_3_70b,
    &llama_3_1_405b, &mistral_7b, &mixtral_8x7b, &gpt3_175b};

}  // namespace catalog
}  // namespace gpucalc
