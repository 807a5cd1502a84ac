# Fails unless the README's ```cpp block is exactly docs/examples/readme.cpp, the example ctest
# builds and runs; so the README's snippet cannot rot.
# Usage: cmake -DREADME=... -DEXAMPLE=... -P check_readme_snippet.cmake
file(READ ${README} readme)
string(FIND "${readme}" "```cpp\n" begin)
if(begin EQUAL -1)
  message(FATAL_ERROR "${README} has no ```cpp block")
endif()
math(EXPR begin "${begin} + 7")
string(SUBSTRING "${readme}" ${begin} -1 rest)
string(FIND "${rest}" "```\n" end)
string(SUBSTRING "${rest}" 0 ${end} snippet)
file(READ ${EXAMPLE} example)
if(NOT snippet STREQUAL example)
  message(FATAL_ERROR "the README's C++ snippet differs from ${EXAMPLE}")
endif()
