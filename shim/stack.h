// Code locations for reports, as "module+0xoffset" text that the driver symbolizes later
// (symbolizing inside the test would be slow and unsafe in a crash handler).
#pragma once

#include <cstdint>

#include "ctrlsched/run_record.h"

namespace ctrlsched::shim {

// Snapshot of the loaded modules (path, address ranges); refreshed after dlopen. Also copied
// into `record` (if not null) so the driver can symbolize after the process is gone.
void refresh_module_table(RunRecord* record);
// The two halves of refresh_module_table: the snapshot (taken once before the fork server's
// snapshot, the same for every run) and its copy into a run's record.
void scan_modules();
void publish_module_table(RunRecord* record);
// pc as a module-relative site (trace_format.h); 0 if no module contains it. Cheap when pcs
// come from the same module as the previous call.
std::uint64_t site_of(std::uintptr_t pc);
// Async-signal-safe: formats pc as "module+0xoffset" using the snapshot.
void format_location(Frame& out, std::uintptr_t pc);
// Captures the calling thread's stack, leaving out the shim's own frames.
// `interrupted_pc` (a fatal-signal handler's): the stack starts at that frame, taken as it is (it
// is where the fault happened, not a return address), without the handler's frames and the
// signal trampoline above it; if the unwinder did not reach it, every frame is kept.
void capture_stack(Stack& out, std::uintptr_t interrupted_pc = 0);
// Loads the unwinder (glibc's backtrace dlopens libgcc_s on first use) while that is safe, so the
// fatal-signal handler can capture a stack without allocating.
void warm_up_unwinder();
// True if pc lies in the shim library.
bool in_shim(std::uintptr_t pc);
// Async-signal-safe: true if pc lies in libc, the dynamic loader or libgcc_s, whose code may hold
// their own internal locks (malloc's, the loader's): a thread is never preempted there.
bool in_runtime_library(std::uintptr_t pc);

}  // namespace ctrlsched::shim
