// Fatal-signal capture. The handler runs on the faulting thread (on its alternate stack), writes
// the signal, thread and pc into the shared run record with plain stores, restores the default
// action and lets the signal kill the process as it would have without us.
#include "crash.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "collectors.h"
#include "runtime.h"
#include "stack.h"

namespace ctrlsched::shim {

namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
constexpr std::size_t kAltStackBytes = 64 * 1024;

void on_fatal_signal(int sig, siginfo_t* info, void* context) {
  RunRecord* r = g_rt.record;
  if (g_rt.active && r != nullptr &&
      r->outcome == static_cast<std::uint32_t>(ShimOutcome::None)) {
    r->outcome = static_cast<std::uint32_t>(ShimOutcome::Signal);
    r->steps = g_rt.steps;
    r->signal.number = sig;
    r->signal.thread = tls_self ? tls_self->id : 0;
    auto* uc = static_cast<ucontext_t*>(context);
    auto pc = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    r->signal.pc = pc;
    r->signal.fault_address = reinterpret_cast<std::uint64_t>(info->si_addr);
    format_location(r->signal.pc_location, pc);
    // The unwinder was loaded at start-up, so this neither allocates nor takes the loader's lock.
    // A fault inside it (a smashed stack) kills the process: the outcome is already recorded.
    capture_stack(r->failure.stack, pc);
    r->failure.thread = r->signal.thread;
  }
  if (g_rt.active && r != nullptr) finish_collectors();  // async-signal-safe
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  // A fault re-executes the faulting instruction on return and dies with the default action;
  // an asynchronous signal (e.g. abort's raise) is re-raised explicitly.
  if (info->si_code <= 0) raise(sig);
}

}  // namespace

void install_crash_handlers() {
  struct sigaction sa {};
  sa.sa_sigaction = on_fatal_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : kFatalSignals) sigaction(sig, &sa, nullptr);
}

void* allocate_alternate_stack() {
  void* mem = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  return mem == MAP_FAILED ? nullptr : mem;
}

void install_alternate_stack(void* altstack) {
  if (altstack == nullptr) return;
  stack_t ss{};
  ss.ss_sp = altstack;
  ss.ss_size = kAltStackBytes;
  sigaltstack(&ss, nullptr);
}

void release_alternate_stack(Thread* t) {
  if (t->altstack == nullptr) return;
  stack_t ss{};
  ss.ss_flags = SS_DISABLE;
  if (sigaltstack(&ss, nullptr) == 0) {
    munmap(t->altstack, kAltStackBytes);
    t->altstack = nullptr;
  }
}

}  // namespace ctrlsched::shim
