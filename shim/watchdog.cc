#include "watchdog.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstddef>

#include "baton.h"
#include "engine.h"
#include "raw_syscall.h"
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

// The watchdog runs on a thread without libc's thread state (see start_watchdog), so from here
// on it makes its system calls with raw_syscall and formats and parses numbers itself: libc's
// wrappers set errno, snprintf and strtol read the thread's locale, and the shim interposes
// clock_gettime and syscall (both read the shim's thread-locals). All of those live in TLS.

// "/proc/self/task/<tid>/<file>" into `path` (large enough for any tid and the names used here).
void task_file_path(char (&path)[64], pid_t tid, const char* file) {
  char* out = path;
  for (const char* p = "/proc/self/task/"; *p != '\0'; ++p) *out++ = *p;
  char digits[16];
  int count = 0;
  auto value = static_cast<unsigned>(tid);
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (count > 0) *out++ = digits[--count];
  *out++ = '/';
  while (*file != '\0' && out < path + sizeof path - 1) *out++ = *file++;
  *out = '\0';
}

// Reads a small /proc file into `buf` (NUL-terminated); the byte count, or <= 0 on failure.
long read_task_file(pid_t tid, const char* file, char* buf, std::size_t size) {
  char path[64];
  task_file_path(path, tid, file);
  const long fd = raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const long n = raw_syscall(SYS_read, fd, reinterpret_cast<long>(buf), static_cast<long>(size - 1));
  raw_syscall(SYS_close, fd);
  if (n > 0) buf[n] = '\0';
  return n;
}

// The state letter of /proc/<tid>/stat: R running, S/D sleeping in the kernel; '?' if unknown.
char thread_state(pid_t tid) {
  char buf[512];
  if (read_task_file(tid, "stat", buf, sizeof buf) <= 0) return '?';
  const char* close_paren = nullptr;  // the last one: the command name may contain spaces and ')'
  for (const char* p = buf; *p != '\0'; ++p)
    if (*p == ')') close_paren = p;
  return close_paren != nullptr && close_paren[1] == ' ' ? close_paren[2] : '?';
}

// The number of the system call the thread sits in (the first field of /proc/<tid>/syscall),
// read as strtol would: "running" (not in a call) reads as 0, an unreadable file as -1.
long current_syscall(pid_t tid) {
  char buf[64];
  if (read_task_file(tid, "syscall", buf, sizeof buf) <= 0) return -1;
  const char* p = buf;
  while (*p == ' ' || *p == '\t' || *p == '\n') ++p;
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  long value = 0;
  while (*p >= '0' && *p <= '9') value = value * 10 + (*p++ - '0');
  return negative ? -value : value;
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
  // Real time (the watchdog is not a controlled thread), and a real system call: the vDSO is
  // reached only through libc's wrapper, which the shim interposes.
  raw_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, reinterpret_cast<long>(&now));
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000 + static_cast<std::uint64_t>(now.tv_nsec);
}

// CPU time the thread has used, in ns; 0 if unknown (the thread is gone). The clock id is the
// kernel's per-thread scheduler CPU clock of `tid` (what pthread_getcpuclockid builds), made
// from the tid so that a holder that has just exited is never dereferenced.
std::uint64_t thread_cpu_ns(const Thread* t) {
  constexpr clockid_t kPerThreadSchedClock = 4 | 2;  // CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED
  const clockid_t clock = static_cast<clockid_t>((~static_cast<unsigned>(t->os_tid)) << 3) | kPerThreadSchedClock;
  timespec used{};
  if (raw_syscall(SYS_clock_gettime, clock, reinterpret_cast<long>(&used)) != 0) return 0;
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

int watchdog_main(void*) {
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
    raw_syscall(SYS_futex, reinterpret_cast<long>(&g_watchdog_word), FUTEX_WAIT_PRIVATE, seen,
                reinterpret_cast<long>(&interval));
    if (!g_rt.active || g_watchdog_stop.load(std::memory_order_acquire)) return 0;  // the thread exits
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
      raw_syscall(SYS_tgkill, g_rt.pid, holder->os_tid, release_signal());
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

namespace {

// The watchdog's own thread: started with a raw clone(), not pthread_create. A run starts it
// anew every time (a served run is forked from a snapshot without threads), and pthread_create
// costs a stack mapping with a guard page, a copy of the static TLS, the robust list and rseq
// registrations and two signal-mask changes; clone() into static storage costs one system call.
// It also keeps the watchdog out of libc's sight, which is what "invisible to the test" asks for:
// libc does not count it among the process's threads (the last of the test's threads ends the
// process with exit(0) itself, as without ctrlsched) and no libc-wide operation (setxid, fork
// handlers, thread lists) reaches it. In return it has no libc thread state: it calls no libc
// function that uses one (see above) and no interposed function, and reads and writes only the
// engine's words, as before. Its thread pointer is a TCB of its own (g_watchdog_tcb), never the
// creating thread's, so a TLS access it made by mistake could not touch a test thread's errno,
// and the stack protector's and pointer mangling's guards, read at fixed offsets of the TCB, are
// the process's. Every signal is blocked in it: a signal the test sends to the process is handled
// by one of the test's threads, never by the watchdog.
constexpr std::size_t kWatchdogStackBytes = 64 * 1024;
alignas(64) unsigned char g_watchdog_stack[kWatchdogStackBytes];

// The first words of glibc's x86-64 TCB (tcbhead_t): the self pointers that %fs-relative code
// dereferences, and the guards at their ABI offsets (0x28: the stack protector's canary, which
// GCC reads as %fs:0x28; 0x30: the pointer guard). The rest stays zero, the size of libc's
// per-thread structure, so that any read of a thread field finds zeros in memory of our own.
struct alignas(64) WatchdogTcb {
  void* tcb;
  void* dtv;
  void* self;
  int multiple_threads;
  int gscope_flag;
  std::uintptr_t sysinfo;
  std::uintptr_t stack_guard;
  std::uintptr_t pointer_guard;
  unsigned char zeros[4096 - 7 * sizeof(void*)];
};
static_assert(offsetof(WatchdogTcb, stack_guard) == 0x28 && offsetof(WatchdogTcb, pointer_guard) == 0x30);
WatchdogTcb g_watchdog_tcb;

std::uintptr_t creator_tcb_word(std::size_t offset) {
  std::uintptr_t value;
  __asm__("movq %%fs:(%1), %0" : "=r"(value) : "r"(offset));
  return value;
}

}  // namespace

void start_watchdog() {
  if (g_watchdog_started.exchange(true)) return;
  g_watchdog_tcb.tcb = &g_watchdog_tcb;
  g_watchdog_tcb.self = &g_watchdog_tcb;
  g_watchdog_tcb.stack_guard = creator_tcb_word(offsetof(WatchdogTcb, stack_guard));
  g_watchdog_tcb.pointer_guard = creator_tcb_word(offsetof(WatchdogTcb, pointer_guard));
  // The new thread inherits the signal mask: block everything around the clone (raw, as glibc's
  // sigprocmask would not block its own internal signals, and the shim's wrappers are not for
  // shim code).
  std::uint64_t all = ~std::uint64_t{0};
  std::uint64_t previous = 0;
  raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&all), reinterpret_cast<long>(&previous),
              sizeof all);
  constexpr int kThreadFlags =
      CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS;
  // glibc's clone() runs watchdog_main on the new stack and ends the thread (exit, not
  // exit_group) when it returns; it touches no thread state in the new thread.
  ::clone(watchdog_main, g_watchdog_stack + kWatchdogStackBytes, kThreadFlags, nullptr, static_cast<pid_t*>(nullptr),
          static_cast<void*>(&g_watchdog_tcb), static_cast<pid_t*>(nullptr));
  raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&previous), 0, sizeof previous);
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
