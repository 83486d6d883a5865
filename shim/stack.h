// Code locations for reports, as "module+0xoffset" text that the driver symbolizes later
// (symbolizing inside the test would be slow and unsafe in a crash handler).
#pragma once

#include <cstdint>

#include "ctrlsched/run_record.h"

namespace ctrlsched::shim {

// Snapshot of the loaded modules (path, address ranges); refreshed after dlopen.
void refresh_module_table();
// Async-signal-safe: formats pc as "module+0xoffset" using the snapshot.
void format_location(Frame& out, std::uintptr_t pc);
// Captures the calling thread's stack, leaving out the shim's own frames. Not for signal handlers.
void capture_stack(Stack& out);
// True if pc lies in the shim library.
bool in_shim(std::uintptr_t pc);

}  // namespace ctrlsched::shim
