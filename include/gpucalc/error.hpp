// error.hpp: the one exception gpucalc throws, for input that breaks a stated rule
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

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

/// Shortest round-trip-ish text for a number in an error message: integers print without a
/// fractional part, others with up to 15 significant digits.
inline std::string number_text(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.15g", value);
    return text;
}

/// Builds "function: field = value unit rule" and throws it. Never inlined into hot paths'
/// fast branch: it is only reached when a check fails.
[[noreturn]] inline void throw_invalid(const char* function, const char* field, double value,
                                       const char* unit_symbol, const std::string& rule) {
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
    message += rule;
    throw invalid_input(message);
}

/// The same, for a field whose value is a name rather than a number (an enum, a GPU).
[[noreturn]] inline void throw_invalid(const char* function, const char* field,
                                       const std::string& value, const std::string& rule) {
    throw invalid_input(std::string(function) + ": " + field + " = " + value + " " + rule);
}

}  // namespace detail
}  // namespace gpucalc
