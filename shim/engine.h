// The engine: scheduling points, blocking and waking, the baton handoff, thread exit.
//
// Every nondeterministic choice goes to the strategy (through the recording decorator, which
// logs and hashes it). A point where only the current thread can run costs no system call and no
// strategy call: the fast path is a counter increment and two comparisons.
#pragma once

#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"
#include "runtime.h"
#include "step_limit.h"
#include "watchdog.h"

namespace ctrlsched::shim {


// The step count reaches the run record at every decision and every outcome (publish_steps),
// not at every step: on the fast path it is only a counter in this process.
inline void publish_steps() { g_rt.record->steps = g_rt.steps; }

// Also counts the step as one of `me`'s: SURW's calibration reads the per-thread counts
// (run_record.h, thread_events), and SURW counts a thread's steps the same way (surw_strategy.cc),
// so every step counts, also those on the fast path where no decision is taken.
inline void count_step(Thread* me) {
  if (me->id < kRecordSurwThreads) ++g_rt.record->thread_events[me->id];
  if (__builtin_expect(++g_rt.steps > g_rt.config.max_steps, 0)) step_past_limit(me);
}

// The strategy's lease still covers a non-Yield point of `me` at `step`.
inline bool leased(const Thread* me, std::uint64_t step) {
  return me == g_rt.lease_holder && step <= g_rt.lease_end &&
         g_rt.state_version == g_rt.lease_version;
}

// True if the next point of `me` (a non-Yield one) can be taken without any decision: only `me`
// can run, or the strategy's lease covers it, and nothing is pending. Then the point is just the
// step count.
inline bool point_is_trivial(const Thread* me) {
  return ((g_rt.runnable == 1 && g_rt.timed_blocked == 0) || leased(me, g_rt.steps + 1)) &&
         g_rejoin_pending.load(std::memory_order_relaxed) == 0 &&
         !me->escaped.load(std::memory_order_relaxed);
}

void decide(Thread* me, PointKind kind);

// A forced run in the failing run's context (docs/forcing.md): `me`, under a lease of the
// replayed reference run, is about to perform the access where the pattern starts. The lease ends
// there and the point is decided, so that the directive takes over before that access (its
// opposite order must be able to hold it). Directed runs only.
bool context_cut_under_lease(Thread* me);

// A scheduling point of the running thread; it may hand the baton to another thread.
inline void point(Thread* me, PointKind kind) {
  count_step(me);
  if (__builtin_expect(g_rejoin_pending.load(std::memory_order_relaxed) != 0, 0)) process_rejoins();
  if (g_rt.runnable == 1 && g_rt.timed_blocked == 0) return;  // only `me` can run
  if (kind != PointKind::Yield && leased(me, g_rt.steps) &&
      __builtin_expect(g_rt.forcing == nullptr || !context_cut_under_lease(me), 1)) {
    return;
  }
  decide(me, kind);
}

// `me` (just escaped, see watchdog.h) gives the baton to whoever the strategy picks, or to
// nobody if every other thread waits: the watchdog then restarts the run when a thread rejoins.
void release_baton(Thread* me);

// Blocks `me` in `queue` (owned by `model`, which may be nullptr) until another thread wakes it
// or, for a timed wait, until the strategy lets its timeout fire. Returns true on timeout.
// `deadline` (virtual time, virtual_time.h) is where the clock moves if the timeout fires.
bool block(Thread* me, WaitKind kind, const void* object, WaitQueue* queue, Model* model, bool timed,
           std::uint64_t deadline = 0);

// Makes a blocked thread runnable (the caller has already taken it off its queue).
void wake(Thread* t);
// Takes a blocked thread out of its wait (off its queue) and makes it runnable, as if woken; the
// wait returns normally and the model then looks at why (pthread_cancel, models/cancel.cc).
void interrupt_wait(Thread* t);
// Wakes every waiter of `model` and frees the model if it became idle.
void wake_all(Model* model);
// Chooses (through the strategy) which waiter of `model` to wake; returns it, not yet woken.
// With `eligible`, only waiters for which eligible(waiter, key) holds are offered (nullptr if
// there is none); a single eligible waiter is chosen without asking.
Thread* choose_waiter(Model* model, WakeKind kind,
                      bool (*eligible)(const Thread*, std::uint32_t) = nullptr, std::uint32_t key = 0);

// The current thread has finished (called from its last TLS destructor): hand the baton on.
void exit_thread(Thread* me);

// pthread_join at the OS level, with glibc's cancellation disabled: a cancel pending for the
// calling thread (models/cancel.cc) must not act inside the shim, where glibc's join is a
// cancellation point.
void join_os_thread(pthread_t handle);
// Joins, at the OS level, exited threads that were detached, so that stacks return to glibc's
// cache at a deterministic moment (see engine.cc).
void reap_detached_threads();

// Waits for the baton; also serves stack-dump requests of a deadlock report.
void park(Thread* me);

}  // namespace ctrlsched::shim
