// precision_test.cpp: bits per stored element, block scales included, and the sizes that
// follow from them.
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/precision.hpp>
#include <gpucalc/testing.hpp>

#include <doctest/doctest.h>

using namespace gpucalc;
using namespace gpucalc::literals;

TEST_CASE("element widths of every format") {
    // IEEE 754 widths; bf16 and tf32 per the A100 whitepaper (tf32 in a 32-bit container);
    // fp8 per Micikevicius et al. 2022; fp4 (e2m1) and e8m0 per OCP MX v1.0; nf4 per QLoRA.
    CHECK(storage_bits(number_format::fp64) == 64.0);
    CHECK(storage_bits(number_format::fp32) == 32.0);
    CHECK(storage_bits(number_format::tf32) == 32.0);
    CHECK(storage_bits(number_format::bf16) == 16.0);
    CHECK(storage_bits(number_format::fp16) == 16.0);
    CHECK(storage_bits(number_format::fp8_e4m3) == 8.0);
    CHECK(storage_bits(number_format::fp8_e5m2) == 8.0);
    CHECK(storage_bits(number_format::int8) == 8.0);
    CHECK(storage_bits(number_format::int4) == 4.0);
    CHECK(storage_bits(number_format::fp4) == 4.0);
    CHECK(storage_bits(number_format::nf4) == 4.0);
    CHECK(storage_bits(number_format::e8m0) == 8.0);
}

TEST_CASE("block scales are a parameter: int4 with an fp16 scale per 128 values is 4.125 bits") {
    CHECK(bits_per_element(formats::int4_g128) == 4.125);
    CHECK(bits_per_element({number_format::int4, 64, number_format::fp16}) == 4.25);
    CHECK(bits_per_element({number_format::int4, 32, number_format::fp32}) == 5.0);
}

TEST_CASE("QLoRA double quantization costs 0.127 bits per parameter") {
    // Dettmers et al. 2023, QLoRA §3: double quantization reduces the constants' memory from
    // 32/64 = 0.5 bits to 8/64 + 32/(64*256) = 0.127 bits per parameter (printed to 3 places).
    CHECK(bits_per_element(formats::nf4) - 4.0 == 0.5);
    CHECK(bits_per_element(formats::nf4_double_quant) - 4.0 == approx(0.127, 1e-3));
    CHECK(bits_per_element(formats::nf4_double_quant) == 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0));
}

TEST_CASE("weights at each precision: 7B at fp16 is about 14 GB") {
    // Practitioners' rule of thumb (parameters × bits ÷ 8): 7B ~ 14 GB at FP16, 7 GB at INT8,
    // 3.5 GB at INT4.
    CHECK(storage_size(7e9, formats::fp16) == 14.0_GB);
    CHECK(storage_size(7e9, formats::int8) == 7.0_GB);
    CHECK(storage_size(7e9, formats::int4) == 3.5_GB);
    // Llama-2-7B: 6,738,415,616 parameters (derived from its HF config; model_test.cpp) at bf16.
    CHECK(in<gigabytes>(storage_size(6738415616.0, formats::bf16)) == approx(13.476831232));
}

TEST_CASE("invalid block layouts are rejected with the field and the rule") {
    CHECK_THROWS_WITH_AS(bits_per_element({number_format::int4, -1, number_format::fp16}),
                         "bits_per_element: block_size = -1 must be >= 0 (0 means no block scale)",
                         invalid_input);
    CHECK_THROWS_WITH_AS(
        bits_per_element({number_format::int4, 0, number_format::fp16, 4, number_format::fp32}),
        "bits_per_element: scale_block_size = 4 needs block_size > 0: there are no scales to scale",
        invalid_input);
    CHECK_THROWS_WITH_AS(storage_size(-1.0, formats::fp16),
                         "storage_size: elements = -1 must be finite and >= 0", invalid_input);
    CHECK_THROWS_AS(storage_size(std::numeric_limits<double>::quiet_NaN(), formats::fp16),
                    invalid_input);
}

TEST_CASE("to_string names every format") {
    CHECK(to_string(number_format::fp8_e4m3) == "fp8_e4m3");
    CHECK(to_string(compute_precision::fp64_tensor) == "fp64_tensor");
}
