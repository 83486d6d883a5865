#include "spin_preempt.h"

#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>

#include "engine.h"
#include "raw_syscall.h"
#include "runtime.h"
#include "stack.h"
#include "watchdog.h"

namespace ctrlsched::shim {

namespace {

int spin_signal() { return SIGRTMAX - 3; }

bool only_holder_can_run() {
  return __atomic_load_n(&g_rt.runnable, __ATOMIC_RELAXED) <= 1 &&
         __atomic_load_n(&g_rt.timed_blocked, __ATOMIC_RELAXED) == 0;
}

// Runs in the spinning thread. It holds the baton and was interrupted in its own code (not in
// the shim, not in a system call, not in libc or the loader, which may hold internal locks), so
// the engine state is consistent and only this thread touches it: the same situation as at any
// scheduling point. Everything it calls is async-signal-safe (no allocation, no locks; parking
// is a futex wait).
void on_spin_signal(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  Thread* me = tls_self;
  auto* uc = static_cast<ucontext_t*>(context);
  const auto pc = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  if (g_rt.active && me != nullptr && tls_shim_depth == 0 && !tls_shim_internal &&
      g_rt.current == me && me->state == ThreadState::Runnable &&
      !me->escaped.load(std::memory_order_relaxed) && !only_holder_can_run() &&
      !interrupted_in_syscall(uc) && !in_shim(pc) && !in_runtime_library(pc)) {
    ++tls_shim_depth;
    SpinInfo& spin = g_rt.record->spin;
    if (spin.count++ == 0) {
      spin.thread = me->id;
      spin.budget_us = spin_budget_us();
      format_location(spin.location, pc);
    }
    point(me, PointKind::Yield);  // may hand the baton on and park here until picked again
    --tls_shim_depth;
  }
  errno = saved_errno;
}

}  // namespace

std::uint64_t spin_budget_us() {
  const std::uint64_t configured = g_rt.config.spin_budget_us;
  if (configured == kSpinBudgetNever) return 0;
  return configured == 0 ? kDefaultSpinBudgetUs : configured;
}

void install_spin_handler() {
  struct sigaction sa {};
  sa.sa_sigaction = on_spin_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(spin_signal(), &sa, nullptr);
}

bool others_could_run() { return !only_holder_can_run(); }

// Called by the watchdog, which may not use libc's or the shim's syscall() (watchdog.cc).
void request_spin_preemption(const Thread* holder) {
  raw_syscall(SYS_tgkill, g_rt.pid, holder->os_tid, spin_signal());
}

}  // namespace ctrlsched::shim
