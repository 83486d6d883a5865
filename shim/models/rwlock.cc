// Reader-writer lock model. Holders live in the object table while the lock is held; the
// pthread_rwlock_t itself is left untouched. Readers may join other readers even while a writer
// waits, like glibc's default (PTHREAD_RWLOCK_PREFER_READER_NP); writer preference attributes
// are not modelled. A read lock taken while holding the write lock gives EDEADLK, as in glibc.
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

int acquire(Thread* me, pthread_rwlock_t* rw, bool write, WaitMode mode, Timeout timeout) {
  sync_point(me, SyncOp::Lock, rw);
  for (;;) {
    Model* model = g_rt.objects.find(rw, ModelKind::Rwlock);
    bool free = model == nullptr || (model->writer == nullptr && (!write || model->readers == 0));
    if (free) {
      model = holders(rw);
      if (write) model->writer = me;
      else ++model->readers;
      emit_sync(EventKind::Acquire, me, rw, write ? WaitKind::RwlockWrite : WaitKind::RwlockRead);
      return 0;
    }
    if (model->writer == me) return EDEADLK;
    if (mode == WaitMode::Try) return EBUSY;
    if (mode == WaitMode::Timed && !valid_timeout(timeout.abstime)) return EINVAL;
    if (block(me, write ? WaitKind::RwlockWrite : WaitKind::RwlockRead, rw, &model->waiters, model,
              mode == WaitMode::Timed, virtual_deadline(timeout)))
      return ETIMEDOUT;
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
  wake_all(model);
  return 0;
}

int rwlock_destroy(pthread_rwlock_t* rw) {
  Model* model = g_rt.objects.find(rw, ModelKind::Rwlock);
  return model ? EBUSY : 0;
}

}  // namespace ctrlsched::shim
