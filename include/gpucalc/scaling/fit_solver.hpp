// scaling/fit_solver.hpp: how fit.hpp's least squares is solved: a linearized start, then a
// bounded, deterministic Levenberg-Marquardt search over the USL's (or Amdahl's) parameters
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "../detail/checks.hpp"
#include "laws.hpp"

namespace gpucalc {
namespace detail {

// The solver's constants. Levenberg 1944 and Marquardt 1963 ("An algorithm for least-squares
// estimation of nonlinear parameters", SIAM J. Appl. Math. 11(2)): the damping μ starts small
// (a Gauss-Newton step), grows ×10 after a step that does not lower the sum of squares and
// shrinks ÷10 after one that does, as Marquardt's paper does.
/// The first damping, relative to the diagonal of JᵀJ (Marquardt scaling). 1e-3 is the usual
/// start (Madsen, Nielsen and Tingleff 2004, "Methods for non-linear least squares problems").
inline constexpr double initial_damping = 1e-3;
inline constexpr double damping_factor = 10.0;
/// The damping stops shrinking here: 1e-12 of the diagonal is near the rounding of JᵀJ itself,
/// so the step is Gauss-Newton's to working precision, and the rejections a step can need stay
/// bounded.
inline constexpr double smallest_damping = 1e-12;
/// Past this damping a step is below the rounding of the parameters: no step lowers the sum of
/// squares any more, and the search stops. From smallest_damping that is at most 29 rejections.
inline constexpr double largest_damping = 1e16;
/// A bound on the accepted steps, so a fit always ends: the tests' fits converge in under 30;
/// each iteration costs a few passes over the points.
inline constexpr int largest_iterations = 200;
/// Stop when every parameter moves by less than this, relative (the usual test on the step,
/// Madsen et al. 2004), or when an accepted step lowers the sum of squares by less than this,
/// relative: a few ulps of the parameters, so nothing measurable is left on the table.
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

/// The floor that keeps λ (scaled) positive during the search: far below any λ the data can
/// call for (scaled throughputs are at least 1e-60, inputs spanning 1e-30 to 1e30), so it only
/// stops a step from making the model's throughput 0 or negative.
inline constexpr double smallest_scaled_lambda = 1e-300;

/// Keeps σ and κ in [0, 1] (the USL's ranges) and λ positive.
inline fit_vector project(fit_vector p, bool fit_coherency) {
    constexpr double smallest_lambda = smallest_scaled_lambda;
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
        if (std::isfinite(lambda) && lambda > 0.0) {
            p = {lambda, c1 * lambda + c2 * lambda, c2 * lambda};
        }
    }
    return with_best_lambda(d, project(p, fit_coherency));
}

/// Levenberg-Marquardt on the sum of squared throughput residuals, with σ and κ kept in
/// [0, 1] by projection: a parameter at a bound whose gradient pushes it outward is held for
/// that step (an active set). Deterministic (a fixed sequence of operations on the points in
/// their order), and it ends: at most largest_iterations accepted steps, each after at most
/// log10(largest_damping / smallest_damping) + 1 = 29 rejected ones.
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
            mu = accepted ? (mu / damping_factor > smallest_damping ? mu / damping_factor
                                                                    : smallest_damping)
                          : mu * damping_factor;
        }
        if (!accepted) break;  // no step lowers the sum of squares: a (bounded) minimum
        bool small = sse - next_sse <= step_tolerance * sse;
        bool still = true;
        for (std::size_t r = 0; r < 3; ++r) {
            still = still && std::fabs(next[r] - p[r]) <=
                                 step_tolerance * (std::fabs(p[r]) + step_tolerance);
        }
        p = next;
        sse = next_sse;
        if (small || still) break;
    }
    return p;
}

/// The fit itself: the best, by sum of squares, of Levenberg-Marquardt from the linearized
/// start, (for the USL) from the Amdahl fit with κ = 0, and the flat curve σ = 1 (which keeps
/// R² ≥ 0), compared in that order with ties kept by the earlier; then λ re-chosen in closed
/// form for the winner's σ and κ. Returns λ in scaled units.
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
    // λ last, in closed form for the final σ and κ: the sum of squares can only fall, and λ is
    // then a weighted mean of y/C(N), which bounds it (fit.hpp, fitted_lambda_margin).
    best = with_best_lambda(d, best);
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

}  // namespace detail
}  // namespace gpucalc
