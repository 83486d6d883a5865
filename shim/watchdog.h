// Uncontrolled blocking: a thread that blocks in something the shim does not model (a pipe
// read, a raw futex, a socket) would hold the baton forever. A watchdog thread notices the run
// making no progress while the baton holder sleeps in the kernel, and asks that thread (by a
// signal) to give the baton up. The thread does so itself in the signal handler, only if it is
// really sitting in a system call outside the shim, so the engine is never touched by two
// threads at once. The released thread runs uncontrolled until it next enters the shim, where it
// asks to rejoin and waits for the baton. The run finishes and the record says where it happened.
#pragma once

#include <atomic>
#include <cstdint>

#include <ucontext.h>

#include "thread_table.h"

namespace ctrlsched::shim {

extern std::atomic<std::uint32_t> g_rejoin_pending;

void install_release_handler();
void start_watchdog();
// The last controlled thread is exiting: the watchdog ends too, so that (as without ctrlsched)
// the process ends with exit(0) when the last thread is gone.
void stop_watchdog();
// Called by the baton holder: takes back threads that asked to rejoin.
void process_rejoins();
// In a signal handler: the interrupted thread sat in (or right at) a system call.
bool interrupted_in_syscall(const ucontext_t* uc);

}  // namespace ctrlsched::shim
