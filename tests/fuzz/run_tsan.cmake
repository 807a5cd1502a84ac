# run_tsan.cmake: runs a ThreadSanitizer binary for ctest, robust to the kernel's address-space
# randomization. TSan in LLVM before 18 (Debian 12 ships Clang 14) maps its shadow memory at
# fixed addresses, and on kernels that randomize mmap with more than 28 bits (vm.mmap_rnd_bits
# = 32, the default of many 6.x kernels) a mapping can land on them: the binary then dies at
# start with "FATAL: ThreadSanitizer: unexpected memory mapping" before running a line of
# ours. LLVM 18 re-executes itself with randomization off in that case; here the same is done
# by hand: the binary is run again under `setarch -R` (personality ADDR_NO_RANDOMIZE), which
# needs no privilege. Any other failure, a TSan report included, is the test's failure.
#   cmake -DBINARY=path [-DARGS=a;b] -P run_tsan.cmake
if(NOT BINARY)
  message(FATAL_ERROR "run_tsan.cmake: BINARY is not set")
endif()

function(run_once prefix)
  execute_process(COMMAND ${prefix} ${BINARY} ${ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)
  set(rc "${rc}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

run_once("")
set(shadow_failure "unexpected memory mapping|failed to allocate|ThreadSanitizer: (CHECK failed|FATAL)")
if(NOT rc EQUAL 0 AND err MATCHES "${shadow_failure}")
  find_program(SETARCH setarch)
  if(NOT SETARCH)
    message(FATAL_ERROR "ThreadSanitizer could not map its shadow memory, and setarch (util-linux) "
                        "is not installed to rerun it without address randomization; or run "
                        "`sudo sysctl vm.mmap_rnd_bits=28`")
  endif()
  message(STATUS "ThreadSanitizer could not map its shadow memory at this address layout; "
                 "running again with address randomization off (setarch -R)")
  run_once("${SETARCH};${CMAKE_HOST_SYSTEM_PROCESSOR};-R")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BINARY} failed (exit ${rc})")
endif()
