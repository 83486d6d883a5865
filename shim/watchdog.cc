#include "watchdog.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "baton.h"
#include "engine.h"
#include "real.h"
#include "runtime.h"
#include "spin_preempt.h"
#include "stack.h"

namespace ctrlsched::shim {

std::atomic<std::uint32_t> g_rejoin_pending{0};

namespace {

constexpr long kIdleIntervalNs = 20'000'000;   // 20 ms while only the holder could run
constexpr long kBusyIntervalNs = 1'000'000;    // at most 1 ms while others wait (spin budget)
constexpr long kMinIntervalNs = 100'000;
constexpr std::uint64_t kBlockedNs = 100'000'000;  // stuck in the kernel for 100 ms: release
std::atomic<std::uint32_t> g_watchdog_word{0};
std::atomic<bool> g_watchdog_started{false};
std::atomic<bool> g_watchdog_stop{false};
long g_stuck_syscall = -1;

int release_signal() { return SIGRTMAX - 2; }

}  // namespace

// The thread sat in the kernel: its pc is at a `syscall` instruction (0f 05) that the kernel
// rewound to restart it, or right after one that will return EINTR.
bool interrupted_in_syscall(const ucontext_t* uc) {
  auto pc = reinterpret_cast<const unsigned char*>(uc->uc_mcontext.gregs[REG_RIP]);
  return (pc[0] == 0x0f && pc[1] == 0x05) || (pc[-2] == 0x0f && pc[-1] == 0x05);
}

namespace {

void on_release_signal(int, siginfo_t*, void* context) {
  Thread* me = tls_self;
  auto* uc = static_cast<ucontext_t*>(context);
  if (!g_rt.active || me == nullptr || tls_shim_depth > 0 || g_rt.current != me ||
      me->state != ThreadState::Runnable || !interrupted_in_syscall(uc))
    return;
  UncontrolledInfo& u = g_rt.record->uncontrolled;
  if (u.count++ == 0) {
    u.thread = me->id;
    u.syscall = g_stuck_syscall;
    format_location(u.location, static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]));
  }
  me->escaped.store(true, std::memory_order_relaxed);
  ++g_rt.state_version;
  me->state = ThreadState::Escaped;
  --g_rt.runnable;
  ++g_rt.escaped;
  release_baton(me);
}

// The state letter of /proc/<tid>/stat: R running, S/D sleeping in the kernel; '?' if unknown.
char thread_state(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return '?';
  char buf[512];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return '?';
  buf[n] = '\0';
  const char* close_paren = std::strrchr(buf, ')');  // the command name may contain spaces
  return close_paren ? close_paren[2] : '?';
}

long current_syscall(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/syscall", tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[64];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  return std::strtol(buf, nullptr, 10);
}

// While nobody holds the baton (every controlled thread waits for an escaped one), the watchdog
// stands in for the holder: it takes back a rejoining thread and hands it the baton.
void restart_from_rejoin() {
  process_rejoins();
  const ThreadId* live = g_rt.threads.live();
  for (std::uint32_t i = 0; i < g_rt.threads.live_count(); ++i) {
    Thread* t = g_rt.threads.at(live[i]);
    if (t->state != ThreadState::Runnable) continue;
    __atomic_store_n(&g_rt.current, t, __ATOMIC_RELEASE);
    give_baton(t->baton);
    return;
  }
}

std::uint64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // the watchdog is not a controlled thread: real time
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000 + static_cast<std::uint64_t>(now.tv_nsec);
}

// CPU time the thread has used, in ns; 0 if unknown (the thread is gone). The clock id is the
// kernel's per-thread scheduler CPU clock of `tid` (what pthread_getcpuclockid builds), made
// from the tid so that a holder that has just exited is never dereferenced.
std::uint64_t thread_cpu_ns(const Thread* t) {
  constexpr clockid_t kPerThreadSchedClock = 4 | 2;  // CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED
  const clockid_t clock = static_cast<clockid_t>((~static_cast<unsigned>(t->os_tid)) << 3) | kPerThreadSchedClock;
  timespec used{};
  if (clock_gettime(clock, &used) != 0) return 0;
  return static_cast<std::uint64_t>(used.tv_sec) * 1'000'000'000 + static_cast<std::uint64_t>(used.tv_nsec);
}

// Blocked holders are released after kBlockedNs without a step; spinning holders (running on the
// CPU, spin_preempt.h) are preempted after the spin budget, and only while another thread could
// run. The watchdog looks often while another thread could run (the spin budget is short) and
// rarely otherwise.
long check_interval_ns(std::uint64_t spin_budget_ns) {
  if (spin_budget_ns == 0 || !others_could_run()) return kIdleIntervalNs;
  long half = static_cast<long>(spin_budget_ns / 2);
  return half < kMinIntervalNs ? kMinIntervalNs : (half > kBusyIntervalNs ? kBusyIntervalNs : half);
}

void* watchdog_main(void*) {
  const std::uint64_t spin_budget_ns = spin_budget_us() * 1000;
  Thread* last_holder = nullptr;
  std::uint64_t last_steps = 0;
  // The holder's CPU time when it was last seen taking a step (spinning is measured in CPU time,
  // so a thread that merely waits for a CPU on a loaded machine is never taken for a spinner),
  // and since when it has been seen sleeping in the kernel without a step.
  std::uint64_t cpu_at_step = 0;
  std::uint64_t sleeping_since = monotonic_ns();
  for (;;) {
    timespec interval{0, check_interval_ns(spin_budget_ns)};
    std::uint32_t seen = g_watchdog_word.load(std::memory_order_acquire);
    REAL(syscall)(SYS_futex, &g_watchdog_word, FUTEX_WAIT_PRIVATE, seen, &interval, nullptr, 0);
    if (!g_rt.active || g_watchdog_stop.load(std::memory_order_acquire)) return nullptr;
    Thread* holder = __atomic_load_n(&g_rt.current, __ATOMIC_ACQUIRE);
    if (holder == nullptr) {
      if (g_rejoin_pending.load(std::memory_order_acquire) != 0) restart_from_rejoin();
      continue;
    }
    std::uint64_t steps = __atomic_load_n(&g_rt.steps, __ATOMIC_RELAXED);
    const std::uint64_t now = monotonic_ns();
    const std::uint64_t cpu = spin_budget_ns != 0 ? thread_cpu_ns(holder) : 0;
    if (holder != last_holder || steps != last_steps) {
      last_holder = holder;
      last_steps = steps;
      cpu_at_step = cpu;
      sleeping_since = now;
      continue;
    }
    const char state = thread_state(holder->os_tid);
    if (state != 'S' && state != 'D') sleeping_since = now;
    if (spin_budget_ns != 0 && cpu != 0 && cpu - cpu_at_step >= spin_budget_ns && others_could_run()) {
      request_spin_preemption(holder);
      cpu_at_step = cpu;  // if the handler declined (in libc, say), ask again after a budget
    } else if (now - sleeping_since >= kBlockedNs) {
      sleeping_since = now;
      g_stuck_syscall = current_syscall(holder->os_tid);
      syscall(SYS_tgkill, g_rt.pid, holder->os_tid, release_signal());
    }
  }
}

}  // namespace

void install_release_handler() {
  struct sigaction sa {};
  sa.sa_sigaction = on_release_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(release_signal(), &sa, nullptr);
}

void start_watchdog() {
  if (g_watchdog_started.exchange(true)) return;
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  REAL(pthread_create)(&thread, &attr, watchdog_main, nullptr);
  pthread_attr_destroy(&attr);
}

void stop_watchdog() {
  g_watchdog_stop.store(true, std::memory_order_release);
  g_watchdog_word.fetch_add(1, std::memory_order_release);
  futex_wake_word(g_watchdog_word);
}

void process_rejoins() {
  if (g_rejoin_pending.exchange(0, std::memory_order_acquire) == 0) return;
  const ThreadId* live = g_rt.threads.live();
  for (std::uint32_t i = 0; i < g_rt.threads.live_count(); ++i) {
    Thread* t = g_rt.threads.at(live[i]);
    if (!t->rejoin_requested.exchange(false, std::memory_order_acquire)) continue;
    t->escaped.store(false, std::memory_order_relaxed);
    ++g_rt.state_version;
    t->state = ThreadState::Runnable;
    ++g_rt.runnable;
    --g_rt.escaped;
  }
}

void rejoin(Thread* me) {
  me->rejoin_requested.store(true, std::memory_order_release);
  g_rejoin_pending.fetch_add(1, std::memory_order_release);
  g_watchdog_word.fetch_add(1, std::memory_order_release);
  futex_wake_word(g_watchdog_word);
  park(me);
}

}  // namespace ctrlsched::shim
