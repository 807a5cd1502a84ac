// scaling/fit.hpp: which Universal Scalability Law or Amdahl curve best explains measured
// (GPUs, throughput) points, how well it fits, and what it predicts at other GPU counts
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "../detail/checks.hpp"
#include "../units.hpp"
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
    Throughput single_gpu{};      ///< λ: the fitted throughput of one GPU, X(1)
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
    Throughput single_gpu{};       ///< λ: the fitted throughput of one GPU
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

// The solver's constants. Levenberg 1944 and Marquardt 1963 ("An algorithm for least-squares
// estimation of nonlinear parameters", SIAM J. Appl. Math. 11(2)): the damping μ starts small
// (a Gauss-Newton step), grows ×10 after a step that does not lower the sum of squares and
// shrinks ÷10 after one that does, as Marquardt's paper does.
/// The first damping, relative to the diagonal of JᵀJ (Marquardt scaling). 1e-3 is the usual
/// start (Madsen, Nielsen and Tingleff 2004, "Methods for non-linear least squares problems").
inline constexpr double initial_damping = 1e-3;
inline constexpr double damping_factor = 10.0;
/// Past this damping a step is below the rounding of the parameters: no step lowers the sum of
/// squares any more, and the search stops (at most 19 rejections from the initial damping).
inline constexpr double largest_damping = 1e16;
/// A bound on the accepted steps, so a fit always ends: the tests' fits converge in under 30;
/// each iteration costs a few passes over the points.
inline constexpr int largest_iterations = 200;
/// Stop when every parameter moves by less than this, relative (Madsen et al. 2004, eq. 3.2b),
/// or when an accepted step lowers the sum of squares by less than this, relative.
inline constexpr double step_tolerance = 1e-14;

/// λ (in units of the largest measured throughput), σ, κ.
using fit_vector = std::array<double, 3>;

/// The USL (κ = p[2]; Amdahl when it is 0) at N, in scaled units.
inline double fitted_value(const fit_vector& p, double n) {
    return p[0] * n / (1.0 + p[1] * (n - 1.0) + p[2] * n * (n - 1.0));
}

/// The points after their check: how to read them, and the scale that maps the largest
/// measured throughput to 1, so the solver sees numbers near 1 whatever the unit.
template <class Range>
struct fit_points {
    const Range& points;
    double scale = 1.0;
    std::int64_t count = 0;
    template <class F>
    void each(F&& visit) const {  // visit(N, y) with y = throughput ÷ scale
        for (const auto& m : points) {
            visit(static_cast<double>(m.gpus), raw_throughput(m.throughput) / scale);
        }
    }
};

template <class Throughput>
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_point(const char* function,
                                                             std::int64_t index,
                                                             const scaling_measurement<Throughput>& m) {
    const std::string at = "points[" + std::to_string(index) + "].";
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

/// Solves the k × k system a·x = b by Gaussian elimination with partial pivoting; false when a
/// pivot is 0 or anything is not finite.
inline bool solve(std::array<std::array<double, 3>, 3> a, fit_vector b, std::size_t k,
                  fit_vector& x) {
    for (std::size_t c = 0; c < k; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < k; ++r) {
            if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
        }
        if (!(std::fabs(a[pivot][c]) > 0.0)) return false;
        std::swap(a[c], a[pivot]);
        std::swap(b[c], b[pivot]);
        for (std::size_t r = c + 1; r < k; ++r) {
            const double f = a[r][c] / a[c][c];
            for (std::size_t j = c; j < k; ++j) a[r][j] -= f * a[c][j];
            b[r] -= f * b[c];
        }
    }
    for (std::size_t c = k; c-- > 0;) {
        double s = b[c];
        for (std::size_t j = c + 1; j < k; ++j) s -= a[c][j] * x[j];
        x[c] = s / a[c][c];
        if (!std::isfinite(x[c])) return false;
    }
    return true;
}

template <class Range>
double sum_of_squares(const fit_points<Range>& d, const fit_vector& p) {
    double s = 0.0;
    d.each([&](double n, double y) {
        const double r = fitted_value(p, n) - y;
        s += r * r;
    });
    return s;
}

/// For fixed σ and κ the model is linear in λ: λ = Σ y·f / Σ f² with f = N / D(N) minimizes
/// the sum of squares (derived, linear least squares in one unknown).
template <class Range>
fit_vector with_best_lambda(const fit_points<Range>& d, fit_vector p) {
    double yf = 0.0;
    double ff = 0.0;
    p[0] = 1.0;
    d.each([&](double n, double y) {
        const double f = fitted_value(p, n);
        yf += y * f;
        ff += f * f;
    });
    p[0] = yf / ff;  // f ≥ 2^-40 and y > 0, so λ is finite and > 0
    return p;
}

/// Keeps σ and κ in [0, 1] (the USL's ranges) and λ positive.
inline fit_vector project(fit_vector p, bool fit_coherency) {
    constexpr double smallest_lambda = 1e-300;
    p[0] = p[0] > smallest_lambda ? p[0] : smallest_lambda;
    for (std::size_t j = 1; j < 3; ++j) p[j] = p[j] < 0.0 ? 0.0 : (p[j] > 1.0 ? 1.0 : p[j]);
    if (!fit_coherency) p[2] = 0.0;
    return p;
}

/// A start from the model made linear (derived): N/X(N) = [(1 − σ) + (σ − κ)N + κN²] / λ, a
/// quadratic in N (a line when κ = 0), fitted by linear least squares in t = N/N_max; then
/// λ = 1/(c0 + c1 + c2), κ = c2·λ, σ = c1·λ + κ. Falls back to the flat curve (σ = 1) when the
/// system is singular.
template <class Range>
fit_vector linearized_start(const fit_points<Range>& d, bool fit_coherency) {
    const std::size_t k = fit_coherency ? 3 : 2;
    double largest_n = 1.0;
    d.each([&](double n, double) { largest_n = n > largest_n ? n : largest_n; });
    std::array<std::array<double, 3>, 3> a{};
    fit_vector b{};
    d.each([&](double n, double y) {
        const double t = n / largest_n;
        const double basis[3] = {1.0, t, t * t};
        for (std::size_t i = 0; i < k; ++i) {
            for (std::size_t j = 0; j < k; ++j) a[i][j] += basis[i] * basis[j];
            b[i] += basis[i] * (n / y);
        }
    });
    fit_vector c{};
    fit_vector p{1.0, 1.0, 0.0};
    if (solve(a, b, k, c)) {
        const double c1 = c[1] / largest_n;
        const double c2 = fit_coherency ? c[2] / largest_n / largest_n : 0.0;
        const double lambda = 1.0 / (c[0] + c1 + c2);
        if (std::isfinite(lambda) && lambda > 0.0) p = {lambda, c1 * lambda + c2 * lambda, c2 * lambda};
    }
    return with_best_lambda(d, project(p, fit_coherency));
}

/// Levenberg-Marquardt on the sum of squared throughput residuals, with σ and κ kept in
/// [0, 1] by projection: a parameter at a bound whose gradient pushes it outward is held for
/// that step (an active set). Deterministic (a fixed sequence of operations on the points in
/// their order), and it ends: at most largest_iterations accepted steps, each after at most
/// log10(largest_damping / initial_damping) + 1 rejected ones.
template <class Range>
fit_vector levenberg_marquardt(const fit_points<Range>& d, fit_vector p, bool fit_coherency) {
    p = project(p, fit_coherency);
    double sse = sum_of_squares(d, p);
    double mu = initial_damping;
    for (int iteration = 0; iteration < largest_iterations && sse > 0.0; ++iteration) {
        std::array<std::array<double, 3>, 3> jtj{};
        fit_vector gradient{};
        d.each([&](double n, double y) {
            const double denominator = 1.0 + p[1] * (n - 1.0) + p[2] * n * (n - 1.0);
            const double value = p[0] * n / denominator;
            // ∂X/∂λ = N/D, ∂X/∂σ = −λN(N − 1)/D², ∂X/∂κ = −λN²(N − 1)/D² (derived).
            const double j[3] = {n / denominator, -value * (n - 1.0) / denominator,
                                 -value * n * (n - 1.0) / denominator};
            for (std::size_t r = 0; r < 3; ++r) {
                for (std::size_t c = 0; c < 3; ++c) jtj[r][c] += j[r] * j[c];
                gradient[r] += j[r] * (value - y);
            }
        });
        std::size_t free_index[3] = {0, 0, 0};
        std::size_t k = 0;
        for (std::size_t r = 0; r < 3; ++r) {
            const bool held = (r == 2 && !fit_coherency) ||
                              (r > 0 && p[r] <= 0.0 && gradient[r] > 0.0) ||
                              (r > 0 && p[r] >= 1.0 && gradient[r] < 0.0);
            if (!held) free_index[k++] = r;
        }
        bool accepted = false;
        fit_vector next{};
        double next_sse = sse;
        while (!accepted && mu <= largest_damping) {
            std::array<std::array<double, 3>, 3> a{};
            fit_vector b{};
            for (std::size_t r = 0; r < k; ++r) {
                for (std::size_t c = 0; c < k; ++c) a[r][c] = jtj[free_index[r]][free_index[c]];
                const double diagonal = a[r][r] > 0.0 ? a[r][r] : 1.0;
                a[r][r] += mu * diagonal;
                b[r] = -gradient[free_index[r]];
            }
            fit_vector step{};
            if (solve(a, b, k, step)) {
                next = p;
                for (std::size_t r = 0; r < k; ++r) next[free_index[r]] += step[r];
                next = project(next, fit_coherency);
                next_sse = sum_of_squares(d, next);
                accepted = next_sse < sse;
            }
            mu = accepted ? mu / damping_factor : mu * damping_factor;
        }
        if (!accepted) break;  // no step lowers the sum of squares: a (bounded) minimum
        bool small = sse - next_sse <= step_tolerance * sse;
        bool still = true;
        for (std::size_t r = 0; r < 3; ++r) {
            still = still && std::fabs(next[r] - p[r]) <= step_tolerance * (std::fabs(p[r]) + step_tolerance);
        }
        p = next;
        sse = next_sse;
        if (small || still) break;
    }
    return p;
}

/// The fit itself: the best, by sum of squares, of Levenberg-Marquardt from the linearized
/// start, (for the USL) from the Amdahl fit with κ = 0, and the flat curve σ = 1 (which keeps
/// R² ≥ 0), compared in that order with ties kept by the earlier. Returns λ in scaled units.
struct fit_answer {
    fit_vector parameters{};
    double r_squared = 0.0;
    double rms_relative_error = 0.0;
};

template <class Range>
fit_answer least_squares(const fit_points<Range>& d, bool fit_coherency) {
    fit_vector best = levenberg_marquardt(d, linearized_start(d, fit_coherency), fit_coherency);
    double best_sse = sum_of_squares(d, best);
    const auto consider = [&](const fit_vector& candidate) {
        const double sse = sum_of_squares(d, candidate);
        if (sse < best_sse) {
            best = candidate;
            best_sse = sse;
        }
    };
    if (fit_coherency) {
        const fit_vector amdahl = levenberg_marquardt(d, linearized_start(d, false), false);
        consider(levenberg_marquardt(d, amdahl, true));
    }
    // The mean as y0 + mean of differences: exactly y0 when every y is y0, so SS_tot is then 0.
    double first = 0.0;
    double offsets = 0.0;
    bool have_first = false;
    d.each([&](double, double y) {
        if (!have_first) first = y;
        have_first = true;
        offsets += y - first;
    });
    const double mean = first + offsets / static_cast<double>(d.count);
    consider(fit_vector{mean, 1.0, 0.0});
    if (best[2] < smallest_input) best[2] = 0.0;  // κ's range: 0 or at least 1e-30
    double total = 0.0;
    double relative = 0.0;
    d.each([&](double n, double y) {
        total += (y - mean) * (y - mean);
        const double r = (fitted_value(best, n) - y) / y;
        relative += r * r;
    });
    fit_answer answer{best};
    const double sse = sum_of_squares(d, best);
    // SSE ≤ the flat curve's, which is SS_tot up to rounding: the clamp removes only rounding.
    const double r2 = total > 0.0 ? 1.0 - sse / total : 1.0;
    answer.r_squared = r2 < 0.0 ? 0.0 : r2;
    answer.rms_relative_error = std::sqrt(relative / static_cast<double>(d.count));
    return answer;
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
/// detail::least_squares for the method. Points are any range of scaling_measurement (an
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
template <class Throughput>
constexpr void check(const usl_fit<Throughput>& fit, const char* function) {
    require_throughput(function, "fit.single_gpu", fit.single_gpu);
    check(fit.parameters, function, "fit.parameters.contention", "fit.parameters.coherency");
}
template <class Throughput>
constexpr void check(const amdahl_fit<Throughput>& fit, const char* function) {
    require_throughput(function, "fit.single_gpu", fit.single_gpu);
    require_unit_fraction(function, "fit.serial_fraction", fit.serial_fraction);
}
constexpr double efficiency_of(const usl_parameters& p, std::int64_t n) {
    return 1.0 / usl_denominator(p, static_cast<double>(n));
}
}  // namespace detail

/// The fitted curve's throughput at N: λ·C(N). Ranges: a fit as fit_usl returns it; gpus in
/// [1, 2^40].
template <class Throughput>
constexpr Throughput predicted_throughput(const usl_fit<Throughput>& fit, std::int64_t gpus) {
    detail::check(fit, "predicted_throughput");
    detail::require_count("predicted_throughput", "gpus", gpus);
    return detail::throughput_from_raw<Throughput>(
        detail::raw_throughput(fit.single_gpu) * static_cast<double>(gpus) *
        detail::efficiency_of(fit.parameters, gpus));
}
template <class Throughput>
constexpr Throughput predicted_throughput(const amdahl_fit<Throughput>& fit, std::int64_t gpus) {
    detail::check(fit, "predicted_throughput");
    detail::require_count("predicted_throughput", "gpus", gpus);
    return detail::throughput_from_raw<Throughput>(
        detail::raw_throughput(fit.single_gpu) * static_cast<double>(gpus) *
        detail::efficiency_of({fit.serial_fraction, 0.0}, gpus));
}

/// The fitted curve's efficiency at N, C(N)/N (relative to the fitted one-GPU throughput λ).
/// Ranges: as predicted_throughput.
template <class Throughput>
constexpr double predicted_efficiency(const usl_fit<Throughput>& fit, std::int64_t gpus) {
    detail::check(fit, "predicted_efficiency");
    detail::require_count("predicted_efficiency", "gpus", gpus);
    return detail::efficiency_of(fit.parameters, gpus);
}
template <class Throughput>
constexpr double predicted_efficiency(const amdahl_fit<Throughput>& fit, std::int64_t gpus) {
    detail::check(fit, "predicted_efficiency");
    detail::require_count("predicted_efficiency", "gpus", gpus);
    return detail::efficiency_of({fit.serial_fraction, 0.0}, gpus);
}

/// The largest N at which the fitted curve's efficiency is at or above `efficiency_floor`
/// (usl_largest_gpus / amdahl_largest_gpus on the fitted parameters). Ranges: a fit as the fit
/// functions return it; efficiency_floor in (0, 1], good_scaling_efficiency (0.75) by default.
template <class Throughput>
constexpr scaling_limit largest_gpus(const usl_fit<Throughput>& fit,
                                     double efficiency_floor = good_scaling_efficiency) {
    detail::check(fit, "largest_gpus");
    detail::require_fraction("largest_gpus", "efficiency_floor", efficiency_floor);
    const usl_parameters p = fit.parameters;
    return detail::largest_gpus_at([p](std::int64_t n) { return detail::efficiency_of(p, n); },
                                   efficiency_floor);
}
template <class Throughput>
constexpr scaling_limit largest_gpus(const amdahl_fit<Throughput>& fit,
                                     double efficiency_floor = good_scaling_efficiency) {
    detail::check(fit, "largest_gpus");
    detail::require_fraction("largest_gpus", "efficiency_floor", efficiency_floor);
    const usl_parameters p{fit.serial_fraction, 0.0};
    return detail::largest_gpus_at([p](std::int64_t n) { return detail::efficiency_of(p, n); },
                                   efficiency_floor);
}

}  // namespace gpucalc
