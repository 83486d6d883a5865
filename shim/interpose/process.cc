// Process-level events: fork, exit from any thread, assertion failures, dlopen, and syscall()
// (for the futex calls libstdc++ makes directly).
//
// fork: the child process runs uncontrolled (the shim turns itself off there; every interposer
// forwards to libc) and never writes the parent's run record. Programs the test execs load the
// shim too but stay inert: the record belongs to another pid.
#include <assert.h>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "../collectors.h"
#include "../engine.h"
#include "../report.h"
#include "../stack.h"
#include "../virtual_time.h"
#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT pid_t fork(void) {
  if (Thread* me = controlled_self()) {
    ShimEntry shim_entry_guard(me);
    point(me, ctrlsched::PointKind::Sync);
  }
  pid_t pid = REAL(fork)();
  if (pid == 0 && g_rt.active) g_rt.active = false;
  return pid;
}

namespace {
// exit, _exit and _Exit from any thread: the final step count and a non-zero status reach the
// record before the process goes.
void note_process_exit(int status) {
  if (controlled_self() == nullptr) return;
  publish_steps();
  record_exit_status(status);
  finish_collectors();
}
}  // namespace

CTRLSCHED_EXPORT void exit(int status) {
  note_process_exit(status);
  REAL(exit)(status);
  __builtin_unreachable();
}

CTRLSCHED_EXPORT void _exit(int status) {
  note_process_exit(status);
  REAL(_exit)(status);
  __builtin_unreachable();
}

CTRLSCHED_EXPORT void _Exit(int status) {
  note_process_exit(status);
  REAL(_Exit)(status);
  __builtin_unreachable();
}

CTRLSCHED_EXPORT void __assert_fail(const char* expression, const char* file, unsigned line,
                                    const char* function) {
  if (controlled_self() != nullptr) {
    char message[ctrlsched::kTextLarge];
    std::snprintf(message, sizeof message, "assertion `%s' failed", expression);
    record_assertion(message, expression, file, line, function);
  }
  REAL(__assert_fail)(expression, file, line, function);
  __builtin_unreachable();
}

CTRLSCHED_EXPORT void __assert_perror_fail(int error, const char* file, unsigned line,
                                           const char* function) {
  if (controlled_self() != nullptr) {
    char message[ctrlsched::kTextLarge];
    std::snprintf(message, sizeof message, "assert_perror failed: %s", std::strerror(error));
    record_assertion(message, "", file, line, function);
  }
  REAL(__assert_perror_fail)(error, file, line, function);
  __builtin_unreachable();
}

CTRLSCHED_EXPORT void* dlopen(const char* file, int mode) {
  void* handle = REAL(dlopen)(file, mode);
  if (g_rt.active) refresh_module_table(g_rt.record);
  return handle;
}

CTRLSCHED_EXPORT long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (long& arg : a) arg = va_arg(ap, long);
  va_end(ap);
  if (number == SYS_futex) {
    if (Thread* me = controlled_self()) {
      ShimEntry shim_entry_guard(me);
      bool handled = false;
      long result = futex(me, reinterpret_cast<std::uint32_t*>(a[0]), static_cast<int>(a[1]),
                          static_cast<std::uint32_t>(a[2]), reinterpret_cast<const timespec*>(a[3]),
                          static_cast<std::uint32_t>(a[5]), &handled);
      if (handled) return result;
    }
  }
  if (number == SYS_clock_gettime && controlled_self() != nullptr) {
    std::optional<timespec> now = virtual_clock_read(static_cast<clockid_t>(a[0]));
    if (now) {
      if (a[1]) *reinterpret_cast<timespec*>(a[1]) = *now;
      return 0;
    }
  }
  return REAL(syscall)(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
