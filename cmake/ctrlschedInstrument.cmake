# CMake integration of ctrlsched, for projects that build with CMake (in this tree, and for users
# through find_package(ctrlsched)).
#
#   ctrlsched_instrument(<target>)
#       Builds <target> with the access instrumentation (the ThreadSanitizer compiler pass, whose
#       ABI ctrlsched implements) and links it with the inert hook library, so it still runs
#       natively. -fsanitize=thread goes to the compile line only: linking it would pull in the
#       real TSan runtime.
#
# ctrlsched_add_test() (CTest registration) lives in ctrlschedTesting.cmake.
include_guard(GLOBAL)

function(ctrlsched_instrument target)
  target_compile_options(${target} PRIVATE -fsanitize=thread
    "$<$<COMPILE_LANG_AND_ID:C,Clang>:SHELL:-mllvm -tsan-compound-read-before-write=1>"
    "$<$<COMPILE_LANG_AND_ID:CXX,Clang>:SHELL:-mllvm -tsan-compound-read-before-write=1>")
  target_link_libraries(${target} PRIVATE ctrlsched::hooks)
endfunction()
