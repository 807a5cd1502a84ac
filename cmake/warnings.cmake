# The warning set every header must pass cleanly (see DEVELOPERS.md, "Standards").
set(GPUCALC_WARNINGS -Wall -Wextra -Wpedantic -Wconversion -Werror)

# Applies the warning set to one of gpucalc's own test, bench or example targets.
function(gpucalc_warnings target)
  target_compile_options(${target} PRIVATE ${GPUCALC_WARNINGS})
endfunction()
