// A user's program: it needs only gpucalc's package and Boost's headers.
#include <gpucalc/gpucalc.hpp>

#include <iostream>

int main() {
    using namespace gpucalc::literals;
    const gpucalc::data_size weights = 40.0_GiB;
    const gpucalc::data_size capacity = 80.0_GiB;
    std::cout << capacity << (weights <= capacity ? " fits " : " does not fit ") << weights << "\n";
    return weights <= capacity ? 0 : 1;
}
