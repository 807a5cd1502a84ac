// entries_scaling_laws.cpp: the fuzz table's entries for scaling/laws.hpp and scaling/fit.hpp:
// Amdahl, Gustafson and the USL, the USL peak, the largest GPU count at an efficiency floor, and
// the least-squares fits with their predictions.
//
// The new types' printing (fields, type_name) and checking (inspect) live here rather than in
// repr.hpp and inspect.hpp, beside the draws; both are found through the harness's argument-
// dependent calls, so they may move to those headers unchanged.
#include <algorithm>
#include <cmath>

#include <gpucalc/scaling/fit.hpp>
#include <gpucalc/scaling/laws.hpp>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

// ---------------------------------------------------------------------------------------------
// Printing the new input types.
// ---------------------------------------------------------------------------------------------
#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::usl_parameters& a, const gpucalc::usl_parameters& b, F&& f) {
    FUZZ_FIELD(contention); FUZZ_FIELD(coherency);
}
template <class T, class F>
void fields(const gpucalc::scaling_measurement<T>& a, const gpucalc::scaling_measurement<T>& b,
            F&& f) {
    FUZZ_FIELD(gpus); FUZZ_FIELD(throughput);
}
template <class T, class F>
void fields(const gpucalc::usl_fit<T>& a, const gpucalc::usl_fit<T>& b, F&& f) {
    FUZZ_FIELD(single_gpu); FUZZ_FIELD(parameters); FUZZ_FIELD(r_squared);
    FUZZ_FIELD(rms_relative_error); FUZZ_FIELD(points);
}
template <class T, class F>
void fields(const gpucalc::amdahl_fit<T>& a, const gpucalc::amdahl_fit<T>& b, F&& f) {
    FUZZ_FIELD(single_gpu); FUZZ_FIELD(serial_fraction); FUZZ_FIELD(r_squared);
    FUZZ_FIELD(rms_relative_error); FUZZ_FIELD(points);
}
#undef FUZZ_FIELD

template <>
inline const char* type_name<gpucalc::usl_parameters>() { return "gpucalc::usl_parameters"; }
template <>
inline const char* type_name<gpucalc::scaling_measurement<double>>() {
    return "gpucalc::scaling_measurement<>";
}
template <>
inline const char* type_name<gpucalc::scaling_measurement<gpucalc::token_rate>>() {
    return "gpucalc::scaling_measurement<gpucalc::token_rate>";
}
template <>
inline const char* type_name<gpucalc::usl_fit<double>>() { return "gpucalc::usl_fit<>"; }
template <>
inline const char* type_name<gpucalc::amdahl_fit<double>>() { return "gpucalc::amdahl_fit<>"; }

// ---------------------------------------------------------------------------------------------
// Checking the new results.
// ---------------------------------------------------------------------------------------------
inline constexpr std::int64_t largest_gpus_count = std::int64_t{1} << 40;

inline void inspect(inspector& i, const gpucalc::scaling_limit& l) {
    i.count("gpus", l.gpus);
    i.amount("efficiency", l.efficiency);
    i.flag("bounded", l.bounded);
    i.invariant("1 <= gpus <= 2^40", l.gpus >= 1 && l.gpus <= largest_gpus_count);
    i.invariant("0 < efficiency <= 1", l.efficiency > 0.0 && l.efficiency <= 1.0);
    i.invariant("bounded || gpus == 2^40", l.bounded || l.gpus == largest_gpus_count);
}

inline void inspect(inspector& i, const gpucalc::throughput_peak& p) {
    i.flag("exists", p.exists);
    if (!p.exists) {
        i.no_answer("gpus");
        i.no_answer("best_gpus");
        i.no_answer("capacity");
        return;
    }
    i.amount("gpus", p.gpus);
    i.count("best_gpus", p.best_gpus);
    i.amount("capacity", p.capacity);
    i.flag("capped", p.capped);
    i.invariant("1 <= best_gpus <= 2^40", p.best_gpus >= 1 && p.best_gpus <= largest_gpus_count);
    i.invariant("capped => best_gpus == 2^40 < gpus",
                !p.capped || (p.best_gpus == largest_gpus_count &&
                              p.gpus > static_cast<double>(largest_gpus_count)));
    i.invariant("0 < capacity <= best_gpus",
                p.capacity > 0.0 && p.capacity <= static_cast<double>(p.best_gpus));
    // The best whole count is within 11 of N* (documented: the bisection's count, a tie with
    // the count below, then at most 8 steps up the capacities as computed), unless N* < 1
    // (best 1) or N* is beyond 2^40 (capped).
    const double distance = static_cast<double>(p.best_gpus) - p.gpus;
    i.invariant("|best_gpus - gpus| <= 11", (distance <= 11.0 && distance >= -11.0) ||
                                             (p.best_gpus == 1 && p.gpus < 1.0) || p.capped,
                number_text(distance));
}

/// usl_peak's answer with the parameters it was asked about, so that its documented guarantee
/// can be checked against usl_capacity, exactly as a user asserting on it would: when the peak
/// exists and is not capped, C(best) >= C(best - 1) and C(best) >= C(best + 1) as computed (the
/// neighbours in [1, 2^40]), capacity == C(best), and C(best) within 1e-15 of the highest
/// capacity over whole counts (at floor(N*) or ceil(N*), worked out in long double).
struct usl_peak_probe {
    gpucalc::usl_parameters parameters;
    gpucalc::throughput_peak peak;
};
inline void inspect(inspector& i, const usl_peak_probe& a) {
    inspect(i, a.peak);
    const gpucalc::throughput_peak& p = a.peak;
    if (!p.exists || p.capped || p.best_gpus < 1 || p.best_gpus > largest_gpus_count) return;
    const auto capacity = [&](std::int64_t n) { return gpucalc::usl_capacity(a.parameters, n); };
    const std::int64_t best = p.best_gpus;
    const double at_best = capacity(best);
    i.invariant("capacity == usl_capacity(parameters, best_gpus)", p.capacity == at_best,
                number_text(p.capacity) + " != " + number_text(at_best));
    if (best > 1) {
        const double below = capacity(best - 1);
        i.invariant("C(best) >= C(best - 1) as computed", at_best >= below,
                    number_text(at_best) + " < " + number_text(below));
    }
    if (best < largest_gpus_count) {
        const double above = capacity(best + 1);
        i.invariant("C(best) >= C(best + 1) as computed", at_best >= above,
                    number_text(at_best) + " < " + number_text(above));
    }
    const long double sigma = a.parameters.contention;
    const long double kappa = a.parameters.coherency;
    const auto exact = [&](long double n) {
        return n / (1.0L + sigma * (n - 1.0L) + kappa * n * (n - 1.0L));
    };
    long double highest = 1.0L;  // C(1)
    if (kappa > 0.0L) {
        const long double star = std::sqrt((1.0L - sigma) / kappa);
        for (long double n : {std::floor(star), std::ceil(star)}) {
            if (n >= 1.0L && n <= static_cast<long double>(largest_gpus_count)) {
                highest = std::max(highest, exact(n));
            }
        }
    }
    const double shortfall =
        static_cast<double>((highest - exact(static_cast<long double>(best))) / highest);
    i.invariant("C(best) within 1e-15 of the highest capacity", shortfall <= 1e-15,
                number_text(shortfall));
}

template <class Fit>
void inspect_fit_measures(inspector& i, const Fit& f) {
    i.amount("single_gpu", f.single_gpu);
    i.amount("r_squared", f.r_squared);
    i.amount("rms_relative_error", f.rms_relative_error);
    i.count("points", f.points);
    i.invariant("0 <= r_squared <= 1", f.r_squared >= 0.0 && f.r_squared <= 1.0);
    i.invariant("points >= 2", f.points >= 2);
}
template <class T>
void inspect(inspector& i, const gpucalc::usl_fit<T>& f) {
    inspect_fit_measures(i, f);
    i.nested("parameters", [&] {
        i.amount("contention", f.parameters.contention);
        i.amount("coherency", f.parameters.coherency);
    });
    i.invariant("0 <= contention <= 1",
                f.parameters.contention >= 0.0 && f.parameters.contention <= 1.0);
    i.invariant("coherency 0 or in [1e-30, 1]",
                f.parameters.coherency <= 1.0 &&
                    (f.parameters.coherency >= 1e-30 || !(f.parameters.coherency > 0.0)));
}
template <class T>
void inspect(inspector& i, const gpucalc::amdahl_fit<T>& f) {
    inspect_fit_measures(i, f);
    i.amount("serial_fraction", f.serial_fraction);
    i.invariant("0 <= serial_fraction <= 1", f.serial_fraction >= 0.0 && f.serial_fraction <= 1.0);
}

// ---------------------------------------------------------------------------------------------
// Drawing the new input types.
// ---------------------------------------------------------------------------------------------
namespace draw {

/// A serial fraction or σ: 0, a realistic few percent, 1, or hostile.
inline double serial_fraction(generator& g) {
    if (g.hostile()) return g.hostile_double();
    switch (g.r.below(4)) {
        case 0: return 0.0;
        case 1: return 1.0;
        default: return 0.2 * g.r.unit();
    }
}

/// σ for the USL: a serial fraction as above, or at its ends: tiny (1e-30 .. 1e-5,
/// log-uniform) or within 1e-16 .. 1e-1 of 1, where the capacity saturates at 1/σ.
inline double contention(generator& g) {
    if (g.hostile()) return g.hostile_double();
    switch (g.r.below(4)) {
        case 0: return std::pow(10.0, -30.0 + 25.0 * g.r.unit());
        case 1: return 1.0 - std::pow(10.0, -16.0 + 15.0 * g.r.unit());
        default: return serial_fraction(g);
    }
}

inline gpucalc::usl_parameters usl(generator& g) {
    gpucalc::usl_parameters p{};
    p.contention = contention(g);
    // κ: 0; realistic, 1e-6 .. 1e-1 (log-uniform); tiny, 1e-30 .. 1e-15 (log-uniform), where
    // the curve near N* is flat to rounding and N* passes 2^40 below about 8e-25; the ends
    // 1e-30 and 1; or hostile.
    switch (g.r.below(8)) {
        case 0:
        case 1: p.coherency = 0.0; break;
        case 2:
        case 3: p.coherency = std::pow(10.0, -30.0 + 15.0 * g.r.unit()); break;
        case 4: p.coherency = g.coin() ? 1e-30 : 1.0; break;
        default: p.coherency = 1e-6 * std::exp2(16.6 * g.r.unit()); break;
    }
    p.coherency = g.keep_real(p.coherency);
    return p;
}

/// Four measurements at 1, 2, 4 and 8 GPUs from a USL curve with ±5 % noise, or hostile.
template <class Throughput>
carray<gpucalc::scaling_measurement<Throughput>, 4> measurements(generator& g) {
    carray<gpucalc::scaling_measurement<Throughput>, 4> m{};
    const gpucalc::usl_parameters p{0.2 * g.r.unit(), g.coin() ? 0.0 : 0.01 * g.r.unit()};
    const double lambda = g.real(typical::token_rate);
    for (std::size_t k = 0; k < 4; ++k) {
        const std::int64_t n = g.keep(std::int64_t{1} << k);
        const double c = static_cast<double>(std::int64_t{1} << k) /
                         (1.0 + p.contention * (static_cast<double>(std::int64_t{1} << k) - 1.0));
        const double x = g.keep_real(lambda * c * (1.0 + 0.1 * (g.r.unit() - 0.5)));
        m.v[k].gpus = n;
        if constexpr (std::is_same<Throughput, double>::value) {
            m.v[k].throughput = x;
        } else {
            m.v[k].throughput = Throughput::from_value(x);
        }
    }
    return m;
}

/// Four measurements anywhere in the ranges: GPU counts log-uniform in [1, 2^40], throughputs
/// log-uniform in [1e-30, 1e30], so a fitted λ can land far outside them. Or the review's two
/// cases (issue 14, M4), pinned: throughput falling as 1/N from N = 100 at 1e30 (σ = κ = 1,
/// λ = 1e32) and rising linearly from N = 1e6 at 1e-30 (λ = 1e-36).
inline carray<gpucalc::scaling_measurement<>, 4> wide_measurements(generator& g) {
    carray<gpucalc::scaling_measurement<>, 4> m{};
    for (std::size_t k = 0; k < 4; ++k) {
        const double step = static_cast<double>(std::int64_t{1} << k);
        if (g.pinned == 0) {
            m.v[k] = {std::int64_t{100} << k, 1e30 / step};
        } else if (g.pinned == 1) {
            m.v[k] = {std::int64_t{1000000} << k, 1e-30 * step};
        } else {
            m.v[k].gpus = static_cast<std::int64_t>(std::exp2(40.0 * g.r.unit()));
            m.v[k].throughput = std::pow(10.0, 60.0 * g.r.unit() - 30.0);
        }
    }
    return m;
}

inline gpucalc::usl_fit<> usl_fit(generator& g) {
    gpucalc::usl_fit<> f{};
    f.single_gpu = g.real(typical::token_rate);
    f.parameters = usl(g);
    f.r_squared = 0.99;
    f.points = 4;
    return f;
}

inline gpucalc::amdahl_fit<> amdahl_fit(generator& g) {
    gpucalc::amdahl_fit<> f{};
    f.single_gpu = g.real(typical::token_rate);
    f.serial_fraction = serial_fraction(g);
    f.r_squared = 0.99;
    f.points = 4;
    return f;
}

}  // namespace draw

void register_scaling_laws(registry& r) {
    using namespace gpucalc;

    // scaling/laws.hpp
    add(r, "amdahl_speedup", "amdahl_speedup", "gpucalc::amdahl_speedup({0}, {1})",
        [](generator& g) { return std::tuple{draw::serial_fraction(g), g.count(8)}; },
        [](double s, std::int64_t n) { return amdahl_speedup(s, n); });
    add(r, "amdahl_efficiency", "amdahl_efficiency", "gpucalc::amdahl_efficiency({0}, {1})",
        [](generator& g) { return std::tuple{draw::serial_fraction(g), g.count(8)}; },
        [](double s, std::int64_t n) { return amdahl_efficiency(s, n); });
    add(r, "gustafson_speedup", "gustafson_speedup", "gpucalc::gustafson_speedup({0}, {1})",
        [](generator& g) { return std::tuple{draw::serial_fraction(g), g.count(8)}; },
        [](double s, std::int64_t n) { return gustafson_speedup(s, n); });
    add(r, "usl_capacity", "usl_capacity", "gpucalc::usl_capacity({0}, {1})",
        [](generator& g) { return std::tuple{draw::usl(g), g.count(64)}; },
        [](const usl_parameters& p, std::int64_t n) { return usl_capacity(p, n); });
    add(r, "usl_efficiency", "usl_efficiency", "gpucalc::usl_efficiency({0}, {1})",
        [](generator& g) { return std::tuple{draw::usl(g), g.count(64)}; },
        [](const usl_parameters& p, std::int64_t n) { return usl_efficiency(p, n); });
    add(r, "usl_throughput [double]", "usl_throughput", "gpucalc::usl_throughput({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.real(typical::token_rate), draw::usl(g), g.count(64)};
        },
        [](double lambda, const usl_parameters& p, std::int64_t n) {
            return usl_throughput(lambda, p, n);
        });
    add(r, "usl_throughput [token_rate]", "usl_throughput",
        "gpucalc::usl_throughput({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{g.q<token_rate>(typical::token_rate), draw::usl(g), g.count(64)};
        },
        [](const token_rate& lambda, const usl_parameters& p, std::int64_t n) {
            return usl_throughput(lambda, p, n);
        });
    add(r, "usl_peak", "usl_peak", "gpucalc::usl_peak({0})",
        [](generator& g) { return std::tuple{draw::usl(g)}; },
        [](const usl_parameters& p) { return usl_peak_probe{p, usl_peak(p)}; });
    add(r, "amdahl_largest_gpus", "amdahl_largest_gpus",
        "gpucalc::amdahl_largest_gpus({0}, {1})",
        [](generator& g) { return std::tuple{draw::serial_fraction(g), g.fraction(0.75)}; },
        [](double s, double floor) { return amdahl_largest_gpus(s, floor); });
    add(r, "usl_largest_gpus", "usl_largest_gpus", "gpucalc::usl_largest_gpus({0}, {1})",
        [](generator& g) { return std::tuple{draw::usl(g), g.fraction(0.75)}; },
        [](const usl_parameters& p, double floor) { return usl_largest_gpus(p, floor); });

    // scaling/fit.hpp
    add(r, "fit_usl [double range]", "fit_usl", "gpucalc::fit_usl({0})",
        [](generator& g) { return std::tuple{draw::measurements<double>(g)}; },
        [](const carray<scaling_measurement<>, 4>& m) { return fit_usl(m.v); });
    add(r, "fit_usl [token_rate range]", "fit_usl", "gpucalc::fit_usl({0})",
        [](generator& g) { return std::tuple{draw::measurements<token_rate>(g)}; },
        [](const carray<scaling_measurement<token_rate>, 4>& m) { return fit_usl(m.v); });
    add(r, "fit_usl [initializer_list]", "fit_usl",
        "gpucalc::fit_usl({{0}[0], {0}[1], {0}[2], {0}[3]})",
        [](generator& g) { return std::tuple{draw::measurements<double>(g)}; },
        [](const carray<scaling_measurement<>, 4>& m) {
            return fit_usl({m.v[0], m.v[1], m.v[2], m.v[3]});
        });
    add(r, "fit_amdahl [double range]", "fit_amdahl", "gpucalc::fit_amdahl({0})",
        [](generator& g) { return std::tuple{draw::measurements<double>(g)}; },
        [](const carray<scaling_measurement<>, 4>& m) { return fit_amdahl(m.v); });
    add(r, "fit_amdahl [token_rate range]", "fit_amdahl", "gpucalc::fit_amdahl({0})",
        [](generator& g) { return std::tuple{draw::measurements<token_rate>(g)}; },
        [](const carray<scaling_measurement<token_rate>, 4>& m) { return fit_amdahl(m.v); });
    add(r, "fit_amdahl [initializer_list]", "fit_amdahl",
        "gpucalc::fit_amdahl({{0}[0], {0}[1], {0}[2], {0}[3]})",
        [](generator& g) { return std::tuple{draw::measurements<double>(g)}; },
        [](const carray<scaling_measurement<>, 4>& m) {
            return fit_amdahl({m.v[0], m.v[1], m.v[2], m.v[3]});
        });
    add(r, "predicted_throughput [usl_fit]", "predicted_throughput",
        "gpucalc::predicted_throughput({0}, {1})",
        [](generator& g) { return std::tuple{draw::usl_fit(g), g.count(64)}; },
        [](const usl_fit<>& f, std::int64_t n) { return predicted_throughput(f, n); });
    add(r, "predicted_throughput [amdahl_fit]", "predicted_throughput",
        "gpucalc::predicted_throughput({0}, {1})",
        [](generator& g) { return std::tuple{draw::amdahl_fit(g), g.count(64)}; },
        [](const amdahl_fit<>& f, std::int64_t n) { return predicted_throughput(f, n); });
    add(r, "predicted_efficiency [usl_fit]", "predicted_efficiency",
        "gpucalc::predicted_efficiency({0}, {1})",
        [](generator& g) { return std::tuple{draw::usl_fit(g), g.count(64)}; },
        [](const usl_fit<>& f, std::int64_t n) { return predicted_efficiency(f, n); });
    add(r, "predicted_efficiency [amdahl_fit]", "predicted_efficiency",
        "gpucalc::predicted_efficiency({0}, {1})",
        [](generator& g) { return std::tuple{draw::amdahl_fit(g), g.count(64)}; },
        [](const amdahl_fit<>& f, std::int64_t n) { return predicted_efficiency(f, n); });
    add(r, "largest_gpus [usl_fit]", "largest_gpus", "gpucalc::largest_gpus({0}, {1})",
        [](generator& g) { return std::tuple{draw::usl_fit(g), g.fraction(0.75)}; },
        [](const usl_fit<>& f, double floor) { return largest_gpus(f, floor); });
    add(r, "largest_gpus [amdahl_fit]", "largest_gpus", "gpucalc::largest_gpus({0}, {1})",
        [](generator& g) { return std::tuple{draw::amdahl_fit(g), g.fraction(0.75)}; },
        [](const amdahl_fit<>& f, double floor) { return largest_gpus(f, floor); });

    // What a fit returned, read back: every function on a fit accepts any fit's answer, whose λ
    // can lie 2^40 outside the measured range (issue 14 review, M4). The fit is the setup; a
    // call the fit rejects is skipped. The review's two cases are pinned.
    add(r, "predicted_throughput [fit_usl answer]", "predicted_throughput",
        "gpucalc::predicted_throughput(gpucalc::fit_usl({0}), {1})",
        [](generator& g) {
            return std::tuple{draw::wide_measurements(g),
                              g.pinned >= 0 ? std::int64_t{1} : g.count(64)};
        },
        [](const carray<scaling_measurement<>, 4>& m, std::int64_t n) {
            return predicted_throughput(setup([&] { return fit_usl(m.v); }), n);
        },
        2)
        .pins_answered = true;
    add(r, "predicted_throughput [fit_amdahl answer]", "predicted_throughput",
        "gpucalc::predicted_throughput(gpucalc::fit_amdahl({0}), {1})",
        [](generator& g) {
            return std::tuple{draw::wide_measurements(g),
                              g.pinned >= 0 ? std::int64_t{1} : g.count(64)};
        },
        [](const carray<scaling_measurement<>, 4>& m, std::int64_t n) {
            return predicted_throughput(setup([&] { return fit_amdahl(m.v); }), n);
        },
        2)
        .pins_answered = true;
    add(r, "predicted_efficiency [fit_usl answer]", "predicted_efficiency",
        "gpucalc::predicted_efficiency(gpucalc::fit_usl({0}), {1})",
        [](generator& g) {
            return std::tuple{draw::wide_measurements(g),
                              g.pinned >= 0 ? std::int64_t{64} : g.count(64)};
        },
        [](const carray<scaling_measurement<>, 4>& m, std::int64_t n) {
            return predicted_efficiency(setup([&] { return fit_usl(m.v); }), n);
        },
        2)
        .pins_answered = true;
    add(r, "largest_gpus [fit_usl answer]", "largest_gpus",
        "gpucalc::largest_gpus(gpucalc::fit_usl({0}), {1})",
        [](generator& g) {
            return std::tuple{draw::wide_measurements(g),
                              g.pinned >= 0 ? good_scaling_efficiency : g.fraction(0.75)};
        },
        [](const carray<scaling_measurement<>, 4>& m, double floor) {
            return largest_gpus(setup([&] { return fit_usl(m.v); }), floor);
        },
        2)
        .pins_answered = true;
}

}  // namespace fuzz
