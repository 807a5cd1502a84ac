// cost/energy.hpp: the energy, carbon and rack power a job or a deployment needs
#pragma once

#include <cstdint>

#include "../detail/checks.hpp"
#include "../units.hpp"

namespace gpucalc {

/// Power usage effectiveness planned by default: Cottier et al. 2024 ("The rising costs of
/// training frontier AI models", App. A.4) take 1.1 for hyperscalers' data centers and 1.25
/// elsewhere; the industry at large averages 1.58 (Uptime Institute Global Data Center Survey
/// 2023). Uncertain; 1.25 planned.
inline constexpr double default_pue = 1.25;

namespace detail {
/// A PUE in [1, 1e6]: at least 1 by definition, and at most 1e6, far past any facility's (the
/// bound of every plain ratio a cost input may be; see prices.hpp), so energy stays finite.
constexpr void require_pue(const char* function, double pue) {
    if (!(pue >= 1.0 && pue <= 1e6)) {
        throw_invalid(function, "pue", pue, "",
                      pue > 1e6 ? "must be at most 1e6" : "must be finite and >= 1");
    }
}
}  // namespace detail

// Ranges: every quantity lies in its dimension's range (docs/units.md, "Input ranges").

/// Facility energy of a job: IT power × duration × PUE (The Green Grid's PUE: facility energy
/// ÷ IT energy). Ranges: it_power and time 0 or in their ranges; pue in [1, 1e6]; and the
/// answer 0 or in [1e-30, 1e30] J, an energy emissions takes (a tiny power for a tiny time, or
/// the largest for a million years, leaves it).
constexpr energy job_energy(power it_power, duration time, double pue = default_pue) {
    detail::require_non_negative("job_energy", "it_power", it_power);
    detail::require_non_negative("job_energy", "time", time);
    detail::require_pue("job_energy", pue);
    const energy used = pue * it_power * time;
    detail::require_non_negative("job_energy", "pue * it_power * time", used);  // passed on
    return used;
}

/// CO₂-equivalent emitted for `used` energy at a grid's carbon intensity (g/kWh).
constexpr co2_mass emissions(energy used, grid_intensity grid) {
    detail::require_non_negative("emissions", "used", used);
    detail::require_non_negative("emissions", "grid", grid);
    return used * grid;
}

/// Rack density: servers × power per server, against the cooling a rack's air flow can remove.
struct rack_density {
    power per_rack{};
    bool needs_liquid_cooling = false;  ///< above the air-cooling limit
};

/// The air-cooling limit per rack. Uncertain: a practitioners' rule of thumb, not a standard,
/// puts it at about 50 kW (roughly 7,900 CFM of air at a 20 °F rise, by the HVAC sensible-heat
/// relation Q = 1.08 · CFM · ΔT) before liquid cooling is needed; direct-to-chip liquid carries
/// NVIDIA's GB200 NVL72 rack at ~120–132 kW (datasheet revisions differ).
inline constexpr power default_air_cooling_limit = make<kilowatts>(50.0);

/// Ranges: servers_per_rack in [1, 2^40]; per_server 0 or in its range; air_cooling_limit
/// positive, in its range; and the rack's power, servers_per_rack × per_server, at most
/// 1e15 W, a power job_energy and an ownership take.
constexpr rack_density rack_power(std::int64_t servers_per_rack, power per_server,
                                  power air_cooling_limit = default_air_cooling_limit) {
    detail::require_count("rack_power", "servers_per_rack", servers_per_rack);
    detail::require_non_negative("rack_power", "per_server", per_server);
    detail::require_positive("rack_power", "air_cooling_limit", air_cooling_limit);
    rack_density r{};
    r.per_rack = static_cast<double>(servers_per_rack) * per_server;
    detail::require_non_negative("rack_power", "servers_per_rack * per_server",  // passed on
                                 r.per_rack);
    r.needs_liquid_cooling = r.per_rack > air_cooling_limit;
    return r;
}

}  // namespace gpucalc
