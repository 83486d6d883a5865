# ctrlsched_add_test() argument checks (cmake -P; registered as unit.cmake_testing): configures
# tests/package/validation once per case and checks the error message, then checks the test a
# valid call registers. Inputs (-D): TESTING_MODULE, VALIDATION_DIR, WORK_DIR.
cmake_minimum_required(VERSION 3.25)
set(_problems "")

function(configure_case case result output)
  set(_build ${WORK_DIR}/${case})
  file(REMOVE_RECURSE ${_build})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${VALIDATION_DIR} -B ${_build}
                          -DCASE=${case} -DTESTING_MODULE=${TESTING_MODULE}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  set(${result} ${_rc} PARENT_SCOPE)
  set(${output} "${_out}" PARENT_SCOPE)
endfunction()

# <case> <text the error must contain>
function(expect_error case message)
  configure_case(${case} _rc _out)
  string(REGEX REPLACE "[ \n]+" " " _flat "${_out}")  # CMake wraps long messages
  if(_rc EQUAL 0)
    string(APPEND _problems "${case}: configured without error\n")
  elseif(NOT _flat MATCHES "${message}")
    string(APPEND _problems "${case}: error lacks '${message}':\n${_out}\n")
  endif()
  set(_problems "${_problems}" PARENT_SCOPE)
endfunction()

expect_error(missing_name "ctrlsched_add_test: NAME is required")
expect_error(missing_target "ctrlsched_add_test: TARGET is required")
expect_error(missing_seeds "ctrlsched_add_test: SEEDS is required")
expect_error(unknown_target "TARGET 'nowhere' is not a target")
expect_error(bad_strategy "STRATEGY must be portfolio, random, pct, pos or surw, got 'dfs'")
expect_error(bad_seeds "SEEDS must be a positive integer, got 'ten'")
expect_error(depth_with_random "DEPTH applies to STRATEGY pct only")
expect_error(bound_with_pct "PREEMPTION_BOUND applies to STRATEGY random only")
expect_error(stray_argument "unknown arguments: --points;accesses")

configure_case(valid _rc _out)
if(NOT _rc EQUAL 0)
  string(APPEND _problems "valid: configuration failed:\n${_out}\n")
else()
  file(READ ${WORK_DIR}/valid/CTestTestfile.cmake _tests)
  foreach(_expected
      [[add_test([=[ok]=] "/usr/bin/true" "--seeds" "10" "--quiet" "--strategy" "random" "--preemption-bound" "0" "--" "/usr/bin/true")]]
      [[LABELS "ctrlsched;extra" TIMEOUT "61"]]
      [[add_test([=[ok_expected]=] "/usr/bin/true" "--seeds" "10" "--quiet" "--depth" "2" "--" "/usr/bin/true")]]
      [[PASS_REGULAR_EXPRESSION "ctrlsched replay "]]
      [[TIMEOUT "30"]])
    string(FIND "${_tests}" "${_expected}" _at)
    if(_at EQUAL -1)
      string(APPEND _problems "valid: CTestTestfile.cmake lacks ${_expected}:\n${_tests}\n")
    endif()
  endforeach()
endif()

# REPORTS <dir>: the four report options, into <dir> under the binary directory (created), the
# file names from NAME with '/' and ' ' made safe.
configure_case(reports _rc _out)
if(NOT _rc EQUAL 0)
  string(APPEND _problems "reports: configuration failed:\n${_out}\n")
else()
  file(READ ${WORK_DIR}/reports/CTestTestfile.cmake _tests)
  set(_dir ${WORK_DIR}/reports/out)
  set(_expected "\"--quiet\" \"--json\" \"${_dir}/with_reports_1.json\" \"--sarif\" \"${_dir}/with_reports_1.sarif\" \"--junit\" \"${_dir}/with_reports_1.junit.xml\" \"--html\" \"${_dir}/with_reports_1.html\" \"--\"")
  string(FIND "${_tests}" "${_expected}" _at)
  if(_at EQUAL -1)
    string(APPEND _problems "reports: CTestTestfile.cmake lacks ${_expected}:\n${_tests}\n")
  endif()
  if(NOT IS_DIRECTORY ${_dir})
    string(APPEND _problems "reports: ${_dir} was not created\n")
  endif()
endif()

if(_problems)
  message(FATAL_ERROR "ctrlsched_add_test validation:\n${_problems}")
endif()
message(STATUS "ctrlsched_add_test validation: all cases behave")
