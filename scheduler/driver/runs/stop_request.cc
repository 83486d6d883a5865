// The stop flag and the registry of children in flight (see stop_request.h).
#include "runs/stop_request.h"

#include <signal.h>

#include <atomic>

namespace ctrlsched::driver {
namespace {

volatile sig_atomic_t g_signal = 0;

// One entry per running child; 0 = free. Lock-free atomics, so the signal handler may read them
// while the pool is between a store and the next. More children than entries only lose the
// second-signal kill for the extra ones (PR_SET_PDEATHSIG still ends them with the driver).
constexpr int kRegistrySize = 1024;
std::atomic<pid_t> g_children[kRegistrySize];
static_assert(std::atomic<pid_t>::is_always_lock_free);

}  // namespace

void request_stop(int signal_number) noexcept { g_signal = signal_number; }

bool interrupted() { return g_signal != 0; }

int stop_signal() { return g_signal; }

void register_child(pid_t pid) noexcept {
  for (std::atomic<pid_t>& entry : g_children) {
    pid_t expected = 0;
    if (entry.compare_exchange_strong(expected, pid)) return;
  }
}

void unregister_child(pid_t pid) noexcept {
  for (std::atomic<pid_t>& entry : g_children) {
    pid_t expected = pid;
    if (entry.compare_exchange_strong(expected, 0)) return;
  }
}

void kill_registered_children() noexcept {
  for (std::atomic<pid_t>& entry : g_children) {
    const pid_t pid = entry.load();
    if (pid > 0) ::kill(-pid, SIGKILL);
  }
}

}  // namespace ctrlsched::driver
