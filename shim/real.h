// Access to the real (next-in-chain) libc functions we interpose.
//
// The shim forwards to the real implementation whenever it is not in control: before it has
// initialized, in processes it does not own (fork children, programs the test spawns), and for
// threads it did not create. Symbols are resolved lazily with dlsym(RTLD_NEXT) and cached.
#pragma once

#include <dlfcn.h>

namespace ctrlsched::shim {

void* resolve_real(const char* name) noexcept;

}  // namespace ctrlsched::shim

// REAL(fn) evaluates to a pointer to the real `fn`, with fn's own type.
#define REAL(fn)                                                                        \
  ([]() noexcept {                                                                      \
    static decltype(&::fn) real_ptr = nullptr;                                          \
    if (__builtin_expect(real_ptr == nullptr, 0))                                       \
      real_ptr = reinterpret_cast<decltype(&::fn)>(::ctrlsched::shim::resolve_real(#fn)); \
    return real_ptr;                                                                    \
  }())
