// twin_support.hpp: what the benchmarks' raw-double twins share: varied inputs (so nothing
// folds to a constant), the comparison that checks each twin against its library function
// before anything is timed, a main() that runs those checks first, and the raw-double versions
// of the few quantity-valued helpers several library functions use.
//
// How a twin is written: it is its library function transliterated, the same steps in the same
// order, with every quantity a double in base units (bytes, seconds, FLOPs, dollars). Work that
// involves no quantity (the shape checks on counts, parameter and sharding arithmetic, a
// format's bits per element) is the library's own code on both sides: there is no type in it
// to remove, and sharing it keeps a twin from drifting from what it mirrors. A twin's helper
// carries the same inlining directive as the library helper it mirrors (GPUCALC_DETAIL_INLINE,
// flatten), so both sides are inlined alike. So the ratio of a pair is the price of the unit
// types and nothing else. (Earlier twins were hand-specialized for a dense model; they measured
// what gpucalc's generality costs, not what its types cost.)
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <benchmark/benchmark.h>

#include <gpucalc/detail/checks.hpp>
#include <gpucalc/precision.hpp>
#include <gpucalc/units.hpp>

// No floating-point contraction in the benchmarks' own code. Clang 14 contracts a * b + c within
// one expression by default (-ffp-contract=on): a twin's `(1.0 + share) * capex + installation`
// on doubles becomes one fused multiply-add in its IR, where the library's, spelled with
// quantities, is a multiply and an add in separate operator calls that are never fused. On a
// target without FMA both lower to the same two instructions, so the results agree, but the
// different IR changes scheduling and register allocation (rent_vs_buy: 9 more spills in the
// library's body, 1.09x), and on an FMA target the twin would round differently. GCC in ISO
// mode (-std=c++20) does not contract, so this changes nothing there.
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

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

/// Aborts the benchmark when a twin's field differs from the library's at all: a transliteration
/// performs the same operations in the same order, so its results are identical, bit for bit
/// (a reordered formula would round differently and be caught here).
inline void expect_same(const char* what, double library, double raw) {
    if (!(library == raw)) {
        std::fprintf(stderr, "twin disagrees on %s: library %.17g, raw %.17g\n", what, library, raw);
        std::abort();
    }
}

template <class Unit>
void expect_same(const char* what, const boost::units::quantity<Unit, double>& library, double raw) {
    expect_same(what, library.value(), raw);
}

/// The same for a count, a flag or an enum (a bound): equal, or abort.
template <class T, class = std::enable_if_t<std::is_integral<T>::value || std::is_enum<T>::value>>
void expect_same(const char* what, T library, T raw) {
    if (!(library == raw)) {
        std::fprintf(stderr, "twin disagrees on %s\n", what);
        std::abort();
    }
}

/// detail/checks.hpp's require_positive on a quantity, transliterated: the same comparisons
/// against the same range on its base-unit value (the message, on the cold path, is built from
/// the quantity as the library's is).
template <class Quantity>
GPUCALC_DETAIL_INLINE inline void require_positive(const char* function, const char* field, double value) {
    if (!(value >= gpucalc::detail::smallest_input && value <= gpucalc::detail::input_range<Quantity>::largest)) {
        gpucalc::detail::throw_out_of_range(function, field, Quantity::from_value(value), false);
    }
}

/// detail/checks.hpp's require_non_negative on a quantity, transliterated.
template <class Quantity>
GPUCALC_DETAIL_INLINE inline void require_non_negative(const char* function, const char* field, double value) {
    if (!((value >= gpucalc::detail::smallest_input && value <= gpucalc::detail::input_range<Quantity>::largest) ||
          gpucalc::detail::exactly_equal(value, 0.0))) {
        gpucalc::detail::throw_out_of_range(function, field, Quantity::from_value(value), true);
    }
}

/// precision.hpp's detail::storage_size_unchecked, in bytes.
GPUCALC_DETAIL_INLINE inline double storage_unchecked(double elements, const gpucalc::storage_format& f) {
    return elements * (gpucalc::detail::bits_per_element_unchecked(f) / 8.0);
}

/// precision.hpp's storage_size, in bytes.
GPUCALC_DETAIL_INLINE inline double storage(double elements, const gpucalc::storage_format& f) {
    if (!(elements >= 0.0 && elements <= gpucalc::detail::largest_element_count)) {
        gpucalc::detail::throw_invalid("storage_size", "elements", elements, "",
                                       elements > 0.0 ? "must be at most 1e40" : "must be finite and >= 0");
    }
    gpucalc::detail::check_format(f, "storage_size");
    return storage_unchecked(elements, f);
}

/// A benchmark main() that checks every twin against its library function before any benchmark
/// runs (so no filter or interleaving can time an unchecked twin).
inline int run_benchmarks(int argc, char** argv, void (*check_twins)()) {
    check_twins();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace twin
