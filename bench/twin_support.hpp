// twin_support.hpp: what the benchmarks' raw-double twins share: varied inputs (so nothing
// folds to a constant), one comparison that checks a twin against its library function before
// either is timed, and the raw-double versions of the few quantity-valued helpers several
// library functions use.
//
// How a twin is written: it is its library function transliterated, the same steps in the same
// order, with every quantity a double in base units (bytes, seconds, FLOPs, dollars). Work that
// involves no quantity (the shape checks on counts, parameter and sharding arithmetic, a
// format's bits per element) is the library's own code on both sides: there is no type in it
// to remove, and sharing it keeps a twin from drifting from what it mirrors. So the ratio of a
// pair is the price of the unit types and nothing else. (Earlier twins were hand-specialized
// for a dense model; they measured what gpucalc's generality costs, not what its types cost.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <gpucalc/detail/checks.hpp>
#include <gpucalc/precision.hpp>
#include <gpucalc/units.hpp>

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

/// Aborts the benchmark when a twin's field differs from the library's by more than 1e-12
/// relative: a twin is timed only once it computes the same thing.
inline void expect_same(const char* what, double library, double raw) {
    if (!gpucalc::approx_equal(library, raw, 1e-12)) {
        std::fprintf(stderr, "twin disagrees on %s: library %.17g, raw %.17g\n", what, library, raw);
        std::abort();
    }
}

template <class Unit>
void expect_same(const char* what, const boost::units::quantity<Unit, double>& library, double raw) {
    expect_same(what, library.value(), raw);
}

/// precision.hpp's storage_size, in bytes.
inline double storage(double elements, const gpucalc::storage_format& f) {
    gpucalc::detail::require_non_negative("storage_size", "elements", elements);
    return elements * gpucalc::bytes_per_element(f);
}

}  // namespace twin
