// locale_test.cpp: printed quantities and error messages are byte-identical under a German
// locale, where printf writes a decimal comma and would have given "$2,,99/GPU·h".
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory/fit.hpp>

#include <doctest/doctest.h>

#include <clocale>
#include <cstdio>
#include <string>

using namespace gpucalc;
using namespace gpucalc::literals;

namespace {
/// Everything gpucalc writes numbers into: sizes, rates, prices (separators and decimals), an
/// exponent form, and an error message's value.
std::string everything_printed() {
    std::string text = to_string(2.99_usd_per_gpu_hour) + "|" + to_string(0.0806_usd_per_kWh) +
                       "|" + to_string(120.563_TiB, {6}) + "|" + to_string(3.35_TB_per_s) + "|" +
                       to_string(1234567.0_usd) + "|" + to_string(make<flops>(1e45)) + "|" +
                       to_string(45.5_tokens_per_s_per_stream);
    try {
        (void)fits(1.0_GB, 80.0_GiB, 1.5);
    } catch (const invalid_input& e) {
        text += "|";
        text += e.what();
    }
    return text;
}

/// Restores the program's locale when the test ends, pass or fail.
struct locale_guard {
    std::string saved = std::setlocale(LC_ALL, nullptr);
    ~locale_guard() { std::setlocale(LC_ALL, saved.c_str()); }
};
}  // namespace

TEST_CASE("numbers print the same under de_DE.UTF-8 as under C") {
    const std::string in_c = everything_printed();
    CHECK(in_c == "$2.99/GPU\xC2\xB7h|$0.0806/kWh|120.563 TiB|3.35 TB/s|$1,230,000|1.00e+21 YFLOP|"
                  "45.5 tokens/s per stream|fits: headroom = 1.5 must be in [0, 1)");
    const locale_guard guard;
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") == nullptr) {
        MESSAGE("de_DE.UTF-8 is not installed here, so the locale comparison is skipped "
                "(.ci/run generates it)");
        return;
    }
    // The locale is in effect: printf now writes a decimal comma.
    char comma[8];
    std::snprintf(comma, sizeof comma, "%.1f", 1.5);
    REQUIRE(std::string(comma) == "1,5");
    CHECK(everything_printed() == in_c);
}
