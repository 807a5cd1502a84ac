// version_static.cpp: version.hpp names the release CMake's project(VERSION) declares.
#include <gpucalc/version.hpp>

#include <string_view>

namespace {
static_assert(GPUCALC_VERSION_MAJOR == GPUCALC_PROJECT_VERSION_MAJOR, "major version");
static_assert(GPUCALC_VERSION_MINOR == GPUCALC_PROJECT_VERSION_MINOR, "minor version");
static_assert(GPUCALC_VERSION_PATCH == GPUCALC_PROJECT_VERSION_PATCH, "patch version");

#define GPUCALC_TEST_TEXT(x) #x
#define GPUCALC_TEST_VERSION_TEXT(a, b, c) GPUCALC_TEST_TEXT(a) "." GPUCALC_TEST_TEXT(b) "." GPUCALC_TEST_TEXT(c)
static_assert(std::string_view(gpucalc::version) ==
                  GPUCALC_TEST_VERSION_TEXT(GPUCALC_PROJECT_VERSION_MAJOR, GPUCALC_PROJECT_VERSION_MINOR,
                                            GPUCALC_PROJECT_VERSION_PATCH),
              "gpucalc::version spells the same release");
}  // namespace
