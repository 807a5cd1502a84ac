// serving/break_search.hpp: the rate at which a fixed number of replicas stops meeting the TTFT
// SLO (replicas_for_rate's break rate): the root of a monotone margin, by Brent's method
#pragma once

#include <cmath>

namespace gpucalc {
namespace detail {

/// replicas_for_rate's break-rate search stops when the bracket is within this share of the
/// rate that meets: 1e-10. The break rate is read to three or four significant figures (a
/// headroom in percent, a traffic growth), so 1e-10 is six orders below any use; the unit tests
/// check it to 1e-9, and it is far above the trials' own rounding (about 1e-15). It was 1e-15
/// under bisection (about 45 halvings), then 1e-12 under the Illinois method (10 to 22 trials);
/// with Brent's method (replicas_for_rate) 1e-12 took 8 to 13 trials a call at 64 slots, 1e-10
/// saves about 0.4 of a trial, 4 % of a call.
inline constexpr double break_tolerance = 1e-10;
/// The most trials the break-rate search makes (Brent's method bisects whenever interpolation
/// does not shrink its steps fast enough, so it needs at worst a small multiple of bisection's).
inline constexpr int break_steps = 80;

/// One trial of the break search: whether R replicas meet both SLOs at the rate tried, and the
/// TTFT percentile computed there in seconds (0 when a trial failed before computing one).
struct break_probe {
    bool meets = false;
    double ttft = 0.0;
};

/// The search's margin, 1 − SLO ÷ TTFT (derived): ≤ 0 where R meets and > 0 where it fails,
/// with TTFT − SLO's root. It stays below 1 as TTFT → ∞ at a queue's pole, where TTFT − SLO has
/// no finite value, so a failing trial that never computed a TTFT (the TPOT or a queue failed
/// first; the top end, R × the sustainable rate, usually is one) takes the limit 1 and can be
/// interpolated through instead of bisected away. A TTFT of 0 (no prefill, no wait: a
/// hand-made replica) has no usable margin, marked −∞.
constexpr double break_margin(const break_probe& x, double slo) {
    if (!x.meets && !(x.ttft > slo)) return 1.0;
    return x.ttft > 0.0 ? 1.0 - slo / x.ttft : -HUGE_VAL;
}

/// The break rate. Below R × the sustainable rate only the TTFT can fail, and TTFT − SLO rises
/// with λ (continuous, to +∞ where a queue turns unstable), so the break is its root, found by
/// Brent's method (Brent 1973, "Algorithms for Minimization without Derivatives", ch. 4,
/// procedure zero): b, the probe with the smaller margin, and c, the end of the bracket
/// on b's other side; a step interpolates (the secant through a = the previous b and b,
/// or inverse quadratic through a, b and c) when it lands well inside the bracket and
/// shrinks faster than the step before last, and bisects otherwise; a step is never
/// shorter than half the tolerance, so once b sits at the root the next probe crosses it
/// and closes the bracket. The regula-falsi family (Illinois) converges here from one
/// side: TTFT − SLO is convex in λ (the waits' poles), so every chord lands below the
/// root, and the bracket shrank only by the safeguard's bisections (about 14 trials, now
/// about 8). Any step that would read an unusable margin (−∞) bisects. The bracket
/// [lo meets, hi fails] shrinks to break_tolerance × lo; lo is returned, a rate that was
/// tried and meets.
/// `probe(λ)` runs a trial (a break_probe); [lo, hi] is the bracket (lo meets, hi fails: at_lo
/// and at_hi are their trials); slo is the TTFT SLO in seconds. Returns the largest rate tried
/// that meets. Quantity-free, so the benchmark's raw-double twin calls it too.
template <class Probe>
inline double break_rate_search(Probe&& probe, double lo, double hi, const break_probe& at_lo,
                                const break_probe& at_hi, double slo) {
    double a = lo, f_a = break_margin(at_lo, slo);  // the previous probe
    double b = hi, f_b = break_margin(at_hi, slo);  // the latest (after a swap: the nearer end)
    double c = a, f_c = f_a;                        // the bracket's end on b's other side
    bool c_is_a = true;  // c was last set from a (Brent's a = c: only the secant can be drawn)
    bool b_meets = false, c_meets = true;  // b and c lie on the root's two sides
    double step = b - a, step_before = step;  // the last two steps (Brent's d and e)
    for (int i = 0; i < break_steps; ++i) {
        if (std::fabs(f_c) < std::fabs(f_b)) {  // b: the end nearer the root
            a = b;
            f_a = f_b;
            b = c;
            f_b = f_c;
            c = a;
            f_c = f_a;
            c_is_a = true;
            c_meets = b_meets;
            b_meets = !c_meets;
        }
        lo = b_meets ? b : c;
        hi = b_meets ? c : b;
        if (!(hi - lo > lo * break_tolerance)) break;
        const double least = 0.5 * break_tolerance * lo;  // the shortest step
        const double half = 0.5 * (c - b);
        if (std::fabs(step_before) >= least && std::fabs(f_a) > std::fabs(f_b) &&
            f_a > -HUGE_VAL && f_b > -HUGE_VAL && f_c > -HUGE_VAL) {
            // The step is p ÷ q. Brent's p and q are ratios of margins; here both are
            // multiplied by f_a (secant) or f_a·f_c² (inverse quadratic), which clears every
            // denominator (derived), so a step divides once, not four times; the tests below
            // compare p with q and hold alike for both scaled by any factor.
            double p = 0.0, q = 0.0;
            if (c_is_a) {  // the secant through a and b
                p = 2.0 * half * f_b;
                q = f_a - f_b;
            } else {  // inverse quadratic interpolation through a, b and c
                p = f_b * (2.0 * half * f_a * (f_a - f_b) - (b - a) * (f_b - f_c) * f_c);
                q = (f_a - f_c) * (f_b - f_c) * (f_b - f_a);
            }
            if (p > 0.0) {
                q = -q;
            } else {
                p = -p;
            }
            const double older = step_before;
            step_before = step;
            // Inside the bracket's first three quarters from b, and shorter than half the
            // step before last: else bisect.
            if (2.0 * p < 3.0 * half * q - std::fabs(least * q) &&
                p < std::fabs(0.5 * older * q)) {
                step = p / q;
            } else {
                step = half;
                step_before = step;
            }
        } else {
            step = half;
            step_before = step;
        }
        a = b;
        f_a = f_b;
        c_is_a = false;
        b += std::fabs(step) > least ? step : half > 0.0 ? least : -least;
        const break_probe x = probe(b);
        b_meets = x.meets;
        f_b = break_margin(x, slo);
        if (b_meets == c_meets) {  // b crossed no root: the bracket's other end is a
            c = a;
            f_c = f_a;
            c_is_a = true;
            c_meets = !b_meets;
            step = b - a;
            step_before = step;
        }
    }
    return lo;
}

}  // namespace detail
}  // namespace gpucalc
