// hardware/link.hpp: what a link between devices carries: bandwidth each way and start-up
// latency
#pragma once

#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../units.hpp"

namespace gpucalc {

/// A point-to-point link. Datasheets print the bidirectional sum (NVLink 4: 900 GB/s); this
/// holds one direction (450 GB/s), the figure a ring collective or a copy actually sees.
struct link_spec {
    std::string_view name{};
    bandwidth per_direction{};  ///< zero means no such link
    duration latency{};         ///< per-message start-up time (the α of an α-β model)
};

/// Two links are equal when every field is.
constexpr bool operator==(const link_spec& a, const link_spec& b) {
    return a.name == b.name && a.per_direction == b.per_direction && a.latency == b.latency;
}
constexpr bool operator!=(const link_spec& a, const link_spec& b) { return !(a == b); }

/// A link from the bidirectional aggregate a datasheet prints.
constexpr link_spec link_from_bidirectional(std::string_view name, bandwidth both_directions,
                                            duration latency) {
    detail::require_non_negative("link_from_bidirectional", "both_directions", both_directions);
    detail::require_non_negative("link_from_bidirectional", "latency", latency);
    return {name, 0.5 * both_directions, latency};
}

namespace detail {
/// Rejects a link no hardware could have: a negative or non-finite bandwidth or latency.
constexpr void check(const link_spec& link, const char* function, const char* field_bandwidth,
                     const char* field_latency) {
    require_non_negative(function, field_bandwidth, link.per_direction);
    require_non_negative(function, field_latency, link.latency);
}
}  // namespace detail

}  // namespace gpucalc
