# Runs PROGRAM and fails unless its standard output equals the file EXPECTED byte for byte.
# Usage: cmake -DPROGRAM=... -DEXPECTED=... -P compare_output.cmake
execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE actual RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}")
endif()
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  get_filename_component(name ${EXPECTED} NAME)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}.actual "${actual}")
  message(FATAL_ERROR "output differs from ${EXPECTED}; actual output written to "
                      "${CMAKE_CURRENT_BINARY_DIR}/${name}.actual\n--- actual ---\n${actual}")
endif()
