// Spinlocks and pthread_once. A spinlock is modelled as a lock that blocks instead of spinning
// (the same interleavings, without burning steps). Both keep their state in the user's word with
// glibc's encoding. x86-64 spinlock: 1 = free, 0 (or below) = held — glibc takes it with
// `lock decl` and frees it by storing 1, which is also what pthread_spin_init stores.
// Once: 0 = not run, 1 = running, 2 = done.
#include <cerrno>

#include "collectors.h"
#include "engine.h"
#include "sync_point.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

namespace {

constexpr int kSpinFree = 1;
constexpr int kSpinHeld = 0;
constexpr int kOnceRunning = 1;
constexpr int kOnceDone = 2;

Model* waiters_of(const void* object, ModelKind kind) {
  Model* model = g_rt.objects.get(object, kind);
  if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
  return model;
}

void wake_waiters(const void* object, ModelKind kind) {
  if (Model* model = g_rt.objects.find(object, kind)) wake_all(model);
}

}  // namespace

int spin_lock(Thread* me, pthread_spinlock_t* s, WaitMode mode) {
  sync_point(me, SyncOp::Lock, const_cast<int*>(s));
  while (*s < kSpinFree) {
    if (mode == WaitMode::Try) return EBUSY;
    Model* model = waiters_of(const_cast<int*>(s), ModelKind::Spin);
    block(me, WaitKind::Spin, const_cast<int*>(s), &model->waiters, model, false);
  }
  *s = kSpinHeld;
  emit_sync(EventKind::Acquire, me, const_cast<int*>(s), WaitKind::Spin);
  return 0;
}

int spin_unlock(Thread* me, pthread_spinlock_t* s) {
  sync_point(me, SyncOp::Unlock, const_cast<int*>(s));
  emit_sync(EventKind::Release, me, const_cast<int*>(s), WaitKind::Spin);
  *s = kSpinFree;
  wake_waiters(const_cast<int*>(s), ModelKind::Spin);
  return 0;
}

int once(Thread* me, pthread_once_t* control, void (*routine)(void)) {
  point(me, PointKind::Sync);
  for (;;) {
    int state = *control;
    if (state & kOnceDone) {
      emit_sync(EventKind::Acquire, me, control, WaitKind::Once);
      return 0;
    }
    if (state & kOnceRunning) {
      Model* model = waiters_of(control, ModelKind::Once);
      block(me, WaitKind::Once, control, &model->waiters, model, false);
      continue;
    }
    *control = kOnceRunning;
    try {
      routine();
    } catch (...) {
      // std::call_once: an exception leaves the flag unset so another caller runs it again.
      *control = 0;
      wake_waiters(control, ModelKind::Once);
      throw;
    }
    emit_sync(EventKind::Release, me, control, WaitKind::Once);
    *control = kOnceDone;
    wake_waiters(control, ModelKind::Once);
    return 0;
  }
}

}  // namespace ctrlsched::shim
