// Deferred cancellation (pthread_cancel). glibc's own machinery is never asked to cancel a
// controlled thread that the shim holds: the shim keeps each thread's cancel state and type, a
// cancel marks the target pending, and the target acts on it at the next cancellation point the
// shim models (condition waits, joins, semaphore waits, sleeps, pthread_testcancel). A target
// blocked in one of those waits is taken out of it first (off the waiter queue, and for a
// condition wait the mutex re-acquired, as POSIX requires before the cleanup handlers run).
// Acting means pthread_exit(PTHREAD_CANCELED): glibc's forced unwinding runs the cleanup
// handlers and C++ destructors exactly as for a real cancellation, and a join returns
// PTHREAD_CANCELED.
//
// Every cancel is also passed to glibc (deferred), so its own cancellation points (read, write,
// ...) act on it too, including in a thread the watchdog released from a blocking read(). The
// shim disables glibc's cancellation around its own calls that glibc treats as cancellation
// points (the OS-level pthread_join, engine.cc).
//
// Asynchronous cancellation is not modelled: a cancel sent to a thread with
// PTHREAD_CANCEL_ASYNCHRONOUS acts at its next cancellation point, and the run carries a note.
#include <pthread.h>

#include <cerrno>

#include "engine.h"
#include "models.h"
#include "real.h"

namespace ctrlsched::shim {

namespace {

bool cancellable_wait(WaitKind kind) {
  return kind == WaitKind::Cond || kind == WaitKind::Join || kind == WaitKind::Semaphore;
}

[[noreturn]] void act_on_cancel(Thread* me) {
  me->cancel_pending = false;
  me->cancel_disabled = true;  // cleanup handlers are not cancellation points any more
  me->retval = PTHREAD_CANCELED;
  REAL(pthread_exit)(PTHREAD_CANCELED);
  __builtin_unreachable();
}

}  // namespace

void cancellation_point(Thread* me) {
  if (__builtin_expect(me->cancel_pending, 0) && !me->cancel_disabled) act_on_cancel(me);
}

int thread_cancel(Thread* me, pthread_t handle) {
  point(me, PointKind::Sync);
  Thread* target = find_controlled_thread(handle);
  if (target == nullptr) return ESRCH;
  if (target->state == ThreadState::Exited || target->cancel_pending) return 0;
  target->cancel_pending = true;
  if (target->cancel_async) g_rt.record->model_notes.flags |= kNoteAsyncCancel;
  // The join result, unless the thread returns or calls pthread_exit before any cancellation
  // point (the cancel may be disabled for good).
  target->retval = PTHREAD_CANCELED;
  if (target == me) {
    if (!me->cancel_disabled && me->cancel_async) act_on_cancel(me);
  } else if (!target->cancel_disabled && target->state == ThreadState::Blocked &&
             cancellable_wait(target->wait_kind)) {
    interrupt_wait(target);
  }
  // glibc is told too, so that its own cancellation points (read, write, ...: the calls the
  // shim does not model) act on it, including in a thread the watchdog released from one. The
  // shim never gives glibc the asynchronous type, so this only marks the thread (or, inside a
  // blocking glibc call, cancels it there).
  REAL(pthread_cancel)(target->handle);
  return 0;
}

int set_cancel_state(Thread* me, int state, int* old_state) {
  if (state != PTHREAD_CANCEL_ENABLE && state != PTHREAD_CANCEL_DISABLE) return EINVAL;
  int rc = REAL(pthread_setcancelstate)(state, old_state);  // glibc's cancellation points agree
  if (rc != 0) return rc;
  me->cancel_disabled = state == PTHREAD_CANCEL_DISABLE;
  return 0;
}

int set_cancel_type(Thread* me, int type, int* old_type) {
  if (type != PTHREAD_CANCEL_DEFERRED && type != PTHREAD_CANCEL_ASYNCHRONOUS) return EINVAL;
  // glibc keeps the deferred type: a real asynchronous cancel could strike inside the shim.
  int previous = me->cancel_async ? PTHREAD_CANCEL_ASYNCHRONOUS : PTHREAD_CANCEL_DEFERRED;
  if (old_type) *old_type = previous;
  me->cancel_async = type == PTHREAD_CANCEL_ASYNCHRONOUS;
  if (me->cancel_async && me->cancel_pending) g_rt.record->model_notes.flags |= kNoteAsyncCancel;
  return 0;
}

}  // namespace ctrlsched::shim
