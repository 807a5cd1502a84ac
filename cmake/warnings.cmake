# The warning set every header must pass cleanly: gpucalc's own tests, benchmarks and examples
# build with it, so a warning a header triggers shows in gpucalc's own build.
set(GPUCALC_WARNINGS -Wall -Wextra -Wpedantic -Wconversion)

# Warnings fail the build only where that is wanted: CI and every preset turn this on. A user's
# plain build (`cmake -B build && cmake --build build`) leaves it off, so a compiler's false
# positive (a newer GCC's, say) prints a warning there instead of stopping the build.
option(GPUCALC_WARNINGS_AS_ERRORS
       "Make warnings in gpucalc's own tests, benchmarks and examples errors (-Werror)" OFF)
if(GPUCALC_WARNINGS_AS_ERRORS)
  list(APPEND GPUCALC_WARNINGS -Werror)
endif()

# Applies the warning set to one of gpucalc's own test, bench or example targets.
function(gpucalc_warnings target)
  target_compile_options(${target} PRIVATE ${GPUCALC_WARNINGS})
endfunction()
