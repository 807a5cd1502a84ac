// units/quantities.hpp: the dimensions gpucalc computes with, a named alias for each quantity, and the
// explicit ways in (make<Unit>) and out (in<Unit>) of a quantity
#pragma once

#include <type_traits>

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/base_units/information/byte.hpp>
#include <boost/units/base_units/si/kilogram.hpp>
#include <boost/units/base_units/si/meter.hpp>
#include <boost/units/base_units/si/second.hpp>
#include <boost/units/dimensionless_type.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/physical_dimensions/energy.hpp>
#include <boost/units/physical_dimensions/information.hpp>
#include <boost/units/physical_dimensions/length.hpp>
#include <boost/units/physical_dimensions/mass.hpp>
#include <boost/units/physical_dimensions/power.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>

#include "../error.hpp"

namespace gpucalc {

// ---------------------------------------------------------------------------------------------
// Base dimensions and base units.
// Boost.Units reserves negative ordinals for its own base dimensions; ours are positive and
// distinct (the values are arbitrary but must never change, as they order the dimension lists).
// ---------------------------------------------------------------------------------------------

/// Floating-point (or integer tensor) operations: a count, so FLOP/s is a rate.
struct flop_base_dimension : boost::units::base_dimension<flop_base_dimension, 1201> {};
/// Money. One currency (USD) is built in; prices in other currencies are converted by the caller.
struct currency_base_dimension : boost::units::base_dimension<currency_base_dimension, 1202> {};
/// GPU count, used only for capacity and money bookkeeping: GPU·h and $/GPU·h.
struct gpu_base_dimension : boost::units::base_dimension<gpu_base_dimension, 1203> {};
/// Tokens: what a model reads and writes, so a throughput (tokens/s) and a price per token
/// carry their own dimension instead of being bare numbers.
struct token_base_dimension : boost::units::base_dimension<token_base_dimension, 1204> {};
/// Sequences: one request being served, or one sample of a training batch. A per-stream rate
/// is tokens per second per sequence; times the sequences decoded together, it is the
/// aggregate tokens/s, so the two cannot be confused. Requests per second are sequences/s.
struct sequence_base_dimension : boost::units::base_dimension<sequence_base_dimension, 1205> {};

struct flop_base_unit
    : boost::units::base_unit<flop_base_unit, flop_base_dimension::dimension_type, 1201> {
    static constexpr const char* name() { return "floating-point operation"; }
    static constexpr const char* symbol() { return "FLOP"; }
};
struct usd_base_unit
    : boost::units::base_unit<usd_base_unit, currency_base_dimension::dimension_type, 1202> {
    static constexpr const char* name() { return "US dollar"; }
    static constexpr const char* symbol() { return "USD"; }
};
struct gpu_base_unit
    : boost::units::base_unit<gpu_base_unit, gpu_base_dimension::dimension_type, 1203> {
    static constexpr const char* name() { return "GPU"; }
    static constexpr const char* symbol() { return "GPU"; }
};
struct token_base_unit
    : boost::units::base_unit<token_base_unit, token_base_dimension::dimension_type, 1204> {
    static constexpr const char* name() { return "token"; }
    static constexpr const char* symbol() { return "token"; }
};
struct sequence_base_unit
    : boost::units::base_unit<sequence_base_unit, sequence_base_dimension::dimension_type, 1205> {
    static constexpr const char* name() { return "sequence"; }
    static constexpr const char* symbol() { return "seq"; }
};

/// The one coherent system every gpucalc quantity is stored in: metre, kilogram and second
/// (so energy is the SI joule and power the SI watt), byte, FLOP, USD, GPU, token and sequence.
using system = boost::units::make_system<boost::units::si::meter_base_unit,
                                         boost::units::si::kilogram_base_unit,
                                         boost::units::si::second_base_unit,
                                         boost::units::information::byte_base_unit, flop_base_unit,
                                         usd_base_unit, gpu_base_unit, token_base_unit,
                                         sequence_base_unit>::type;

/// A quantity of the given dimension in gpucalc's system, stored as a double in base units.
template <class Dimension>
using quantity_of = boost::units::quantity<boost::units::unit<Dimension, system>, double>;

namespace detail {
template <class A, class B>
using quotient = typename boost::units::divide_typeof_helper<A, B>::type;
template <class A, class B>
using product = typename boost::units::multiply_typeof_helper<A, B>::type;
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Named quantities. Public signatures use these names, so diagnostics say "aka gpucalc::...".
// ---------------------------------------------------------------------------------------------
using data_size = quantity_of<boost::units::information_dimension>;      ///< bytes
using flop_count = quantity_of<flop_base_dimension::dimension_type>;     ///< FLOP
using duration = quantity_of<boost::units::time_dimension>;              ///< seconds
using money = quantity_of<currency_base_dimension::dimension_type>;      ///< USD
using gpu_count = quantity_of<gpu_base_dimension::dimension_type>;       ///< GPUs (bookkeeping)
using mass = quantity_of<boost::units::mass_dimension>;                  ///< kg (CO2e)
using power = quantity_of<boost::units::power_dimension>;                ///< watts (SI)
using energy = quantity_of<boost::units::energy_dimension>;              ///< joules (SI)
using token_count = quantity_of<token_base_dimension::dimension_type>;   ///< tokens
using sequence_count = quantity_of<sequence_base_dimension::dimension_type>;  ///< sequences (requests)

using flop_rate = detail::quotient<flop_count, duration>;                ///< FLOP/s
using bandwidth = detail::quotient<data_size, duration>;                 ///< B/s
using arithmetic_intensity = detail::quotient<flop_count, data_size>;    ///< FLOP/B
using gpu_time = detail::product<gpu_count, duration>;                   ///< GPU·s (shown as GPU·h)
using cost_rate = detail::quotient<money, duration>;                     ///< $/s (shown as $/h)
using gpu_price = detail::quotient<money, gpu_time>;                     ///< $/(GPU·s) (shown as $/GPU·h)
using energy_price = detail::quotient<money, energy>;                    ///< $/J (shown as $/kWh)
using data_price = detail::quotient<money, data_size>;                   ///< $/B (shown as $/GB)
using co2_mass = mass;                                                   ///< kg CO2-equivalent
using grid_intensity = detail::quotient<co2_mass, energy>;               ///< kg/J (shown as g/kWh)
using token_rate = detail::quotient<token_count, duration>;              ///< tokens/s, aggregate
/// tokens/s of each sequence (a per-stream decode speed); × sequences gives a token_rate.
using stream_token_rate = detail::quotient<token_rate, sequence_count>;
using request_rate = detail::quotient<sequence_count, duration>;         ///< requests (sequences)/s
using token_price = detail::quotient<money, token_count>;                ///< $/token (shown as $/M tokens)

namespace detail {
/// What one decode step produces for each sequence: a stream_token_rate is this per duration.
constexpr quotient<token_count, sequence_count> one_token_per_sequence() {
    return token_count::from_value(1.0) / sequence_count::from_value(1.0);
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Named units: how a value enters (make<Unit>) and leaves (in<Unit>) a quantity.
// Each unit says which quantity it measures and how many base units one of it holds.
// ---------------------------------------------------------------------------------------------

/// A unit of `Quantity` that holds Numerator/Denominator base units (byte, FLOP, second, ...).
template <class Quantity, long long Numerator, long long Denominator = 1>
struct scaled_unit {
    using quantity = Quantity;
    static constexpr double base_per_unit =
        static_cast<double>(Numerator) / static_cast<double>(Denominator);
};

// data_size: decimal (GB = 1e9 B) and binary (GiB = 2^30 B) prefixes, never confused.
struct bits : scaled_unit<data_size, 1, 8> {};
struct bytes : scaled_unit<data_size, 1> {};
struct kilobytes : scaled_unit<data_size, 1000LL> {};
struct megabytes : scaled_unit<data_size, 1000000LL> {};
struct gigabytes : scaled_unit<data_size, 1000000000LL> {};
struct terabytes : scaled_unit<data_size, 1000000000000LL> {};
struct petabytes : scaled_unit<data_size, 1000000000000000LL> {};
struct kibibytes : scaled_unit<data_size, 1LL << 10> {};
struct mebibytes : scaled_unit<data_size, 1LL << 20> {};
struct gibibytes : scaled_unit<data_size, 1LL << 30> {};
struct tebibytes : scaled_unit<data_size, 1LL << 40> {};
struct pebibytes : scaled_unit<data_size, 1LL << 50> {};

// flop_count
struct flops : scaled_unit<flop_count, 1> {};
struct gigaflops : scaled_unit<flop_count, 1000000000LL> {};
struct teraflops : scaled_unit<flop_count, 1000000000000LL> {};
struct petaflops : scaled_unit<flop_count, 1000000000000000LL> {};
struct exaflops : scaled_unit<flop_count, 1000000000000000000LL> {};

// flop_rate
struct flops_per_second : scaled_unit<flop_rate, 1> {};
struct gigaflops_per_second : scaled_unit<flop_rate, 1000000000LL> {};
struct teraflops_per_second : scaled_unit<flop_rate, 1000000000000LL> {};
struct petaflops_per_second : scaled_unit<flop_rate, 1000000000000000LL> {};

// bandwidth: memory in bytes per second, network links in bits per second (400 Gb/s = 50 GB/s)
struct bytes_per_second : scaled_unit<bandwidth, 1> {};
struct megabytes_per_second : scaled_unit<bandwidth, 1000000LL> {};
struct gigabytes_per_second : scaled_unit<bandwidth, 1000000000LL> {};
struct terabytes_per_second : scaled_unit<bandwidth, 1000000000000LL> {};
struct gibibytes_per_second : scaled_unit<bandwidth, 1LL << 30> {};
struct mebibytes_per_second : scaled_unit<bandwidth, 1LL << 20> {};
struct megabits_per_second : scaled_unit<bandwidth, 1000000LL, 8> {};
struct gigabits_per_second : scaled_unit<bandwidth, 1000000000LL, 8> {};
struct terabits_per_second : scaled_unit<bandwidth, 1000000000000LL, 8> {};

// duration. A year is 365 days (8,760 h), the figure hourly pricing and TCO tables use;
// a month is a twelfth of that (730 h), the convention cloud providers bill monthly prices by.
struct nanoseconds : scaled_unit<duration, 1, 1000000000LL> {};
struct microseconds : scaled_unit<duration, 1, 1000000LL> {};
struct milliseconds : scaled_unit<duration, 1, 1000LL> {};
struct seconds : scaled_unit<duration, 1> {};
struct minutes : scaled_unit<duration, 60> {};
struct hours : scaled_unit<duration, 3600> {};
struct days : scaled_unit<duration, 86400> {};
struct months : scaled_unit<duration, 2628000> {};
struct years : scaled_unit<duration, 31536000> {};

// money and prices
struct usd : scaled_unit<money, 1> {};
struct usd_per_second : scaled_unit<cost_rate, 1> {};
struct usd_per_hour : scaled_unit<cost_rate, 1, 3600> {};
struct usd_per_gpu_hour : scaled_unit<gpu_price, 1, 3600> {};
struct usd_per_gpu_second : scaled_unit<gpu_price, 1> {};
struct usd_per_kilowatt_hour : scaled_unit<energy_price, 1, 3600000> {};
struct usd_per_gigabyte : scaled_unit<data_price, 1, 1000000000LL> {};

// GPU bookkeeping
struct gpus : scaled_unit<gpu_count, 1> {};
struct gpu_seconds : scaled_unit<gpu_time, 1> {};
struct gpu_hours : scaled_unit<gpu_time, 3600> {};

// power and energy (SI)
struct watts : scaled_unit<power, 1> {};
struct kilowatts : scaled_unit<power, 1000> {};
struct megawatts : scaled_unit<power, 1000000> {};
struct joules : scaled_unit<energy, 1> {};
struct kilowatt_hours : scaled_unit<energy, 3600000> {};
struct megawatt_hours : scaled_unit<energy, 3600000000LL> {};

// mass (CO2-equivalent) and grid carbon intensity
struct grams : scaled_unit<mass, 1, 1000> {};
struct kilograms : scaled_unit<mass, 1> {};
struct tonnes : scaled_unit<mass, 1000> {};
struct grams_per_kilowatt_hour : scaled_unit<grid_intensity, 1, 3600000000LL> {};

// arithmetic intensity
struct flops_per_byte : scaled_unit<arithmetic_intensity, 1> {};

// tokens and sequences. A request is one sequence, so `requests` and `sequences` are one unit.
struct tokens : scaled_unit<token_count, 1> {};
struct thousand_tokens : scaled_unit<token_count, 1000LL> {};
struct million_tokens : scaled_unit<token_count, 1000000LL> {};
struct billion_tokens : scaled_unit<token_count, 1000000000LL> {};
struct trillion_tokens : scaled_unit<token_count, 1000000000000LL> {};
struct sequences : scaled_unit<sequence_count, 1> {};
struct requests : scaled_unit<sequence_count, 1> {};
struct tokens_per_second : scaled_unit<token_rate, 1> {};
struct tokens_per_second_per_stream : scaled_unit<stream_token_rate, 1> {};
struct requests_per_second : scaled_unit<request_rate, 1> {};
struct requests_per_minute : scaled_unit<request_rate, 1, 60> {};
struct usd_per_million_tokens : scaled_unit<token_price, 1, 1000000LL> {};

namespace detail {
template <class T>
struct always_false : std::false_type {};

template <class T, class = void>
struct is_named_unit : std::false_type {};
template <class T>
struct is_named_unit<T, std::void_t<typename T::quantity, decltype(T::base_per_unit)>>
    : std::true_type {};
}  // namespace detail

/// The way in: a quantity of `value` units, e.g. make<gibibytes>(80.0) is 80 GiB.
template <class Unit>
constexpr auto make(double value) {  // `auto`, so a non-unit reaches the static_assert below
    static_assert(detail::is_named_unit<Unit>::value,
                  "gpucalc::make<Unit>: Unit must be a gpucalc unit such as gibibytes or hours");
    return Unit::quantity::from_value(value * Unit::base_per_unit);
}

/// The way out: the value of q counted in `Unit`, e.g. in<gibibytes>(80.0_GiB) == 80.0.
/// Asking for a unit of another dimension is a compile error that says so.
template <class Unit, class Quantity>
constexpr double in(const Quantity& q) {
    static_assert(detail::is_named_unit<Unit>::value,
                  "gpucalc::in<Unit>(q): Unit must be a gpucalc unit such as gibibytes or hours");
    constexpr bool same_dimension = std::is_same<Quantity, typename Unit::quantity>::value;
    static_assert(same_dimension,
                  "gpucalc::in<Unit>(q): Unit measures a different dimension than q");
    return q.value() / Unit::base_per_unit;
}

// ---------------------------------------------------------------------------------------------
// Comparing with a relative tolerance (constexpr; public because cost assertions use it).
// ---------------------------------------------------------------------------------------------
namespace detail {
constexpr double magnitude(double x) { return x < 0.0 ? -x : x; }

constexpr void check_tolerance(double relative_tolerance, const char* function = "approx_equal") {
    // A NaN tolerance fails both comparisons, so it is rejected too.
    if (!(relative_tolerance >= 0.0 && relative_tolerance < 1.0)) {
        throw_invalid(function, "relative_tolerance", relative_tolerance, "",
                      "must be in [0, 1)");
    }
}
}  // namespace detail

/// The default tolerance for comparing the result of a closed formula with its reproduction.
inline constexpr double formula_tolerance = 1e-9;

/// True when |a − b| ≤ relative_tolerance × max(|a|, |b|). Exact zeros compare equal.
constexpr bool approx_equal(double a, double b, double relative_tolerance = formula_tolerance) {
    detail::check_tolerance(relative_tolerance);
    const double scale = detail::magnitude(a) > detail::magnitude(b) ? detail::magnitude(a)
                                                                     : detail::magnitude(b);
    return detail::magnitude(a - b) <= relative_tolerance * scale;
}

/// The same comparison for two quantities; they must have the same dimension.
template <class UnitA, class UnitB>
constexpr bool approx_equal(const boost::units::quantity<UnitA, double>& a,
                            const boost::units::quantity<UnitB, double>& b,
                            double relative_tolerance = formula_tolerance) {
    constexpr bool same_dimension = std::is_same<UnitA, UnitB>::value;
    static_assert(same_dimension,
                  "gpucalc::approx_equal: the two quantities have different dimensions");
    return approx_equal(a.value(), b.value(), relative_tolerance);
}

// ---------------------------------------------------------------------------------------------
// Readable errors. Boost.Units rejects `bytes + seconds` with a ~1,300-character "no match for
// operator+" line. These overloads are viable only for mismatched dimensions, where Boost's own
// operators drop out by SFINAE, and turn the mistake into one sentence. They are found by
// argument-dependent lookup through gpucalc's base units in the quantity type.
// ---------------------------------------------------------------------------------------------
namespace detail {
template <class D1, class D2>
using if_different = std::enable_if_t<!std::is_same<D1, D2>::value, int>;
template <class D, class T>
using if_dimensioned_and_bare =
    std::enable_if_t<!std::is_same<D, boost::units::dimensionless_type>::value &&
                         std::is_arithmetic<T>::value,
                     int>;
}  // namespace detail

#define GPUCALC_DETAIL_MISMATCH(op, what)                                                        \
    template <class D1, class D2, class X, class Y, detail::if_different<D1, D2> = 0>            \
    constexpr auto operator op(const boost::units::quantity<boost::units::unit<D1, system>, X>&, \
                               const boost::units::quantity<boost::units::unit<D2, system>, Y>&) { \
        static_assert(detail::always_false<X>::value,                                            \
                      "gpucalc: cannot " what " quantities of different dimensions");            \
        return false;                                                                            \
    }                                                                                            \
    template <class D, class X, class T, detail::if_dimensioned_and_bare<D, T> = 0>              \
    constexpr auto operator op(const boost::units::quantity<boost::units::unit<D, system>, X>&, \
                               const T&) {                                                        \
        static_assert(detail::always_false<T>::value,                                            \
                      "gpucalc: cannot " what " a quantity and a bare number; give the number "  \
                      "a unit (a literal or make<Unit>)");                                        \
        return false;                                                                            \
    }                                                                                            \
    template <class D, class X, class T, detail::if_dimensioned_and_bare<D, T> = 0>              \
    constexpr auto operator op(const T&,                                                          \
                               const boost::units::quantity<boost::units::unit<D, system>, X>&) { \
        static_assert(detail::always_false<T>::value,                                            \
                      "gpucalc: cannot " what " a quantity and a bare number; give the number "  \
                      "a unit (a literal or make<Unit>)");                                        \
        return false;                                                                            \
    }

GPUCALC_DETAIL_MISMATCH(+, "add")
GPUCALC_DETAIL_MISMATCH(-, "subtract")
GPUCALC_DETAIL_MISMATCH(<, "compare")
GPUCALC_DETAIL_MISMATCH(>, "compare")
GPUCALC_DETAIL_MISMATCH(<=, "compare")
GPUCALC_DETAIL_MISMATCH(>=, "compare")
GPUCALC_DETAIL_MISMATCH(==, "compare")
GPUCALC_DETAIL_MISMATCH(!=, "compare")

#undef GPUCALC_DETAIL_MISMATCH

// A per-GPU price and a price per hour added: the commonest slip once a plain count scales a
// price (`2.99_usd_per_gpu_hour * 8 + 98.32_usd_per_h`), since a number keeps the dimension.
// More specialized than the mismatch above, so its sentence wins.
#define GPUCALC_DETAIL_PER_GPU_MISMATCH(op, what)                                                \
    template <class X>                                                                           \
    constexpr auto operator op(const boost::units::quantity<gpu_price::unit_type, X>&,           \
                               const boost::units::quantity<cost_rate::unit_type, X>&) {         \
        static_assert(detail::always_false<X>::value,                                            \
                      "gpucalc: cannot " what " a per-GPU price ($/GPU-h) and a price per hour " \
                      "($/h); a per-GPU price times a plain number is still per GPU: multiply "  \
                      "it by a GPU count (as_gpus(n) or 8.0_gpu) for $/h");                     \
        return false;                                                                            \
    }                                                                                            \
    template <class X>                                                                           \
    constexpr auto operator op(const boost::units::quantity<cost_rate::unit_type, X>&,           \
                               const boost::units::quantity<gpu_price::unit_type, X>&) {         \
        static_assert(detail::always_false<X>::value,                                            \
                      "gpucalc: cannot " what " a price per hour ($/h) and a per-GPU price "     \
                      "($/GPU-h); a per-GPU price times a plain number is still per GPU: "       \
                      "multiply it by a GPU count (as_gpus(n) or 8.0_gpu) for $/h");            \
        return false;                                                                            \
    }

GPUCALC_DETAIL_PER_GPU_MISMATCH(+, "add")
GPUCALC_DETAIL_PER_GPU_MISMATCH(-, "subtract")
GPUCALC_DETAIL_PER_GPU_MISMATCH(<, "compare")
GPUCALC_DETAIL_PER_GPU_MISMATCH(>, "compare")
GPUCALC_DETAIL_PER_GPU_MISMATCH(<=, "compare")
GPUCALC_DETAIL_PER_GPU_MISMATCH(>=, "compare")
GPUCALC_DETAIL_PER_GPU_MISMATCH(==, "compare")
GPUCALC_DETAIL_PER_GPU_MISMATCH(!=, "compare")

#undef GPUCALC_DETAIL_PER_GPU_MISMATCH

// ---------------------------------------------------------------------------------------------
// Plain numbers scale quantities. Boost.Units multiplies a quantity of double only by a double,
// so `80.0_GiB * 2` failed with some 90 lines of template names. A number of any arithmetic type
// (but bool) scales a quantity and keeps its dimension: `2.99_usd_per_gpu_hour * 3` is still
// $/GPU·h, and only a GPU count (as_gpus) turns it into $/h.
// ---------------------------------------------------------------------------------------------
namespace detail {
template <class T, class X>
using if_other_scalar =
    std::enable_if_t<std::is_arithmetic<T>::value && !std::is_same<T, X>::value &&
                         !std::is_same<T, bool>::value,
                     int>;
}  // namespace detail

/// q × n for a number n of any arithmetic type: q's dimension, scaled.
template <class D, class X, class T, detail::if_other_scalar<T, X> = 0>
constexpr boost::units::quantity<boost::units::unit<D, system>, X> operator*(
    const boost::units::quantity<boost::units::unit<D, system>, X>& q, const T& n) {
    return q * static_cast<X>(n);
}
/// n × q.
template <class D, class X, class T, detail::if_other_scalar<T, X> = 0>
constexpr boost::units::quantity<boost::units::unit<D, system>, X> operator*(
    const T& n, const boost::units::quantity<boost::units::unit<D, system>, X>& q) {
    return static_cast<X>(n) * q;
}
/// q ÷ n.
template <class D, class X, class T, detail::if_other_scalar<T, X> = 0>
constexpr boost::units::quantity<boost::units::unit<D, system>, X> operator/(
    const boost::units::quantity<boost::units::unit<D, system>, X>& q, const T& n) {
    return q / static_cast<X>(n);
}
/// n ÷ q: the reciprocal dimension, as Boost gives for a double.
template <class D, class X, class T, detail::if_other_scalar<T, X> = 0>
constexpr auto operator/(const T& n,
                         const boost::units::quantity<boost::units::unit<D, system>, X>& q) {
    return static_cast<X>(n) / q;
}

/// A count of GPUs (a plain integer, as results and layouts hold them) as the typed GPU count
/// that turns a per-GPU price into a price per hour: `price * as_gpus(plan.gpus)`. Exact below
/// 2^53 GPUs.
template <class Integer, std::enable_if_t<std::is_integral<Integer>::value &&
                                              !std::is_same<Integer, bool>::value,
                                          int> = 0>
constexpr gpu_count as_gpus(Integer n) {
    return gpu_count::from_value(static_cast<double>(n));
}

}  // namespace gpucalc
