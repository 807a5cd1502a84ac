// format_test.cpp: quantities print as a person writes them, with prefixes, units and money
// separators; doctest shows units in failed assertions. The expected texts are the forms the
// foundation issue (#2) names: "80 GiB" or "85.9 GB", "3.35 TB/s", "989 TFLOP/s", "$2.99/GPU·h",
// and the "$2,990" a failing budget check prints (1,000 GPU-hours at $2.99/GPU·h).
#include <gpucalc/format.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/precision.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <sstream>

using namespace gpucalc;
using namespace gpucalc::literals;

namespace {
template <class T>
std::string streamed(const T& value) {
    std::ostringstream out;
    out << value;
    return out.str();
}
}  // namespace

TEST_CASE("sizes print with binary prefixes by default, decimal on request") {
    CHECK(to_string(80.0_GiB) == "80 GiB");
    CHECK(to_string(80.0_GiB, {3, byte_prefixes::decimal}) == "85.9 GB");
    CHECK(to_string(13.48_GB, {4, byte_prefixes::decimal}) == "13.48 GB");
    CHECK(to_string(512.0_KiB) == "512 KiB");
    CHECK(to_string(0.0_B) == "0 B");
    CHECK(to_string(-2.5_GiB) == "-2.5 GiB");  // a negative margin
}

TEST_CASE("rounding that crosses a prefix moves to the next prefix") {
    CHECK(to_string(999.7_GB, {3, byte_prefixes::decimal}) == "1 TB");
    CHECK(to_string(59.99_s) == "1 min");
}

TEST_CASE("exactly one of a binary or calendar unit prints as that unit") {
    // Rounding in base units first would give "1020 MiB" and "365 days" here.
    CHECK(to_string(1.0_GiB) == "1 GiB");
    CHECK(to_string(1.0_KiB) == "1 KiB");
    CHECK(to_string(make<pebibytes>(1024.0)) == "1 EiB");
    CHECK(to_string(1.0_years) == "1 year");
    CHECK(to_string(1.0_days) == "1 day");
    CHECK(to_string(2.0_days) == "2 days");
    CHECK(to_string(1020.0_GiB) == "1020 GiB");  // 3 figures; below 1 TiB
}

TEST_CASE("extreme values print in exponent form; non-finite values say so") {
    CHECK(to_string(make<usd>(1e20)) == "$1.00e+20");
    CHECK(to_string(0.000123_s) == "123 \xC2\xB5s");
    CHECK(to_string(make<seconds>(1e-21)) == "1.00e-12 ns");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(to_string(make<usd>(nan)).find("nan") != std::string::npos);
    CHECK(to_string(make<usd>(std::numeric_limits<double>::infinity())) == "$inf");
}

TEST_CASE("significant figures are clamped to what a double holds") {
    CHECK(to_string(3.14159_s, {0}) == "3 s");
    // 17 digits show the double nearest 3.14159 exactly as it is stored.
    CHECK(to_string(3.14159_s, {std::numeric_limits<int>::max()}) == "3.1415899999999999 s");
    CHECK(to_string(make<seconds>(1e-5), {500}) == "10 \xC2\xB5s");
}

TEST_CASE("rates, compute and links") {
    CHECK(to_string(3.35_TB_per_s) == "3.35 TB/s");
    CHECK(to_string(989.4_TFLOPS) == "989 TFLOP/s");
    CHECK(to_string(1978.9_TFLOPS) == "1.98 PFLOP/s");
    CHECK(to_string(400.0_Gb_per_s) == "50 GB/s");
    CHECK(to_string(3.14e23_FLOP) == "314 ZFLOP");
    CHECK(to_string(295.0_FLOP_per_B) == "295 FLOP/B");
}

TEST_CASE("money has a dollar sign and thousands separators") {
    CHECK(to_string(2990.0_usd) == "$2,990");
    CHECK(to_string(333000.0_usd) == "$333,000");
    CHECK(to_string(-1234.0_usd) == "-$1,230");
    CHECK(to_string(2.99_usd_per_gpu_hour) == "$2.99/GPU\xC2\xB7h");
    CHECK(to_string(98.32_usd_per_h) == "$98.3/h");
    CHECK(to_string(98.32_usd_per_h, {4}) == "$98.32/h");
    CHECK(to_string(0.0806_usd_per_kWh) == "$0.0806/kWh");
    CHECK(to_string(0.09_usd_per_GB) == "$0.09/GB");
}

TEST_CASE("time, power, energy, carbon, GPU bookkeeping") {
    CHECK(to_string(1.5_h) == "1.5 h");
    CHECK(to_string(90.0_s) == "1.5 min");
    CHECK(to_string(6.61_ms) == "6.61 ms");
    CHECK(to_string(1.0_us) == "1 \xC2\xB5s");
    CHECK(to_string(5.0_years) == "5 years");
    CHECK(to_string(10.2_kW) == "10.2 kW");
    CHECK(to_string(1234.0_kWh) == "1,230 kWh");
    CHECK(to_string(1000.0_gpu_hours) == "1,000 GPU\xC2\xB7h");
    CHECK(to_string(8.0_gpu) == "8 GPU");
    CHECK(to_string(12.0_t) == "12 t");
    CHECK(to_string(400.0_g_per_kWh) == "400 g/kWh");
}

TEST_CASE("tokens, sequences and their rates say which rate they are") {
    CHECK(to_string(128000.0_tokens) == "128,000 tokens");
    CHECK(to_string(15.0_T_tokens) == "15T tokens");
    CHECK(to_string(300.0_B_tokens) == "300B tokens");
    CHECK(to_string(2400.0_tokens_per_s) == "2,400 tokens/s");
    CHECK(to_string(3.2e6_tokens_per_s) == "3.2M tokens/s");
    CHECK(to_string(45.5_tokens_per_s_per_stream) == "45.5 tokens/s per stream");
    CHECK(to_string(64.0_sequences) == "64 sequences");
    CHECK(to_string(12.0_requests_per_s) == "12 requests/s");
    CHECK(to_string(0.253_usd_per_M_tokens) == "$0.253/M tokens");
    CHECK(to_string(1.0_tokens / 1.0_sequences) == "1 token\xC2\xB7seq^-1");
}

TEST_CASE("a dimension without a name prints in base units") {
    CHECK(to_string(1.0_FLOP / 1.0_s / 1.0_s) == "1 s^-2\xC2\xB7" "FLOP");
}

TEST_CASE("significant figures can be set, in to_string and on a stream") {
    CHECK(to_string(3.14159_s, {5}) == "3.1416 s");
    CHECK(to_string(3.14159_s, {1}) == "3 s");
    std::ostringstream out;
    out << significant_figures(5) << 3.14159_s << " " << decimal_bytes << 80.0_GiB;
    CHECK(out.str() == "3.1416 s 85.899 GB");
}

TEST_CASE("operator<< prints quantities and enums") {
    CHECK(streamed(80.0_GiB) == "80 GiB");
    CHECK(streamed(number_format::nf4) == "nf4");
    CHECK(streamed(compute_precision::tf32) == "tf32");
}

TEST_CASE("doctest shows units when a budget assertion fails") {
    // doctest prints a quantity through the StringMaker units.hpp declares, with every digit.
    CHECK(doctest::toString(2990.0_usd) == "$2,990");
    CHECK(doctest::toString(3.35_TB_per_s) == "3.35 TB/s");
}
