# CMake integration of ctrlsched, for projects that build with CMake (in this tree, and for users
# through find_package(ctrlsched)).
#
#   ctrlsched_instrument(<target>)
#       Builds <target> with the access instrumentation (the ThreadSanitizer compiler pass, whose
#       ABI ctrlsched implements) and links it with the inert hook library, so it still runs
#       natively. -fsanitize=thread goes to the compile line only: linking it would pull in the
#       real TSan runtime.
#
#   ctrlsched_add_test(NAME <name> TARGET <target> [SEEDS <n>] [OPTIONS <ctrlsched options>...]
#                      [ARGS <test arguments>...])
#       Registers a CTest test that runs <target> under ctrlsched for <n> seeds (default 1000);
#       it fails when any seed fails, and its output names the replay command.
include_guard(GLOBAL)

function(ctrlsched_instrument target)
  target_compile_options(${target} PRIVATE -fsanitize=thread
    "$<$<COMPILE_LANG_AND_ID:C,Clang>:SHELL:-mllvm -tsan-compound-read-before-write=1>"
    "$<$<COMPILE_LANG_AND_ID:CXX,Clang>:SHELL:-mllvm -tsan-compound-read-before-write=1>")
  target_link_libraries(${target} PRIVATE ctrlsched::hooks)
endfunction()

function(ctrlsched_add_test)
  cmake_parse_arguments(ARG "" "NAME;TARGET;SEEDS" "OPTIONS;ARGS" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_TARGET)
    message(FATAL_ERROR "ctrlsched_add_test: NAME and TARGET are required")
  endif()
  if(NOT ARG_SEEDS)
    set(ARG_SEEDS 1000)
  endif()
  add_test(NAME ${ARG_NAME}
    COMMAND $<TARGET_FILE:ctrlsched::ctrlsched> --seeds ${ARG_SEEDS} ${ARG_OPTIONS}
            -- $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS})
endfunction()
