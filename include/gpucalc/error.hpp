// error.hpp: the one exception gpucalc throws, for input that breaks a stated rule
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>

#include "detail/config.hpp"

namespace gpucalc {

/// Thrown when a caller breaks a documented rule of a function's input.
/// The message always names the function, the field, the value and the rule, e.g.
/// "training_memory_per_gpu: parallel.tensor = 3 must divide attention heads = 32".
/// A valid question whose answer is "no" (a job that does not fit, a breakeven never reached)
/// never throws; it gets an explicit result instead.
///
/// Its vtable is emitted weakly in every translation unit that throws or catches it, and the
/// linker keeps one copy. Clang's -Wweak-vtables asks for an out-of-line virtual function to
/// anchor it in one object file, which a header-only library has none of; making the class a
/// template would silence the warning too, but would rename the type users catch and see in
/// `terminate` messages. So the warning is switched off for this class alone.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wweak-vtables"
#endif
class invalid_input : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

namespace detail {

/// `value` as printf would write it with `format` and `precision` in the C locale, whatever
/// the program's locale: std::to_chars never reads it (snprintf would write "1,5" under
/// de_DE). Non-finite values read "nan", "inf" and "-inf".
inline std::string locale_free_text(double value, std::chars_format format, int precision) {
    char text[128];
    const std::to_chars_result r = std::to_chars(text, text + sizeof text, value, format, precision);
    return r.ec == std::errc{} ? std::string(text, r.ptr) : std::string("?");
}

/// Shortest round-trip-ish text for a number in an error message: integers print without a
/// fractional part, others with up to 15 significant digits (printf's %.15g).
inline std::string number_text(double value) {
    return locale_free_text(value, std::chars_format::general, 15);
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
