// testing_test.cpp: what a failing test prints. A quantity shows every digit it needs, so two
// values that differ never print alike (80 GiB against 80 GiB + 1 MiB was "80 GiB" twice), and
// approx() states both values, the tolerance and the band it allows.
#include <gpucalc/literals.hpp>
#include <gpucalc/precision.hpp>
#include <gpucalc/testing.hpp>
#include <gpucalc/units.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>

using namespace gpucalc;
using namespace gpucalc::literals;

namespace {
template <class T>
std::string shown(const T& value) {
    return doctest::toString(value).c_str();  // what doctest prints for a failed check
}
template <class T>
std::string streamed(const T& value) {
    std::ostringstream out;
    out << value;
    return out.str();
}
std::string exact(const data_size& q) {
    format_options options;
    options.exact = true;
    return to_string(q, options);
}
}  // namespace

TEST_CASE("a failed check shows a quantity with the digits that tell it apart") {
    CHECK(shown(80.0_GiB) == "80 GiB");
    CHECK(shown(80.0_GiB + 1.0_MiB) == "80.0009765625 GiB");
    CHECK(shown(2.99_usd_per_gpu_hour) == "$2.99/GPU\xC2\xB7h");
    CHECK(shown(1234567.5_usd) == "$1,234,567.5");
    CHECK(shown(-2.5_GiB) == "-2.5 GiB");
    // No magnitude, no prefix: zero, inf and NaN read in the base unit.
    CHECK(streamed(0.0_s) == "0 s");
    CHECK(streamed(data_size::from_value(std::numeric_limits<double>::infinity())) == "inf B");
    // operator<< stays at 3 significant figures: it is for people, not for failures.
    CHECK(streamed(80.0_GiB + 1.0_MiB) == "80 GiB");
}

TEST_CASE("two different values never print the same in a failure") {
    // Neighbouring doubles, across the prefixes and the exponent form, differ in text.
    std::mt19937_64 rng(12);
    std::uniform_real_distribution<double> exponent(-12.0, 20.0);
    for (int i = 0; i < 2000; ++i) {
        const double v = std::pow(10.0, exponent(rng));
        const double next = std::nextafter(v, 2.0 * v);
        INFO("value in bytes: " << v);
        CHECK(exact(make<bytes>(v)) != exact(make<bytes>(next)));
    }
}

TEST_CASE("approx compares within a relative tolerance, both ways round") {
    CHECK(101.0_GB == approx(100.0_GB, 0.01));
    CHECK(approx(100.0_GB, 0.01) == 101.0_GB);
    CHECK(102.0_GB != approx(100.0_GB, 0.01));
    CHECK(approx(100.0_GB, 0.01) != 102.0_GB);
    CHECK(1.0 + 1e-10 == approx(1.0));  // formula_tolerance, 1e-9, by default
    CHECK(1.0 + 1e-8 != approx(1.0));
    CHECK(0.0_usd == approx(0.0_usd));
    static_assert(2.99_usd_per_gpu_hour * 1000.0_gpu_hours == approx(2990.0_usd), "");
}

TEST_CASE("approx prints the expected value, the tolerance and the band in the display unit") {
    CHECK(shown(approx(80.0_GiB, 1e-6)) ==
          "approx. 80 GiB (relative tolerance 1e-06, \xC2\xB1" "84 KiB)");
    CHECK(shown(approx(3.09_usd_per_gpu_hour, 0.01)) ==
          "approx. $3.09/GPU\xC2\xB7h (relative tolerance 0.01, \xC2\xB1$0.031/GPU\xC2\xB7h)");
    CHECK(shown(approx(-2.1_usd, 0.01)) ==
          "approx. -$2.1 (relative tolerance 0.01, \xC2\xB1$0.021)");
    CHECK(shown(approx(1.6, 0.01)) == "approx. 1.6 (relative tolerance 0.01, \xC2\xB1" "0.016)");
}

TEST_CASE("approx rejects a tolerance outside [0, 1), naming itself") {
    CHECK_THROWS_WITH_AS(approx(1.0_GB, 1.5), "approx: relative_tolerance = 1.5 must be in [0, 1)",
                         invalid_input);
    CHECK_THROWS_AS(approx(1.0, -0.1), invalid_input);
    CHECK_THROWS_AS(approx(1.0, std::nan("")), invalid_input);
}

TEST_CASE("an enum prints its name through operator<< wherever its type is visible") {
    CHECK(streamed(compute_precision::bf16) == "bf16");
}

TEST_CASE("a stray byte_prefixes value reads unknown, and to_string rejects it in its options") {
    // Fuzz findings: byte_prefixes(255) read "decimal", and options.bytes = 12 printed decimal.
    CHECK(to_string(static_cast<byte_prefixes>(255)) == "unknown");
    format_options options;
    options.bytes = static_cast<byte_prefixes>(12);
    CHECK_THROWS_WITH_AS(to_string(80.0_GiB, options),
                         "to_string: options.bytes = 12 must be a byte_prefixes value",
                         invalid_input);
}
