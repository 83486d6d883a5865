// C11 threads. glibc implements them on top of its internal pthread functions (calls that bypass
// our interposers), so each one is interposed here and mapped onto the same models. In glibc
// mtx_t, cnd_t and once_flag share the layouts of pthread_mutex_t, pthread_cond_t and
// pthread_once_t.
#include <threads.h>

#include <cerrno>
#include <cstdint>

#include "../engine.h"
#include "interpose.h"

using namespace ctrlsched::shim;

namespace {

int c11_result(int error) {
  switch (error) {
    case 0: return thrd_success;
    case EBUSY: return thrd_busy;
    case ETIMEDOUT: return thrd_timedout;
    case ENOMEM: case EAGAIN: return thrd_nomem;
    default: return thrd_error;
  }
}

pthread_mutex_t* as_mutex(mtx_t* m) { return reinterpret_cast<pthread_mutex_t*>(m); }
pthread_cond_t* as_cond(cnd_t* c) { return reinterpret_cast<pthread_cond_t*>(c); }

}  // namespace

CTRLSCHED_EXPORT int thrd_create(thrd_t* thr, thrd_start_t func, void* arg) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(thrd_create, thr, func, arg);
  pthread_t handle;
  int rc = thread_create(me, &handle, nullptr, nullptr, func, arg);
  if (rc == 0) *thr = handle;
  return c11_result(rc);
}

CTRLSCHED_EXPORT int thrd_join(thrd_t thr, int* res) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thr)) me = nullptr;
  if (me == nullptr) return REAL(thrd_join)(thr, res);
  ShimEntry shim_entry_guard(me);
  void* result = nullptr;
  int rc = thread_join(me, thr, &result, WaitMode::Block, nullptr);
  if (rc == 0 && res) *res = static_cast<int>(reinterpret_cast<std::intptr_t>(result));
  return c11_result(rc);
}

CTRLSCHED_EXPORT int thrd_detach(thrd_t thr) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thr)) me = nullptr;
  if (me == nullptr) return REAL(thrd_detach)(thr);
  ShimEntry shim_entry_guard(me);
  return c11_result(thread_detach(me, thr));
}

CTRLSCHED_EXPORT void thrd_exit(int res) {
  if (Thread* me = controlled_self()) me->retval = reinterpret_cast<void*>(static_cast<std::intptr_t>(res));
  REAL(thrd_exit)(res);
  __builtin_unreachable();
}

CTRLSCHED_EXPORT void thrd_yield(void) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(thrd_yield);
  ::ctrlsched::shim::point(me, ::ctrlsched::PointKind::Yield);
}

CTRLSCHED_EXPORT int thrd_sleep(const timespec* duration, timespec* remaining) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(thrd_sleep, duration, remaining);
  if (!valid_timeout(duration) || duration->tv_sec < 0) return -2;
  ::ctrlsched::shim::point(me, ::ctrlsched::PointKind::Yield);
  if (remaining) *remaining = timespec{};
  return 0;
}

CTRLSCHED_EXPORT int mtx_lock(mtx_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(mtx_lock, m);
  return c11_result(mutex_lock(me, as_mutex(m), WaitMode::Block, nullptr));
}

CTRLSCHED_EXPORT int mtx_trylock(mtx_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(mtx_trylock, m);
  return c11_result(mutex_lock(me, as_mutex(m), WaitMode::Try, nullptr));
}

CTRLSCHED_EXPORT int mtx_timedlock(mtx_t* __restrict m, const timespec* __restrict abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(mtx_timedlock, m, abstime);
  return c11_result(mutex_lock(me, as_mutex(m), WaitMode::Timed, abstime));
}

CTRLSCHED_EXPORT int mtx_unlock(mtx_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(mtx_unlock, m);
  return c11_result(mutex_unlock(me, as_mutex(m)));
}

CTRLSCHED_EXPORT int cnd_wait(cnd_t* c, mtx_t* m) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(cnd_wait, c, m);
  return c11_result(cond_wait(me, as_cond(c), as_mutex(m), nullptr));
}

CTRLSCHED_EXPORT int cnd_timedwait(cnd_t* __restrict c, mtx_t* __restrict m,
                                   const timespec* __restrict abstime) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(cnd_timedwait, c, m, abstime);
  return c11_result(cond_wait(me, as_cond(c), as_mutex(m), abstime));
}

CTRLSCHED_EXPORT int cnd_signal(cnd_t* c) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(cnd_signal, c);
  return c11_result(cond_signal(me, as_cond(c)));
}

CTRLSCHED_EXPORT int cnd_broadcast(cnd_t* c) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(cnd_broadcast, c);
  return c11_result(cond_broadcast(me, as_cond(c)));
}

CTRLSCHED_EXPORT void call_once(once_flag* flag, void (*func)(void)) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(call_once, flag, func);
  once(me, reinterpret_cast<pthread_once_t*>(flag), func);
}
