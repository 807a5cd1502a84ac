// units/print.hpp: how a quantity reads to a person (80 GiB, 3.35 TB/s, $2.99/GPU·h, 15T tokens),
// and the one operator<< that prints it. It comes with units.hpp, so a quantity prints the same
// way in every file that can see its type: a test framework's printer is instantiated once per
// program, and two files that disagreed about operator<< would break the one-definition rule.
// Only <iosfwd> is needed here; the stream manipulators, which need <ostream>, are in format.hpp.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include "quantities.hpp"

namespace gpucalc {

/// Which prefixes a data size prints with: 80 GiB (binary, 2^30) or 85.9 GB (decimal, 1e9).
enum class byte_prefixes { binary, decimal };

constexpr std::string_view to_string(byte_prefixes p) {
    return p == byte_prefixes::binary    ? "binary"
           : p == byte_prefixes::decimal ? "decimal"
                                         : "unknown";
}

/// How to_string writes a quantity. The defaults are what operator<< prints.
struct format_options {
    int significant_figures = 3;                   ///< digits kept; at least 1
    byte_prefixes bytes = byte_prefixes::binary;   ///< sizes only; rates are always decimal
    /// As many digits as the value needs to be read back exactly in the unit shown
    /// (significant_figures then only chooses the unit): what a failing test prints, so that
    /// two values that differ never print the same.
    bool exact = false;
};

namespace detail {

/// One way of naming a magnitude: a factor in base units and the text around the number.
struct unit_label {
    double factor;
    const char* before;  // e.g. "$"
    const char* after;   // e.g. " GiB"
};

struct label_set {
    const unit_label* labels;  // ascending by factor; the first is used below its own factor
    int count;
    bool thousands_separator;
};

inline constexpr unit_label binary_bytes_labels[] = {
    {1.0, "", " B"},           {1024.0, "", " KiB"},
    {1048576.0, "", " MiB"},   {1073741824.0, "", " GiB"},
    {1099511627776.0, "", " TiB"}, {1125899906842624.0, "", " PiB"},
    {1152921504606846976.0, "", " EiB"}};
inline constexpr unit_label decimal_bytes_labels[] = {
    {1.0, "", " B"},   {1e3, "", " kB"},  {1e6, "", " MB"}, {1e9, "", " GB"},
    {1e12, "", " TB"}, {1e15, "", " PB"}, {1e18, "", " EB"}};
inline constexpr unit_label flop_labels[] = {
    {1.0, "", " FLOP"},   {1e3, "", " kFLOP"},  {1e6, "", " MFLOP"},
    {1e9, "", " GFLOP"},  {1e12, "", " TFLOP"}, {1e15, "", " PFLOP"},
    {1e18, "", " EFLOP"}, {1e21, "", " ZFLOP"}, {1e24, "", " YFLOP"}};
inline constexpr unit_label flop_rate_labels[] = {
    {1.0, "", " FLOP/s"},   {1e3, "", " kFLOP/s"},  {1e6, "", " MFLOP/s"},
    {1e9, "", " GFLOP/s"},  {1e12, "", " TFLOP/s"}, {1e15, "", " PFLOP/s"},
    {1e18, "", " EFLOP/s"}};
inline constexpr unit_label bandwidth_labels[] = {
    {1.0, "", " B/s"},   {1e3, "", " kB/s"},  {1e6, "", " MB/s"},
    {1e9, "", " GB/s"},  {1e12, "", " TB/s"}, {1e15, "", " PB/s"}};
inline constexpr unit_label duration_labels[] = {
    {1e-9, "", " ns"}, {1e-6, "", " \xC2\xB5s"}, {1e-3, "", " ms"},    {1.0, "", " s"},
    {60.0, "", " min"}, {3600.0, "", " h"},      {86400.0, "", " days"}, {31536000.0, "", " years"}};
inline constexpr unit_label power_labels[] = {
    {1.0, "", " W"}, {1e3, "", " kW"}, {1e6, "", " MW"}, {1e9, "", " GW"}};
inline constexpr unit_label mass_labels[] = {
    {1e-3, "", " g"}, {1.0, "", " kg"}, {1e3, "", " t"}};
inline constexpr unit_label money_labels[] = {{1.0, "$", ""}};
inline constexpr unit_label cost_rate_labels[] = {{1.0 / 3600.0, "$", "/h"}};
inline constexpr unit_label gpu_price_labels[] = {{1.0 / 3600.0, "$", "/GPU\xC2\xB7h"}};
inline constexpr unit_label energy_price_labels[] = {{1.0 / 3.6e6, "$", "/kWh"}};
inline constexpr unit_label data_price_labels[] = {{1e-9, "$", "/GB"}};
inline constexpr unit_label gpu_count_labels[] = {{1.0, "", " GPU"}};
inline constexpr unit_label gpu_time_labels[] = {{3600.0, "", " GPU\xC2\xB7h"}};
inline constexpr unit_label energy_labels[] = {{3.6e6, "", " kWh"}};
inline constexpr unit_label grid_intensity_labels[] = {{1e-3 / 3.6e6, "", " g/kWh"}};
inline constexpr unit_label intensity_labels[] = {{1.0, "", " FLOP/B"}};
inline constexpr unit_label token_labels[] = {
    {1.0, "", " tokens"}, {1e6, "", "M tokens"}, {1e9, "", "B tokens"}, {1e12, "", "T tokens"}};
inline constexpr unit_label token_rate_labels[] = {{1.0, "", " tokens/s"}, {1e6, "", "M tokens/s"}};
inline constexpr unit_label stream_token_rate_labels[] = {{1.0, "", " tokens/s per stream"}};
inline constexpr unit_label sequence_labels[] = {{1.0, "", " sequences"}};
inline constexpr unit_label request_rate_labels[] = {{1.0, "", " requests/s"}};
inline constexpr unit_label token_price_labels[] = {{1e-6, "$", "/M tokens"}};

template <std::size_t N>
constexpr label_set labels_of(const unit_label (&labels)[N], bool separators) {
    return {labels, static_cast<int>(N), separators};
}

/// The labels a quantity prints with; a dimension without a name gets none (see dimension_text).
template <class Quantity>
inline label_set labels_for(const format_options& options) {
    if constexpr (std::is_same<Quantity, data_size>::value) {
        if (options.bytes != byte_prefixes::binary && options.bytes != byte_prefixes::decimal) {
            throw_invalid_name("to_string", "options.bytes",
                               number_text(static_cast<double>(static_cast<int>(options.bytes))),
                               "must be a byte_prefixes value");
        }
        return options.bytes == byte_prefixes::binary ? labels_of(binary_bytes_labels, false)
                                                      : labels_of(decimal_bytes_labels, false);
    } else if constexpr (std::is_same<Quantity, flop_count>::value) {
        return labels_of(flop_labels, false);
    } else if constexpr (std::is_same<Quantity, flop_rate>::value) {
        return labels_of(flop_rate_labels, false);
    } else if constexpr (std::is_same<Quantity, bandwidth>::value) {
        return labels_of(bandwidth_labels, false);
    } else if constexpr (std::is_same<Quantity, duration>::value) {
        return labels_of(duration_labels, false);
    } else if constexpr (std::is_same<Quantity, power>::value) {
        return labels_of(power_labels, false);
    } else if constexpr (std::is_same<Quantity, mass>::value) {
        return labels_of(mass_labels, false);
    } else if constexpr (std::is_same<Quantity, money>::value) {
        return labels_of(money_labels, true);
    } else if constexpr (std::is_same<Quantity, cost_rate>::value) {
        return labels_of(cost_rate_labels, true);
    } else if constexpr (std::is_same<Quantity, gpu_price>::value) {
        return labels_of(gpu_price_labels, true);
    } else if constexpr (std::is_same<Quantity, energy_price>::value) {
        return labels_of(energy_price_labels, true);
    } else if constexpr (std::is_same<Quantity, data_price>::value) {
        return labels_of(data_price_labels, true);
    } else if constexpr (std::is_same<Quantity, gpu_count>::value) {
        return labels_of(gpu_count_labels, true);
    } else if constexpr (std::is_same<Quantity, gpu_time>::value) {
        return labels_of(gpu_time_labels, true);
    } else if constexpr (std::is_same<Quantity, energy>::value) {
        return labels_of(energy_labels, true);
    } else if constexpr (std::is_same<Quantity, grid_intensity>::value) {
        return labels_of(grid_intensity_labels, false);
    } else if constexpr (std::is_same<Quantity, arithmetic_intensity>::value) {
        return labels_of(intensity_labels, false);
    } else if constexpr (std::is_same<Quantity, token_count>::value) {
        return labels_of(token_labels, true);
    } else if constexpr (std::is_same<Quantity, token_rate>::value) {
        return labels_of(token_rate_labels, true);
    } else if constexpr (std::is_same<Quantity, stream_token_rate>::value) {
        return labels_of(stream_token_rate_labels, true);
    } else if constexpr (std::is_same<Quantity, sequence_count>::value) {
        return labels_of(sequence_labels, true);
    } else if constexpr (std::is_same<Quantity, request_rate>::value) {
        return labels_of(request_rate_labels, true);
    } else if constexpr (std::is_same<Quantity, token_price>::value) {
        return labels_of(token_price_labels, true);
    } else {
        return {nullptr, 0, false};
    }
}

/// Digits a printed value keeps: at least 1, and no more than a double holds.
inline int clamp_significant(int significant) {
    return significant < 1 ? 1 : (significant > 17 ? 17 : significant);
}

/// v rounded to `significant` digits (0 stays 0).
inline double round_to_significant(double v, int significant) {
    if (std::fpclassify(v) == FP_ZERO || !std::isfinite(v)) return v;
    const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    const double step = std::pow(10.0, exponent - significant + 1);
    return std::round(v / step) * step;
}

/// Magnitudes outside [1e-9, 1e18) print in exponent form: plain digits would be noise.
inline constexpr double smallest_plain = 1e-9;
inline constexpr double largest_plain = 1e18;

/// `digits` (unsigned decimal text, perhaps with a point) with a sign and, optionally, a
/// thousands separator before each group of three integer digits.
inline std::string signed_grouped(bool negative, const std::string& digits, bool separators) {
    // Copied out character by character (GCC 12 at -O2 reports a false -Wrestrict on
    // std::string::insert).
    const std::size_t integer_digits = digits.find('.') < digits.size() ? digits.find('.')
                                                                         : digits.size();
    std::string text = negative ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        const std::size_t left = integer_digits - i;  // integer digits from here to the point
        if (separators && i > 0 && i < integer_digits && left % 3 == 0) text += ',';
        text += digits[i];
    }
    return text;
}

/// Text for the values no digits describe, or null for a finite value.
inline const char* non_finite_text(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return nullptr;
}

/// True outside [1e-9, 1e18) in magnitude, where a value prints in exponent form.
inline bool needs_exponent(double v) {
    const double size = std::fabs(v);
    return std::fpclassify(v) != FP_ZERO && (size < smallest_plain || size >= largest_plain);
}

/// Decimal text of v with `significant` digits (1 to 17): no exponent inside the plain range,
/// trailing zeros dropped, and optionally a thousands separator in the integer part.
inline std::string rounded_text(double v, int significant, bool separators) {
    significant = clamp_significant(significant);
    if (const char* text = non_finite_text(v)) return text;
    if (needs_exponent(v)) {
        return locale_free_text(v, std::chars_format::scientific, significant - 1);
    }
    const double rounded = round_to_significant(v, significant);
    int decimals = 0;
    if (std::fpclassify(rounded) != FP_ZERO) {
        const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
        decimals = significant - 1 - exponent;
        if (decimals < 0) decimals = 0;
    }
    std::string digits = locale_free_text(std::fabs(rounded), std::chars_format::fixed, decimals);
    if (digits.find('.') != std::string::npos) {
        while (digits.back() == '0') digits.pop_back();
        if (digits.back() == '.') digits.pop_back();
    }
    return signed_grouped(rounded < 0.0, digits, separators);
}

/// The shortest decimal text that reads back as exactly v (std::to_chars without a precision),
/// in the C locale: two different doubles never get the same text.
inline std::string exact_text(double v, bool separators) {
    if (const char* text = non_finite_text(v)) return text;
    char buffer[64];
    const auto format = needs_exponent(v) ? std::chars_format::scientific : std::chars_format::fixed;
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(v), format);
    const std::string digits(buffer, r.ec == std::errc{} ? r.ptr : buffer);
    return signed_grouped(v < 0.0, digits, separators && format == std::chars_format::fixed);
}

/// Text for a base dimension inside a composed unit such as "FLOP·B^-1".
template <class BaseDimension>
constexpr const char* base_symbol() {
    if constexpr (std::is_same<BaseDimension, boost::units::information_base_dimension>::value)
        return "B";
    else if constexpr (std::is_same<BaseDimension, boost::units::time_base_dimension>::value)
        return "s";
    else if constexpr (std::is_same<BaseDimension, boost::units::mass_base_dimension>::value)
        return "kg";
    else if constexpr (std::is_same<BaseDimension, boost::units::length_base_dimension>::value)
        return "m";
    else if constexpr (std::is_same<BaseDimension, flop_base_dimension>::value)
        return "FLOP";
    else if constexpr (std::is_same<BaseDimension, currency_base_dimension>::value)
        return "USD";
    else if constexpr (std::is_same<BaseDimension, gpu_base_dimension>::value)
        return "GPU";
    else if constexpr (std::is_same<BaseDimension, token_base_dimension>::value)
        return "token";
    else if constexpr (std::is_same<BaseDimension, sequence_base_dimension>::value)
        return "seq";
    else
        return "?";
}

inline void append_dimension_text(std::string&, boost::units::dimensionless_type) {}

template <class Base, long N, long D, class Tail>
void append_dimension_text(
    std::string& text,
    boost::units::list<boost::units::dim<Base, boost::units::static_rational<N, D>>, Tail>) {
    text += text.empty() ? " " : "\xC2\xB7";
    text += base_symbol<Base>();
    if (N != 1 || D != 1) {
        text += '^';
        text += std::to_string(N);
        if (D != 1) {
            text += '/';
            text += std::to_string(D);
        }
    }
    append_dimension_text(text, Tail{});
}

/// The label to_string writes v with, or null for base units (a dimension without labels, or a
/// finite value its label would overflow: -DBL_MAX $/GPU·s is -inf $/GPU·h). The largest label
/// not above |v|; then one label up if rounding reaches the next label's size in this label's
/// units, so 999.7 GB reads "1 TB" rather than "1000 GB". Zero, inf and NaN read in the base
/// unit where the dimension has one ("0 s", not "0 ns"; "inf B", not "inf EiB").
inline const unit_label* display_label(const label_set& set, double v, int significant) {
    if (set.count == 0) return nullptr;
    const double size = std::fabs(v);
    const bool no_magnitude = std::fpclassify(v) == FP_ZERO || !std::isfinite(v);
    int chosen = 0;
    for (int i = 1; i < set.count; ++i) {
        if (no_magnitude ? set.labels[i].factor <= 1.0 : size >= set.labels[i].factor) chosen = i;
    }
    if (!no_magnitude && chosen + 1 < set.count) {
        const double next_in_this = set.labels[chosen + 1].factor / set.labels[chosen].factor;
        const double scaled = size / set.labels[chosen].factor;
        if (round_to_significant(scaled, significant) >= next_in_this) ++chosen;
    }
    const unit_label* label = &set.labels[chosen];
    return std::isfinite(v) && !std::isfinite(v / label->factor) ? nullptr : label;
}

/// The number to_string writes for q, in the unit it picks (80e9 bytes: 74.5 for GiB).
template <class Dimension>
double display_number(const quantity_of<Dimension>& q, const format_options& options) {
    const double v = q.value();
    const unit_label* label =
        display_label(labels_for<quantity_of<Dimension>>(options), v,
                      clamp_significant(options.significant_figures));
    return label != nullptr ? v / label->factor : v;
}

}  // namespace detail

/// Human-readable text of a quantity, e.g. "80 GiB", "$2,990", "3.35 TB/s".
/// A dimension without a conventional name prints in base units, e.g. "2 s^-2·FLOP".
template <class Dimension>
std::string to_string(const quantity_of<Dimension>& q, const format_options& options = {}) {
    const int significant = detail::clamp_significant(options.significant_figures);
    const double v = q.value();
    const auto in_base_units = [&] {
        std::string unit_text;
        detail::append_dimension_text(unit_text, Dimension{});
        return (options.exact ? detail::exact_text(v, false)
                              : detail::rounded_text(v, significant, false)) +
               unit_text;
    };
    const detail::label_set set = detail::labels_for<quantity_of<Dimension>>(options);
    const detail::unit_label* chosen = detail::display_label(set, v, significant);
    if (chosen == nullptr) return in_base_units();
    const detail::unit_label& label = *chosen;
    const std::string number =
        options.exact ? detail::exact_text(v / label.factor, set.thousands_separator)
                      : detail::rounded_text(v / label.factor, significant, set.thousands_separator);
    // Appended piece by piece: GCC 12 at -O2 reports a false -Wrestrict on `"-" + string&&`.
    const bool negative = number[0] == '-';
    std::string text = negative ? "-" : "";
    text += label.before;
    text.append(number, negative ? 1 : 0, std::string::npos);
    // "1 day", not "1 days".
    const std::string after = label.after;
    if (number == "1" && after.size() > 1 && after.back() == 's' &&
        (after == " days" || after == " years")) {
        text.append(after, 0, after.size() - 1);
    } else {
        text += after;
    }
    return text;
}

namespace detail {

/// The stream slots (std::ios_base::xalloc) that format.hpp's manipulators set and operator<<
/// reads. A template on the stream, so that this header needs no complete stream type; both
/// sides use std::ostream, so they share one slot each.
template <class Stream>
int significant_figures_slot() {
    static const int slot = Stream::xalloc();
    return slot;
}
template <class Stream>
int byte_prefix_slot() {
    static const int slot = Stream::xalloc();
    return slot;
}

/// The options a stream carries: defaults unless format.hpp's manipulators changed them.
template <class Stream>
format_options stream_options(Stream& os) {
    format_options options;
    const long digits = os.iword(significant_figures_slot<Stream>());
    if (digits > 0) options.significant_figures = static_cast<int>(digits);
    if (os.iword(byte_prefix_slot<Stream>()) == 1) options.bytes = byte_prefixes::decimal;
    return options;
}

template <class T>
struct is_gpucalc_quantity : std::false_type {};
template <class Dimension>
struct is_gpucalc_quantity<quantity_of<Dimension>> : std::true_type {};

/// Writes what a failing test shows: the value with all the digits it needs (options.exact).
/// A template on the stream for the same reason as the slots.
template <class Stream, class Dimension>
void print_exact(Stream& os, const quantity_of<Dimension>& q) {
    format_options options;
    options.exact = true;
    os << to_string(q, options);
}

}  // namespace detail

/// Every gpucalc quantity prints with its unit: 3 significant figures unless format.hpp's
/// `significant_figures(n)` or `decimal_bytes` say otherwise.
template <class Traits, class Dimension>
std::basic_ostream<char, Traits>& operator<<(std::basic_ostream<char, Traits>& os,
                                             const quantity_of<Dimension>& q) {
    return os << to_string(q, detail::stream_options(os));
}

/// Any other gpucalc type that has a to_string (the enums) prints through it.
template <class Traits, class T, class = std::enable_if_t<!detail::is_gpucalc_quantity<T>::value>,
          class = decltype(to_string(std::declval<const T&>()))>
std::basic_ostream<char, Traits>& operator<<(std::basic_ostream<char, Traits>& os, const T& value) {
    return os << to_string(value);
}

/// Google Test prints a value through PrintTo when argument-dependent lookup finds one, so a
/// failing EXPECT_EQ shows "80.0009765625 GiB" against "80 GiB" rather than two "80 GiB".
/// Google Test need not be present: this is an ordinary function.
template <class Dimension>
void PrintTo(const quantity_of<Dimension>& q, std::ostream* os) {
    detail::print_exact(*os, q);
}

}  // namespace gpucalc

// doctest prints a value through doctest::StringMaker<T>. Specialised here, next to the type, so
// every file that sees a quantity agrees on it (a specialisation seen by only some files would
// break the one-definition rule), and with the exact digits, as for Google Test above. doctest
// need not be present: its two names are only declared, and String is used only when doctest's
// own toString instantiates convert. The declarations match doctest 2.4.
namespace doctest {
class String;
template <typename T>
struct StringMaker;

template <class Dimension>
struct StringMaker<gpucalc::quantity_of<Dimension>> {
    template <class Text = String>
    static Text convert(const gpucalc::quantity_of<Dimension>& q) {
        gpucalc::format_options options;
        options.exact = true;
        return Text(gpucalc::to_string(q, options).c_str());
    }
};
}  // namespace doctest
