// hardware/link.hpp: what a link between devices carries: bandwidth each way, its latency per hop
// and per collective, how many GPUs it joins, and the fraction of its bandwidth collectives reach
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "../detail/checks.hpp"
#include "../error.hpp"
#include "../units.hpp"

namespace gpucalc {

/// A point-to-point link. Datasheets print the bidirectional sum (NVLink 4: 900 GB/s); this
/// holds one direction (450 GB/s), the figure a ring collective or a copy actually sees.
/// A collective's latency has two parts (NCCL's model, src/graph/tuning.cc in
/// github.com/NVIDIA/nccl: a base latency per algorithm and protocol plus a hardware latency per
/// step): `latency` is paid on every hop (a ring step, a tree level), `base_latency` once per
/// collective. Ranges (checked wherever a link is used): per_direction 0 or in
/// [1e-30 B/s, 1e30 B/s]; latency and base_latency 0 or in [1e-30 s, 1e6 years]; span 0 or at
/// least 2; collective_efficiency in [1e-30, 1].
struct link_spec {
    std::string_view name{};
    bandwidth per_direction{};  ///< zero means no such link
    /// The per-hop latency: the α of an α-β model, paid once per step of a collective's
    /// algorithm (a ring step, a tree level) and once by a point-to-point message. NCCL's hwLat.
    duration latency{};
    /// How many GPUs the link joins into one domain, within which collectives run over it:
    /// 2 for an NVLink bridge, 8 for the NVSwitches of an HGX board, 72 for a GB200 NVL72 rack.
    /// 0 (the default) for a link that is not a GPU-to-GPU domain (a host link, a NIC) or whose
    /// reach is unknown; such a link is never taken as a node's intra-node link by default.
    std::int64_t span = 0;
    /// The fraction of per_direction that collectives reach: nccl-tests' bus bandwidth
    /// ("busbw", doc/PERFORMANCE.md) over the link's bandwidth, in (0, 1]. 1 (the default) is the
    /// ideal, for a link whose per_direction is already a measured bus bandwidth; the catalog's
    /// links carry published measurements (docs/hardware.md).
    double collective_efficiency = 1.0;
    /// The per-collective latency: launch and synchronisation, paid once by every collective
    /// among two ranks or more whatever its steps (NCCL's baseLat). 0 (the default) is the pure
    /// α-β model, whose every latency is per hop; the catalog's links carry NCCL's figure.
    duration base_latency{};
};

/// Two links are equal when every field is.
constexpr bool operator==(const link_spec& a, const link_spec& b) {
    return a.name == b.name && a.per_direction == b.per_direction && a.latency == b.latency &&
           a.span == b.span &&
           detail::exactly_equal(a.collective_efficiency, b.collective_efficiency) &&
           a.base_latency == b.base_latency;
}
constexpr bool operator!=(const link_spec& a, const link_spec& b) { return !(a == b); }

/// The path a new serving replica reads its weights over (serving/cold_start.hpp's
/// cold_start): the bandwidth of sequential reads, and whether each of the replica's GPUs has
/// its own path at that bandwidth (host memory over each GPU's PCIe link) or the GPUs share one
/// (a drive, a network volume, a NIC). Ranges (checked where used): read in
/// [1e-30 B/s, 1e30 B/s].
struct load_path {
    bandwidth read{};
    bool per_gpu = false;
};

namespace detail {

/// Rejects a link outside the ranges link_spec states, naming its fields under `at`.
GPUCALC_DETAIL_INLINE constexpr void check(const link_spec& link, const field_path& at) {
    require_non_negative_at(at, "per_direction", link.per_direction);
    require_non_negative_at(at, "latency", link.latency);
    if (link.span < 0 || link.span == 1) {
        throw_invalid(at.function, path_text(at, "span").c_str(), static_cast<double>(link.span),
                      "", "must be 0 (not a GPU domain) or >= 2 (a link joins two GPUs or more)");
    }
    require_fraction_at(at, "collective_efficiency", link.collective_efficiency);
    require_non_negative_at(at, "base_latency", link.base_latency);
}

}  // namespace detail

/// A link from the bidirectional aggregate a datasheet prints, with its per-hop `latency` and
/// its per-collective `base_latency` (link_spec's fields). Ranges: both_directions 0 or in
/// [1e-30 B/s, 1e30 B/s]; latency and base_latency 0 or in [1e-30 s, 1e6 years].
constexpr link_spec link_from_bidirectional(std::string_view name, bandwidth both_directions,
                                            duration latency, duration base_latency = {}) {
    detail::require_non_negative("link_from_bidirectional", "both_directions", both_directions);
    detail::require_non_negative("link_from_bidirectional", "latency", latency);
    detail::require_non_negative("link_from_bidirectional", "base_latency", base_latency);
    link_spec l{name, 0.5 * both_directions, latency};
    l.base_latency = base_latency;
    return l;
}

/// The bandwidth collectives reach over `link` in one direction: per_direction ×
/// collective_efficiency. This is the figure nccl-tests reports as bus bandwidth, which its
/// doc/PERFORMANCE.md defines so that it compares with the hardware's peak whatever the number
/// of ranks; a collective's time follows from it with the collective's own factor. Ranges: a
/// link_spec's (its comment above).
constexpr bandwidth bus_bandwidth(const link_spec& link) {
    detail::check(link, detail::field_path{"bus_bandwidth"});
    return link.collective_efficiency * link.per_direction;
}

}  // namespace gpucalc
