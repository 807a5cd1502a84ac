# The warning set every header must pass cleanly: gpucalc's own tests, benchmarks and examples
# build with it, so a warning a header triggers fails the build.
set(GPUCALC_WARNINGS -Wall -Wextra -Wpedantic -Wconversion -Werror)

# Applies the warning set to one of gpucalc's own test, bench or example targets.
function(gpucalc_warnings target)
  target_compile_options(${target} PRIVATE ${GPUCALC_WARNINGS})
endfunction()
