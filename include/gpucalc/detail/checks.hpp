// detail/checks.hpp: the input checks every module runs on entry, each throwing invalid_input
// with the function, the field, the value (in base units) and the rule
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "../error.hpp"
#include "../units.hpp"

namespace gpucalc {
namespace detail {

/// The base-unit symbol a value is reported in when a check fails.
template <class Quantity>
constexpr const char* base_unit_text() {
    if constexpr (std::is_same<Quantity, data_size>::value) return "B";
    else if constexpr (std::is_same<Quantity, flop_count>::value) return "FLOP";
    else if constexpr (std::is_same<Quantity, duration>::value) return "s";
    else if constexpr (std::is_same<Quantity, money>::value) return "USD";
    else if constexpr (std::is_same<Quantity, gpu_count>::value) return "GPU";
    else if constexpr (std::is_same<Quantity, mass>::value) return "kg";
    else if constexpr (std::is_same<Quantity, power>::value) return "W";
    else if constexpr (std::is_same<Quantity, energy>::value) return "J";
    else if constexpr (std::is_same<Quantity, flop_rate>::value) return "FLOP/s";
    else if constexpr (std::is_same<Quantity, bandwidth>::value) return "B/s";
    else if constexpr (std::is_same<Quantity, arithmetic_intensity>::value) return "FLOP/B";
    else if constexpr (std::is_same<Quantity, gpu_time>::value) return "GPU*s";
    else if constexpr (std::is_same<Quantity, cost_rate>::value) return "USD/s";
    else if constexpr (std::is_same<Quantity, gpu_price>::value) return "USD/(GPU*s)";
    else if constexpr (std::is_same<Quantity, energy_price>::value) return "USD/J";
    else if constexpr (std::is_same<Quantity, data_price>::value) return "USD/B";
    else if constexpr (std::is_same<Quantity, grid_intensity>::value) return "kg/J";
    else if constexpr (std::is_same<Quantity, token_count>::value) return "tokens";
    else if constexpr (std::is_same<Quantity, sequence_count>::value) return "sequences";
    else if constexpr (std::is_same<Quantity, token_rate>::value) return "tokens/s";
    else if constexpr (std::is_same<Quantity, stream_token_rate>::value) return "tokens/s per stream";
    else if constexpr (std::is_same<Quantity, request_rate>::value) return "requests/s";
    else if constexpr (std::is_same<Quantity, token_price>::value) return "USD/token";
    else return "(base units)";
}

constexpr double largest_finite = std::numeric_limits<double>::max();

/// 2^53: integers below it are exact in a double. Counts gpucalc multiplies stay below it.
constexpr double largest_exact_count = 9007199254740992.0;

/// The largest count one field may hold (2^40): products of a few such counts are checked
/// against largest_exact_count where they are formed.
constexpr std::int64_t largest_count = std::int64_t{1} << 40;

/// `a == b`, for the few places that mean an exact comparison of doubles (a whole-number test,
/// a field-by-field equality). A consumer building with -Wfloat-equal -Werror must still compile
/// gpucalc's headers, so the one deliberate == lives here with that warning off around it.
/// Spelling it `a <= b && b <= a` gives the same result, but GCC 12 then emits two comparisons
/// and a branch, and divides() runs on every validated call.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wfloat-equal"
#endif
constexpr bool exactly_equal(double a, double b) { return a == b; }
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/// Whether `x` is a whole number, for |x| below 2^63 (the callers' counts stay below 2^53).
constexpr bool is_whole(double x) {
    return exactly_equal(static_cast<double>(static_cast<std::int64_t>(x)), x);
}

/// Whether `divisor` divides `value` exactly, for counts below 2^53 (require_count caps them). Done in double arithmetic:
/// hot paths validate their input on every call, and a 64-bit integer division costs several
/// times a floating-point one.
constexpr bool divides(std::int64_t divisor, std::int64_t value) {
    if (divisor == 0) return false;
    if (divisor == 1) return true;
    return is_whole(static_cast<double>(value) / static_cast<double>(divisor));
}

/// value / divisor for a divisor known to divide it (checked by the caller), without an
/// integer division.
constexpr std::int64_t exact_quotient(std::int64_t value, std::int64_t divisor) {
    return divisor == 1 ? value
                        : static_cast<std::int64_t>(static_cast<double>(value) /
                                                    static_cast<double>(divisor));
}

/// ceil(a / b) for positive counts.
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return b == 1 ? a : (a + b - 1) / b;
}

/// A number that must be finite and > 0 (a size, a rate, a count).
constexpr void require_positive(const char* function, const char* field, double value,
                                const char* unit = "") {
    if (!(value > 0.0 && value <= largest_finite)) {
        throw_invalid(function, field, value, unit, "must be finite and > 0");
    }
}

/// A number that must be finite and >= 0 (a price, an optional term).
constexpr void require_non_negative(const char* function, const char* field, double value,
                                    const char* unit = "") {
    if (!(value >= 0.0 && value <= largest_finite)) {
        throw_invalid(function, field, value, unit, "must be finite and >= 0");
    }
}

/// A fraction in (0, 1]: an efficiency or a utilization.
constexpr void require_fraction(const char* function, const char* field, double value) {
    if (!(value > 0.0 && value <= 1.0)) {
        throw_invalid(function, field, value, "", "must be in (0, 1]");
    }
}

/// A whole count that must be >= 1 (a parallel degree, GPUs per node), and at most 2^40.
constexpr void require_count(const char* function, const char* field, long long value) {
    if (value < 1) {
        throw_invalid(function, field, static_cast<double>(value), "", "must be >= 1");
    }
    if (value > largest_count) {
        throw_invalid(function, field, static_cast<double>(value), "", "must be <= 2^40");
    }
}

template <class Unit>
constexpr void require_positive(const char* function, const char* field,
                                const boost::units::quantity<Unit, double>& q) {
    require_positive(function, field, q.value(),
                     base_unit_text<boost::units::quantity<Unit, double>>());
}

template <class Unit>
constexpr void require_non_negative(const char* function, const char* field,
                                    const boost::units::quantity<Unit, double>& q) {
    require_non_negative(function, field, q.value(),
                         base_unit_text<boost::units::quantity<Unit, double>>());
}

}  // namespace detail
}  // namespace gpucalc
