// pthread reader-writer locks (std::shared_mutex and std::shared_timed_mutex use these).
#include <pthread.h>

#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* rw) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_rdlock, rw);
  return rwlock_rdlock(me, rw, WaitMode::Block, nullptr);
}

CTRLSCHED_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t* rw) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_tryrdlock, rw);
  return rwlock_rdlock(me, rw, WaitMode::Try, nullptr);
}

CTRLSCHED_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t* rw, const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_timedrdlock, rw, abstime);
  return rwlock_rdlock(me, rw, WaitMode::Timed, abstime);
}

CTRLSCHED_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t* rw, clockid_t clock,
                                                const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_clockrdlock, rw, clock, abstime);
  return rwlock_rdlock(me, rw, WaitMode::Timed, abstime);
}

CTRLSCHED_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* rw) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_wrlock, rw);
  return rwlock_wrlock(me, rw, WaitMode::Block, nullptr);
}

CTRLSCHED_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t* rw) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_trywrlock, rw);
  return rwlock_wrlock(me, rw, WaitMode::Try, nullptr);
}

CTRLSCHED_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t* rw, const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_timedwrlock, rw, abstime);
  return rwlock_wrlock(me, rw, WaitMode::Timed, abstime);
}

CTRLSCHED_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t* rw, clockid_t clock,
                                                const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_clockwrlock, rw, clock, abstime);
  return rwlock_wrlock(me, rw, WaitMode::Timed, abstime);
}

CTRLSCHED_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t* rw) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_unlock, rw);
  return rwlock_unlock(me, rw);
}

CTRLSCHED_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t* rw) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_rwlock_destroy, rw);
  if (int busy = rwlock_destroy(rw)) return busy;
  return REAL(pthread_rwlock_destroy)(rw);
}
