// POSIX semaphores, barriers and pthread_once. Semaphore calls report errors through errno.
#include <pthread.h>
#include <semaphore.h>

#include <cerrno>

#include "interpose.h"

using namespace ctrlsched::shim;

namespace {
int errno_result(int error) {
  if (error == 0) return 0;
  errno = error;
  return -1;
}
}  // namespace

CTRLSCHED_EXPORT int sem_wait(sem_t* s) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sem_wait, s);
  return errno_result(semaphore_wait(me, s, WaitMode::Block, nullptr));
}

CTRLSCHED_EXPORT int sem_trywait(sem_t* s) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sem_trywait, s);
  return errno_result(semaphore_wait(me, s, WaitMode::Try, nullptr));
}

CTRLSCHED_EXPORT int sem_timedwait(sem_t* s, const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sem_timedwait, s, abstime);
  return errno_result(semaphore_wait(me, s, WaitMode::Timed, abstime));
}

CTRLSCHED_EXPORT int sem_clockwait(sem_t* s, clockid_t clock, const timespec* abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sem_clockwait, s, clock, abstime);
  return errno_result(semaphore_wait(me, s, WaitMode::Timed, abstime));
}

CTRLSCHED_EXPORT int sem_post(sem_t* s) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sem_post, s);
  return errno_result(semaphore_post(me, s));
}

CTRLSCHED_EXPORT int sem_getvalue(sem_t* s, int* value) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sem_getvalue, s, value);
  return errno_result(semaphore_value(me, s, value));
}

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
