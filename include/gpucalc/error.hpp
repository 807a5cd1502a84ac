// error.hpp: the one exception gpucalc throws, for input that breaks a stated rule
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpucalc {

/// Thrown when a caller breaks a documented rule of a function's input.
/// The message always names the function, the field, the value and the rule, e.g.
/// "training_memory: tensor_parallel = 3 must divide attention heads = 32".
/// A valid question whose answer is "no" (a job that does not fit, a breakeven never reached)
/// never throws; it gets an explicit result instead.
class invalid_input : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

namespace detail {

// The throwing helpers are kept out of line and marked cold: every hot function validates its
// input on each call, and building a message inline would bloat those functions past what the
// compiler inlines.
#if defined(__GNUC__) || defined(__clang__)
#define GPUCALC_DETAIL_COLD __attribute__((cold, noinline))
// On the few top-level functions a scheduler calls millions of times: inline their helpers
// (the checks, the sharding arithmetic) into one body, as a hand-written version would be.
#define GPUCALC_DETAIL_HOT __attribute__((flatten))
#else
#define GPUCALC_DETAIL_COLD
#define GPUCALC_DETAIL_HOT
#endif

// Boost.Units quantities are not trivially copyable (they declare a copy constructor), so the
// Itanium C++ ABI passes and returns them through memory whenever a call is not inlined, where
// a double travels in a register. GCC's flatten inlines a hot function's whole call tree, and
// GCC inlines op_time into its callers' loops. Clang 14's flatten inlines one level only, and
// Clang declines to inline op_time or the ownership check. So under Clang, the small functions
// on hot paths that take or return a quantity, or that Clang left out of line, are always
// inlined (measured with Clang 14 against the raw-double twins: op_time 2.7x -> 1.0x, decode
// 1.29x -> 1.0x, rent_vs_buy 1.16x -> 0.97-1.0x). Under GCC the attribute is left off:
// forcing it there made GCC vectorize op_time's unused divisions into the caller's loop, 1.5x
// slower.
#if defined(__clang__)
#define GPUCALC_DETAIL_INLINE __attribute__((always_inline))
#else
#define GPUCALC_DETAIL_INLINE
#endif

/// Shortest round-trip-ish text for a number in an error message: integers print without a
/// fractional part, others with up to 15 significant digits.
inline std::string number_text(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.15g", value);
    return text;
}

/// Throws "function: field = value unit rule_head[number]rule_tail"; `number` is printed only
/// when `rule_tail` is not null.
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_invalid(const char* function, const char* field,
                                                           double value, const char* unit_symbol,
                                                           const char* rule_head,
                                                           double number = 0.0,
                                                           const char* rule_tail = nullptr) {
    std::string message = function;
    message += ": ";
    message += field;
    message += " = ";
    message += number_text(value);
    if (unit_symbol != nullptr && unit_symbol[0] != '\0') {
        message += ' ';
        message += unit_symbol;
    }
    message += ' ';
    message += rule_head;
    if (rule_tail != nullptr) {
        message += number_text(number);
        message += rule_tail;
    }
    throw invalid_input(message);
}

/// The same, for a field whose value is a name (an enum, a GPU):
/// "function: field = value rule_head name rule_tail".
[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_invalid_name(const char* function,
                                                                const char* field,
                                                                std::string_view value,
                                                                const char* rule_head,
                                                                std::string_view name = {},
                                                                const char* rule_tail = "") {
    std::string message = function;
    message += ": ";
    message += field;
    message += " = ";
    message += value;
    message += ' ';
    message += rule_head;
    message += name;
    message += rule_tail;
    throw invalid_input(message);
}

}  // namespace detail
}  // namespace gpucalc
