// pthread mutexes and spinlocks.
#include <pthread.h>

#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int pthread_mutex_lock(pthread_mutex_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_mutex_lock, m);
  return mutex_lock(me, m, WaitMode::Block, nullptr);
}

CTRLSCHED_EXPORT int pthread_mutex_trylock(pthread_mutex_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_mutex_trylock, m);
  return mutex_lock(me, m, WaitMode::Try, nullptr);
}

CTRLSCHED_EXPORT int pthread_mutex_timedlock(pthread_mutex_t* m, const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_mutex_timedlock, m, abstime);
  return mutex_lock(me, m, WaitMode::Timed, abstime);
}

CTRLSCHED_EXPORT int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t clock,
                                             const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_mutex_clocklock, m, clock, abstime);
  return mutex_lock(me, m, WaitMode::Timed, abstime);
}

CTRLSCHED_EXPORT int pthread_mutex_unlock(pthread_mutex_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_mutex_unlock, m);
  return mutex_unlock(me, m);
}

CTRLSCHED_EXPORT int pthread_spin_lock(pthread_spinlock_t* s) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_spin_lock, s);
  return spin_lock(me, s, WaitMode::Block);
}

CTRLSCHED_EXPORT int pthread_spin_trylock(pthread_spinlock_t* s) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_spin_trylock, s);
  return spin_lock(me, s, WaitMode::Try);
}

CTRLSCHED_EXPORT int pthread_spin_unlock(pthread_spinlock_t* s) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_spin_unlock, s);
  return spin_unlock(me, s);
}
