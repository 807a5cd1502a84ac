// precision.hpp: how many bits a stored element takes (block scales included), and which
// compute precision selects a device's peak
#pragma once

#include <cstdint>
#include <string>
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

/// The format's name. A value outside the enumerators reads "unknown": printing never throws,
/// since error messages print with it; the functions that compute with a format reject it.
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

namespace detail {
/// How many enumerators number_format has: a value cast from another integer is checked
/// against it.
inline constexpr int number_format_count = 12;

/// storage_bits() for an enumerator already checked; 0 for any other value.
constexpr double element_bits(number_format f) {
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
}  // namespace detail

/// Storage bits of one element of `f`, without any block scale. `f` must be one of the
/// enumerators: a value cast from another integer (number_format(12)) is invalid_input.
constexpr double storage_bits(number_format f) {
    detail::require_enumerator("storage_bits", "f", f, detail::number_format_count,
                               "number_format");
    return detail::element_bits(f);
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

namespace detail {

/// Whether every field of `f` is in its range: the three formats are enumerators, both block
/// sizes in [0, 2^40], and a second-level block only under a first. Comparisons only: the hot
/// paths that read a format run it on every call.
constexpr bool format_in_range(const storage_format& f) {
    constexpr auto formats = static_cast<unsigned>(number_format_count);
    constexpr auto largest_block = static_cast<std::uint64_t>(largest_count);
    return static_cast<unsigned>(f.element) < formats && static_cast<unsigned>(f.scale) < formats &&
           static_cast<unsigned>(f.scale_of_scales) < formats &&
           static_cast<std::uint64_t>(f.block_size) <= largest_block &&
           static_cast<std::uint64_t>(f.scale_block_size) <= largest_block &&
           (f.scale_block_size == 0 || f.block_size > 0);
}

/// Throws for the first field of `f` outside its range, named `prefix` + member: a serving
/// setup's weights format reports "weights.block_size".
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_format(const storage_format& f,
                                                              const char* function,
                                                              const char* prefix) {
    const auto field = [prefix](const char* member) { return std::string(prefix) + member; };
    require_enumerator(function, field("element").c_str(), f.element, number_format_count,
                       "number_format");
    require_enumerator(function, field("scale").c_str(), f.scale, number_format_count,
                       "number_format");
    require_enumerator(function, field("scale_of_scales").c_str(), f.scale_of_scales,
                       number_format_count, "number_format");
    const auto block = [&](const char* member, std::int64_t size, const char* rule) {
        if (size < 0) {
            throw_invalid(function, field(member).c_str(), static_cast<double>(size), "", rule);
        }
        if (size > largest_count) {
            throw_invalid(function, field(member).c_str(), static_cast<double>(size), "",
                          "must be <= 2^40");
        }
    };
    block("block_size", f.block_size, "must be >= 0 (0 means no block scale)");
    block("scale_block_size", f.scale_block_size, "must be >= 0 (0 means no second-level scale)");
    throw_invalid(function, field("scale_block_size").c_str(),
                  static_cast<double>(f.scale_block_size), "",
                  "needs block_size > 0: there are no scales to scale");
}

/// A storage format's rules (see bits_per_element), reported as "function: <prefix>member =
/// value rule".
GPUCALC_DETAIL_INLINE constexpr void check_format(const storage_format& f, const char* function,
                                                  const char* prefix = "") {
    if (!format_in_range(f)) throw_bad_format(f, function, prefix);
}

/// bits_per_element() for a format already checked.
GPUCALC_DETAIL_INLINE constexpr double bits_per_element_unchecked(const storage_format& f) {
    double bits = element_bits(f.element);
    if (f.block_size > 0) {
        const double block = static_cast<double>(f.block_size);
        bits += element_bits(f.scale) / block;
        if (f.scale_block_size > 0) {
            bits += element_bits(f.scale_of_scales) /
                    (block * static_cast<double>(f.scale_block_size));
        }
    }
    return bits;
}

/// storage_size() for a format already checked and an element count the caller formed from
/// input it checked (finite and >= 0): an error then names the caller's input, not this.
GPUCALC_DETAIL_INLINE constexpr data_size storage_size_unchecked(double elements,
                                                                 const storage_format& f) {
    return make<bytes>(elements * (bits_per_element_unchecked(f) / 8.0));
}

/// The most elements storage_size() takes. An element takes at most 24 bytes (fp64 with an
/// fp64 scale per element and per scale), so every answer is finite.
inline constexpr double largest_element_count = 1e40;

}  // namespace detail

/// Bits one element occupies, block scales included: int4 with an fp16 scale per 128 values
/// is 4 + 16/128 = 4.125 bits. (Derived from the definition above.) Ranges: element, scale and
/// scale_of_scales are enumerators; block_size and scale_block_size are in [0, 2^40], and
/// scale_block_size > 0 needs block_size > 0.
constexpr double bits_per_element(const storage_format& f) {
    detail::check_format(f, "bits_per_element");
    return detail::bits_per_element_unchecked(f);
}

/// Bytes one element occupies, block scales included (ranges as bits_per_element).
constexpr double bytes_per_element(const storage_format& f) {
    detail::check_format(f, "bytes_per_element");
    return detail::bits_per_element_unchecked(f) / 8.0;
}

/// The bytes `elements` values take in storage format `f`. Ranges: elements in [0, 1e40] (not
/// necessarily whole: a share of a tensor split across GPUs); `f` as bits_per_element.
GPUCALC_DETAIL_INLINE constexpr data_size storage_size(double elements, const storage_format& f) {
    if (!(elements >= 0.0 && elements <= detail::largest_element_count)) {
        detail::throw_invalid("storage_size", "elements", elements, "",
                              elements > 0.0 ? "must be at most 1e40" : "must be finite and >= 0");
    }
    detail::check_format(f, "storage_size");
    return detail::storage_size_unchecked(elements, f);
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

namespace detail {
/// How many enumerators compute_precision has (all_compute_precisions lists them).
inline constexpr int compute_precision_count = 10;
static_assert(sizeof(all_compute_precisions) / sizeof(all_compute_precisions[0]) ==
                  static_cast<unsigned>(compute_precision_count),
              "every compute precision is listed");
}  // namespace detail

/// The precision's name; "unknown" for a value outside the enumerators (see to_string of a
/// number_format).
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
