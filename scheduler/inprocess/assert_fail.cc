// assert() inside explore: glibc's assert calls __assert_fail, which this library defines (it
// comes before libc in the link order). Inside an explore run the failure ends the run, reported
// with its seed; the thread's stack is parked, not unwound (the caller's frame is noexcept).
// Anywhere else it forwards to glibc's own __assert_fail (message, abort).
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "engine.h"

extern "C" __attribute__((visibility("default"), noreturn)) void __assert_fail(
    const char* assertion, const char* file, unsigned int line, const char* function) {
  using ctrlsched::detail::tls_engine;
  if (ctrlsched::in_explore()) {
    tls_engine->abandon_for_assert("T" + std::to_string(tls_engine->current()->id) + ": " + file + ":" +
                                   std::to_string(line) + ": " + (function ? function : "?") +
                                   ": Assertion `" + assertion + "' failed.");
  }
  using AssertFail = void (*)(const char*, const char*, unsigned int, const char*);
  auto real = reinterpret_cast<AssertFail>(dlsym(RTLD_NEXT, "__assert_fail"));
  if (real) real(assertion, file, line, function);
  std::abort();
}
