// precision.hpp: how many bits a stored element takes (block scales included), and which
// compute precision selects a device's peak
#pragma once

#include <cstdint>
#include <string_view>

#include "detail/checks.hpp"
#include "error.hpp"
#include "units.hpp"

namespace gpucalc {

/// Element formats: what one stored number is.
/// Bit widths: IEEE 754 (fp64, fp32, fp16); bf16 and tf32 per the NVIDIA A100 architecture
/// whitepaper (tf32 is a 19-bit compute format held in 32-bit registers, so it stores as 32);
/// fp8 e4m3/e5m2 per Micikevicius et al. 2022, "FP8 Formats for Deep Learning"; fp4 (e2m1) and
/// the e8m0 scale per the OCP Microscaling (MX) Formats Specification v1.0 (2023);
/// nf4 per Dettmers et al. 2023, "QLoRA".
enum class number_format {
    fp64,
    fp32,
    tf32,
    bf16,
    fp16,
    fp8_e4m3,
    fp8_e5m2,
    int8,
    int4,
    fp4,
    nf4,
    e8m0,  ///< 8-bit power-of-two scale (MX formats); a scale format, not a data format
};

constexpr std::string_view to_string(number_format f) {
    switch (f) {
        case number_format::fp64: return "fp64";
        case number_format::fp32: return "fp32";
        case number_format::tf32: return "tf32";
        case number_format::bf16: return "bf16";
        case number_format::fp16: return "fp16";
        case number_format::fp8_e4m3: return "fp8_e4m3";
        case number_format::fp8_e5m2: return "fp8_e5m2";
        case number_format::int8: return "int8";
        case number_format::int4: return "int4";
        case number_format::fp4: return "fp4";
        case number_format::nf4: return "nf4";
        case number_format::e8m0: return "e8m0";
    }
    return "unknown";
}

/// Storage bits of one element of `f`, without any block scale.
constexpr double storage_bits(number_format f) {
    switch (f) {
        case number_format::fp64: return 64.0;
        case number_format::fp32: return 32.0;
        case number_format::tf32: return 32.0;  // stored in a 32-bit container
        case number_format::bf16: return 16.0;
        case number_format::fp16: return 16.0;
        case number_format::fp8_e4m3: return 8.0;
        case number_format::fp8_e5m2: return 8.0;
        case number_format::int8: return 8.0;
        case number_format::int4: return 4.0;
        case number_format::fp4: return 4.0;
        case number_format::nf4: return 4.0;
        case number_format::e8m0: return 8.0;
    }
    return 0.0;
}

/// How tensors are stored: an element format, optionally with one scale per block of elements,
/// and optionally a second-level scale per block of scales ("double quantization", QLoRA §3).
/// bits per element = element bits + scale bits / block + second-level bits / (block × block2).
struct storage_format {
    number_format element = number_format::fp16;
    std::int64_t block_size = 0;         ///< elements per scale; 0 means no block scale
    number_format scale = number_format::fp16;
    std::int64_t scale_block_size = 0;   ///< scales per second-level scale; 0 means none
    number_format scale_of_scales = number_format::fp32;
};

/// Bits one element occupies, block scales included: int4 with an fp16 scale per 128 values
/// is 4 + 16/128 = 4.125 bits. (Derived from the definition above.)
constexpr double bits_per_element(const storage_format& f) {
    if (f.block_size < 0) {
        detail::throw_invalid("bits_per_element", "block_size", static_cast<double>(f.block_size),
                              "", "must be >= 0 (0 means no block scale)");
    }
    if (f.scale_block_size < 0) {
        detail::throw_invalid("bits_per_element", "scale_block_size",
                              static_cast<double>(f.scale_block_size), "",
                              "must be >= 0 (0 means no second-level scale)");
    }
    if (f.scale_block_size > 0 && f.block_size == 0) {
        detail::throw_invalid("bits_per_element", "scale_block_size",
                              static_cast<double>(f.scale_block_size), "",
                              "needs block_size > 0: there are no scales to scale");
    }
    double bits = storage_bits(f.element);
    if (f.block_size > 0) {
        const double block = static_cast<double>(f.block_size);
        bits += storage_bits(f.scale) / block;
        if (f.scale_block_size > 0) {
            bits += storage_bits(f.scale_of_scales) /
                    (block * static_cast<double>(f.scale_block_size));
        }
    }
    return bits;
}

/// Bytes one element occupies, block scales included.
constexpr double bytes_per_element(const storage_format& f) { return bits_per_element(f) / 8.0; }

/// The bytes `elements` values take in storage format `f`.
GPUCALC_DETAIL_INLINE constexpr data_size storage_size(double elements, const storage_format& f) {
    detail::require_non_negative("storage_size", "elements", elements);
    return make<bytes>(elements * bytes_per_element(f));
}

/// Common storage formats. Block sizes follow the formats' own specifications.
namespace formats {
inline constexpr storage_format fp64{number_format::fp64};
inline constexpr storage_format fp32{number_format::fp32};
inline constexpr storage_format bf16{number_format::bf16};
inline constexpr storage_format fp16{number_format::fp16};
inline constexpr storage_format fp8_e4m3{number_format::fp8_e4m3};
inline constexpr storage_format fp8_e5m2{number_format::fp8_e5m2};
inline constexpr storage_format int8{number_format::int8};
/// Plain int4 with no scale (an idealized lower bound; real int4 storage carries scales).
inline constexpr storage_format int4{number_format::int4};
/// Group-wise int4 with one fp16 scale per 128 weights, as GPTQ and AWQ commonly run
/// (Frantar et al. 2023; Lin et al. 2024): 4.125 bits. Zero points, where used, add more.
inline constexpr storage_format int4_g128{number_format::int4, 128, number_format::fp16};
/// NF4 with one fp32 absmax per 64 weights (QLoRA without double quantization): 4.5 bits.
inline constexpr storage_format nf4{number_format::nf4, 64, number_format::fp32};
/// NF4 with double quantization: fp8 scales per 64 weights, an fp32 scale per 256 of those
/// (QLoRA, Dettmers et al. 2023, §3): 4 + 8/64 + 32/(64·256) = 4.127 bits.
inline constexpr storage_format nf4_double_quant{number_format::nf4, 64, number_format::fp8_e4m3,
                                                 256, number_format::fp32};
/// MXFP4: fp4 (e2m1) with an e8m0 scale per 32 elements (OCP MX v1.0): 4.25 bits.
inline constexpr storage_format mxfp4{number_format::fp4, 32, number_format::e8m0};
/// MXFP8 (e4m3) with an e8m0 scale per 32 elements (OCP MX v1.0): 8.25 bits.
inline constexpr storage_format mxfp8_e4m3{number_format::fp8_e4m3, 32, number_format::e8m0};
/// NVFP4: fp4 (e2m1) with an fp8 e4m3 scale per 16 elements (NVIDIA Blackwell documentation);
/// its single fp32 per-tensor scale is negligible and left out: 4.5 bits.
inline constexpr storage_format nvfp4{number_format::fp4, 16, number_format::fp8_e4m3};
}  // namespace formats

/// Compute precisions: which tensor-core (or vector) pipeline runs the math, and so which peak
/// applies. Separate from storage: int4 weights are usually computed in bf16.
enum class compute_precision {
    fp64,         ///< FP64 on the vector units
    fp64_tensor,  ///< FP64 on tensor cores (A100 and later)
    fp32,         ///< FP32 on the vector units
    tf32,         ///< TF32 tensor cores
    bf16,
    fp16,
    fp8,
    int8,         ///< integer ops; the peak is in OP/s, held as a flop_rate
    int4,
    fp4,
};

/// Every compute precision, for iteration.
inline constexpr compute_precision all_compute_precisions[] = {
    compute_precision::fp64, compute_precision::fp64_tensor, compute_precision::fp32,
    compute_precision::tf32, compute_precision::bf16,        compute_precision::fp16,
    compute_precision::fp8,  compute_precision::int8,        compute_precision::int4,
    compute_precision::fp4};

constexpr std::string_view to_string(compute_precision p) {
    switch (p) {
        case compute_precision::fp64: return "fp64";
        case compute_precision::fp64_tensor: return "fp64_tensor";
        case compute_precision::fp32: return "fp32";
        case compute_precision::tf32: return "tf32";
        case compute_precision::bf16: return "bf16";
        case compute_precision::fp16: return "fp16";
        case compute_precision::fp8: return "fp8";
        case compute_precision::int8: return "int8";
        case compute_precision::int4: return "int4";
        case compute_precision::fp4: return "fp4";
    }
    return "unknown";
}

}  // namespace gpucalc
