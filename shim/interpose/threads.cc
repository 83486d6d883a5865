// pthread thread management: create, join (plain, try, timed, clock), detach, exit.
#include <pthread.h>

#include <cstdint>

#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int pthread_create(pthread_t* out, const pthread_attr_t* attr,
                                    void* (*start)(void*), void* arg) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(pthread_create, out, attr, start, arg);
  return thread_create(me, out, attr, start, nullptr, arg);
}

CTRLSCHED_EXPORT int pthread_join(pthread_t thread, void** result) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thread)) me = nullptr;
  if (me == nullptr) return REAL(pthread_join)(thread, result);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  return thread_join(me, thread, result, WaitMode::Block, {});
}

CTRLSCHED_EXPORT int pthread_tryjoin_np(pthread_t thread, void** result) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thread)) me = nullptr;
  if (me == nullptr) return REAL(pthread_tryjoin_np)(thread, result);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  return thread_join(me, thread, result, WaitMode::Try, {});
}

CTRLSCHED_EXPORT int pthread_timedjoin_np(pthread_t thread, void** result, const timespec* abstime) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thread)) me = nullptr;
  if (me == nullptr)
    return REAL(pthread_timedjoin_np)(thread, result, abstime);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  return thread_join(me, thread, result, abstime ? WaitMode::Timed : WaitMode::Block,
                     {CLOCK_REALTIME, abstime});
}

CTRLSCHED_EXPORT int pthread_clockjoin_np(pthread_t thread, void** result, clockid_t clock,
                                          const timespec* abstime) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thread)) me = nullptr;
  if (me == nullptr)
    return REAL(pthread_clockjoin_np)(thread, result, clock, abstime);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  return thread_join(me, thread, result, abstime ? WaitMode::Timed : WaitMode::Block, {clock, abstime});
}

CTRLSCHED_EXPORT int pthread_detach(pthread_t thread) {
  Thread* me = controlled_self();
  if (me != nullptr && !is_controlled_thread(thread)) me = nullptr;
  if (me == nullptr) return REAL(pthread_detach)(thread);
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ShimEntry shim_entry_guard(me);
  return thread_detach(me, thread);
}

CTRLSCHED_EXPORT void pthread_exit(void* result) {
  if (Thread* me = controlled_self()) me->retval = result;
  REAL(pthread_exit)(result);
  __builtin_unreachable();
}
