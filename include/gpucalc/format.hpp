// format.hpp: how a quantity reads to a person: 80 GiB, 3.35 TB/s, 989 TFLOP/s, $2.99/GPU·h,
// 15T tokens, 2,400 tokens/s
// Opt-in: module headers never include it; the umbrella gpucalc.hpp does.
#pragma once

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "units.hpp"

namespace gpucalc {

/// Which prefixes a data size prints with: 80 GiB (binary, 2^30) or 85.9 GB (decimal, 1e9).
enum class byte_prefixes { binary, decimal };

constexpr std::string_view to_string(byte_prefixes p) {
    return p == byte_prefixes::binary ? "binary" : "decimal";
}

struct format_options {
    int significant_figures = 3;                   ///< digits kept; at least 1
    byte_prefixes bytes = byte_prefixes::binary;   ///< sizes only; rates are always decimal
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
    if (v == 0.0 || !std::isfinite(v)) return v;
    const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    const double step = std::pow(10.0, exponent - significant + 1);
    return std::round(v / step) * step;
}

/// Magnitudes outside [1e-9, 1e18) print in exponent form: plain digits would be noise.
inline constexpr double smallest_plain = 1e-9;
inline constexpr double largest_plain = 1e18;

/// Decimal text of v with `significant` digits (1 to 17): no exponent inside the plain range,
/// trailing zeros dropped, and optionally a thousands separator in the integer part.
inline std::string rounded_text(double v, int significant, bool separators) {
    significant = clamp_significant(significant);
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    if (v != 0.0 && (std::fabs(v) < smallest_plain || std::fabs(v) >= largest_plain)) {
        return locale_free_text(v, std::chars_format::scientific, significant - 1);
    }
    const double rounded = round_to_significant(v, significant);
    int decimals = 0;
    if (rounded != 0.0) {
        const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
        decimals = significant - 1 - exponent;
        if (decimals < 0) decimals = 0;
    }
    std::string digits = locale_free_text(std::fabs(rounded), std::chars_format::fixed, decimals);
    const auto point = digits.find('.');
    if (point != std::string::npos) {
        while (digits.back() == '0') digits.pop_back();
        if (digits.back() == '.') digits.pop_back();
    }
    // Copied out character by character (GCC 12 at -O2 reports a false -Wrestrict on
    // std::string::insert), with a separator before each group of three integer digits.
    const std::size_t integer_digits = std::min(digits.find('.'), digits.size());
    std::string text = rounded < 0.0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        const std::size_t left = integer_digits - i;  // integer digits from here to the point
        if (separators && i > 0 && i < integer_digits && left % 3 == 0) text += ',';
        text += digits[i];
    }
    return text;
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

}  // namespace detail

/// Human-readable text of a quantity, e.g. "80 GiB", "$2,990", "3.35 TB/s".
/// A dimension without a conventional name prints in base units, e.g. "2 s^-2·FLOP".
template <class Dimension>
std::string to_string(const quantity_of<Dimension>& q, const format_options& options = {}) {
    const int significant = detail::clamp_significant(options.significant_figures);
    const double v = q.value();
    const detail::label_set set = detail::labels_for<quantity_of<Dimension>>(options);
    if (set.count == 0) {
        std::string unit_text;
        detail::append_dimension_text(unit_text, Dimension{});
        return detail::rounded_text(v, significant, false) + unit_text;
    }
    // The largest label not above |v|; then one label up if rounding reaches the next label's
    // size in this label's units, so 999.7 GB reads "1 TB" rather than "1000 GB".
    const double size = std::fabs(v);
    int chosen = 0;
    for (int i = 1; i < set.count; ++i) {
        if (size >= set.labels[i].factor) chosen = i;
    }
    if (chosen + 1 < set.count) {
        const double next_in_this = set.labels[chosen + 1].factor / set.labels[chosen].factor;
        const double scaled = std::fabs(v) / set.labels[chosen].factor;
        if (detail::round_to_significant(scaled, significant) >= next_in_this) ++chosen;
    }
    const detail::unit_label& label = set.labels[chosen];
    const std::string number =
        detail::rounded_text(v / label.factor, significant, set.thousands_separator);
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
inline int significant_figures_slot() {
    static const int slot = std::ios_base::xalloc();
    return slot;
}
inline int byte_prefix_slot() {
    static const int slot = std::ios_base::xalloc();
    return slot;
}
}  // namespace detail

/// The value `significant_figures(n)` returns; streaming it sets the digits kept.
struct significant_figures_manipulator {
    int digits;
};

/// Stream manipulator: `os << gpucalc::significant_figures(5) << q` prints q with 5 digits.
inline significant_figures_manipulator significant_figures(int digits) { return {digits}; }

inline std::ostream& operator<<(std::ostream& os, significant_figures_manipulator m) {
    os.iword(detail::significant_figures_slot()) = m.digits;
    return os;
}

/// Stream manipulators that choose byte prefixes for the sizes that follow.
inline std::ostream& decimal_bytes(std::ostream& os) {
    os.iword(detail::byte_prefix_slot()) = 1;
    return os;
}
inline std::ostream& binary_bytes(std::ostream& os) {
    os.iword(detail::byte_prefix_slot()) = 0;
    return os;
}

/// Every gpucalc quantity prints with its unit, so failing test assertions show "$2,990".
template <class Dimension>
std::ostream& operator<<(std::ostream& os, const quantity_of<Dimension>& q) {
    format_options options;
    const long digits = os.iword(detail::significant_figures_slot());
    if (digits > 0) options.significant_figures = static_cast<int>(digits);
    if (os.iword(detail::byte_prefix_slot()) == 1) options.bytes = byte_prefixes::decimal;
    return os << to_string(q, options);
}

namespace detail {
template <class T>
struct is_gpucalc_quantity : std::false_type {};
template <class Dimension>
struct is_gpucalc_quantity<quantity_of<Dimension>> : std::true_type {};
}  // namespace detail

/// Any other gpucalc type that has a to_string (the enums) prints through it.
template <class T, class = std::enable_if_t<!detail::is_gpucalc_quantity<T>::value>,
          class = decltype(to_string(std::declval<const T&>()))>
std::ostream& operator<<(std::ostream& os, const T& value) {
    return os << to_string(value);
}

}  // namespace gpucalc
