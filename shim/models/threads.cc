// Thread creation, start, join and detach.
//
// A new OS thread first parks on its baton in the trampoline: it runs no test code until the
// strategy picks it. Everything that allocates addresses (its stack, its signal stack) is done
// by the creating thread, so the address layout never depends on how fast the OS starts it.
// Joins are modelled (block until the target exited); the OS-level join happens afterwards and
// only waits for the last few instructions of the exiting thread.
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "collectors.h"
#include "crash.h"
#include "tsan/access.h"
#include "engine.h"
#include "sync_point.h"
#include "models.h"
#include "real.h"
#include "report.h"
#include "stack.h"
#include "stack_residue.h"
#include "watchdog.h"

namespace ctrlsched::shim {

namespace {

void* trampoline(void* arg) {
  auto* me = static_cast<Thread*>(arg);
  tls_self = me;
  me->os_tid = gettid();
  pthread_setspecific(g_rt.exit_key, me);
  install_alternate_stack(me->altstack);
  ++tls_shim_depth;
  park(me);
  emit(EventKind::ThreadStart, me, 0, 0);
  --tls_shim_depth;
  // The start routine's frame goes where park and the event just ran (stack_residue.h): with
  // --access-pairs a pointer into the shim lay 64 bytes below it; 8 KiB leaves room.
  clear_stack_below_caller<8 * 1024>();
  void* result = me->c11_start
                     ? reinterpret_cast<void*>(static_cast<std::intptr_t>(me->c11_start(me->arg)))
                     : me->start(me->arg);
  me->retval = result;
  return result;
}

Thread* find_thread(pthread_t handle) {
  // Prefer a thread that has not been joined yet: glibc may hand a joined thread's handle to a
  // newer thread.
  Thread* fallback = nullptr;
  for (std::uint32_t id = g_rt.threads.count(); id-- > 0;) {
    Thread* t = g_rt.threads.at(id);
    if (!pthread_equal(t->handle, handle)) continue;
    if (!t->joined && !t->detached) return t;
    if (!fallback) fallback = t;
  }
  return fallback;
}

}  // namespace

bool is_controlled_thread(pthread_t handle) { return find_thread(handle) != nullptr; }
Thread* find_controlled_thread(pthread_t handle) { return find_thread(handle); }

int thread_create(Thread* me, pthread_t* out, const pthread_attr_t* attr, void* (*start)(void*),
                  int (*c11_start)(void*), void* arg) {
  point(me, PointKind::Sync);
  reap_detached_threads();
  start_watchdog();
  Thread* child = g_rt.threads.create();
  if (child == nullptr) fail_shim_error("ctrlsched shim: more than 1024 threads in one run");
  child->start = start;
  child->c11_start = c11_start;
  child->arg = arg;
  child->altstack = allocate_alternate_stack();

  // The OS thread is always joinable (see engine.cc); detachment is modelled.
  int detach_state = PTHREAD_CREATE_JOINABLE;
  auto* mutable_attr = const_cast<pthread_attr_t*>(attr);
  if (attr) pthread_attr_getdetachstate(attr, &detach_state);
  if (detach_state == PTHREAD_CREATE_DETACHED)
    pthread_attr_setdetachstate(mutable_attr, PTHREAD_CREATE_JOINABLE);
  int rc = REAL(pthread_create)(&child->handle, attr, trampoline, child);
  if (detach_state == PTHREAD_CREATE_DETACHED)
    pthread_attr_setdetachstate(mutable_attr, PTHREAD_CREATE_DETACHED);
  if (rc != 0) {
    child->state = ThreadState::Exited;
    child->reaped = true;
    g_rt.threads.remove_live(child->id);
    return rc;
  }
  child->detached = detach_state == PTHREAD_CREATE_DETACHED;
  set_thread_local_ranges(child, child->handle);
  me->stack_size = 0;  // the creator may hand the child pointers into its stack
  emit(EventKind::ThreadCreate, me, child->id, site_of(me->sync_pc));
  ++g_rt.state_version;
  ++g_rt.runnable;
  g_rt.recorder->on_thread_created(child->id, me->id);
  g_rt.record->threads_created = g_rt.threads.count();
  *out = child->handle;
  point(me, PointKind::Create);
  return 0;
}

int thread_join(Thread* me, pthread_t handle, void** result, WaitMode mode, Timeout timeout) {
  Thread* target = find_thread(handle);
  sync_point(me, SyncOp::Join, target != nullptr ? std::uint64_t{target->id} : 0);
  if (mode != WaitMode::Try) cancellation_point(me);
  if (target == nullptr) return ESRCH;
  if (target == me) return EDEADLK;
  if (target->detached || target->joined) return EINVAL;
  while (target->state != ThreadState::Exited) {
    if (mode == WaitMode::Try) return EBUSY;
    if (mode == WaitMode::Timed && !valid_timeout(timeout.abstime)) return EINVAL;
    me->join_target = target;
    bool timed_out = block(me, WaitKind::Join, target, &target->joiners, nullptr,
                           mode == WaitMode::Timed, virtual_deadline(timeout));
    cancellation_point(me);
    if (timed_out) return ETIMEDOUT;
  }
  target->joined = true;
  emit(EventKind::ThreadJoin, me, target->id, site_of(me->sync_pc));
  if (!target->reaped && target->id != 0) {
    join_os_thread(target->handle);
    target->reaped = true;
  }
  if (result) *result = target->retval;
  return 0;
}

int thread_detach(Thread* me, pthread_t handle) {
  point(me, PointKind::Sync);
  Thread* target = find_thread(handle);
  if (target == nullptr) return ESRCH;
  if (target->detached || target->joined) return EINVAL;
  target->detached = true;
  return 0;
}

}  // namespace ctrlsched::shim
