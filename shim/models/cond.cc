// Condition variable model: only a queue of waiters (kept while non-empty). A signal wakes the
// waiter the strategy picks, not necessarily the oldest: POSIX promises no order. With
// --spurious-wakeups the strategy may also let a wait return without any signal.
#include <cerrno>

#include "collectors.h"
#include "engine.h"
#include "sync_point.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

clockid_t cond_clock(const pthread_cond_t* c) {
  // glibc keeps the clock chosen with pthread_condattr_setclock in bit 1 of __wrefs.
  return (c->__data.__wrefs & 2) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

int cond_wait(Thread* me, pthread_cond_t* c, pthread_mutex_t* m, Timeout timeout) {
  const timespec* abstime = timeout.abstime;
  sync_point(me, SyncOp::Wait, c);
  cancellation_point(me);  // pending on entry or arrived during the point: acts with the mutex held
  int type = m->__data.__kind & 3;
  if ((type == PTHREAD_MUTEX_ERRORCHECK || type == PTHREAD_MUTEX_RECURSIVE) &&
      (m->__data.__lock == 0 || m->__data.__owner != me->os_tid))
    return EPERM;
  if (abstime != nullptr && !valid_timeout(abstime)) return EINVAL;
  unsigned count = mutex_release_for_wait(me, m);
  bool timed_out = false;
  bool spurious = g_rt.config.spurious_wakeups && g_rt.recorder->spurious_wakeup(me->id);
  if (!spurious) {
    Model* model = g_rt.objects.get(c, ModelKind::Cond);
    if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
    // In a directed run a woken waiter is about to perform its `woken` (sync_ops.h) when it is
    // next chosen, so a forced order can hold it there until its turn (docs/forcing.md).
    const bool directed = g_rt.forcing != nullptr;
    if (directed) pend_sync(me, SyncOp::Woken, reinterpret_cast<std::uint64_t>(c));
    timed_out = block(me, WaitKind::Cond, c, &model->waiters, model, abstime != nullptr,
                      virtual_deadline(timeout));
    if (directed) me->pending = PendingKind::None;
    if (!timed_out) emit_sync(EventKind::Acquire, me, c, WaitKind::Cond);
  }
  mutex_reacquire_after_wait(me, m, count);
  cancellation_point(me);  // a cancel ended the wait: act holding the mutex again
  return timed_out ? ETIMEDOUT : 0;
}

int cond_signal(Thread* me, pthread_cond_t* c) {
  sync_point(me, SyncOp::Signal, c);
  emit_sync(EventKind::Release, me, c, WaitKind::Cond);
  Model* model = g_rt.objects.find(c, ModelKind::Cond);
  if (model == nullptr || model->waiters.empty()) return 0;
  Thread* chosen = choose_waiter(model, WakeKind::CondSignal);
  model->waiters.remove(chosen);
  wake(chosen);
  g_rt.objects.release_if_idle(model);
  return 0;
}

int cond_broadcast(Thread* me, pthread_cond_t* c) {
  sync_point(me, SyncOp::Signal, c);
  emit_sync(EventKind::Release, me, c, WaitKind::Cond);
  if (Model* model = g_rt.objects.find(c, ModelKind::Cond)) wake_all(model);
  return 0;
}

}  // namespace ctrlsched::shim
