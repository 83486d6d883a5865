# The torture corpus (tests/torture/README.md): realistic small programs, built like the e2e
# programs and registered in e2e_binaries.inc as kind "torture" (name = file name without the
# extension). Included by tests/e2e/CMakeLists.txt, which defines e2e_program_flags().
set(TORTURE_PROGRAMS
  # must pass every seed
  pass/work_queue_detached.c pass/thousand_threads.c pass/signal_thread.c pass/tls_destructors.c
  pass/thread_local_cache.cpp pass/fork_popen.c pass/blocking_pipe.c pass/timed_waits.c
  pass/async_futures.cpp pass/c11_pipeline.c pass/big_output.c
  # must fail, one program per failure kind
  fail/bank_audit.c fail/late_config.c fail/reload_exit.c fail/swap_deadlock.c
  fail/polite_livelock.c fail/endless_retry.c fail/uncaught_exception.cpp
  # expects an empty working directory (the --private-cwd test, tests/e2e/private_cwd_test.cc)
  cwd/fresh_directory.c
  # exits 6 normally, crashes on some interleavings (the --pass-exit-codes test)
  exit/normally_six.c
)
set(TORTURE_DIR ${CMAKE_CURRENT_BINARY_DIR}/torture)
foreach(src IN LISTS TORTURE_PROGRAMS)
  get_filename_component(name ${src} NAME_WE)
  add_executable(torture_${name} ${PROJECT_SOURCE_DIR}/tests/torture/${src})
  e2e_program_flags(torture_${name})
  set_target_properties(torture_${name} PROPERTIES OUTPUT_NAME ${name} RUNTIME_OUTPUT_DIRECTORY ${TORTURE_DIR})
  list(APPEND E2E_RUN_TARGETS torture_${name})
  string(APPEND E2E_BINARY_LINES "E2E_BINARY(\"torture\", \"${name}\", \"$<TARGET_FILE:torture_${name}>\")\n")
endforeach()
