// Barrier set-up and teardown, barrier waits and pthread_once (the semaphore calls are in
// interposers.def).
#include <pthread.h>

#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* attr,
                                          unsigned count) {
  int rc = REAL(pthread_barrier_init)(b, attr, count);
  if (rc != 0 || controlled_self() == nullptr) return rc;
  return barrier_init(b, count);
}

CTRLSCHED_EXPORT int pthread_barrier_wait(pthread_barrier_t* b) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_barrier_wait, b);
  return barrier_wait(me, b);
}

CTRLSCHED_EXPORT int pthread_barrier_destroy(pthread_barrier_t* b) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_barrier_destroy, b);
  if (int busy = barrier_destroy(b)) return busy;
  return REAL(pthread_barrier_destroy)(b);
}

CTRLSCHED_EXPORT int pthread_once(pthread_once_t* control, void (*routine)(void)) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_once, control, routine);
  return once(me, control, routine);
}
