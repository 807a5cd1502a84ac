// scaling/fit.hpp: which Universal Scalability Law or Amdahl curve best explains measured
// (GPUs, throughput) points, how well it fits, and what it predicts at other GPU counts
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "../detail/checks.hpp"
#include "../units.hpp"
#include "fit_solver.hpp"
#include "laws.hpp"

namespace gpucalc {

/// One measurement: the throughput a job reached on `gpus` GPUs. Throughput is a plain double
/// (any unit the caller keeps track of) or a gpucalc rate such as token_rate or request_rate;
/// a fit keeps its λ in that type.
template <class Throughput = double>
struct scaling_measurement {
    std::int64_t gpus = 1;
    Throughput throughput{};
};

/// The USL curve X(N) = λN / (1 + σ(N − 1) + κN(N − 1)) that best fits the measurements.
template <class Throughput = double>
struct usl_fit {
    /// λ: the fitted throughput of one GPU, X(1). It can lie outside the measured range, and
    /// outside the range a law takes as input, by up to 2^40 either way (points falling as 1/N
    /// from N = 100 fit σ = κ = 1 and λ = 100× the largest): the functions below accept it.
    Throughput single_gpu{};
    usl_parameters parameters{};  ///< σ (contention) and κ (coherency)
    /// 1 − SS_res/SS_tot on throughput, in [0, 1]; 1 when every measured throughput is equal
    /// (SS_tot = 0; the flat curve σ = 1 fits them).
    double r_squared = 0.0;
    /// √(mean of ((fitted − measured)/measured)²) over the points: 0.02 reads "within about 2 %".
    double rms_relative_error = 0.0;
    std::int64_t points = 0;      ///< how many measurements the fit used
};

/// The Amdahl curve X(N) = λN / (1 + s(N − 1)) that best fits the measurements.
template <class Throughput = double>
struct amdahl_fit {
    Throughput single_gpu{};       ///< λ: the fitted throughput of one GPU, as usl_fit's
    double serial_fraction = 0.0;  ///< s, in [0, 1]
    double r_squared = 0.0;        ///< as usl_fit::r_squared
    double rms_relative_error = 0.0;
    std::int64_t points = 0;
};

namespace detail {

template <class Measurement>
struct measurement_throughput {};  // no `type`: a range of anything else is not a candidate
template <class Throughput>
struct measurement_throughput<scaling_measurement<Throughput>> {
    using type = Throughput;
};
template <class Range>
using range_throughput = typename measurement_throughput<
    std::decay_t<decltype(*std::begin(std::declval<const Range&>()))>>::type;

template <class Throughput>
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_point(
    const char* function, std::int64_t index, const scaling_measurement<Throughput>& m) {
    std::string at = "points[";  // appended: see rethrow_for_type in serving/fleet.hpp
    at += std::to_string(index);
    at += "].";
    require_count(function, (at + "gpus").c_str(), m.gpus);
    require_throughput(function, (at + "throughput").c_str(), m.throughput);
    throw_invalid(function, (at + "gpus").c_str(), static_cast<double>(m.gpus), "",
                  "is not a valid measurement");  // not reached: one of the two above throws
}

/// Checks every point (gpus in [1, 2^40], throughput > 0 in its range), and that there are at
/// least `parameters` points with at least `parameters` distinct GPU counts.
template <class Range>
fit_points<Range> check_points(const Range& points, const char* function, int parameters) {
    fit_points<Range> checked{points};
    double largest = 0.0;
    std::int64_t distinct_gpus[3] = {0, 0, 0};
    int distinct = 0;
    for (const auto& m : points) {
        const double x = raw_throughput(m.throughput);
        bool valid = m.gpus >= 1 && m.gpus <= largest_count;
        if constexpr (std::is_same<std::decay_t<decltype(m.throughput)>, double>::value) {
            valid = valid && x >= smallest_input && x <= largest_plain_throughput;
        } else {
            using Quantity = std::decay_t<decltype(m.throughput)>;
            valid = valid && x >= smallest_input && x <= input_range<Quantity>::largest;
        }
        if (!valid) throw_bad_point(function, checked.count, m);
        if (x > largest) largest = x;
        bool seen = false;
        for (int k = 0; k < distinct; ++k) seen = seen || distinct_gpus[k] == m.gpus;
        if (!seen && distinct < parameters) distinct_gpus[distinct++] = m.gpus;
        ++checked.count;
    }
    if (checked.count < parameters) {
        throw_invalid(function, "points", static_cast<double>(checked.count), "",
                      "must hold at least ", static_cast<double>(parameters),
                      " measurements (one per fitted parameter)");
    }
    if (distinct < parameters) {
        throw_invalid(function, "distinct gpus in points", static_cast<double>(distinct), "",
                      "must be at least ", static_cast<double>(parameters),
                      " (one per fitted parameter)");
    }
    checked.scale = largest;
    return checked;
}

template <class Throughput, class Range>
usl_fit<Throughput> fit_usl_points(const Range& points) {
    const fit_points<Range> d = check_points(points, "fit_usl", 3);
    const fit_answer a = least_squares(d, true);
    usl_fit<Throughput> fit{};
    fit.single_gpu = throughput_from_raw<Throughput>(a.parameters[0] * d.scale);
    fit.parameters = {a.parameters[1], a.parameters[2]};
    fit.r_squared = a.r_squared;
    fit.rms_relative_error = a.rms_relative_error;
    fit.points = d.count;
    return fit;
}

template <class Throughput, class Range>
amdahl_fit<Throughput> fit_amdahl_points(const Range& points) {
    const fit_points<Range> d = check_points(points, "fit_amdahl", 2);
    const fit_answer a = least_squares(d, false);
    amdahl_fit<Throughput> fit{};
    fit.single_gpu = throughput_from_raw<Throughput>(a.parameters[0] * d.scale);
    fit.serial_fraction = a.parameters[1];
    fit.r_squared = a.r_squared;
    fit.rms_relative_error = a.rms_relative_error;
    fit.points = d.count;
    return fit;
}

}  // namespace detail

/// Fits the USL to measured points by nonlinear least squares on throughput (what is
/// minimized: Σ (X̂(N_i) − X_i)², unweighted), with σ and κ held in [0, 1]; see
/// scaling/fit_solver.hpp for the method. Points are any range of scaling_measurement (an
/// std::array, a C array, an std::vector, a braced list), read in place: nothing is allocated.
/// Not constexpr (std::sqrt). Ranges: at least 3 points with at least 3 distinct gpus; each
/// gpus in [1, 2^40]; each throughput > 0, in [1e-30, 1e30] as a double or in its dimension's
/// range as a quantity.
template <class Range>
usl_fit<detail::range_throughput<Range>> fit_usl(const Range& points) {
    return detail::fit_usl_points<detail::range_throughput<Range>>(points);
}
template <class Throughput = double>
usl_fit<Throughput> fit_usl(std::initializer_list<scaling_measurement<Throughput>> points) {
    return detail::fit_usl_points<Throughput>(points);
}

/// Fits Amdahl's law X(N) = λN/(1 + s(N − 1)) the same way, with s in [0, 1].
/// Ranges: as fit_usl, with at least 2 points and 2 distinct gpus.
template <class Range>
amdahl_fit<detail::range_throughput<Range>> fit_amdahl(const Range& points) {
    return detail::fit_amdahl_points<detail::range_throughput<Range>>(points);
}
template <class Throughput = double>
amdahl_fit<Throughput> fit_amdahl(std::initializer_list<scaling_measurement<Throughput>> points) {
    return detail::fit_amdahl_points<Throughput>(points);
}

namespace detail {

/// How far outside the measured throughputs a fitted λ can lie: 2^41 either way (derived). The
/// fit chooses λ last, as the least-squares λ for its σ and κ: Σ yᵢcᵢ / Σ cᵢ² with cᵢ = C(Nᵢ)
/// (fit_solver.hpp, with_best_lambda), a mean of the yᵢ/cᵢ weighted by cᵢ². For σ, κ in
/// [0, 1], 1 ≤ D(N) ≤ N², so 1/N ≤ C(N) ≤ N and λ lies in [y_min/N_max, y_max·N_max]: within
/// 2^40 of the measured range; the second factor 2 covers rounding.
inline constexpr double fitted_lambda_margin = 2199023255552.0;  // 2^41

template <class Throughput>
[[noreturn]] GPUCALC_DETAIL_COLD void throw_bad_fitted_throughput(const char* function,
                                                                  const Throughput& value) {
    std::string text;
    std::string smallest = "1e-30 / 2^41";
    std::string largest = "2^41 x ";
    if constexpr (std::is_same<Throughput, double>::value) {
        text = number_text(value);
        largest += "1e30";
    } else {
        text = error_value_text(value);
        smallest += std::string(" ") + base_unit_text<Throughput>();
        largest += input_range<Throughput>::largest_text;
    }
    const std::string rule =
        "must be in [" + smallest + ", " + largest + "] (where every fitted single_gpu lies)";
    throw_invalid_name(function, "fit.single_gpu", text,
                       raw_throughput(value) > 0.0 ? rule.c_str() : "must be finite and > 0");
}

/// A fit's λ, in the range any fit returns: the throughput range widened 2^41 either way.
template <class Throughput>
constexpr void require_fitted_throughput(const char* function, const Throughput& value) {
    const double v = raw_throughput(value);
    double largest = largest_plain_throughput;
    if constexpr (!std::is_same<Throughput, double>::value) {
        largest = input_range<Throughput>::largest;
    }
    if (!(v >= smallest_input / fitted_lambda_margin && v <= largest * fitted_lambda_margin)) {
        throw_bad_fitted_throughput(function, value);
    }
}

/// The fitted curve's shape: all an efficiency reads (λ is not read, so not checked).
template <class Throughput>
constexpr usl_parameters checked_shape(const usl_fit<Throughput>& fit, const char* function) {
    check(fit.parameters, function, "fit.parameters.contention", "fit.parameters.coherency");
    return fit.parameters;
}
template <class Throughput>
constexpr usl_parameters checked_shape(const amdahl_fit<Throughput>& fit, const char* function) {
    require_unit_fraction(function, "fit.serial_fraction", fit.serial_fraction);
    return {fit.serial_fraction, 0.0};
}
constexpr double efficiency_of(const usl_parameters& p, std::int64_t n) {
    return 1.0 / usl_denominator(p, static_cast<double>(n));
}

/// predicted_throughput, predicted_efficiency and largest_gpus for either fit: the two fits
/// differ only in how their shape is read (checked_shape).
template <class Fit>
constexpr auto predicted_throughput_of(const Fit& fit, std::int64_t gpus) {
    require_fitted_throughput("predicted_throughput", fit.single_gpu);
    const usl_parameters p = checked_shape(fit, "predicted_throughput");
    require_count("predicted_throughput", "gpus", gpus);
    using throughput = std::decay_t<decltype(fit.single_gpu)>;
    return throughput_from_raw<throughput>(raw_throughput(fit.single_gpu) *
                                           static_cast<double>(gpus) * efficiency_of(p, gpus));
}
template <class Fit>
constexpr double predicted_efficiency_of(const Fit& fit, std::int64_t gpus) {
    const usl_parameters p = checked_shape(fit, "predicted_efficiency");
    require_count("predicted_efficiency", "gpus", gpus);
    return efficiency_of(p, gpus);
}
template <class Fit>
constexpr scaling_limit largest_gpus_of(const Fit& fit, double efficiency_floor) {
    const usl_parameters p = checked_shape(fit, "largest_gpus");
    require_fraction("largest_gpus", "efficiency_floor", efficiency_floor);
    return largest_gpus_at([p](std::int64_t n) { return efficiency_of(p, n); }, efficiency_floor);
}
}  // namespace detail

/// The fitted curve's throughput at N: λ·C(N), finite for any fit (at most 2^41 x 1e30 x 2^40
/// for a double). Ranges: λ > 0 in a fitted λ's range, the throughput range widened 2^41 either
/// way ([1e-30 / 2^41, 2^41 x 1e30] as a double), which holds every λ a fit returns; σ, κ (or
/// s) as usl_parameters states; gpus in [1, 2^40].
template <class Throughput>
constexpr Throughput predicted_throughput(const usl_fit<Throughput>& fit, std::int64_t gpus) {
    return detail::predicted_throughput_of(fit, gpus);
}
template <class Throughput>
constexpr Throughput predicted_throughput(const amdahl_fit<Throughput>& fit, std::int64_t gpus) {
    return detail::predicted_throughput_of(fit, gpus);
}

/// The fitted curve's efficiency at N, C(N)/N (relative to the fitted one-GPU throughput λ).
/// It reads only σ and κ (or s), so λ is not checked. Ranges: σ, κ (or s) as usl_parameters
/// states; gpus in [1, 2^40].
template <class Throughput>
constexpr double predicted_efficiency(const usl_fit<Throughput>& fit, std::int64_t gpus) {
    return detail::predicted_efficiency_of(fit, gpus);
}
template <class Throughput>
constexpr double predicted_efficiency(const amdahl_fit<Throughput>& fit, std::int64_t gpus) {
    return detail::predicted_efficiency_of(fit, gpus);
}

/// The largest N at which the fitted curve's efficiency is at or above `efficiency_floor`
/// (usl_largest_gpus / amdahl_largest_gpus on the fitted parameters). Like
/// predicted_efficiency it reads only σ and κ (or s). Ranges: σ, κ (or s) as usl_parameters
/// states; efficiency_floor in (0, 1], good_scaling_efficiency (0.75) by default.
template <class Throughput>
constexpr scaling_limit largest_gpus(const usl_fit<Throughput>& fit,
                                     double efficiency_floor = good_scaling_efficiency) {
    return detail::largest_gpus_of(fit, efficiency_floor);
}
template <class Throughput>
constexpr scaling_limit largest_gpus(const amdahl_fit<Throughput>& fit,
                                     double efficiency_floor = good_scaling_efficiency) {
    return detail::largest_gpus_of(fit, efficiency_floor);
}

}  // namespace gpucalc
