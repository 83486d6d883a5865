# End-to-end test of the installed package (cmake -P; registered as e2e.package):
#   1. cmake --install the ctrlsched build tree into a fresh prefix;
#   2. configure and build tests/package/consumer against that prefix with Ninja;
#   3. run each consumer test with ctest and check the expected outcome.
# Inputs (-D): BUILD_DIR (the ctrlsched build tree), CONSUMER_DIR, WORK_DIR (scratch, wiped),
# C_COMPILER, CXX_COMPILER, MAKE_PROGRAM (ninja).
cmake_minimum_required(VERSION 3.25)
foreach(_input BUILD_DIR CONSUMER_DIR WORK_DIR C_COMPILER CXX_COMPILER MAKE_PROGRAM)
  if(NOT DEFINED ${_input})
    message(FATAL_ERROR "run_package_test.cmake: -D${_input}=... is required")
  endif()
endforeach()

set(_prefix ${WORK_DIR}/prefix)
set(_consumer_build ${WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${_rc}):\n${_out}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${_prefix})
run_step("configure consumer"
  ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${_consumer_build} -G Ninja
  -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
  -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DCMAKE_PREFIX_PATH=${_prefix} -DEXPECTED_PREFIX=${_prefix})
run_step("build consumer" ${CMAKE_COMMAND} --build ${_consumer_build})

# <test> <expected: pass|fail> [text the output must contain]
set(_problems "")
function(expect test expected)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${_consumer_build} -R "^${test}$"
                          --output-on-failure --no-tests=error
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(_rc EQUAL 0)
    set(_outcome pass)
  else()
    set(_outcome fail)
  endif()
  if(NOT _outcome STREQUAL expected)
    string(APPEND _problems "${test}: expected ${expected}, got ${_outcome}:\n${_out}\n")
  elseif(ARGC GREATER 2 AND NOT _out MATCHES "${ARGV2}")
    string(APPEND _problems "${test}: output lacks '${ARGV2}':\n${_out}\n")
  else()
    message(STATUS "${test}: ${_outcome} as expected")
  endif()
  set(_problems "${_problems}" PARENT_SCOPE)
endfunction()

expect(consumer.locked pass)
# The failure reaches the user as ctrlsched's report, with a replay command on the installed
# binary path.
expect(consumer.racy fail "ctrlsched replay [0-9]+:pct:d2:k[0-9]+@[0-9a-f]+ [^\n]*racy_counter")
expect(consumer.racy_expected pass)
expect(consumer.fibers pass)
# In-process tests link the installed libctrlsched_inprocess.so, which needs libctrlsched_hooks.so
# from the same prefix: the binary must start without LD_LIBRARY_PATH, and its failure must print
# a replay command on one line.
expect(consumer.inprocess pass)
expect(consumer.inprocess_racy fail "replay: CTRLSCHED_REPLAY='[^'\n]+' [^\n]*inprocess_counter_test")

if(_problems)
  message(FATAL_ERROR "installed-package test failed:\n${_problems}")
endif()
