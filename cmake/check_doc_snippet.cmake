# Fails unless a page (README or docs/) contains each named example verbatim: the example's
# source as a ```cpp block and, with WITH_OUTPUT, followed by "It prints:" and its checked-in
# output as a ```text block. ctest builds and runs the examples and compares their outputs, so a
# page's snippets and their printed results cannot drift from code that runs.
# Usage: cmake -DPAGE=... -DEXAMPLE_DIR=... -DEXAMPLES="a;b" [-DWITH_OUTPUT=ON] -P check_doc_snippet.cmake
file(READ ${PAGE} page)
foreach(stem IN LISTS EXAMPLES)
  file(READ ${EXAMPLE_DIR}/${stem}.cpp source)
  set(expected "```cpp\n${source}```\n")
  if(WITH_OUTPUT)
    file(READ ${EXAMPLE_DIR}/${stem}.output output)
    string(APPEND expected "\nIt prints:\n\n```text\n${output}```\n")
  endif()
  string(FIND "${page}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${PAGE} does not show ${stem}.cpp (and its output) exactly as the files "
                        "in ${EXAMPLE_DIR} are")
  endif()
endforeach()
