// detail/config.hpp: the compiler attributes that keep error paths cold and hot paths inlined
#pragma once

#include <type_traits>

// The throwing helpers (error.hpp) are kept out of line and marked cold: every hot function
// validates its input on each call, and building a message inline would bloat those functions
// past what the compiler inlines.
#if defined(__GNUC__) || defined(__clang__)
#define GPUCALC_DETAIL_COLD __attribute__((cold, noinline))
// On the few top-level functions a scheduler calls millions of times: inline their helpers
// (the checks, the sharding arithmetic) into one body, as a hand-written version would be.
#define GPUCALC_DETAIL_HOT __attribute__((flatten))
#else
#define GPUCALC_DETAIL_COLD
#define GPUCALC_DETAIL_HOT
#endif

// Boost.Units quantities are not trivially copyable (they declare a copy constructor), so the
// Itanium C++ ABI passes and returns them through memory whenever a call is not inlined, where
// a double travels in a register. GCC's flatten inlines a hot function's whole call tree, and
// GCC inlines op_time into its callers' loops. Clang 14's flatten inlines one level only, and
// Clang declines to inline op_time or the ownership check. So under Clang, the small functions
// on hot paths that take or return a quantity, or that Clang left out of line, are always
// inlined (measured with Clang 14 against the raw-double twins: op_time 2.7x -> 1.0x, decode
// 1.29x -> 1.0x, rent_vs_buy 1.16x -> 0.97-1.0x). Under GCC the attribute is left off:
// forcing it there made GCC vectorize op_time's unused divisions into the caller's loop, 1.5x
// slower.
#if defined(__clang__)
#define GPUCALC_DETAIL_INLINE __attribute__((always_inline))
#else
#define GPUCALC_DETAIL_INLINE
#endif

namespace gpucalc {
namespace detail {
/// Whether the call is being evaluated in a constant expression (std::is_constant_evaluated in
/// C++20; the same builtin, which GCC 9 and Clang 9 provide in C++17 too; else false).
constexpr bool is_constant_evaluated() noexcept {
#if defined(__cpp_lib_is_constant_evaluated)
    return std::is_constant_evaluated();
#elif defined(__GNUC__) || defined(__clang__)
    return __builtin_is_constant_evaluated();
#else
    return false;
#endif
}
}  // namespace detail
}  // namespace gpucalc
