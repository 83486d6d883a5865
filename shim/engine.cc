// Scheduling points, blocking, waking, handoff and thread exit.
//
// Timed waits: a thread blocked in a timed wait stays a candidate at every decision (flagged
// timed_wait); if the strategy picks it, its timeout fires now. Time itself is virtual: deadlines
// are never compared with the wall clock, so a timed wait is never the reason a run is slow or
// differs between runs, and it never counts toward a deadlock.
//
// Detached threads: the OS thread is always created joinable and the shim joins it itself when
// the program would next create a thread. A truly detached thread frees its stack whenever the
// OS gets round to it, which would make the next thread's stack address (and so the test's
// addresses) depend on timing.
#include "engine.h"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "baton.h"
#include "models/models.h"
#include "collectors.h"
#include "real.h"
#include "report.h"
#include "stack.h"
#include "virtual_time.h"
#include "raw_syscall.h"
#include "watchdog.h"

namespace ctrlsched::shim {

namespace {

// Called after every decision; the record must be current when the process dies at any moment.
void publish_decision_stats() {
  RunRecord* r = g_rt.record;
  r->steps = g_rt.steps;
  r->decisions = g_rt.recorder->decisions();
  r->schedule_hash = g_rt.recorder->hash();
}

void check_divergence() {
  if (!g_rt.may_diverge) return;
  if (const auto& d = g_rt.recorder->divergence(); __builtin_expect(d.has_value(), 0))
    fail_diverged(*d);
}

void make_runnable(Thread* t) {
  ++g_rt.state_version;
  if (t->timed_wait) --g_rt.timed_blocked;
  t->timed_wait = false;
  t->state = ThreadState::Runnable;
  t->wait_kind = WaitKind::None;
  t->wait_object = nullptr;
  t->wait_model = nullptr;
  t->join_target = nullptr;
  ++g_rt.runnable;
}

void fire_timeout(Thread* t) {
  WaitQueue* queue = t->join_target ? &t->join_target->joiners
                                    : (t->wait_model ? &t->wait_model->waiters : nullptr);
  Model* model = t->wait_model;
  if (queue) queue->remove(t);
  make_runnable(t);
  t->timed_out = true;
  virtual_clock_reach(t->deadline);
  g_rt.objects.release_if_idle(model);
}

// Directed runs only (Candidate::owns_awaited_lock): `t` owns a mutex, or an rwlock for writing,
// that another live thread is blocked on; *site is where it took it (0 when not known: a mutex
// beyond the kMaxHeldLocks it keeps). Quadratic in live threads, which are few.
bool owns_awaited_lock(const Thread* t, std::uint64_t* site) {
  const ThreadId* live = g_rt.threads.live();
  for (std::uint32_t i = 0, end = g_rt.threads.live_count(); i < end; ++i) {
    const Thread* w = g_rt.threads.at(live[i]);
    if (w == t || w->state != ThreadState::Blocked || w->wait_model == nullptr) continue;
    const Model* m = w->wait_model;
    if (m->kind == ModelKind::Mutex) {
      const auto* mutex = reinterpret_cast<const pthread_mutex_t*>(m->address);
      if (mutex->__data.__lock == 0 || mutex->__data.__owner != t->os_tid) continue;
      *site = 0;
      const std::uint32_t kept = t->held_count < kMaxHeldLocks ? t->held_count : kMaxHeldLocks;
      for (std::uint32_t k = 0; k < kept; ++k) {
        if (t->held_locks[k].object == mutex) *site = site_of(t->held_locks[k].pc);
      }
      return true;
    }
    if (m->kind == ModelKind::Rwlock && m->writer == t) {
      *site = site_of(m->writer_pc);
      return true;
    }
  }
  return false;
}

// Asks the strategy which thread runs next. Returns nullptr if no thread can run.
Thread* choose_next(Thread* me, PointKind kind) {
  if (__builtin_expect(g_rejoin_pending.load(std::memory_order_relaxed) != 0, 0)) process_rejoins();
  std::uint32_t n = 0;
  const ThreadId* live = g_rt.threads.live();
  for (std::uint32_t i = 0, end = g_rt.threads.live_count(); i < end; ++i) {
    Thread* t = g_rt.threads.at(live[i]);
    if (t->state == ThreadState::Runnable) {
      std::uint64_t lock_site = 0;
      const bool owner = g_rt.forcing != nullptr && owns_awaited_lock(t, &lock_site);
      g_rt.candidates[n++] =
          Candidate{t->id, false, t->pending, t->pending_site, t->pending_address, t->pending_op, owner, lock_site};
    } else if (t->state == ThreadState::Blocked && t->timed_wait) {
      g_rt.candidates[n++] = Candidate{t->id, true};
    }
  }
  if (n == 0) return nullptr;
  SchedulingPoint p{me->id, me->state == ThreadState::Runnable, kind, g_rt.steps,
                    std::span<const Candidate>(g_rt.candidates, n)};
  ThreadId chosen = g_rt.recorder->next_thread(p);
  if (chosen == me->id && p.current_enabled && kind != PointKind::Yield && n > 1) {
    if (std::uint32_t lease = g_rt.recorder->lease(p)) {
      g_rt.lease_holder = me;
      g_rt.lease_end = g_rt.steps + lease;
      g_rt.lease_version = g_rt.state_version;
    }
  }
  publish_decision_stats();
  check_divergence();
  Thread* next = g_rt.threads.at(chosen);
  if (next != me && me->state == ThreadState::Runnable && kind != PointKind::Yield)
    g_rt.record->preemptions = ++g_rt.preemptions;
  if (next->state == ThreadState::Blocked) fire_timeout(next);
  return next;
}

void hand_over(Thread* me, Thread* next) {
  emit(EventKind::Switch, me, next->id, 0);
  __atomic_store_n(&g_rt.current, next, __ATOMIC_RELEASE);
  me->baton.store(0, std::memory_order_relaxed);
  give_baton(next->baton);
}

}  // namespace

// An exited thread still runs glibc's teardown (TLS destructors of libc, freeing its malloc
// cache) after it handed the baton on. Whoever gets the baton next waits until that OS thread is
// gone, so those free()s never interleave with the test's malloc()s and heap addresses stay
// deterministic. The main thread is skipped: its id lives on until the process ends.
void wait_for_dying_thread() {
  pid_t tid = g_rt.dying_os_tid;
  g_rt.dying_os_tid = 0;
  if (tid == 0 || tid == g_rt.pid) return;
  // Raw: the failing probe that ends the wait would leave ESRCH in this thread's errno, which the
  // test can see (this thread goes on into the test's code, and may be the one that runs exit()).
  while (raw_syscall(SYS_tgkill, g_rt.pid, tid, 0) == 0) REAL(sched_yield)();
}

void park(Thread* me) {
  for (;;) {
    wait_baton(me->baton);
    if (g_rt.dump_request != me) break;
    // A deadlock report wants our stack: take it here, in our own context, and hand back.
    for (std::uint32_t i = 0; i < g_rt.record->deadlock.reported; ++i) {
      BlockedThread& b = g_rt.record->deadlock.threads[i];
      if (b.thread == me->id) capture_stack(b.stack);
    }
    g_rt.dump_request = nullptr;
    Thread* requester = g_rt.dump_requester;
    hand_over(me, requester);
  }
  __atomic_store_n(&g_rt.current, me, __ATOMIC_RELEASE);
  if (g_rt.dying_os_tid != 0) wait_for_dying_thread();
}

// Nobody can run but some thread runs uncontrolled: leave the baton with nobody; the watchdog
// hands it out again when that thread rejoins.
void wait_for_escaped(Thread* me) {
  me->baton.store(0, std::memory_order_relaxed);
  __atomic_store_n(&g_rt.current, static_cast<Thread*>(nullptr), __ATOMIC_RELEASE);
}

void release_baton(Thread* me) {
  Thread* next = choose_next(me, PointKind::Blocked);
  if (next == nullptr) wait_for_escaped(me);
  else hand_over(me, next);
}

bool context_cut_under_lease(Thread* me) {
  if (!g_rt.forcing->watching_cut()) return false;
  const Candidate self{me->id, false, me->pending, me->pending_site, me->pending_address, me->pending_op, false};
  if (!g_rt.forcing->cut_under_lease(self)) return false;
  g_rt.lease_holder = nullptr;  // the reference run's lease ends where the directive starts
  return true;
}

void decide(Thread* me, PointKind kind) {
  Thread* next = choose_next(me, kind);
  if (next == me || next == nullptr) return;
  hand_over(me, next);
  park(me);
}

bool block(Thread* me, WaitKind kind, const void* object, WaitQueue* queue, Model* model,
           bool timed, std::uint64_t deadline) {
  if (__builtin_expect(collecting(), 0)) {  // the localization's "wait" / blocked "lock" (sync_ops.h)
    const std::uint64_t address = kind == WaitKind::Join ? static_cast<const Thread*>(object)->id
                                                         : reinterpret_cast<std::uint64_t>(object);
    emit(EventKind::Block, me, address, site_of(me->sync_pc), 0, static_cast<std::uint16_t>(kind));
  }
  me->deadline = deadline;
  ++g_rt.state_version;
  me->state = ThreadState::Blocked;
  me->wait_kind = kind;
  me->wait_object = object;
  me->wait_model = model;
  me->timed_wait = timed;
  me->timed_out = false;
  if (queue) queue->push_back(me);
  --g_rt.runnable;
  if (timed) ++g_rt.timed_blocked;
  count_step(me);
  Thread* next = choose_next(me, PointKind::Blocked);
  if (next == nullptr) {
    if (g_rt.escaped == 0) fail_deadlock(me);
    wait_for_escaped(me);
    park(me);
  } else if (next != me) {
    hand_over(me, next);
    park(me);
  }
  return me->timed_out;
}

void wake(Thread* t) {
  t->timed_out = false;
  make_runnable(t);
}

void interrupt_wait(Thread* t) {
  WaitQueue* queue = t->join_target ? &t->join_target->joiners
                                    : (t->wait_model ? &t->wait_model->waiters : nullptr);
  Model* model = t->wait_model;
  if (queue) queue->remove(t);
  wake(t);
  g_rt.objects.release_if_idle(model);
}

void wake_all(Model* model) {
  while (Thread* t = model->waiters.pop_front()) wake(t);
  g_rt.objects.release_if_idle(model);
}

Thread* choose_waiter(Model* model, WakeKind kind, bool (*eligible)(const Thread*, std::uint32_t),
                      std::uint32_t key) {
  WaitQueue& q = model->waiters;
  if (q.size == 1 && eligible == nullptr) return q.head;
  std::size_t n = 0;
  for (Thread* t = q.head; t; t = t->next_waiter)
    if (eligible == nullptr || eligible(t, key)) g_rt.waiter_ids[n++] = t->id;
  if (n == 0) return nullptr;
  std::size_t index = 0;
  if (n > 1) {
    index = g_rt.recorder->pick_waiter(kind, std::span<const ThreadId>(g_rt.waiter_ids, n));
    publish_decision_stats();
    check_divergence();
  }
  for (Thread* t = q.head; t; t = t->next_waiter)
    if (t->id == g_rt.waiter_ids[index]) return t;
  return nullptr;
}

void exit_thread(Thread* me) {
  emit(EventKind::ThreadExit, me, 0, 0);
  publish_steps();  // the last thread's exit may end the process without exit()
  ++g_rt.state_version;
  me->state = ThreadState::Exited;
  --g_rt.runnable;
  g_rt.threads.remove_live(me->id);
  while (Thread* joiner = me->joiners.pop_front()) wake(joiner);
  release_robust_mutexes_of(me);
  if (g_rt.threads.live_count() == 0) {  // the last thread (main called pthread_exit earlier)
    finish_collectors();
    stop_watchdog();
    return;
  }
  count_step(me);
  Thread* next = choose_next(me, PointKind::ThreadExit);
  if (next == nullptr) {
    if (g_rt.escaped == 0) fail_deadlock(me);
    wait_for_escaped(me);
    return;
  }
  // No park: this OS thread is leaving; the next baton holder waits until it is gone.
  g_rt.dying_os_tid = me->os_tid;
  hand_over(me, next);
}

void join_os_thread(pthread_t handle) {
  int old_state = PTHREAD_CANCEL_ENABLE;
  REAL(pthread_setcancelstate)(PTHREAD_CANCEL_DISABLE, &old_state);
  REAL(pthread_join)(handle, nullptr);
  REAL(pthread_setcancelstate)(old_state, nullptr);
}

void reap_detached_threads() {
  for (std::uint32_t id = 1; id < g_rt.threads.count(); ++id) {
    Thread* t = g_rt.threads.at(id);
    if (t->state != ThreadState::Exited || !t->detached || t->reaped) continue;
    join_os_thread(t->handle);
    t->reaped = true;
  }
}

}  // namespace ctrlsched::shim
