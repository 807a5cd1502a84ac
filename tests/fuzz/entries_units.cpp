// entries_units.cpp: the fuzz table's entries for precision.hpp, the units and their printing
// (units.hpp, format.hpp) and testing.hpp. make<Unit>, in<Unit> and the literals are not here:
// they convert a number the caller wrote into a quantity and back, and check nothing by design.
#include <sstream>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {
namespace {

/// to_string of one quantity type: a finite value never prints as "nan" or "inf".
template <class Q>
void add_quantity_to_string(registry& r, const char* dimension) {
    add(r, std::string("to_string(") + dimension + ")", "to_string", "gpucalc::to_string({0}, {1})",
        [](generator& g) {
            return std::tuple{Q::from_value(draw::any_double(g)), draw::format_options(g)};
        },
        [dimension](const Q& q, const gpucalc::format_options& o) {
            return printed{gpucalc::to_string(q, o), std::isfinite(q.value()), dimension};
        })
        .weight = 0.2;
}

}  // namespace

void register_units(registry& r) {
    using namespace gpucalc;

    // precision.hpp
    add_enum_to_string<number_format>(r, "to_string(number_format)", 12);
    add_enum_to_string<compute_precision>(r, "to_string(compute_precision)", 10);
    add(r, "storage_bits", "storage_bits", "gpucalc::storage_bits({0})",
        [](generator& g) { return std::tuple{g.any_enum<number_format>(12, "f")}; },
        [](number_format f) { return storage_bits(f); });
    add(r, "bits_per_element", "bits_per_element", "gpucalc::bits_per_element({0})",
        [](generator& g) { return std::tuple{draw::storage(g, "f")}; },
        [](const storage_format& f) { return bits_per_element(f); });
    add(r, "bytes_per_element", "bytes_per_element", "gpucalc::bytes_per_element({0})",
        [](generator& g) { return std::tuple{draw::storage(g, "f")}; },
        [](const storage_format& f) { return bytes_per_element(f); });
    add(r, "storage_size", "storage_size", "gpucalc::storage_size({0}, {1})",
        [](generator& g) { return std::tuple{g.real(7e9), draw::storage(g, "f")}; },
        [](double elements, const storage_format& f) { return storage_size(elements, f); });

    // units/quantities.hpp: the tolerance comparison
    add(r, "approx_equal(double)", "approx_equal", "gpucalc::approx_equal({0}, {1}, {2})",
        [](generator& g) {
            const double a = draw::any_double(g);
            return std::tuple{a, g.coin() ? a * (1.0 + 1e-12) : draw::any_double(g),
                              g.unit_interval(1e-9)};
        },
        [](double a, double b, double tolerance) { return approx_equal(a, b, tolerance); });
    add(r, "approx_equal(quantity)", "approx_equal", "gpucalc::approx_equal({0}, {1}, {2})",
        [](generator& g) {
            const double a = draw::any_double(g);
            return std::tuple{data_size::from_value(a),
                              data_size::from_value(g.coin() ? a : draw::any_double(g)),
                              g.unit_interval(1e-9)};
        },
        [](const data_size& a, const data_size& b, double tolerance) {
            return approx_equal(a, b, tolerance);
        });

    // units/print.hpp and format.hpp: printing
    add_enum_to_string<byte_prefixes>(r, "to_string(byte_prefixes)", 2);
    add_quantity_to_string<data_size>(r, "data_size");
    add_quantity_to_string<flop_count>(r, "flop_count");
    add_quantity_to_string<duration>(r, "duration");
    add_quantity_to_string<money>(r, "money");
    add_quantity_to_string<gpu_count>(r, "gpu_count");
    add_quantity_to_string<mass>(r, "mass");
    add_quantity_to_string<power>(r, "power");
    add_quantity_to_string<energy>(r, "energy");
    add_quantity_to_string<token_count>(r, "token_count");
    add_quantity_to_string<sequence_count>(r, "sequence_count");
    add_quantity_to_string<flop_rate>(r, "flop_rate");
    add_quantity_to_string<bandwidth>(r, "bandwidth");
    add_quantity_to_string<arithmetic_intensity>(r, "arithmetic_intensity");
    add_quantity_to_string<gpu_time>(r, "gpu_time");
    add_quantity_to_string<cost_rate>(r, "cost_rate");
    add_quantity_to_string<gpu_price>(r, "gpu_price");
    add_quantity_to_string<energy_price>(r, "energy_price");
    add_quantity_to_string<data_price>(r, "data_price");
    add_quantity_to_string<grid_intensity>(r, "grid_intensity");
    add_quantity_to_string<token_rate>(r, "token_rate");
    add_quantity_to_string<stream_token_rate>(r, "stream_token_rate");
    add_quantity_to_string<request_rate>(r, "request_rate");
    add_quantity_to_string<token_price>(r, "token_price");
    // A dimension with no name of its own prints in base units.
    add_quantity_to_string<decltype(flop_rate{} * money{})>(r, "flop_rate x money");

    add(r, "operator<<(quantity)", "operator<<",
        "std::ostringstream os; os << gpucalc::significant_figures({1}) << gpucalc::decimal_bytes "
        "<< {0}",
        [](generator& g) {
            static constexpr int digits[] = {3, 5, 1, 17, 0, -4, 1000};
            return std::tuple{data_size::from_value(draw::any_double(g)), g.one_of(digits)};
        },
        [](const data_size& q, int digits) {
            std::ostringstream os;
            os << significant_figures(digits) << decimal_bytes << q << ' ' << binary_bytes << q;
            return printed{os.str(), std::isfinite(q.value()), "data_size"};
        });
    add(r, "operator<<(enum)", "operator<<", "std::ostringstream os; os << {0}",
        [](generator& g) { return std::tuple{g.any_enum<compute_precision>(10, "value")}; },
        [](compute_precision p) {
            std::ostringstream os;
            os << p;
            return os.str();
        });
    add(r, "PrintTo(quantity)", "PrintTo", "std::ostringstream os; gpucalc::PrintTo({0}, &os)",
        [](generator& g) { return std::tuple{gpu_price::from_value(draw::any_double(g))}; },
        [](const gpu_price& q) {
            std::ostringstream os;
            PrintTo(q, &os);
            return printed{os.str(), std::isfinite(q.value()), "gpu_price"};
        });

    // testing.hpp
    add(r, "approx(double)", "approx", "gpucalc::approx({0}, {1})",
        [](generator& g) { return std::tuple{draw::any_double(g), g.unit_interval(1e-3)}; },
        [](double expected, double tolerance) { return approx(expected, tolerance); });
    add(r, "approx(quantity)", "approx", "gpucalc::approx({0}, {1})",
        [](generator& g) {
            return std::tuple{data_size::from_value(draw::any_double(g)), g.unit_interval(1e-3)};
        },
        [](const data_size& expected, double tolerance) { return approx(expected, tolerance); });
    add(r, "operator<<(approx_value)", "approx",
        "std::ostringstream os; os << gpucalc::approx({0}, {1})",
        [](generator& g) {
            return std::tuple{money::from_value(draw::any_double(g)), g.unit_interval(1e-3)};
        },
        [](const money& expected, double tolerance) {
            std::ostringstream os;
            os << approx(expected, tolerance);
            return printed{os.str(), std::isfinite(expected.value()), "approx_value<money>"};
        });
}

}  // namespace fuzz
