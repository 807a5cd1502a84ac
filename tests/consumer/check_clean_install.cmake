# Installs a consumer that vendors gpucalc (add_subdirectory or FetchContent) and fails if any
# gpucalc file lands in its prefix: gpucalc's install rules are on only when it is the top-level
# project. The consumer installs its own program, so an empty prefix (an install that did
# nothing) fails too rather than passing by accident.
# Usage: cmake -DBUILD_DIR=... -DPREFIX=... -P check_clean_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install of the vendoring consumer failed:\n${output}")
endif()
file(GLOB_RECURSE installed RELATIVE ${PREFIX} ${PREFIX}/*)
if(NOT installed)
  message(FATAL_ERROR "the vendoring consumer's install put nothing in ${PREFIX}, not even its "
                      "own program")
endif()
list(FILTER installed INCLUDE REGEX "gpucalc")
if(installed)
  message(FATAL_ERROR "a vendoring project's install put gpucalc files in its prefix: ${installed}")
endif()
message(STATUS "no gpucalc file in ${PREFIX}")
