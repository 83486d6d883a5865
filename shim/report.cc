// Outcomes written into the run record. A deadlock report names, for every blocked thread, what
// it waits on and who holds it, with each blocked thread's own stack.
#include "report.h"

#include <pthread.h>

#include <cstdio>
#include <cstring>

#include "baton.h"
#include "collectors.h"
#include "engine.h"
#include "real.h"
#include "runtime.h"
#include "stack.h"

namespace ctrlsched::shim {

void copy_text(char* dst, std::size_t size, const char* src) {
  if (size == 0) return;
  std::size_t n = src ? std::strlen(src) : 0;
  if (n >= size) n = size - 1;
  if (n) std::memcpy(dst, src, n);
  dst[n] = '\0';
}

namespace {

bool first_outcome(ShimOutcome outcome) {
  RunRecord* r = g_rt.record;
  r->steps = g_rt.steps;
  if (r->outcome != static_cast<std::uint32_t>(ShimOutcome::None)) return false;
  r->outcome = static_cast<std::uint32_t>(outcome);
  return true;
}

const char* wait_kind_name(WaitKind kind) {
  switch (kind) {
    case WaitKind::Mutex: return "mutex";
    case WaitKind::RwlockRead: return "rwlock (read)";
    case WaitKind::RwlockWrite: return "rwlock (write)";
    case WaitKind::Cond: return "condition variable";
    case WaitKind::Semaphore: return "semaphore";
    case WaitKind::Barrier: return "barrier";
    case WaitKind::Join: return "join of";
    case WaitKind::Once: return "once";
    case WaitKind::Spin: return "spinlock";
    case WaitKind::Futex: return "futex";
    case WaitKind::None: break;
  }
  return "?";
}

Thread* holder_of(const Thread* t) {
  switch (t->wait_kind) {
    case WaitKind::Mutex: {
      auto* m = static_cast<const pthread_mutex_t*>(t->wait_object);
      return g_rt.threads.find_by_os_tid(m->__data.__owner);
    }
    case WaitKind::RwlockRead:
    case WaitKind::RwlockWrite: return t->wait_model ? t->wait_model->writer : nullptr;
    case WaitKind::Join: return t->join_target;
    default: return nullptr;
  }
}

}  // namespace

void record_assertion(const char* message, const char* expression, const char* file,
                      unsigned line, const char* function) {
  if (!first_outcome(ShimOutcome::Assertion)) return;
  FailureInfo& f = g_rt.record->failure;
  copy_text(f.message, sizeof f.message, message);
  copy_text(f.expression, sizeof f.expression, expression);
  copy_text(f.file, sizeof f.file, file);
  copy_text(f.function, sizeof f.function, function);
  f.line = line;
  f.thread = tls_self ? tls_self->id : 0;
  capture_stack(f.stack);
  finish_collectors();  // abort() follows; the signal handler would do it too, if it ran
}

void record_exit_status(int status) {
  if (status == 0 || !first_outcome(ShimOutcome::Exit)) return;
  g_rt.record->exit_status = status;
  g_rt.record->failure.thread = tls_self ? tls_self->id : 0;
  std::snprintf(g_rt.record->failure.message, sizeof g_rt.record->failure.message,
                "exit(%d) called by T%u", status, tls_self ? tls_self->id : 0);
}

void end_run() {
  finish_collectors();  // deadlock, hang, divergence, shim error: the run ends here
  std::fflush(nullptr);  // keep what the test printed; every other thread is parked in the shim
  REAL(_exit)(kShimEndedStatus);
  __builtin_unreachable();
}

void fail_deadlock(Thread* me) {
  if (!first_outcome(ShimOutcome::Deadlock)) end_run();
  DeadlockInfo& d = g_rt.record->deadlock;
  FailureInfo& f = g_rt.record->failure;
  char* out = f.message;
  std::size_t room = sizeof f.message;
  // A call without arguments prints fmt through "%s", so no format string reaches snprintf
  // without its arguments (clang -Wformat-security).
  auto append = [&](const char* fmt, auto... args) {
    int n = 0;
    if constexpr (sizeof...(args) == 0) n = std::snprintf(out, room, "%s", fmt);
    else n = std::snprintf(out, room, fmt, args...);
    if (n > 0 && static_cast<std::size_t>(n) < room) { out += n; room -= static_cast<std::size_t>(n); }
    else room = 0;
  };
  append("deadlock:");
  d.blocked_count = 0;
  d.reported = 0;
  for (std::uint32_t id = 0; id < g_rt.threads.count(); ++id) {
    Thread* t = g_rt.threads.at(id);
    if (t->state != ThreadState::Blocked) continue;
    ++d.blocked_count;
    Thread* holder = holder_of(t);
    if (t->wait_kind == WaitKind::Join)
      append(" T%u waits for %s T%u;", t->id, wait_kind_name(t->wait_kind), holder ? holder->id : 0);
    else if (holder)
      append(" T%u waits for %s %p held by T%u%s;", t->id, wait_kind_name(t->wait_kind),
             t->wait_object, holder->id, holder->state == ThreadState::Exited ? " (exited)" : "");
    else
      append(" T%u waits for %s %p;", t->id, wait_kind_name(t->wait_kind), t->wait_object);
    if (d.reported == kMaxReportedBlocked) continue;
    BlockedThread& b = d.threads[d.reported++];
    b.thread = t->id;
    b.wait_kind = static_cast<std::uint32_t>(t->wait_kind);
    b.object = reinterpret_cast<std::uint64_t>(t->wait_object);
    b.holder = holder ? static_cast<std::int32_t>(holder->id) : -1;
    b.holder_exited = holder && holder->state == ThreadState::Exited;
    b.timed = t->timed_wait;
    b.wait_site = site_of(t->sync_pc);
    b.held_count = t->held_count;
    for (std::uint32_t k = 0; k < t->held_count && k < kMaxHeldLocks; ++k)
      b.held[k] = HeldLock{reinterpret_cast<std::uint64_t>(t->held_locks[k].object), site_of(t->held_locks[k].pc)};
  }
  f.thread = me->id;
  // Each blocked thread records its own stack: hand it the baton with a dump request.
  for (std::uint32_t i = 0; i < d.reported; ++i) {
    Thread* t = g_rt.threads.at(d.threads[i].thread);
    if (t == me) {
      capture_stack(d.threads[i].stack);
      continue;
    }
    g_rt.dump_request = t;
    g_rt.dump_requester = me;
    me->baton.store(0, std::memory_order_relaxed);
    give_baton(t->baton);
    wait_baton(me->baton);
  }
  end_run();
}

void fail_diverged(const Divergence& divergence) {
  if (first_outcome(ShimOutcome::Diverged)) {
    DivergenceInfo& d = g_rt.record->divergence;
    d.decision_index = divergence.decision_index;
    d.step = divergence.step ? divergence.step : g_rt.steps;
    copy_text(d.what, sizeof d.what, divergence.what.c_str());
  }
  end_run();
}

void fail_shim_error(const char* message) {
  if (first_outcome(ShimOutcome::ShimError))
    copy_text(g_rt.record->failure.message, sizeof g_rt.record->failure.message, message);
  end_run();
}

}  // namespace ctrlsched::shim
