// The one pointer the inert TSan-ABI hooks (libctrlsched_hooks) check: while the in-process
// engine explores, it points at the engine's handlers, so instrumented code run inside
// ctrlsched::explore gets scheduling points at its accesses. Null otherwise (the hooks then cost
// one load and one predictable branch). Under the LD_PRELOAD shim the shim's own hook
// definitions win and this pointer is never read.
#pragma once

#include <cstdint>

extern "C" {

struct ctrlsched_hook_dispatch {
  void (*access)(std::uintptr_t address, unsigned size, int kind, std::uintptr_t pc);
  void (*atomic)(std::uintptr_t address, unsigned size, int kind, std::uintptr_t pc);
};

// Defined in libctrlsched_hooks; set and cleared only by the thread running an explore.
extern const ctrlsched_hook_dispatch* ctrlsched_hooks_dispatch;

}
