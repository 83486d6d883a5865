// C11 threads. glibc implements them on top of its internal pthread functions (calls that bypass
// our interposers), so each one is interposed and mapped onto the same models: the thread
// functions and call_once here, mtx_* and cnd_* in interposers.def. In glibc once_flag shares the
// layout of pthread_once_t.
#include <threads.h>

#include <cerrno>
#include <cstdint>

#include "../engine.h"
#include "interpose.h"
#include "results.h"

using namespace ctrlsched::shim;


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
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  void* result = nullptr;
  int rc = thread_join(me, thr, &result, WaitMode::Block, {});
  if (rc == 0 && res) *res = static_cast<int>(reinterpret_cast<std::intptr_t>(result));
  return c11_result(rc);
}

CTRLSCHED_EXPORT int thrd_detach(thrd_t thr) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thr)) me = nullptr;
  if (me == nullptr) return REAL(thrd_detach)(thr);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
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
  virtual_clock_reach(virtual_deadline_after(duration));
  if (remaining) *remaining = timespec{};
  return 0;
}

CTRLSCHED_EXPORT void call_once(once_flag* flag, void (*func)(void)) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(call_once, flag, func);
  once(me, reinterpret_cast<pthread_once_t*>(flag), func);
}
