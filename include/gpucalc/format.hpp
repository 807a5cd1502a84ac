// format.hpp: stream manipulators that choose how the quantities after them print:
//   os << gpucalc::significant_figures(5) << q;    // 5 digits instead of 3
//   os << gpucalc::decimal_bytes << size;          // 85.9 GB instead of 80 GiB
// Opt-in, because it needs <ostream>: module headers never include it; the umbrella gpucalc.hpp
// does. Printing itself (operator<<, to_string, format_options) comes with units.hpp.
#pragma once

#include <ostream>

#include "units.hpp"

namespace gpucalc {

/// The value `significant_figures(n)` returns; streaming it sets the digits kept.
struct significant_figures_manipulator {
    int digits;
};

/// Stream manipulator: `os << gpucalc::significant_figures(5) << q` prints q with 5 digits.
inline significant_figures_manipulator significant_figures(int digits) { return {digits}; }

inline std::ostream& operator<<(std::ostream& os, significant_figures_manipulator m) {
    os.iword(detail::significant_figures_slot<std::ostream>()) = m.digits;
    return os;
}

/// Stream manipulators that choose byte prefixes for the sizes that follow.
inline std::ostream& decimal_bytes(std::ostream& os) {
    os.iword(detail::byte_prefix_slot<std::ostream>()) = 1;
    return os;
}
inline std::ostream& binary_bytes(std::ostream& os) {
    os.iword(detail::byte_prefix_slot<std::ostream>()) = 0;
    return os;
}

}  // namespace gpucalc
