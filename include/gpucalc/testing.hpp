// testing.hpp: comparing a quantity with a tolerance, in a way a failing test explains.
//   CHECK(memory == gpucalc::approx(80.0_GiB, 1e-3));      // doctest
//   EXPECT_EQ(memory, gpucalc::approx(80.0_GiB, 1e-3));    // Google Test
// A failure shows both values in the dimension's display unit, the actual one with all its
// digits, and the tolerance as a fraction and as a quantity:
//   80.0009765625 GiB == approx. 80 GiB (relative tolerance 1e-06, ±82 KiB)
// Needs neither framework: it is an ordinary type with operator== and operator<<. Printing a
// bare quantity in a failure needs nothing from here; units.hpp does it.
#pragma once

#include <ostream>
#include <string>
#include <type_traits>

#include "units.hpp"

namespace gpucalc {

/// A value to compare with: equal to `actual` when approx_equal(actual, expected, tolerance),
/// that is |actual − expected| ≤ tolerance × max(|actual|, |expected|). T is a quantity or a
/// double. Made by approx().
template <class T>
class approx_value {
public:
    constexpr approx_value(const T& expected, double relative_tolerance)
        : expected_(expected), relative_tolerance_(relative_tolerance) {
        detail::check_tolerance(relative_tolerance, "approx");
    }

    constexpr const T& expected() const { return expected_; }
    constexpr double relative_tolerance() const { return relative_tolerance_; }

    /// Only a value of T's own dimension compares: anything else does not compile.
    friend constexpr bool operator==(const T& actual, const approx_value& a) {
        return approx_equal(actual, a.expected_, a.relative_tolerance_);
    }
    friend constexpr bool operator==(const approx_value& a, const T& actual) { return actual == a; }
    friend constexpr bool operator!=(const T& actual, const approx_value& a) {
        return !(actual == a);
    }
    friend constexpr bool operator!=(const approx_value& a, const T& actual) {
        return !(actual == a);
    }

    /// A quantity of another dimension gets one sentence instead of "no match for operator==".
    template <class Other, class = std::enable_if_t<detail::is_gpucalc_quantity<Other>::value &&
                                                    !std::is_same<Other, T>::value>>
    friend constexpr bool operator==(const Other&, const approx_value&) {
        static_assert(detail::is_gpucalc_quantity<Other>::value && std::is_same<Other, T>::value,
                      "gpucalc::approx: the value compared and the expected value have different "
                      "dimensions");
        return false;
    }
    template <class Other, class = std::enable_if_t<detail::is_gpucalc_quantity<Other>::value &&
                                                    !std::is_same<Other, T>::value>>
    friend constexpr bool operator==(const approx_value& a, const Other& actual) {
        return actual == a;
    }
    template <class Other, class = std::enable_if_t<detail::is_gpucalc_quantity<Other>::value &&
                                                    !std::is_same<Other, T>::value>>
    friend constexpr bool operator!=(const Other& actual, const approx_value& a) {
        return actual == a;
    }
    template <class Other, class = std::enable_if_t<detail::is_gpucalc_quantity<Other>::value &&
                                                    !std::is_same<Other, T>::value>>
    friend constexpr bool operator!=(const approx_value& a, const Other& actual) {
        return actual == a;
    }

private:
    T expected_;
    double relative_tolerance_;
};

/// `actual == approx(expected, tolerance)` compares within a relative tolerance (default
/// formula_tolerance, 1e-9) and prints as "approx. 80 GiB (relative tolerance 0.001, ±82 MiB)".
/// Throws invalid_input unless the tolerance is in [0, 1).
template <class Dimension>
constexpr approx_value<quantity_of<Dimension>> approx(
    const quantity_of<Dimension>& expected, double relative_tolerance = formula_tolerance) {
    return {expected, relative_tolerance};
}
constexpr approx_value<double> approx(double expected,
                                      double relative_tolerance = formula_tolerance) {
    return {expected, relative_tolerance};
}

namespace detail {
inline std::string shortest_text(double v) {
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ec == std::errc{} ? r.ptr : buffer);
}
inline std::string approx_text(double v, const format_options&) { return shortest_text(v); }
template <class Dimension>
std::string approx_text(const quantity_of<Dimension>& q, const format_options& options) {
    return to_string(q, options);
}
}  // namespace detail

/// "approx. 80 GiB (relative tolerance 0.001, ±82 MiB)": the expected value with all its
/// digits, and the band the tolerance allows around it, to 2 significant figures.
template <class T>
std::ostream& operator<<(std::ostream& os, const approx_value<T>& a) {
    format_options exact;
    exact.exact = true;
    format_options band;
    band.significant_figures = 2;
    const T width = a.expected() * a.relative_tolerance();
    return os << "approx. " << detail::approx_text(a.expected(), exact) << " (relative tolerance "
              << detail::shortest_text(a.relative_tolerance()) << ", \xC2\xB1"
              << detail::approx_text(width < T{} ? -width : width, band) << ")";
}

}  // namespace gpucalc
