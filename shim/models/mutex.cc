// Mutex model. The lock word, owner and recursion count live in the pthread_mutex_t with glibc's
// meaning (__lock 0/1, __owner = kernel tid, __count = recursion depth for recursive mutexes), so
// a static initializer, a reused allocation or a fork child all see a consistent object. Only
// the queue of waiters is kept in the object table. An unlock wakes every waiter and each
// retries: whichever the strategy runs first wins, which covers every order a real futex-based
// mutex allows (including the unlocker taking it again).
//
// Robust mutexes (pthread_mutexattr_setrobust) follow glibc: a locker that finds the holder has
// exited takes the mutex over and gets EOWNERDEAD; pthread_mutex_consistent repairs it; unlocking
// it unrepaired makes it ENOTRECOVERABLE for good.
//
// Priority-inheritance and priority-protect mutexes (pthread_mutexattr_setprotocol) behave as
// plain mutexes of their type: thread priorities mean nothing under ctrlsched (the strategy picks
// who runs), so there is no priority to inherit. A run that locks one carries a note.
#include <cerrno>
#include <climits>

#include "collectors.h"
#include "engine.h"
#include "sync_point.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

namespace {

int mutex_type(const pthread_mutex_t* m) { return m->__data.__kind & 3; }
// glibc's internal kind flag for robust mutexes (PTHREAD_MUTEX_ROBUST_NORMAL_NP in nptl).
constexpr int kRobustKindFlag = 16;
bool is_robust(const pthread_mutex_t* m) { return (m->__data.__kind & kRobustKindFlag) != 0; }
// glibc's kind flags for PTHREAD_PRIO_INHERIT and PTHREAD_PRIO_PROTECT mutexes.
constexpr int kPriorityInheritKindFlag = 32;
constexpr int kPriorityProtectKindFlag = 64;

bool holder_exited(const pthread_mutex_t* m) {
  const Thread* holder = g_rt.threads.find_by_os_tid(m->__data.__owner);
  return holder != nullptr && holder->state == ThreadState::Exited;
}

void note_robust_held(Thread* me, pthread_mutex_t* m, bool held) {
  if (!is_robust(m)) return;
  for (int i = 0; i < me->robust_count; ++i) {
    if (me->robust_held[i] != m) continue;
    if (!held) me->robust_held[i] = me->robust_held[--me->robust_count];
    return;
  }
  if (held && me->robust_count < Thread::kMaxRobustHeld) me->robust_held[me->robust_count++] = m;
}

Model::Robust robust_state(const pthread_mutex_t* m) {
  const Model* model = g_rt.objects.find(m, ModelKind::Mutex);
  return model ? model->robust : Model::Robust::Consistent;
}

void take(Thread* me, pthread_mutex_t* m, unsigned count) {
  m->__data.__lock = 1;
  m->__data.__owner = me->os_tid;
  m->__data.__count = mutex_type(m) == PTHREAD_MUTEX_RECURSIVE ? count : 0;
  ++m->__data.__nusers;
  note_robust_held(me, m, true);
  me->note_locked(m);
  emit_sync(EventKind::Acquire, me, m, WaitKind::Mutex);
}

// The holder of robust mutex `m` has exited: `me` takes it over, inconsistent.
int take_over(Thread* me, pthread_mutex_t* m) {
  take(me, m, 1);
  Model* model = g_rt.objects.get(m, ModelKind::Mutex);
  if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
  model->robust = Model::Robust::Inconsistent;
  model->persistent = true;
  return EOWNERDEAD;
}

void release(Thread* me, pthread_mutex_t* m) {
  emit_sync(EventKind::Release, me, m, WaitKind::Mutex);
  note_robust_held(me, m, false);
  me->note_unlocked(m);
  m->__data.__lock = 0;
  m->__data.__owner = 0;
  m->__data.__count = 0;
  --m->__data.__nusers;
  if (Model* model = g_rt.objects.find(m, ModelKind::Mutex)) wake_all(model);
}

// Waits until the mutex is free and takes it. Returns 0 or ETIMEDOUT.
int acquire_blocking(Thread* me, pthread_mutex_t* m, bool timed, std::uint64_t deadline,
                     unsigned count) {
  while (m->__data.__lock != 0) {
    if (is_robust(m) && holder_exited(m)) return take_over(me, m);
    if (robust_state(m) == Model::Robust::NotRecoverable) return ENOTRECOVERABLE;
    Model* model = g_rt.objects.get(m, ModelKind::Mutex);
    if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
    if (block(me, WaitKind::Mutex, m, &model->waiters, model, timed, deadline)) return ETIMEDOUT;
  }
  take(me, m, count);
  return 0;
}

}  // namespace

bool valid_timeout(const timespec* t) {
  return t != nullptr && t->tv_nsec >= 0 && t->tv_nsec < 1'000'000'000;
}

int mutex_lock(Thread* me, pthread_mutex_t* m, WaitMode mode, Timeout timeout) {
  sync_point(me, SyncOp::Lock, m);
  if (m->__data.__kind & (kPriorityInheritKindFlag | kPriorityProtectKindFlag))
    g_rt.record->model_notes.flags |= kNotePriorityMutex;
  if (is_robust(m)) {
    if (robust_state(m) == Model::Robust::NotRecoverable) return ENOTRECOVERABLE;
    if (m->__data.__lock != 0 && holder_exited(m)) return take_over(me, m);
  }
  if (m->__data.__lock != 0 && m->__data.__owner == me->os_tid) {
    switch (mutex_type(m)) {
      case PTHREAD_MUTEX_RECURSIVE:
        if (m->__data.__count == UINT_MAX) return EAGAIN;
        ++m->__data.__count;
        return 0;
      case PTHREAD_MUTEX_ERRORCHECK: return EDEADLK;
      default: break;  // a normal mutex relocked by its owner deadlocks, as in glibc
    }
  }
  if (m->__data.__lock == 0) {
    take(me, m, 1);
    return 0;
  }
  if (mode == WaitMode::Try) return EBUSY;
  if (mode == WaitMode::Timed && !valid_timeout(timeout.abstime)) return EINVAL;
  return acquire_blocking(me, m, mode == WaitMode::Timed, virtual_deadline(timeout), 1);
}

int mutex_unlock(Thread* me, pthread_mutex_t* m) {
  sync_point(me, SyncOp::Unlock, m);
  int type = mutex_type(m);
  if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK || is_robust(m)) {
    if (m->__data.__lock == 0 || m->__data.__owner != me->os_tid) return EPERM;
    if (type == PTHREAD_MUTEX_RECURSIVE && --m->__data.__count > 0) return 0;
  }
  if (is_robust(m)) {
    Model* model = g_rt.objects.find(m, ModelKind::Mutex);
    if (model && model->robust == Model::Robust::Inconsistent) model->robust = Model::Robust::NotRecoverable;
  }
  release(me, m);
  return 0;
}

int mutex_consistent(Thread* me, pthread_mutex_t* m) {
  point(me, PointKind::Sync);
  Model* model = g_rt.objects.find(m, ModelKind::Mutex);
  if (!is_robust(m) || model == nullptr || model->robust != Model::Robust::Inconsistent ||
      m->__data.__owner != me->os_tid)
    return EINVAL;
  model->robust = Model::Robust::Consistent;
  model->persistent = false;
  g_rt.objects.release_if_idle(model);
  return 0;
}

void release_robust_mutexes_of(Thread* me) {
  for (int i = 0; i < me->robust_count; ++i) {
    if (Model* model = g_rt.objects.find(me->robust_held[i], ModelKind::Mutex)) {
      while (Thread* t = model->waiters.pop_front()) wake(t);
    }
  }
}

unsigned mutex_release_for_wait(Thread* me, pthread_mutex_t* m) {
  unsigned count = m->__data.__count;
  release(me, m);
  return count;
}

void mutex_reacquire_after_wait(Thread* me, pthread_mutex_t* m, unsigned count) {
  acquire_blocking(me, m, false, 0, count == 0 ? 1 : count);
}

}  // namespace ctrlsched::shim
