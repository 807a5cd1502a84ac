// fuzz.hpp: what the fuzz harness and the threaded sweep share: the random source and its
// hostile values, the check of a call's answer against gpucalc's contract, the printing of a
// reproducing call, and the table of entry points every module registers into.
//
// The contract, checked for every call (docs/testing.md, "The contract"): a call returns finite
// values, or an explicit "no answer" (a flag or an enum in the same result says so), or throws
// gpucalc::invalid_input whose message begins with the name of the function called and ": ",
// and names a field (" = "). Sizes, durations, costs and counts are never negative unless the
// result documents a signed margin.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gpucalc/gpucalc.hpp>
#include <gpucalc/testing.hpp>

namespace fuzz {

// ---------------------------------------------------------------------------------------------
// The random source: splitmix64 (Steele, Lea and Flood 2014), one per call, seeded from the run's
// seed, the entry point's label and the call's index, so a call is reproduced from those three
// alone, whatever ran before it.
// ---------------------------------------------------------------------------------------------
class rng {
public:
    explicit rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, n); 0 when n is 0.
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }
    /// Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return unit() < p; }

private:
    std::uint64_t state_;
};

/// FNV-1a over 64-bit words: fingerprints of results and seeds of calls.
inline std::uint64_t mix(std::uint64_t hash, std::uint64_t word) {
    for (int i = 0; i < 8; ++i) {
        hash ^= (word >> (8 * i)) & 0xFFU;
        hash *= 0x100000001B3ULL;
    }
    return hash;
}
inline constexpr std::uint64_t fnv_offset = 0xCBF29CE484222325ULL;

inline std::uint64_t hash_text(std::string_view text) {
    std::uint64_t hash = fnv_offset;
    for (char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    return hash;
}

inline std::uint64_t bits_of(double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

/// The seed of call `index` of the entry point labelled `label` in a run seeded `run_seed`.
inline std::uint64_t call_seed(std::uint64_t run_seed, std::string_view label, std::int64_t index) {
    return mix(mix(hash_text(label), run_seed), static_cast<std::uint64_t>(index));
}

// ---------------------------------------------------------------------------------------------
// Hostile values. Each pool holds what the issue asks for: zero, negatives, NaN, ±inf,
// denormals, 1e300, DBL_MAX; counts of 2^40, 2^62 and INT64_MAX, 1e6 GPUs and 1e7-token
// contexts; small counts that divide nothing (3, 7).
// ---------------------------------------------------------------------------------------------
inline constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();
inline constexpr double inf_value = std::numeric_limits<double>::infinity();
inline constexpr double max_value = std::numeric_limits<double>::max();

inline constexpr double hostile_doubles[] = {
    0.0,     -0.0,       -1.0,      -1e300,   -max_value, nan_value,
    inf_value, -inf_value, std::numeric_limits<double>::denorm_min(),
    std::numeric_limits<double>::min(), 1e-300, 1e-30, 1e15, 1e30, 1e300, max_value,
    9007199254740992.0 /* 2^53 */, 4611686018427387904.0 /* 2^62 */};

inline constexpr std::int64_t hostile_counts[] = {
    0, -1, std::numeric_limits<std::int64_t>::min(), -(std::int64_t{1} << 40), 3, 7,
    1000000, 10000000, (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31,
    std::int64_t{1} << 32, std::int64_t{1} << 40, (std::int64_t{1} << 40) + 1,
    std::int64_t{1} << 53, std::int64_t{1} << 62, 1000000000000000,
    std::numeric_limits<std::int64_t>::max()};


/// The threaded sweep's hostile values: invalid, so the error paths run in every thread, but
/// never so large that a known hang or an undefined overflow makes a run nondeterministic.
inline constexpr double tame_doubles[] = {0.0, -1.0, nan_value, inf_value, 1e-300};
inline constexpr std::int64_t tame_counts[] = {0, -1, 3, 7, 1000};

/// How a run draws its inputs: `contract` (the fuzz run) mixes realistic and hostile calls;
/// `sweep` (the threaded run) is mostly realistic and uses the tame pools.
enum class profile { contract, sweep };

/// Thrown by a call's setup (check(m) before a checked_model overload) when the setup rejects
/// the input: the call is skipped, as it would never be made.
struct skip_call {};

// ---------------------------------------------------------------------------------------------
// The generator: one per call, seeded by call_seed. `hostility` is the chance that any one
// draw is hostile; it is chosen per call, so runs mix realistic calls (none), calls with one or
// two hostile fields, and wild ones.
// ---------------------------------------------------------------------------------------------
class generator {
public:
    /// Every out-of-range enum drawn, or none (all_valid), or all but the k-th (k >= 0): the
    /// harness re-runs an accepted call with the same numbers drawn and one enum made valid, to
    /// learn whether that enum was read.
    static constexpr int none_valid = -1;
    static constexpr int all_valid = std::numeric_limits<int>::max();

    generator(std::uint64_t seed, profile p, int valid_enum = none_valid)
        : r(seed), mode(p), valid_enum_(valid_enum) {
        const double u = r.unit();
        if (p == profile::contract) {
            hostility = u < 0.40 ? 0.0 : u < 0.65 ? 0.03 : u < 0.85 ? 0.10 : 0.40;
        } else {
            hostility = u < 0.85 ? 0.0 : 0.03;
        }
    }

    rng r;
    profile mode;
    double hostility = 0.0;
    /// The call's index among an entry point's pinned regression inputs, or -1.
    int pinned = -1;
    /// The fields this call set to an out-of-range enum value, in the order they were drawn.
    std::vector<std::string> hostile_enum_fields;

    bool hostile() { return hostility > 0.0 && r.chance(hostility); }
    bool coin(double p = 0.5) { return r.chance(p); }
    template <class T, std::size_t N>
    const T& one_of(const T (&pool)[N]) {
        return pool[r.below(N)];
    }

    double hostile_double() {
        return mode == profile::contract ? one_of(hostile_doubles) : one_of(tame_doubles);
    }
    std::int64_t hostile_count() {
        return mode == profile::contract ? one_of(hostile_counts) : one_of(tame_counts);
    }

    /// A positive magnitude near `typical` (often exactly it), or a hostile value.
    double real(double typical) {
        if (hostile()) return hostile_double();
        switch (r.below(4)) {
            case 0:
            case 1: return typical;
            case 2: return typical * std::exp2(4.0 * r.unit() - 2.0);
            default: return typical * (0.5 + r.unit());
        }
    }
    /// As real(), and exactly 0 a quarter of the time: an optional term.
    double real_or_zero(double typical) {
        if (!hostile() && r.chance(0.25)) return 0.0;
        return real(typical);
    }
    /// A fraction in (0, 1] near `typical`, or a hostile value (0, 1 + ε, −ε, NaN, 2, ...).
    double fraction(double typical) {
        if (hostile()) {
            static constexpr double edges[] = {0.0, -1e-12, 1.0 + 1e-12, 2.0, -0.5, 1.0};
            return r.chance(0.5) ? hostile_double() : one_of(edges);
        }
        switch (r.below(3)) {
            case 0: return typical;
            case 1: return 1.0;
            default: return 0.05 + 0.95 * r.unit();
        }
    }
    /// A value in [0, 1) near `typical` (a discount, a headroom), or a hostile one.
    double unit_interval(double typical) {
        if (hostile()) {
            static constexpr double edges[] = {1.0, -1e-12, 1.0 - 1e-16, 2.0, -0.5};
            return r.chance(0.5) ? hostile_double() : one_of(edges);
        }
        switch (r.below(3)) {
            case 0: return typical;
            case 1: return 0.0;
            default: return 0.95 * r.unit();
        }
    }
    /// A count near `typical` (a power-of-two multiple, a neighbour, a small count), or hostile.
    std::int64_t count(std::int64_t typical) {
        if (hostile()) return hostile_count();
        switch (r.below(5)) {
            case 0:
            case 1: return typical;
            case 2: {
                const int shift = static_cast<int>(r.below(5)) - 2;
                const std::int64_t v = shift >= 0 ? typical << shift : typical >> -shift;
                return v < 1 ? 1 : v;
            }
            case 3: return 1 + static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(
                               typical > 0 ? 2 * typical : 2)));
            default: {
                static constexpr std::int64_t small[] = {1, 1, 2, 4, 8, 16};
                return one_of(small);
            }
        }
    }
    /// A count that keeps `value` unless a hostile draw replaces it.
    std::int64_t keep(std::int64_t value) { return hostile() ? hostile_count() : value; }
    double keep_real(double value) { return hostile() ? hostile_double() : value; }
    template <class Q>
    Q keep_q(const Q& q) {
        return hostile() ? Q::from_value(hostile_double()) : q;
    }
    /// A quantity near `typical`, given in base units.
    template <class Q>
    Q q(double typical) {
        return Q::from_value(real(typical));
    }
    template <class Q>
    Q q_or_zero(double typical) {
        return Q::from_value(real_or_zero(typical));
    }

    /// `value`, or an out-of-range value of E (recorded under `field` and `member`, joined by a
    /// dot) on a hostile draw; `value` again, with the same numbers drawn, where the generator
    /// was told to keep this enum valid.
    template <class E>
    E keep_enum(E value, const char* field, const char* member = nullptr) {
        if (!hostile()) return value;
        static constexpr int out_of_range[] = {12, -1, 99, 255, 1 << 30};
        const int bad = one_of(out_of_range);
        const int k = hostile_enums_drawn_++;
        if (valid_enum_ == all_valid || valid_enum_ == k) return value;
        hostile_enum_fields.push_back(member == nullptr ? std::string(field)
                                                        : std::string(field) + "." + member);
        return static_cast<E>(bad);
    }
    /// One of the first `count` values of E, or (hostile) an out-of-range one.
    template <class E>
    E any_enum(int count, const char* field) {
        const auto drawn = r.below(static_cast<std::uint64_t>(count));
        const E valid = static_cast<E>(static_cast<int>(drawn));
        return keep_enum(valid, field);
    }

    /// Storage for gpu_spec::mig: exactly gpucalc::max_mig_profiles profiles each, on the heap
    /// so that AddressSanitizer sees a read past the last one.
    gpucalc::mig_profile* mig_table(int which) {
        auto& table = which == 0 ? mig_a_ : mig_b_;
        if (!table) table.reset(new gpucalc::mig_profile[gpucalc::max_mig_profiles]);
        return table.get();
    }

private:
    int valid_enum_;
    int hostile_enums_drawn_ = 0;
    std::unique_ptr<gpucalc::mig_profile[]> mig_a_;
    std::unique_ptr<gpucalc::mig_profile[]> mig_b_;
};

// ---------------------------------------------------------------------------------------------
// The check of an answer. inspect(inspector&, result) overloads (inspect.hpp) visit every field
// of a result, say what each field is (a size, a signed margin, a count, ...), and mix its bits
// into a fingerprint that the threaded sweep compares across threads.
// ---------------------------------------------------------------------------------------------
struct issue {
    std::string kind;    ///< e.g. "NaN or inf", "negative"
    std::string field;   ///< the result's member path, e.g. "verdict.margin"
    std::string detail;  ///< the value seen
};

inline std::string number_text(double v);

class inspector {
public:
    std::uint64_t fingerprint = fnv_offset;
    std::vector<issue> issues;
    /// The result says "no answer" in a way that makes an out-of-range enum acceptable (a
    /// to_string that returns "unknown").
    bool explicit_unknown = false;

    /// A size, duration, cost, rate or count held in a double: finite and >= 0.
    void amount(const char* field, double v) {
        word(bits_of(v));
        if (!std::isfinite(v)) {
            add("NaN or inf", field, number_text(v));
        } else if (v < 0.0) {
            add("negative", field, number_text(v));
        }
    }
    template <class Unit>
    void amount(const char* field, const boost::units::quantity<Unit, double>& q) {
        amount(field, q.value());
    }
    /// A documented signed value (a margin, a difference): finite.
    void finite(const char* field, double v) {
        word(bits_of(v));
        if (!std::isfinite(v)) add("NaN or inf", field, number_text(v));
    }
    template <class Unit>
    void finite(const char* field, const boost::units::quantity<Unit, double>& q) {
        finite(field, q.value());
    }
    /// A value documented as meaningful only when a flag says so, here said not to be.
    void no_answer(const char* field) {
        (void)field;
        word(0x6E6F2D616E737772ULL);
    }
    void count(const char* field, std::int64_t v) {
        word(static_cast<std::uint64_t>(v));
        if (v < 0) add("negative", field, std::to_string(v));
    }
    void flag(const char*, bool v) { word(v ? 1U : 0U); }
    /// An enum in a result: one of its `valid` values.
    template <class E>
    void enumeration(const char* field, E v, int valid) {
        const long long raw = static_cast<long long>(v);
        word(static_cast<std::uint64_t>(raw));
        if (raw < 0 || raw >= valid) add("enum out of range", field, std::to_string(raw));
    }
    void text(const char* field, std::string_view s) {
        word(hash_text(s));
        (void)field;
    }
    /// A documented relation between fields.
    void invariant(const char* name, bool holds, const std::string& detail = {}) {
        word(holds ? 1U : 0U);
        if (!holds) add("invariant broken", name, detail);
    }
    void add(const char* kind, const char* field, std::string detail) {
        issues.push_back({kind, prefix_ + field, std::move(detail)});
    }
    void word(std::uint64_t w) { fingerprint = mix(fingerprint, w); }

    /// Visits a nested struct under "name.".
    template <class F>
    void nested(const char* name, F&& visit) {
        const std::size_t saved = prefix_.size();
        prefix_ += name;
        prefix_ += '.';
        visit();
        prefix_.resize(saved);
    }

private:
    std::string prefix_;
};

// ---------------------------------------------------------------------------------------------
// The table of entry points.
// ---------------------------------------------------------------------------------------------

/// What one call did.
struct call_outcome {
    enum class kind { accepted, rejected, other_exception, skipped };
    kind what = kind::accepted;
    std::string message;         ///< what() of the exception, or the exception's type and what()
    std::uint64_t fingerprint = 0;
    std::vector<issue> issues;   ///< contract breaks found in an accepted answer
    bool explicit_unknown = false;
};

/// One public function (one overload), how to draw its arguments, how to call it, and how to
/// write the call as C++.
struct entry_point {
    std::string label;      ///< unique: the function and, for an overload, what tells it apart
    std::string function;   ///< the name its invalid_input messages must begin with
    int pins = 0;           ///< regression inputs drawn first (call indices 0 .. pins-1)
    bool pins_answered = false;  ///< the pinned inputs are valid: rejecting one is a finding
    double weight = 1.0;    ///< its share of the run's calls, relative to the others
    std::function<call_outcome(generator&)> run;
    /// The C++ statements that make the call generator `g` draws.
    std::function<std::string(generator&)> reproduce;
};

using registry = std::vector<entry_point>;

// Printing (repr.hpp) and checking (inspect.hpp) are declared here and defined there; add()
// below needs both.
template <class... Args>
std::string describe_call(const char* call_text, const std::tuple<Args...>& args);

inline std::string exception_text(const std::exception& e);

/// Registers `function` (messages must begin with it) under `label`: `make(generator&)` draws
/// a std::tuple of arguments, `call(args...)` makes the call and returns what inspect() checks,
/// and `call_text` writes it as C++, with {0}, {1}, ... standing for the arguments.
template <class Make, class Call>
entry_point& add(registry& r, std::string label, std::string function, const char* call_text,
                 Make make, Call call, int pins = 0) {
    entry_point e;
    e.label = std::move(label);
    e.function = std::move(function);
    e.pins = pins;
    e.run = [make, call](generator& g) {
        call_outcome out;
        auto args = make(g);
        try {
            const auto result = std::apply(call, args);
            inspector ins;
            inspect(ins, result);
            out.what = call_outcome::kind::accepted;
            out.fingerprint = ins.fingerprint;
            out.issues = std::move(ins.issues);
            out.explicit_unknown = ins.explicit_unknown;
        } catch (const skip_call&) {
            out.what = call_outcome::kind::skipped;
        } catch (const gpucalc::invalid_input& error) {
            out.what = call_outcome::kind::rejected;
            out.message = error.what();
            out.fingerprint = hash_text(out.message);
        } catch (const std::exception& error) {
            out.what = call_outcome::kind::other_exception;
            out.message = exception_text(error);
            out.fingerprint = hash_text(out.message);
        } catch (...) {
            out.what = call_outcome::kind::other_exception;
            out.message = "(an exception not derived from std::exception)";
            out.fingerprint = hash_text(out.message);
        }
        return out;
    };
    e.reproduce = [make, call_text](generator& g) {
        const auto args = make(g);
        return describe_call(call_text, args);
    };
    r.push_back(std::move(e));
    return r.back();
}

/// check(m) for a checked_model overload; a model check() rejects skips the call.
inline gpucalc::checked_model checked(const gpucalc::transformer& m) {
    try {
        return gpucalc::check(m);
    } catch (const gpucalc::invalid_input&) {
        throw skip_call{};
    }
}
inline gpucalc::checked_cluster checked(const gpucalc::cluster& c) {
    try {
        return gpucalc::check(c);
    } catch (const gpucalc::invalid_input&) {
        throw skip_call{};
    }
}

/// Runs a call's setup (a value the call needs, made by another function): an input the setup
/// rejects skips the call, as it could never be made.
template <class F>
auto setup(F&& make) -> decltype(make()) {
    try {
        return make();
    } catch (const gpucalc::invalid_input&) {
        throw skip_call{};
    }
}

/// A C array as one value, for the functions that take `const T (&)[N]`.
template <class T, std::size_t N>
struct carray {
    T v[N];
};

/// What a printing function returned, with whether the value it printed was finite: a finite
/// value must never print as "nan" or "inf".
struct printed {
    std::string text;
    bool finite_input = true;
    const char* what = "";
};

}  // namespace fuzz
