// How interposers turn a model's errno value into what each API returns, and the C11 types'
// pthread views.
#pragma once

#include <pthread.h>
#include <threads.h>

#include <cerrno>

namespace ctrlsched::shim {

// POSIX semaphore style: 0, or -1 with errno set.
inline int errno_result(int error) {
  if (error == 0) return 0;
  errno = error;
  return -1;
}

// C11 threads style.
inline int c11_result(int error) {
  switch (error) {
    case 0: return thrd_success;
    case EBUSY: return thrd_busy;
    case ETIMEDOUT: return thrd_timedout;
    case ENOMEM:
    case EAGAIN: return thrd_nomem;
    default: return thrd_error;
  }
}

// glibc's mtx_t and cnd_t have the layouts of pthread_mutex_t and pthread_cond_t.
inline pthread_mutex_t* as_mutex(mtx_t* m) { return reinterpret_cast<pthread_mutex_t*>(m); }
inline pthread_cond_t* as_cond(cnd_t* c) { return reinterpret_cast<pthread_cond_t*>(c); }

}  // namespace ctrlsched::shim
