# Fails unless the first ```cpp block of a page (README or docs/) is exactly EXAMPLE, a file ctest
# builds and runs; so the page's snippet cannot rot.
# Usage: cmake -DPAGE=... -DEXAMPLE=... -P check_doc_snippet.cmake
file(READ ${PAGE} page)
string(FIND "${page}" "```cpp\n" begin)
if(begin EQUAL -1)
  message(FATAL_ERROR "${PAGE} has no ```cpp block")
endif()
math(EXPR begin "${begin} + 7")
string(SUBSTRING "${page}" ${begin} -1 rest)
string(FIND "${rest}" "```\n" end)
string(SUBSTRING "${rest}" 0 ${end} snippet)
file(READ ${EXAMPLE} example)
if(NOT snippet STREQUAL example)
  message(FATAL_ERROR "the first C++ block of ${PAGE} differs from ${EXAMPLE}")
endif()
