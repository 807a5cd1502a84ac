// scaling/laws.hpp: how throughput grows with GPUs under Amdahl's law, Gustafson's scaled
// speedup and Gunther's Universal Scalability Law, where the USL peaks, and the largest GPU
// count that keeps the efficiency at or above a floor
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../detail/checks.hpp"
#include "../units.hpp"

namespace gpucalc {

// Every law here is a function of a whole GPU count N in [1, 2^40] (a parallel degree is a
// plain integer, as docs/hardware.md says). Speedup and capacity are relative to one GPU;
// efficiency is speedup ÷ N, in (0, 1]. All of it is + − × ÷ and comparisons, so it is
// constexpr, except usl_peak, whose N* needs std::sqrt.

/// A 75 % scaling efficiency (6× on 8 GPUs): the practitioners' rule of thumb for scaling that
/// is good ("a 6× speedup on 8 GPUs is considered good"; a convention gpucalc adopts, not a
/// measurement).
inline constexpr double good_scaling_efficiency = 0.75;
/// Below 60 % the extra GPUs are wasted money (the same rule of thumb).
inline constexpr double wasteful_scaling_efficiency = 0.60;

/// The USL's two coefficients (Gunther 1993, "A simple capacity model of massively parallel
/// transaction systems", CMG; Gunther 2007, "Guerrilla Capacity Planning", Springer).
///
/// Ranges: contention in [0, 1]; coherency 0 or in [1e-30, 1]. The floor keeps the peak
/// √((1 − σ)/κ) finite. The ceiling costs little: from κ ≥ (1 − σ)/2 on a second GPU no longer
/// raises the throughput (derived: C(2) ≤ C(1) there); only data falling faster than at
/// σ = κ = 1, where C(N) = 1/N, would call for more, and a fit holds κ at 1 for them.
struct usl_parameters {
    /// σ: contention, the serialized share of the work (queueing for a shared resource).
    /// With κ = 0 the USL is Amdahl's law with serial fraction σ.
    double contention = 0.0;
    /// κ: coherency, the cost of every pair of GPUs exchanging data to stay consistent. It
    /// grows as N(N − 1) and makes throughput fall past a peak.
    double coherency = 0.0;
};

/// The largest GPU count at which the efficiency is at or above a floor.
struct scaling_limit {
    /// The largest N in [1, 2^40] with efficiency(N) ≥ floor when `bounded` is true. When it is
    /// false this is 2^40, only a lower bound on the answer (read `bounded` first).
    std::int64_t gpus = 1;
    double efficiency = 1.0;  ///< the efficiency at `gpus`, ≥ the floor
    /// False when the efficiency stays at or above the floor for every N up to 2^40, the largest
    /// count gpucalc takes: always so when σ = κ = 0 (perfect scaling never drops), and for a
    /// floor below the law's limit at 2^40. `gpus` is then a lower bound, not a limit.
    bool bounded = true;
};

/// Where USL throughput peaks.
struct throughput_peak {
    /// False when κ = 0 and σ < 1: throughput rises with every GPU towards λ/σ (Amdahl's
    /// ceiling) and has no peak; the other fields then carry no answer (0).
    bool exists = false;
    /// Gunther's N* = √((1 − σ)/κ), the continuous maximum of C(N) (Gunther 2007).
    /// Below 1 when κ > 1 − σ (throughput then falls from the first GPU on). For σ = 1 and
    /// κ = 0, C(N) = 1 for every N and this is 1, the smallest N reaching it.
    double gpus = 0.0;
    /// The whole count with the highest throughput: 1 when N* < 1; 2^40 when `capped` is true;
    /// otherwise a count near N* where the capacity as usl_capacity computes it is a local
    /// maximum, exactly: C(best) ≥ C(best − 1) and C(best) ≥ C(best + 1), for the neighbours in
    /// [1, 2^40]. It is within 11 of N*, and C(best) is within 1e-15 (relative) of the highest
    /// capacity over whole counts. Where neighbouring capacities differ by more than rounding
    /// it is floor(N*) or ceil(N*), the smaller on a tie; at κ below about 1e-20 the curve near
    /// N* is flat to rounding, and another count may compute an ulp higher (see usl_peak).
    std::int64_t best_gpus = 0;
    double capacity = 0.0;  ///< C(best_gpus), the relative capacity at the peak
    /// True when throughput still rises from 2^40 to 2^40 + 1 GPUs (N* beyond 2^40, κ near its
    /// floor): best_gpus is then 2^40, the largest count gpucalc takes, and only a lower bound
    /// on the best count; `gpus` still gives N*.
    bool capped = false;
};

namespace detail {

/// The largest plain-number throughput a law or a fit takes, as a quantity's input range does
/// (throughput in a double has no unit; 1e30 items/s is beyond any workload).
inline constexpr double largest_plain_throughput = 1e30;

[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_throughput(const char* function,
                                                                  const char* field,
                                                                  double value) {
    throw_invalid(function, field, value, "",
                  !(value > 0.0)                  ? "must be finite and > 0"
                  : value < smallest_input        ? "must be at least 1e-30"
                                                  : "must be at most 1e30");
}

/// A measured or fitted throughput: > 0 and inside its range, as a plain double in
/// [1e-30, 1e30] or as a gpucalc rate in its dimension's range.
constexpr void require_throughput(const char* function, const char* field, double value) {
    if (!(value >= smallest_input && value <= largest_plain_throughput)) {
        throw_bad_throughput(function, field, value);
    }
}
template <class Unit>
constexpr void require_throughput(const char* function, const char* field,
                                  const boost::units::quantity<Unit, double>& value) {
    require_positive(function, field, value);
}

/// A throughput's number in base units, and back (the laws compute on plain doubles).
constexpr double raw_throughput(double value) { return value; }
template <class Unit>
constexpr double raw_throughput(const boost::units::quantity<Unit, double>& value) {
    return value.value();
}
template <class Throughput>
constexpr Throughput throughput_from_raw(double value) {
    if constexpr (std::is_same<Throughput, double>::value) {
        return value;
    } else {
        return Throughput::from_value(value);
    }
}

/// A fraction in [0, 1] (a serial fraction, σ), NaN rejected.
constexpr void require_unit_fraction(const char* function, const char* field, double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
        throw_invalid(function, field, value, "", "must be in [0, 1]");
    }
}

/// The USL coefficients' ranges (usl_parameters), naming the fields as the caller wrote them.
constexpr void check(const usl_parameters& p, const char* function, const char* contention_field,
                     const char* coherency_field) {
    require_unit_fraction(function, contention_field, p.contention);
    if (!((p.coherency >= smallest_input && p.coherency <= 1.0) ||
          exactly_equal(p.coherency, 0.0))) {
        throw_invalid(function, coherency_field, p.coherency, "",
                      "must be 0 or in [1e-30, 1]");
    }
}

/// The USL's denominator 1 + σ(N − 1) + κN(N − 1) for a checked N.
/// Each operation is monotone in N, so the computed efficiency never rises with N: the
/// bisection in largest_gpus_at relies on that.
constexpr double usl_denominator(const usl_parameters& p, double n) {
    return 1.0 + p.contention * (n - 1.0) + p.coherency * n * (n - 1.0);
}

/// The largest N in [1, 2^40] with efficiency(N) ≥ floor, for an efficiency that is 1 at N = 1
/// and never rises with N: bisection on whole counts (41 halvings), so the answer is exact for
/// the efficiency as computed: efficiency(gpus) ≥ floor > efficiency(gpus + 1).
template <class Efficiency>
constexpr scaling_limit largest_gpus_at(const Efficiency& efficiency, double floor) {
    scaling_limit limit{};
    const double at_largest = efficiency(largest_count);
    if (at_largest >= floor) {
        limit.gpus = largest_count;
        limit.efficiency = at_largest;
        limit.bounded = false;
        return limit;
    }
    std::int64_t meets = 1;               // efficiency(1) = 1 ≥ floor
    std::int64_t misses = largest_count;  // efficiency(2^40) < floor
    while (misses - meets > 1) {
        const std::int64_t mid = meets + (misses - meets) / 2;
        if (efficiency(mid) >= floor) {
            meets = mid;
        } else {
            misses = mid;
        }
    }
    limit.gpus = meets;
    limit.efficiency = efficiency(meets);
    return limit;
}

}  // namespace detail

/// Amdahl 1967, "Validity of the single processor approach to achieving large scale computing
/// capabilities", AFIPS: speedup S(N) = 1 / (s + (1 − s)/N), computed in the algebraically equal
/// form N / (1 + s(N − 1)) (the USL with κ = 0), which is exactly N at s = 0.
/// Ranges: serial_fraction s in [0, 1]; gpus in [1, 2^40].
constexpr double amdahl_speedup(double serial_fraction, std::int64_t gpus) {
    detail::require_unit_fraction("amdahl_speedup", "serial_fraction", serial_fraction);
    detail::require_count("amdahl_speedup", "gpus", gpus);
    const double n = static_cast<double>(gpus);
    return n / (1.0 + serial_fraction * (n - 1.0));
}

/// Amdahl's efficiency S(N)/N = 1 / (1 + s(N − 1)) (Amdahl 1967, divided by N).
/// Ranges: as amdahl_speedup.
constexpr double amdahl_efficiency(double serial_fraction, std::int64_t gpus) {
    detail::require_unit_fraction("amdahl_efficiency", "serial_fraction", serial_fraction);
    detail::require_count("amdahl_efficiency", "gpus", gpus);
    return 1.0 / (1.0 + serial_fraction * (static_cast<double>(gpus) - 1.0));
}

/// Gustafson 1988, "Reevaluating Amdahl's law", CACM 31(5): the scaled speedup of a problem
/// grown with the machine, S(N) = N − s(N − 1), where s is the serial fraction of the time on
/// the parallel system (not of the one-GPU time, as in Amdahl's law).
/// Ranges: serial_fraction s in [0, 1]; gpus in [1, 2^40].
constexpr double gustafson_speedup(double serial_fraction, std::int64_t gpus) {
    detail::require_unit_fraction("gustafson_speedup", "serial_fraction", serial_fraction);
    detail::require_count("gustafson_speedup", "gpus", gpus);
    const double n = static_cast<double>(gpus);
    return n - serial_fraction * (n - 1.0);
}

/// Gunther's Universal Scalability Law (Gunther 1993; Gunther 2007): the relative
/// capacity C(N) = N / (1 + σ(N − 1) + κN(N − 1)), so that throughput is X(N) = λ·C(N).
/// Ranges: parameters as usl_parameters states; gpus in [1, 2^40].
constexpr double usl_capacity(const usl_parameters& parameters, std::int64_t gpus) {
    detail::check(parameters, "usl_capacity", "contention", "coherency");
    detail::require_count("usl_capacity", "gpus", gpus);
    const double n = static_cast<double>(gpus);
    return n / detail::usl_denominator(parameters, n);
}

/// The USL's efficiency C(N)/N = 1 / (1 + σ(N − 1) + κN(N − 1)) (Gunther 2007, divided by N).
/// Ranges: as usl_capacity.
constexpr double usl_efficiency(const usl_parameters& parameters, std::int64_t gpus) {
    detail::check(parameters, "usl_efficiency", "contention", "coherency");
    detail::require_count("usl_efficiency", "gpus", gpus);
    return 1.0 / detail::usl_denominator(parameters, static_cast<double>(gpus));
}

/// USL throughput X(N) = λ·C(N) (Gunther 2007, with X(1) = λ), in the unit of λ: a
/// plain double, or a gpucalc rate (token_rate, request_rate, ...).
/// Ranges: single_gpu λ > 0, in [1e-30, 1e30] as a double or in its dimension's range as a
/// quantity; parameters and gpus as usl_capacity.
template <class Throughput>
constexpr Throughput usl_throughput(const Throughput& single_gpu, const usl_parameters& parameters,
                                    std::int64_t gpus) {
    detail::require_throughput("usl_throughput", "single_gpu", single_gpu);
    detail::check(parameters, "usl_throughput", "contention", "coherency");
    detail::require_count("usl_throughput", "gpus", gpus);
    const double n = static_cast<double>(gpus);
    return detail::throughput_from_raw<Throughput>(detail::raw_throughput(single_gpu) * n /
                                                   detail::usl_denominator(parameters, n));
}

/// Where USL throughput peaks (throughput_peak says what each field means). N* is Gunther's
/// √((1 − σ)/κ) (Gunther 2007). The best whole count is the smallest N with
/// κN(N + 1) ≥ 1 − σ, since C(N + 1) − C(N) has the sign of (1 − σ) − κN(N + 1) (derived:
/// (N + 1)·D(N) − N·D(N + 1) = 1 − σ − κN(N + 1) for the USL denominator D), found by bisection,
/// then moved to a local maximum of the capacities as computed: a tie with the count below goes
/// to it, and then each step goes to a neighbour whose capacity computes strictly higher.
/// Bounds (derived): each capacity computes within 4 rounding units (4u, u = 2^-53) of its
/// exact value (the denominator's three roundings on positive terms, then the division); the
/// bisection's count, within 0.63 of N*, holds the exact maximum over whole counts, or, where
/// its test (two roundings against 1 − σ) tips the wrong way on a near-tie, is a neighbour
/// whose exact capacity is within 0.75u of it (at N ≥ 2; C(1) = 1 computes exactly); and each
/// step raises the computed capacity by at least one ulp, more than u of it. Every computed
/// value the climb can reach lies within 8.75u of the maximum above the bisection's, so there
/// are at most 8 steps after the tie: best lies within 1.63 + 1 + 8 < 11 of N*, and its exact
/// capacity within 8.75u < 1e-15 of the maximum. A strict C(best) > C(best − 1) is not promised: at tiny κ, where the curve is flat
/// to rounding, 100,000 and more neighbouring counts can compute exactly equal capacities, and
/// reaching the left end of such a run is no cheap search.
/// Not constexpr (std::sqrt). Ranges: parameters as usl_parameters states.
inline throughput_peak usl_peak(const usl_parameters& parameters) {
    detail::check(parameters, "usl_peak", "contention", "coherency");
    const double sigma = parameters.contention;
    const double kappa = parameters.coherency;
    throughput_peak peak{};
    const bool flat = !(sigma < 1.0);
    if (!(kappa > 0.0) && !flat) return peak;  // κ = 0, σ < 1: rises for ever
    peak.exists = true;
    peak.gpus = kappa > 0.0 ? std::sqrt((1.0 - sigma) / kappa) : 1.0;
    const auto falls_after = [&](std::int64_t n) {
        const double x = static_cast<double>(n);
        return kappa * x * (x + 1.0) >= 1.0 - sigma;
    };
    std::int64_t best = detail::largest_count;
    peak.capped = !falls_after(detail::largest_count);  // still rising at 2^40: capped there
    if (falls_after(1)) {
        best = 1;
    } else if (!peak.capped) {
        std::int64_t rises = 1;                          // C(rises + 1) > C(rises)
        std::int64_t falls = detail::largest_count;      // C(falls + 1) ≤ C(falls)
        while (falls - rises > 1) {
            const std::int64_t mid = rises + (falls - rises) / 2;
            if (falls_after(mid)) {
                falls = mid;
            } else {
                rises = mid;
            }
        }
        best = falls;
    }
    const auto capacity = [&](std::int64_t n) {
        const double x = static_cast<double>(n);
        return x / detail::usl_denominator(parameters, x);
    };
    // On a tie, C(N) = C(N + 1) exactly (κN(N + 1) = 1 − σ), rounding may tip the test either
    // way, and at tiny κ the capacities near N* differ by less than rounding: the capacities as
    // computed decide, the smaller count winning a tie with the count below, then a climb to a
    // local maximum (at most 8 steps; see above). Not when capped, where capacities a GPU
    // apart can round equal long before the peak and 2^40 stands.
    if (!peak.capped) {
        if (best > 1 && capacity(best - 1) >= capacity(best)) --best;
        for (;;) {
            if (best > 1 && capacity(best - 1) > capacity(best)) {
                --best;
            } else if (best < detail::largest_count && capacity(best + 1) > capacity(best)) {
                ++best;
            } else {
                break;
            }
        }
    }
    peak.best_gpus = best;
    peak.capacity = capacity(best);
    return peak;
}

/// The largest N with Amdahl efficiency at or above `efficiency_floor`: whole-count bisection
/// on amdahl_efficiency, so efficiency(gpus) ≥ floor > efficiency(gpus + 1) as computed. (In
/// closed form, N ≤ 1 + (1/floor − 1)/s; derived from 1/(1 + s(N − 1)) ≥ floor.)
/// Ranges: serial_fraction in [0, 1]; efficiency_floor in (0, 1] (good_scaling_efficiency,
/// 0.75, by default; wasteful_scaling_efficiency, 0.60, is the other named floor).
constexpr scaling_limit amdahl_largest_gpus(double serial_fraction,
                                            double efficiency_floor = good_scaling_efficiency) {
    detail::require_unit_fraction("amdahl_largest_gpus", "serial_fraction", serial_fraction);
    detail::require_fraction("amdahl_largest_gpus", "efficiency_floor", efficiency_floor);
    const auto efficiency = [serial_fraction](std::int64_t n) {
        return 1.0 / (1.0 + serial_fraction * (static_cast<double>(n) - 1.0));
    };
    return detail::largest_gpus_at(efficiency, efficiency_floor);
}

/// The largest N with USL efficiency at or above `efficiency_floor`, by the same bisection on
/// usl_efficiency. Ranges: parameters as usl_parameters states; efficiency_floor in (0, 1].
constexpr scaling_limit usl_largest_gpus(const usl_parameters& parameters,
                                         double efficiency_floor = good_scaling_efficiency) {
    detail::check(parameters, "usl_largest_gpus", "contention", "coherency");
    detail::require_fraction("usl_largest_gpus", "efficiency_floor", efficiency_floor);
    const auto efficiency = [parameters](std::int64_t n) {
        return 1.0 / detail::usl_denominator(parameters, static_cast<double>(n));
    };
    return detail::largest_gpus_at(efficiency, efficiency_floor);
}

}  // namespace gpucalc
