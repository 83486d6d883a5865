// What the shim does at an instrumented access or atomic (hooks in tsan_abi.inc).
//
// Fast path first: an access by a thread the shim does not control, or to thread-local memory,
// or with neither access points nor collectors active, returns after a few loads and compares,
// with no system call and no allocation (thread state is initial-exec TLS).
//
// Thread-local filtering: the compiler already leaves out locals whose address never escapes.
// Of the rest, accesses to the thread's static TLS block, and to its own stack until it creates
// a thread (from then on it may have handed out pointers into its stack, as a test's main()
// often does), are neither scheduling points nor trace events.
#pragma once

#include <cstdint>

#include "../collectors.h"
#include "../engine.h"
#include "../runtime.h"

namespace ctrlsched::shim {

// `spin_yield`: the caller already found that this read continues a spin-wait streak.
void access_slow(Thread* me, std::uintptr_t address, unsigned size, EventKind kind,
                 std::uintptr_t pc, bool spin_yield);
// True if this access continues a spin-wait streak long enough that its point should be a
// Yield (access.cc); counts the streak.
bool spin_read_streak(Thread* me, std::uintptr_t address, unsigned size, EventKind kind);

inline bool is_thread_local(const Thread* me, std::uintptr_t a) {
  return a - me->tls_lo < me->tls_size || a - me->stack_lo < me->stack_size;
}

inline void on_access(std::uintptr_t address, unsigned size, EventKind kind, std::uintptr_t pc) {
  Thread* me = tls_self;
  if (__builtin_expect(me == nullptr || !g_rt.active, 0)) return;
  if (is_thread_local(me, address)) return;
  if (!collecting()) {
    if (!g_rt.access_points) return;
    // The common case of an access point: only this thread can run, or the strategy's lease
    // covers the point. Just count the step, unless a leased thread is spinning on a value.
    if (me->state == ThreadState::Runnable && point_is_trivial(me) &&
        g_rt.steps < g_rt.config.max_steps) {
      const bool alone = g_rt.runnable == 1 && g_rt.timed_blocked == 0;
      if (alone || !spin_read_streak(me, address, size, kind)) {
        ++g_rt.steps;
        if (me->id < kRecordSurwThreads) ++g_rt.record->thread_events[me->id];  // as count_step (engine.h)
        return;
      }
      access_slow(me, address, size, kind, pc, true);
      return;
    }
  }
  access_slow(me, address, size, kind, pc, false);
}

inline void on_atomic(std::uintptr_t address, unsigned size, EventKind kind, std::uintptr_t pc) {
  on_access(address, size, kind, pc);
}

void on_func_entry(std::uintptr_t call_pc, std::uintptr_t self_pc);
void on_func_exit();
void on_tsan_init();
void on_annotation(std::uintptr_t address, bool release);

// Thread-local ranges of a thread (its TLS below the thread pointer `handle`, and its stack).
void set_thread_local_ranges(Thread* t, pthread_t handle);
// The same for the main thread (t->handle = pthread_self()), with the stack range that
// remember_main_thread_stack() found: for the main thread pthread_getattr_np reads
// /proc/self/maps, a cost that every run started from one fork server's image would pay again
// for the same answer. Called before the snapshot (runtime.cc, prepare_process).
void remember_main_thread_stack();
void set_main_thread_local_ranges(Thread* t);

}  // namespace ctrlsched::shim
