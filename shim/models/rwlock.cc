// Reader-writer lock model. Holders live in the object table while the lock is held; the
// pthread_rwlock_t itself is left untouched. Readers may join other readers even while a writer
// waits, like glibc's default (PTHREAD_RWLOCK_PREFER_READER_NP, and PTHREAD_RWLOCK_PREFER_WRITER_NP,
// which glibc treats the same). With PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP (kept by glibc
// in __flags) a new reader waits (tryrdlock: EBUSY) while a writer waits, as in glibc, so a
// reader that re-takes the lock it holds can deadlock with a waiting writer. The unlock that
// frees such a lock hands it to a waiting writer (the strategy picks which), as glibc does; the
// waiting readers stay queued until no writer waits. A read lock taken
// while holding the write lock gives EDEADLK, as in glibc.
#include <cerrno>

#include "collectors.h"
#include "engine.h"
#include "sync_point.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

namespace {

Model* holders(pthread_rwlock_t* rw) {
  Model* model = g_rt.objects.get(rw, ModelKind::Rwlock);
  if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
  return model;
}

bool writer_waits(const Model* model) {
  for (const Thread* t = model->waiters.head; t; t = t->next_waiter)
    if (t->wait_kind == WaitKind::RwlockWrite) return true;
  return false;
}

bool is_waiting_writer(const Thread* t, std::uint32_t) { return t->wait_kind == WaitKind::RwlockWrite; }

bool prefers_writers(const pthread_rwlock_t* rw) {
  return rw->__data.__flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP;
}

int acquire(Thread* me, pthread_rwlock_t* rw, bool write, WaitMode mode, Timeout timeout) {
  sync_point(me, SyncOp::Lock, rw);
  for (;;) {
    Model* model = g_rt.objects.find(rw, ModelKind::Rwlock);
    bool free = model == nullptr || (model->writer == nullptr && (!write || model->readers == 0) &&
                                     (write || !prefers_writers(rw) || !writer_waits(model)));
    if (free) {
      model = holders(rw);
      if (write) {
        model->writer = me;
        model->writer_pc = me->sync_pc;
      } else {
        ++model->readers;
      }
      emit_sync(EventKind::Acquire, me, rw, write ? WaitKind::RwlockWrite : WaitKind::RwlockRead);
      return 0;
    }
    if (model->writer == me) return EDEADLK;
    if (mode == WaitMode::Try) return EBUSY;
    if (mode == WaitMode::Timed && !valid_timeout(timeout.abstime)) return EINVAL;
    if (block(me, write ? WaitKind::RwlockWrite : WaitKind::RwlockRead, rw, &model->waiters, model,
              mode == WaitMode::Timed, virtual_deadline(timeout)))
      return ETIMEDOUT;
    if (me->rwlock_handed_over) {  // the unlocking thread made us the writer (writer preference)
      me->rwlock_handed_over = false;
      emit_sync(EventKind::Acquire, me, rw, WaitKind::RwlockWrite);
      return 0;
    }
  }
}

}  // namespace

int rwlock_rdlock(Thread* me, pthread_rwlock_t* rw, WaitMode mode, Timeout timeout) {
  return acquire(me, rw, false, mode, timeout);
}

int rwlock_wrlock(Thread* me, pthread_rwlock_t* rw, WaitMode mode, Timeout timeout) {
  return acquire(me, rw, true, mode, timeout);
}

int rwlock_unlock(Thread* me, pthread_rwlock_t* rw) {
  sync_point(me, SyncOp::Unlock, rw);
  Model* model = g_rt.objects.find(rw, ModelKind::Rwlock);
  if (model == nullptr) return EPERM;
  WaitKind released = WaitKind::RwlockWrite;
  if (model->writer == me) {
    model->writer = nullptr;
  } else if (model->writer == nullptr && model->readers > 0) {
    --model->readers;
    released = WaitKind::RwlockRead;
  } else {
    return EPERM;
  }
  emit_sync(EventKind::Release, me, rw, released);
  if (prefers_writers(rw) && writer_waits(model)) {
    // glibc hands a free lock to a waiting writer; the waiting readers stay queued meanwhile.
    if (model->writer == nullptr && model->readers == 0) {
      Thread* chosen = choose_waiter(model, WakeKind::FutexWake, is_waiting_writer, 0);
      model->waiters.remove(chosen);
      model->writer = chosen;
      model->writer_pc = chosen->sync_pc;  // its own wrlock call, where it blocked
      chosen->rwlock_handed_over = true;
      wake(chosen);
    }
  } else {
    wake_all(model);
  }
  return 0;
}

int rwlock_destroy(pthread_rwlock_t* rw) {
  Model* model = g_rt.objects.find(rw, ModelKind::Rwlock);
  return model ? EBUSY : 0;
}

}  // namespace ctrlsched::shim
