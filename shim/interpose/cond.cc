// pthread condition variables (std::condition_variable uses wait, clockwait and signal/broadcast).
#include <pthread.h>

#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_cond_wait, c, m);
  return cond_wait(me, c, m, nullptr);
}

CTRLSCHED_EXPORT int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m,
                                            const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_cond_timedwait, c, m, abstime);
  return cond_wait(me, c, m, abstime);
}

CTRLSCHED_EXPORT int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock,
                                            const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_cond_clockwait, c, m, clock, abstime);
  return cond_wait(me, c, m, abstime);
}

CTRLSCHED_EXPORT int pthread_cond_signal(pthread_cond_t* c) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_cond_signal, c);
  return cond_signal(me, c);
}

CTRLSCHED_EXPORT int pthread_cond_broadcast(pthread_cond_t* c) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_cond_broadcast, c);
  return cond_broadcast(me, c);
}
