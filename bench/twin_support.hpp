// twin_support.hpp: what the benchmarks' raw-double twins share: varied inputs (so nothing
// folds to a constant) and the plain-number versions of gpucalc's input checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <gpucalc/precision.hpp>

namespace twin {

constexpr std::size_t input_count = 256;  // a power of two, so an index wraps with a mask
constexpr std::size_t input_mask = input_count - 1;

/// `input_count` pseudo-random integers in [low, high] (a fixed LCG: runs are repeatable).
inline std::vector<std::int64_t> varied(std::int64_t low, std::int64_t high, std::uint64_t seed) {
    std::vector<std::int64_t> v;
    for (std::size_t i = 0; i < input_count; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        v.push_back(low + static_cast<std::int64_t>((seed >> 33) % static_cast<std::uint64_t>(high - low + 1)));
    }
    return v;
}

/// `input_count` pseudo-random reals in [low, high).
inline std::vector<double> varied_real(double low, double high, std::uint64_t seed) {
    std::vector<double> v;
    for (std::size_t i = 0; i < input_count; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        v.push_back(low + (high - low) * static_cast<double>(seed >> 11) / 9007199254740992.0);
    }
    return v;
}

[[noreturn]] inline void fail(const char* what) { throw std::invalid_argument(what); }

/// gpucalc's require_count: at least 1, at most 2^40.
inline void require_count(std::int64_t v) {
    if (v < 1) fail("count");
    if (v > (std::int64_t{1} << 40)) fail("count too large");
}

/// gpucalc's divides(), exact below 2^53.
inline bool divides(std::int64_t d, std::int64_t v) {
    if (d == 0) return false;
    if (d == 1) return true;
    const double q = static_cast<double>(v) / static_cast<double>(d);
    return static_cast<double>(static_cast<std::int64_t>(q)) == q;
}

/// A storage format as plain numbers: element bits, block size, scale bits, second-level.
struct format {
    double element_bits, block, scale_bits, scale_block, scale_of_scales_bits;
};

inline format format_of(const gpucalc::storage_format& f) {
    return {gpucalc::storage_bits(f.element), static_cast<double>(f.block_size),
            gpucalc::storage_bits(f.scale), static_cast<double>(f.scale_block_size),
            gpucalc::storage_bits(f.scale_of_scales)};
}

/// gpucalc's bits_per_element, with its checks.
inline double bits(const format& f) {
    if (f.block < 0.0 || f.scale_block < 0.0 || (f.scale_block > 0.0 && f.block == 0.0)) fail("block");
    double b = f.element_bits;
    if (f.block > 0.0) {
        b += f.scale_bits / f.block;
        if (f.scale_block > 0.0) b += f.scale_of_scales_bits / (f.block * f.scale_block);
    }
    return b;
}

/// gpucalc's storage_size in bytes, with its checks.
inline double storage(double elements, const format& f) {
    if (!(elements >= 0.0 && elements <= std::numeric_limits<double>::max())) fail("elements");
    return elements * (bits(f) / 8.0);
}

}  // namespace twin
