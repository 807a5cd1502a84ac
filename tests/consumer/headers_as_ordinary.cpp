// gpucalc's public headers seen as ordinary headers (-I, not -isystem), so a strict consumer's
// warnings (-Wfloat-equal; Clang's -Wweak-vtables) apply to them: the umbrella, which includes
// every module and format.hpp, and testing.hpp.
#include <gpucalc/gpucalc.hpp>
#include <gpucalc/testing.hpp>
