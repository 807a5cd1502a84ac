// version.hpp: which gpucalc release these headers are
#pragma once

#define GPUCALC_VERSION_MAJOR 0
#define GPUCALC_VERSION_MINOR 2
#define GPUCALC_VERSION_PATCH 0

namespace gpucalc {
/// The release, as "major.minor.patch"; CMake's project(VERSION) carries the same number.
inline constexpr const char* version = "0.2.0";
}  // namespace gpucalc
