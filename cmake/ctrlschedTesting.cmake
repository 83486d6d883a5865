# CTest integration of ctrlsched (in this tree, and for users through find_package(ctrlsched)).
# Documented in docs/cmake-integration.md.
#
#   ctrlsched_add_test(NAME <name> TARGET <target> SEEDS <n>
#                      [STRATEGY portfolio|random|pct|pos|surw] [DEPTH <d>] [PREEMPTION_BOUND <k>]
#                      [TIMEOUT <seconds>] [RUN_TIMEOUT <seconds>] [EXPECT_FAILURE]
#                      [REPORTS <dir>]
#                      [OPTIONS <ctrlsched options>...] [ARGS <test arguments>...]
#                      [LABELS <labels>...])
#
# Registers the CTest test <name>, which runs
#   ctrlsched --seeds <n> --quiet [--strategy ..] [--depth ..] [--preemption-bound ..]
#             [--timeout <RUN_TIMEOUT>] [OPTIONS...] -- $<TARGET_FILE:<target>> [ARGS...]
# ctrlsched exits non-zero when a seed fails, so the test fails, and with --quiet its output is
# just the failures with their `ctrlsched replay <handle> ...` lines (ctest --output-on-failure).
#   TIMEOUT         CTest's limit for the whole test; default 60 + <n>/10 seconds.
#   RUN_TIMEOUT     ctrlsched's wall-clock limit per run (--timeout; ctrlsched's default: 10 s).
#   EXPECT_FAILURE  the test passes when some seed fails (for known-buggy programs): ctrlsched
#                   must print a replay command and no error line, whatever its exit code.
#   REPORTS         also write the reports of every run of the test into <dir> (relative: to the
#                   current binary directory; created at configure time): <name>.json (--json),
#                   <name>.sarif (--sarif), <name>.junit.xml (--junit) and <name>.html (--html), where <name> is NAME
#                   with every character but letters, digits, '.', '_' and '-' replaced by '_'.
# The test carries the label `ctrlsched` plus LABELS.
include_guard(GLOBAL)

function(ctrlsched_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "EXPECT_FAILURE"
    "NAME;TARGET;SEEDS;STRATEGY;DEPTH;PREEMPTION_BOUND;TIMEOUT;RUN_TIMEOUT;REPORTS" "OPTIONS;ARGS;LABELS")
  set(_fn "ctrlsched_add_test")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS} "
                        "(test arguments go after ARGS, ctrlsched options after OPTIONS)")
  endif()
  foreach(_required NAME TARGET SEEDS)
    if(NOT DEFINED ARG_${_required} OR ARG_${_required} STREQUAL "")
      message(FATAL_ERROR "${_fn}: ${_required} is required "
        "(usage: ${_fn}(NAME <name> TARGET <target> SEEDS <n> ...))")
    endif()
  endforeach()
  if(NOT TARGET ${ARG_TARGET})
    message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): TARGET '${ARG_TARGET}' is not a target "
                        "(define the executable before registering its test)")
  endif()
  if(NOT TARGET ctrlsched::ctrlsched)
    message(FATAL_ERROR "${_fn}: the ctrlsched::ctrlsched command target does not exist "
                        "(call find_package(ctrlsched REQUIRED) first)")
  endif()
  foreach(_number SEEDS DEPTH TIMEOUT RUN_TIMEOUT)
    if(DEFINED ARG_${_number} AND NOT ARG_${_number} MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): ${_number} must be a positive integer, "
                          "got '${ARG_${_number}}'")
    endif()
  endforeach()
  if(DEFINED ARG_PREEMPTION_BOUND AND NOT ARG_PREEMPTION_BOUND MATCHES "^(0|[1-9][0-9]*)$")
    message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): PREEMPTION_BOUND must be an integer >= 0, "
                        "got '${ARG_PREEMPTION_BOUND}'")
  endif()

  # ctrlsched's default is the portfolio; DEPTH and PREEMPTION_BOUND belong to one strategy each
  # and, without STRATEGY, select it (as on ctrlsched's command line).
  set(_strategy portfolio)
  if(DEFINED ARG_DEPTH)
    set(_strategy pct)
  elseif(DEFINED ARG_PREEMPTION_BOUND)
    set(_strategy random)
  endif()
  if(DEFINED ARG_STRATEGY)
    if(NOT ARG_STRATEGY MATCHES "^(portfolio|random|pct|pos|surw)$")
      message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): STRATEGY must be portfolio, random, pct, pos or surw, "
                          "got '${ARG_STRATEGY}'")
    endif()
    set(_strategy ${ARG_STRATEGY})
  endif()
  if(DEFINED ARG_DEPTH AND NOT _strategy STREQUAL "pct")
    message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): DEPTH applies to STRATEGY pct only")
  endif()
  if(DEFINED ARG_PREEMPTION_BOUND AND NOT _strategy STREQUAL "random")
    message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): PREEMPTION_BOUND applies to STRATEGY random only")
  endif()

  set(_options --seeds ${ARG_SEEDS} --quiet)
  if(DEFINED ARG_STRATEGY)
    list(APPEND _options --strategy ${ARG_STRATEGY})
  endif()
  if(DEFINED ARG_DEPTH)
    list(APPEND _options --depth ${ARG_DEPTH})
  endif()
  if(DEFINED ARG_PREEMPTION_BOUND)
    list(APPEND _options --preemption-bound ${ARG_PREEMPTION_BOUND})
  endif()
  if(DEFINED ARG_RUN_TIMEOUT)
    list(APPEND _options --timeout ${ARG_RUN_TIMEOUT})
  endif()
  if(DEFINED ARG_REPORTS)
    if(ARG_REPORTS STREQUAL "")
      message(FATAL_ERROR "${_fn}(NAME ${ARG_NAME}): REPORTS needs a directory")
    endif()
    cmake_path(ABSOLUTE_PATH ARG_REPORTS BASE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} NORMALIZE
               OUTPUT_VARIABLE _reports_dir)
    file(MAKE_DIRECTORY ${_reports_dir})
    string(REGEX REPLACE "[^A-Za-z0-9._-]" "_" _report_name "${ARG_NAME}")
    list(APPEND _options --json ${_reports_dir}/${_report_name}.json
                         --sarif ${_reports_dir}/${_report_name}.sarif
                         --junit ${_reports_dir}/${_report_name}.junit.xml
                         --html ${_reports_dir}/${_report_name}.html)
  endif()
  add_test(NAME ${ARG_NAME}
    COMMAND $<TARGET_FILE:ctrlsched::ctrlsched> ${_options} ${ARG_OPTIONS} -- $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS})

  # A run takes milliseconds; 100 ms per seed and a minute of margin leave room for slow
  # machines, ctest -j and PCT's calibration run without letting a hang block CI for long.
  if(DEFINED ARG_TIMEOUT)
    set(_timeout ${ARG_TIMEOUT})
  else()
    math(EXPR _timeout "60 + ${ARG_SEEDS} / 10")
  endif()
  set(_labels ctrlsched ${ARG_LABELS})
  set_tests_properties(${ARG_NAME} PROPERTIES TIMEOUT ${_timeout} LABELS "${_labels}")
  if(ARG_EXPECT_FAILURE)
    # With a pass expression CTest ignores the exit code, so the failure is recognised by what
    # ctrlsched prints for it; error lines (exit codes 2-6) still fail the test.
    set_tests_properties(${ARG_NAME} PROPERTIES
      PASS_REGULAR_EXPRESSION "ctrlsched replay "
      FAIL_REGULAR_EXPRESSION "(^|\n)ctrlsched: ")
  endif()
endfunction()
