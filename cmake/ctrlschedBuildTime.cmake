# Build time (docs/decisions.md, "Build time"): CI has 2 cores and builds everything from scratch,
# without ccache. Included last by the top-level CMakeLists.txt, so the targets' own lists stay
# untouched and every build-time setting is here.
#
# Unity builds: most of our compile time is the same headers (nlohmann/json, Catch2, the standard
# library) parsed again in every file, and the same inline templates compiled again in every
# object, twice over for the AddressSanitizer+UBSan twins. CMake concatenates a target's sources
# into batches of CTRLSCHED_UNITY_BATCH files instead. That covers our libraries and the test
# binaries e2e_tests and driver_tests (plain and ASan), whose every file parses Catch2's single
# header and nlohmann/json again (~4 s of CPU each before it compiles a line of its own). The
# sources must therefore not clash when compiled together: no two files of a target may give
# different meanings to one name in an anonymous namespace (or at namespace scope), and no file
# may leave a macro or a using-directive behind that the others do not share. For the tests that
# means: a helper two files need is defined once, in tests/e2e/support/e2e.h or
# tests/unit/driver_test_support.h, and a file's own helper has a name no other file uses.
# Check with -DCTRLSCHED_UNITY_BATCH=0 (one batch per target). The core, localize and in-process
# test binaries are not in the list yet: their files still share helper names (S/W/P, decide,
# kX, site, Output, ...). A file that cannot follow the rule is excluded with
# SKIP_UNITY_BUILD_INCLUSION below. The programs ctrlsched runs are single-file targets and are
# not affected.
option(CTRLSCHED_UNITY "Compile our libraries and test binaries in batches (unity build)" ON)
set(CTRLSCHED_UNITY_BATCH 12 CACHE STRING "Source files per unity batch")

set(_ctrlsched_unity_targets
  ctrlsched_core ctrlsched_core_asan
  ctrlsched_localize ctrlsched_localize_asan
  ctrlsched_driver_lib ctrlsched_driver_lib_asan
  ctrlsched_inprocess ctrlsched_inprocess_asan
  ctrlsched_shim
  e2e_tests driver_tests driver_tests_asan
)
if(CTRLSCHED_UNITY)
  foreach(target IN LISTS _ctrlsched_unity_targets)
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${CTRLSCHED_UNITY_BATCH})
    endif()
  endforeach()
  # HappensBeforeBuilder (a friend of HappensBefore, so not in an anonymous namespace) holds
  # anonymous-namespace types; inside a unity file GCC takes the class for a header's and reports
  # -Wsubobject-linkage. Compiled on its own, as before.
  set_source_files_properties(${PROJECT_SOURCE_DIR}/localize/trace/happens_before.cc
    DIRECTORY ${PROJECT_SOURCE_DIR}/localize PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endif()


# Test code compiles unoptimized, with line tables: its time goes into starting processes and
# into the libraries it calls, which keep -O2. One e2e file took 11.3 s of CPU at -O2 and 6.9 s
# at -O0 (docs/decisions.md, "Build time", fourth round). The sanitized twins are at -O0 already.
set(_ctrlsched_test_code_targets
  core_tests shim_tests localize_tests driver_tests fibers_tests inprocess_tests
  inprocess_gtest_adapter_tests e2e_tests eval_truth_tests
)
foreach(target IN LISTS _ctrlsched_test_code_targets)
  if(TARGET ${target})
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo>:-O0 -g1>)
  endif()
endforeach()
