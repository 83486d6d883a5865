// Cancellation: pthread_cancel, pthread_setcancelstate/-type, pthread_testcancel (models/cancel.cc).
#include <pthread.h>

#include <cstdint>

#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int pthread_cancel(pthread_t thread) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thread)) me = nullptr;
  if (me == nullptr) return REAL(pthread_cancel)(thread);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  return thread_cancel(me, thread);
}

CTRLSCHED_EXPORT int pthread_setcancelstate(int state, int* old_state) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_setcancelstate, state, old_state);
  return set_cancel_state(me, state, old_state);
}

CTRLSCHED_EXPORT int pthread_setcanceltype(int type, int* old_type) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_setcanceltype, type, old_type);
  return set_cancel_type(me, type, old_type);
}

CTRLSCHED_EXPORT void pthread_testcancel(void) {
  Thread* me = controlled_self();
  if (me == nullptr) {
    REAL(pthread_testcancel)();
    return;
  }
  ShimEntry shim_entry_guard(me);
  cancellation_point(me);
}
