// detail/checks.hpp: the input checks every module runs on entry, each throwing invalid_input
// with the function, the field, the value (a quantity in its display unit) and the rule
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
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

/// The smallest magnitude a positive input quantity may have, in base units. With every
/// input's largest magnitude at most 1e40, products and quotients of a few inputs stay far from
/// overflow (1e308) and from underflow (1e-308), so a formula never meets inf, NaN or a
/// positive value rounded to 0.
constexpr double smallest_input = 1e-30;

/// The largest magnitude an input of each dimension may have, in base units, and how it reads in
/// a message. Each is far beyond any real workload (a 1e26-FLOP training run, a 1e6-GPU
/// cluster, $100/GPU·h) and stated in docs/units.md ("Input ranges"); input beyond it is
/// invalid_input, so an overflow is a broken rule rather than a silent wrong answer.
template <class Quantity>
struct input_range;

#define GPUCALC_DETAIL_INPUT_RANGE(Quantity, largest_value, text)                                   \
    template <>                                                                                   \
    struct input_range<Quantity> {                                                                \
        static constexpr double largest = largest_value;                                          \
        static constexpr const char* largest_text = text;                                         \
    };
GPUCALC_DETAIL_INPUT_RANGE(data_size, 1e30, "1e30 B")
GPUCALC_DETAIL_INPUT_RANGE(flop_count, 1e40, "1e40 FLOP")
GPUCALC_DETAIL_INPUT_RANGE(flop_rate, 1e30, "1e30 FLOP/s")
GPUCALC_DETAIL_INPUT_RANGE(bandwidth, 1e30, "1e30 B/s")
GPUCALC_DETAIL_INPUT_RANGE(arithmetic_intensity, 1e30, "1e30 FLOP/B")
GPUCALC_DETAIL_INPUT_RANGE(duration, 1e6 * 365.0 * 86400.0, "1e6 years")
GPUCALC_DETAIL_INPUT_RANGE(money, 1e18, "$1e18")
GPUCALC_DETAIL_INPUT_RANGE(cost_rate, 1e9 / 3600.0, "$1e9/h")
GPUCALC_DETAIL_INPUT_RANGE(gpu_price, 1e9 / 3600.0, "$1e9/GPU\xC2\xB7h")
GPUCALC_DETAIL_INPUT_RANGE(energy_price, 1e6 / 3.6e6, "$1e6/kWh")
GPUCALC_DETAIL_INPUT_RANGE(data_price, 1e9 / 1e9, "$1e9/GB")
GPUCALC_DETAIL_INPUT_RANGE(power, 1e15, "1e15 W")
GPUCALC_DETAIL_INPUT_RANGE(energy, 1e30, "1e30 J")
GPUCALC_DETAIL_INPUT_RANGE(mass, 1e18, "1e18 kg")
GPUCALC_DETAIL_INPUT_RANGE(grid_intensity, 1e6 * 1e-3 / 3.6e6, "1e6 g/kWh")
GPUCALC_DETAIL_INPUT_RANGE(gpu_count, 1099511627776.0, "2^40 GPUs")
GPUCALC_DETAIL_INPUT_RANGE(gpu_time, 1e22 * 3600.0, "1e22 GPU\xC2\xB7h")  // 2^40 GPUs for 1e6 years
GPUCALC_DETAIL_INPUT_RANGE(token_count, 1e20, "1e20 tokens")
GPUCALC_DETAIL_INPUT_RANGE(sequence_count, 1099511627776.0, "2^40 sequences")
GPUCALC_DETAIL_INPUT_RANGE(token_rate, 1e20, "1e20 tokens/s")
GPUCALC_DETAIL_INPUT_RANGE(stream_token_rate, 1e12, "1e12 tokens/s per stream")
GPUCALC_DETAIL_INPUT_RANGE(request_rate, 1e15, "1e15 requests/s")
GPUCALC_DETAIL_INPUT_RANGE(token_price, 1e6, "$1e12/M tokens")
#undef GPUCALC_DETAIL_INPUT_RANGE

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

/// A number that must be finite and > 0 (a count, a ratio).
constexpr void require_positive(const char* function, const char* field, double value,
                                const char* unit = "") {
    if (!(value > 0.0 && value <= largest_finite)) {
        throw_invalid(function, field, value, unit, "must be finite and > 0");
    }
}

/// A number that must be finite and >= 0 (an optional term).
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

/// An enum value must be one of its enumerators 0 .. count − 1: a value cast from another
/// integer (number_format(12)) is invalid_input, never a silent answer. `type` names the enum.
template <class Enum>
constexpr void require_enumerator(const char* function, const char* field, Enum value,
                                  int count, const char* type) {
    using underlying = std::underlying_type_t<Enum>;
    const auto v = static_cast<underlying>(value);
    if (!(v >= 0 && static_cast<long long>(v) < count)) {
        throw_invalid_name(function, field, number_text(static_cast<double>(v)), "must be a ",
                           type, " value");
    }
}

/// A quantity's value as an error message shows it: in its display unit with 15 significant
/// figures ("-$2.99/GPU·h"), or, where that unit would need exponent form or more digits than
/// the 15 it shows, in the base unit as the range's bounds are written ("1e+21 tokens/s", not
/// "1,000,000,000,000,000M tokens/s").
template <class Quantity>
std::string error_value_text(const Quantity& q) {
    format_options options;
    options.significant_figures = 15;
    constexpr double largest_shown = 1e15;  // 15 significant figures: beyond, digits are padding
    const double shown = display_number(q, options);
    if (!std::isfinite(q.value()) || (!needs_exponent(shown) && std::fabs(shown) < largest_shown)) {
        return to_string(q, options);
    }
    return number_text(q.value()) + " " + base_unit_text<Quantity>();
}

/// Throws for a quantity outside its range, with the value as error_value_text writes it
/// ("price = -$2.99/GPU·h must be finite and >= 0") and the rule it broke.
template <class Quantity>
[[noreturn]] GPUCALC_DETAIL_COLD void throw_out_of_range(const char* function, const char* field,
                                                         const Quantity& q, bool zero_allowed) {
    const double v = q.value();
    std::string rule;
    if (!(v >= 0.0) || (!zero_allowed && !(v > 0.0))) {
        rule = zero_allowed ? "must be finite and >= 0" : "must be finite and > 0";
    } else if (v > input_range<Quantity>::largest) {
        rule = "must be at most ";
        rule += input_range<Quantity>::largest_text;
    } else {
        rule = zero_allowed ? "must be 0 or at least " : "must be at least ";
        rule += locale_free_text(smallest_input, std::chars_format::general, 15);
        rule += ' ';
        rule += base_unit_text<Quantity>();
    }
    throw_invalid_name(function, field, error_value_text(q).c_str(), rule.c_str());
}

/// A quantity that must be > 0 and inside its range: [1e-30 base units, input_range::largest].
/// The thrower gets a copy made on the cold path: handed `q` itself, which it takes by
/// reference, the caller's quantity had to be in memory on the hot path too (GCC 12 then
/// stored op_time's freshly computed op_cost to the stack, and packed its two fields' arithmetic
/// into one vector multiply to do so). Inlined under Clang like the other small helpers that
/// take a quantity (detail/config.hpp).
template <class Unit>
GPUCALC_DETAIL_INLINE constexpr void require_positive(const char* function, const char* field,
                                                      const boost::units::quantity<Unit, double>& q) {
    using Quantity = boost::units::quantity<Unit, double>;
    const double v = q.value();
    if (!(v >= smallest_input && v <= input_range<Quantity>::largest)) {
        throw_out_of_range(function, field, Quantity::from_value(v), false);
    }
}

/// A quantity that must be 0, or inside its range (a price, an optional term).
/// (The thrower gets a copy made on the cold path, as above.)
template <class Unit>
GPUCALC_DETAIL_INLINE constexpr void require_non_negative(const char* function, const char* field,
                                                          const boost::units::quantity<Unit, double>& q) {
    using Quantity = boost::units::quantity<Unit, double>;
    const double v = q.value();
    if (!((v >= smallest_input && v <= input_range<Quantity>::largest) || exactly_equal(v, 0.0))) {
        throw_out_of_range(function, field, Quantity::from_value(v), true);
    }
}

/// Where a field sits in what the caller wrote: the function called and the member path to the
/// field, in two parts so that paths compose without building strings: a check of a cluster's
/// GPU names its scale-up link's bandwidth "node.gpu." "scale_up." "per_direction".
struct field_path {
    const char* function;
    const char* prefix = "";
    const char* member = "";
};

/// The path's text, built only on the way to an error.
GPUCALC_DETAIL_COLD inline std::string path_text(const field_path& at, const char* field) {
    return std::string(at.prefix) + at.member + field;
}

/// A quantity that must be > 0 and inside its dimension's range (docs/units.md, "Input
/// ranges"), named by its path. This and the other checks by path are inlined under Clang, as
/// the checks they wrap are (detail/config.hpp): Clang 14's flatten inlines one level only, so
/// collective_time(spec, link) inlined check(link) but called these out of line, the quantity
/// passing through memory (about 40 more instructions a call than its raw-double twin).
template <class Quantity>
GPUCALC_DETAIL_INLINE constexpr void require_positive_at(const field_path& at, const char* field,
                                                         const Quantity& q) {
    if (!(q.value() >= smallest_input && q.value() <= input_range<Quantity>::largest)) {
        require_positive(at.function, path_text(at, field).c_str(), q);
    }
}

/// A quantity that must be 0, or inside its dimension's range, named by its path.
template <class Quantity>
GPUCALC_DETAIL_INLINE constexpr void require_non_negative_at(const field_path& at,
                                                             const char* field, const Quantity& q) {
    if (!((q.value() >= smallest_input && q.value() <= input_range<Quantity>::largest) ||
          detail::exactly_equal(q.value(), 0.0))) {
        require_non_negative(at.function, path_text(at, field).c_str(), q);
    }
}

[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_fraction_of_peak(const char* function,
                                                                        const char* field,
                                                                        double value) {
    throw_invalid(function, field, value, "",
                  value > 0.0 && value < smallest_input ? "must be at least 1e-30"
                                                        : "must be in (0, 1]");
}

/// A fraction of a peak that real work reaches (a kernel's efficiency, a link's collective
/// efficiency, a training run's MFU): in (0, 1], and at least 1e-30, as a positive input
/// quantity is, so that a time divided by it stays finite.
constexpr void require_fraction_of_peak(const char* function, const char* field, double value) {
    if (!(value >= smallest_input && value <= 1.0)) {
        throw_bad_fraction_of_peak(function, field, value);
    }
}

GPUCALC_DETAIL_INLINE constexpr void require_fraction_at(const field_path& at, const char* field,
                                                         double value) {
    if (!(value >= smallest_input && value <= 1.0)) {
        throw_bad_fraction_of_peak(at.function, path_text(at, field).c_str(), value);
    }
}

/// A whole count in [1, 2^40], named by its path ("must be >= 1", "must be <= 2^40").
GPUCALC_DETAIL_INLINE constexpr void require_count_at(const field_path& at, const char* field,
                                                      long long value) {
    if (value < 1 || value > largest_count) {
        require_count(at.function, path_text(at, field).c_str(), value);
    }
}

/// A whole count in [1, largest], named by its path, with the rule as the caller words it
/// ("must be in [1, 64]").
constexpr void require_count_at(const field_path& at, const char* field, long long value,
                                long long largest, const char* rule) {
    if (value < 1 || value > largest) {
        throw_invalid(at.function, path_text(at, field).c_str(), static_cast<double>(value), "",
                      rule);
    }
}

/// A plain number in [smallest, largest] (or also 0 when `zero_allowed`), named by its path.
constexpr void require_in_range_at(const field_path& at, const char* field, double value,
                                   double smallest, double largest, bool zero_allowed,
                                   const char* unit, const char* rule) {
    const bool ok =
        (value >= smallest && value <= largest) || (zero_allowed && exactly_equal(value, 0.0));
    if (!ok) throw_invalid(at.function, path_text(at, field).c_str(), value, unit, rule);
}

}  // namespace detail
}  // namespace gpucalc
