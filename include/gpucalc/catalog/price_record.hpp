// catalog/price_record.hpp: what one dated, sourced price of a GPU says, and which prices a table
// of them holds for a GPU
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "../detail/checks.hpp"
#include "../hardware.hpp"
#include "../units.hpp"

namespace gpucalc {

// A price is data with a date and a source, never a number in a comment: a price goes stale
// within weeks, and what can say how stale it is must be able to read the day it was read.
// catalog/prices.hpp holds a table of these records; a user's own table works the same way.

/// A day of the Gregorian calendar: the day a price page (or a dated copy of it) was read.
/// A valid date lies in [2000-01-01, 2100-12-31].
struct calendar_date {
    int year = 0;
    int month = 0;  ///< 1 (January) to 12
    int day = 0;    ///< 1 to the month's last day (29 in February of a leap year)
};

/// Dates compare by (year, month, day). Ranges: any values; an invalid date compares too.
constexpr bool operator==(const calendar_date& a, const calendar_date& b) {
    return a.year == b.year && a.month == b.month && a.day == b.day;
}
/// Ranges: any values.
constexpr bool operator!=(const calendar_date& a, const calendar_date& b) { return !(a == b); }
/// The earlier date is the smaller. Ranges: any values.
constexpr bool operator<(const calendar_date& a, const calendar_date& b) {
    if (a.year != b.year) return a.year < b.year;
    if (a.month != b.month) return a.month < b.month;
    return a.day < b.day;
}

/// Who sells the GPU-hours: hyperscalers first, then GPU clouds.
enum class cloud_provider {
    aws,
    google_cloud,
    azure,
    lambda,
    coreweave,
    runpod,
    digitalocean
};
inline constexpr int cloud_provider_count = 7;

/// The enumerator's name ("google_cloud"), or "unknown" for a value outside the enum.
constexpr std::string_view to_string(cloud_provider p) {
    switch (p) {
        case cloud_provider::aws: return "aws";
        case cloud_provider::google_cloud: return "google_cloud";
        case cloud_provider::azure: return "azure";
        case cloud_provider::lambda: return "lambda";
        case cloud_provider::coreweave: return "coreweave";
        case cloud_provider::runpod: return "runpod";
        case cloud_provider::digitalocean: return "digitalocean";
    }
    return "unknown";
}

/// On-demand capacity runs until the user stops it; spot capacity can be reclaimed, and its
/// price moves daily or hourly, so a spot record is an example of a price, never a quote.
enum class price_kind { on_demand, spot };
inline constexpr int price_kind_count = 2;

/// The enumerator's name ("on_demand"), or "unknown" for a value outside the enum.
constexpr std::string_view to_string(price_kind k) {
    switch (k) {
        case price_kind::on_demand: return "on_demand";
        case price_kind::spot: return "spot";
    }
    return "unknown";
}

/// What the page prints: a price per GPU-hour, or one per hour for a whole instance.
enum class price_basis { per_gpu_hour, per_instance_hour };
inline constexpr int price_basis_count = 2;

/// The enumerator's name ("per_instance_hour"), or "unknown" for a value outside the enum.
constexpr std::string_view to_string(price_basis b) {
    switch (b) {
        case price_basis::per_gpu_hour: return "per_gpu_hour";
        case price_basis::per_instance_hour: return "per_instance_hour";
    }
    return "unknown";
}

/// One price as a provider's page printed it on one day. The price keeps its type: a page that
/// prices a GPU-hour gives a gpu_price ($/GPU·h) in `per_gpu`; a page that prices an instance
/// gives a cost_rate ($/h) in `per_instance`, for its `gpus` GPUs. gpu_hour_price() turns either
/// into $/GPU·h (the instance price ÷ its GPUs). A literal type, so tables of records are
/// constexpr data.
///
/// Ranges (check(price_record)): gpu not null and naming a GPU; provider, kind and basis one of
/// their enumerators; region, offer and source not empty, source an https:// address; gpus in
/// [1, 2^40]; the price the basis names in its dimension's range (at least 1e-30 in base units,
/// at most $1e9/GPU·h or $1e9/h) and the other price 0; read a valid date.
struct price_record {
    const gpu_spec* gpu = nullptr;  ///< the GPU priced (a catalog entry); matched by its name
    cloud_provider provider = cloud_provider::aws;
    std::string_view region{};      ///< the provider's region ("us-east-1"), or "any" for one list
    price_kind kind = price_kind::on_demand;
    std::string_view offer{};       ///< what the page prices: "p5.48xlarge", "8x H100 SXM"
    std::int64_t gpus = 1;          ///< the GPUs in that offer
    price_basis basis = price_basis::per_gpu_hour;
    gpu_price per_gpu{};            ///< as printed, when basis is per_gpu_hour; 0 otherwise
    cost_rate per_instance{};       ///< as printed, when basis is per_instance_hour; 0 otherwise
    calendar_date read{};           ///< the day the page, or the dated copy cited, was read
    std::string_view source{};      ///< the provider's pricing page
    bool uncertain = false;         ///< sources disagree; the comment beside the record says how
};

namespace detail {

/// "table[3].field", or "field" when the record was passed alone (table null).
GPUCALC_DETAIL_COLD inline std::string record_field(const char* table, std::size_t index,
                                                    const char* field) {
    if (table == nullptr) return field;
    return std::string(table) + "[" + std::to_string(index) + "]." + field;
}

/// "2026-02-30", zero-padded, for an error message.
GPUCALC_DETAIL_COLD inline std::string date_text(const calendar_date& d) {
    const auto two = [](int v) {
        std::string s = std::to_string(v);
        return v >= 0 && v < 10 ? "0" + s : s;
    };
    return std::to_string(d.year) + "-" + two(d.month) + "-" + two(d.day);
}

[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_record_text(const char* function,
                                                                   const char* table,
                                                                   std::size_t index,
                                                                   const char* field,
                                                                   std::string_view value,
                                                                   const char* rule) {
    throw_invalid_name(function, record_field(table, index, field).c_str(), value, rule);
}

[[noreturn]] GPUCALC_DETAIL_COLD inline void throw_bad_record_number(const char* function,
                                                                     const char* table,
                                                                     std::size_t index,
                                                                     const char* field,
                                                                     double value,
                                                                     const char* rule) {
    throw_invalid(function, record_field(table, index, field).c_str(), value, "", rule);
}

/// A record's price outside its range, or set where its basis says it must be 0.
template <class Quantity>
[[noreturn]] GPUCALC_DETAIL_COLD void throw_bad_record_price(const char* function,
                                                             const char* table, std::size_t index,
                                                             const char* field, Quantity q,
                                                             bool must_be_zero) {
    if (must_be_zero) {
        throw_invalid_name(function, record_field(table, index, field).c_str(),
                           error_value_text(q).c_str(),
                           "must be 0: the record's basis names the other price");
    }
    throw_out_of_range(function, record_field(table, index, field).c_str(), q, false);
}

/// An enum field of a record that must be one of its `count` enumerators.
template <class Enum>
constexpr void require_record_enumerator(const char* function, const char* table,
                                         std::size_t index, const char* field, Enum value,
                                         int count, const char* type) {
    const auto v = static_cast<std::underlying_type_t<Enum>>(value);
    if (!(v >= 0 && static_cast<long long>(v) < count)) {
        throw_invalid_name(function, record_field(table, index, field).c_str(),
                           number_text(static_cast<double>(v)), "must be a ", type, " value");
    }
}

/// Whether `year` has a 29 February.
constexpr bool is_leap_year(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/// Whether `d` is a day of the calendar in [2000-01-01, 2100-12-31].
constexpr bool is_valid_date(const calendar_date& d) {
    if (d.year < 2000 || d.year > 2100 || d.month < 1 || d.month > 12 || d.day < 1) return false;
    constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const int last = d.month == 2 && is_leap_year(d.year) ? 29 : days[d.month - 1];
    return d.day <= last;
}

/// Whether a GPU pointer is null, at run time. GCC does not fold `&global == nullptr` in a
/// constant expression under -fno-delete-null-pointer-checks, which its sanitizers imply, so
/// the comparison is skipped there: a null GPU in a constant expression still fails it, at
/// the dereference that follows.
constexpr bool is_null_gpu(const gpu_spec* gpu) {
    return !is_constant_evaluated() && gpu == nullptr;
}

/// The rules of check(price_record), naming a record's field as the caller wrote it: the
/// member alone for one record, "table[i].member" for a record of a table.
constexpr void check_price_record(const price_record& r, const char* function, const char* table,
                                  std::size_t index) {
    if (is_null_gpu(r.gpu)) {
        throw_bad_record_text(function, table, index, "gpu", "null", "must point to a GPU");
    }
    if (r.gpu->name.empty()) {
        throw_bad_record_text(function, table, index, "gpu->name", "\"\"",
                              "must name the GPU: prices are matched by it");
    }
    require_record_enumerator(function, table, index, "provider", r.provider,
                              cloud_provider_count, "gpucalc::cloud_provider");
    require_record_enumerator(function, table, index, "kind", r.kind, price_kind_count,
                              "gpucalc::price_kind");
    require_record_enumerator(function, table, index, "basis", r.basis, price_basis_count,
                              "gpucalc::price_basis");
    if (r.region.empty()) {
        throw_bad_record_text(function, table, index, "region", "\"\"", "must name a region");
    }
    if (r.offer.empty()) {
        throw_bad_record_text(function, table, index, "offer", "\"\"",
                              "must name what the page prices");
    }
    if (r.source.size() <= 8 || r.source.substr(0, 8) != "https://") {
        throw_bad_record_text(function, table, index, "source", r.source,
                              "must be the https:// address of the pricing page");
    }
    if (r.gpus < 1 || r.gpus > largest_count) {
        throw_bad_record_number(function, table, index, "gpus", static_cast<double>(r.gpus),
                                r.gpus < 1 ? "must be >= 1" : "must be <= 2^40");
    }
    const double gpu_value = r.per_gpu.value();
    const double instance_value = r.per_instance.value();
    if (r.basis == price_basis::per_gpu_hour) {
        if (!(gpu_value >= smallest_input && gpu_value <= input_range<gpu_price>::largest)) {
            throw_bad_record_price(function, table, index, "per_gpu", r.per_gpu, false);
        }
        if (!exactly_equal(instance_value, 0.0)) {
            throw_bad_record_price(function, table, index, "per_instance", r.per_instance, true);
        }
    } else {
        if (!(instance_value >= smallest_input &&
              instance_value <= input_range<cost_rate>::largest)) {
            throw_bad_record_price(function, table, index, "per_instance", r.per_instance, false);
        }
        if (!exactly_equal(gpu_value, 0.0)) {
            throw_bad_record_price(function, table, index, "per_gpu", r.per_gpu, true);
        }
    }
    if (!is_valid_date(r.read)) {
        throw_bad_record_text(function, table, index, "read", date_text(r.read),
                              "must be a calendar date from 2000-01-01 to 2100-12-31");
    }
}

/// The GPU a lookup asks for: not null, and named, since records match it by name.
constexpr void require_priced_gpu(const char* function, const gpu_spec* gpu) {
    if (is_null_gpu(gpu)) {
        throw_invalid_name(function, "gpu", "null", "must point to a GPU");
    }
    if (gpu->name.empty()) {
        throw_invalid_name(function, "gpu->name", "\"\"",
                           "must name the GPU: prices are matched by it");
    }
}

}  // namespace detail

/// Throws invalid_input unless `record` keeps the rules stated on price_record.
constexpr void check(const price_record& record) {
    detail::check_price_record(record, "check(price_record)", nullptr, 0);
}

/// The record's price per GPU-hour: `per_gpu` as printed, or `per_instance` ÷ `gpus` (the
/// per-GPU share of an instance; definition). Ranges: as check(price_record). constexpr.
constexpr gpu_price gpu_hour_price(const price_record& record) {
    detail::check_price_record(record, "gpu_hour_price", nullptr, 0);
    return record.basis == price_basis::per_gpu_hour ? record.per_gpu
                                                     : record.per_instance / as_gpus(record.gpus);
}

/// The records of a table that price one GPU, in the table's order: pointers into the table,
/// `count` of them. Iterate with a range-for; `size()` is `count`.
template <std::size_t N>
struct price_list {
    std::array<const price_record*, N> records{};
    std::size_t count = 0;

    constexpr const price_record* const* begin() const { return records.data(); }
    constexpr const price_record* const* end() const { return records.data() + count; }
    constexpr std::size_t size() const { return count; }
};

/// Every record of `table` that prices `gpu` (a record whose GPU has the same name), in table
/// order; none is an empty list. Ranges: gpu not null and named; every record of the table as
/// check(price_record) states, an error naming it "table[i].field". constexpr.
template <std::size_t N>
constexpr price_list<N> prices_for(const price_record (&table)[N], const gpu_spec* gpu) {
    constexpr const char* function = "prices_for";
    detail::require_priced_gpu(function, gpu);
    price_list<N> list{};
    for (std::size_t i = 0; i < N; ++i) {
        detail::check_price_record(table[i], function, "table", i);
        if (table[i].gpu->name == gpu->name) list.records[list.count++] = &table[i];
    }
    return list;
}

/// The newest record of `table` (the latest `read`; the first in table order of equally new
/// ones) that prices `gpu` from `provider` as `kind`, or nullptr when the table has none.
/// Ranges: gpu not null and named; provider and kind one of their enumerators; every record as
/// check(price_record) states, an error naming it "table[i].field". constexpr.
template <std::size_t N>
constexpr const price_record* newest_price(const price_record (&table)[N], const gpu_spec* gpu,
                                           cloud_provider provider,
                                           price_kind kind = price_kind::on_demand) {
    constexpr const char* function = "newest_price";
    detail::require_priced_gpu(function, gpu);
    detail::require_enumerator(function, "provider", provider, cloud_provider_count,
                               "gpucalc::cloud_provider");
    detail::require_enumerator(function, "kind", kind, price_kind_count, "gpucalc::price_kind");
    const price_record* newest = nullptr;
    for (std::size_t i = 0; i < N; ++i) {
        const price_record& r = table[i];
        detail::check_price_record(r, function, "table", i);
        if (r.provider == provider && r.kind == kind && r.gpu->name == gpu->name &&
            (newest == nullptr || newest->read < r.read)) {
            newest = &r;
        }
    }
    return newest;
}

}  // namespace gpucalc
