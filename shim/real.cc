// Resolves the real libc implementation of an interposed function.
#include "real.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace ctrlsched::shim {

void* resolve_real(const char* name) noexcept {
  void* fn = dlsym(RTLD_NEXT, name);
  if (fn == nullptr) {
    // Without the real function we can neither forward nor model; say which and stop.
    static const char prefix[] = "ctrlsched shim: cannot resolve real ";
    (void)!write(2, prefix, sizeof prefix - 1);
    (void)!write(2, name, std::strlen(name));
    (void)!write(2, "\n", 1);
    std::abort();
  }
  return fn;
}

}  // namespace ctrlsched::shim
