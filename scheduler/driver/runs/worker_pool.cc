// The poll loop over pidfds that runs and times out test processes (see worker_pool.h).
#include "runs/worker_pool.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <list>

#include "exit_codes.h"
#include "runs/stop_request.h"

#include <cstdio>

namespace ctrlsched::driver {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kTickMs = 100;
// How long kill_all() waits for a fork server to report the end of a run it just killed.
constexpr std::chrono::milliseconds kServedReapLimit{2000};

// A server refused (the program cannot be served): every later run of this ctrlsched process,
// in any pool (the calibration runs' and the seeds'), is exec'd. The note says why, once, from
// the first pool that may say it (PoolOptions::say_refusal).
bool g_fork_server_refused = false;
std::string g_refusal_reason;
bool g_refusal_said = false;

// Fork servers kept idle between the pools of one command (PoolOptions::keep_fork_servers), each
// with the target it runs and the CPU it is pinned to. A kept server is in the state a pool's
// server is in between two of its runs (the last run reported, the next child forked ahead and
// waiting), and its runs report exactly what exec'd ones do (docs/fork-server.md), so which pool
// started it changes no result. They stay registered children (a second Ctrl-C kills them).
struct IdleForkServer {
  LaunchTarget target;
  int cpu;
  ForkServer server;
};

std::list<IdleForkServer>& idle_fork_servers() {
  // Destroyed at exit, which stops what a command that ended early (an error between its
  // calibration and its seeds) has left idle; normally the next pool has taken or stopped them.
  static std::list<IdleForkServer> servers;
  return servers;
}

std::optional<ForkServer> take_idle_fork_server(const LaunchTarget& target, int cpu) {
  std::list<IdleForkServer>& idle = idle_fork_servers();
  for (auto it = idle.begin(); it != idle.end(); ++it) {
    if (it->cpu != cpu || !(it->target == target)) continue;
    std::optional<ForkServer> server(std::move(it->server));
    idle.erase(it);
    return server;
  }
  return std::nullopt;
}

void stop_idle_fork_servers() {
  std::list<IdleForkServer>& idle = idle_fork_servers();
  for (IdleForkServer& kept : idle) {
    const pid_t pid = kept.server.pid();
    { ForkServer stopping(std::move(kept.server)); }  // closes the socket, waits, kills and reaps
    unregister_child(pid);
  }
  idle.clear();
}

// The CPUs of a pool's slots: slot i on the i-th allowed CPU counted from `first_cpu`.
std::vector<int> slot_cpus(std::size_t slots, int first_cpu) {
  const std::vector<int> cpus = allowed_cpus();
  std::vector<int> chosen(slots, -1);
  if (cpus.empty()) return chosen;
  const auto here = std::find(cpus.begin(), cpus.end(), first_cpu);
  const std::size_t first = here == cpus.end() ? 0 : static_cast<std::size_t>(here - cpus.begin());
  for (std::size_t i = 0; i < slots; ++i) chosen[i] = cpus[(first + i) % cpus.size()];
  return chosen;
}

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

[[noreturn]] void pool_internal(const std::string& what) {
  throw DriverError(ExitCode::Internal, what + ": " + std::strerror(errno));
}

}  // namespace

WorkerPool::WorkerPool(LaunchTarget target, PoolOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
  // Slot i runs on the i-th allowed CPU counted from the one this driver runs on: the kernel put
  // it on a CPU with room, so two ctrlsched commands at once (ctest -j2, a CI matrix) do not both
  // pin their runs to the first CPU while the other idles. Which CPU runs a test changes no
  // result (time is virtual), only how fast.
  // A fork server kept by the pool before (the calibration runs') serves slot 0 on its own CPU.
  int first_cpu = ::sched_getcpu();
  if (options_.fork_server) {
    for (const IdleForkServer& kept : idle_fork_servers()) {
      if (kept.target != target_) continue;
      first_cpu = kept.cpu;
      break;
    }
  }
  slots_.resize(std::max(1u, options_.jobs));
  const std::vector<int> cpus = slot_cpus(slots_.size(), first_cpu);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (options_.capture_output) slots_[i].capture.emplace();
    slots_[i].cpu = cpus[i];
  }
}

void start_fork_servers_ahead(const LaunchTarget& target, unsigned jobs) {
  if (g_fork_server_refused || target.private_cwd) return;
  for (const int cpu : slot_cpus(std::max(1u, jobs), ::sched_getcpu())) {
    const bool have_one = std::any_of(idle_fork_servers().begin(), idle_fork_servers().end(),
                                      [&](const IdleForkServer& kept) { return kept.cpu == cpu && kept.target == target; });
    if (have_one) continue;
    std::string why_not;  // a server that cannot even be spawned is tried again, and reported, by serve()
    if (std::optional<ForkServer> spawned = ForkServer::spawn(target, cpu, &why_not)) {
      register_child(spawned->pid());
      idle_fork_servers().push_back(IdleForkServer{target, cpu, std::move(*spawned)});
    }
  }
}

bool WorkerPool::serve(Slot& slot, const RunJob& job) {
  if (!options_.fork_server || !slot.capture || job.trace_fd >= 0) return false;
  // A served child inherits the server's working directory; a private one per run needs exec.
  if (target_.private_cwd) return false;
  if (slot.server) return true;
  if (!g_fork_server_refused) {
    if (std::optional<ForkServer> kept = take_idle_fork_server(target_, slot.cpu)) {
      // One started ahead (start_fork_servers_ahead) may not have said hello yet.
      bool ready = false;
      try {
        ready = kept->await_hello(options_.timeout, &g_refusal_reason);
      } catch (...) {
        unregister_child(kept->pid());
        throw;
      }
      if (ready) {
        slot.server.emplace(std::move(*kept));
        return true;
      }
      unregister_child(kept->pid());
    } else if (std::optional<ForkServer> started =
                   ForkServer::start(target_, slot.cpu, options_.timeout, &g_refusal_reason)) {
      slot.server.emplace(std::move(*started));
      register_child(slot.server->pid());  // a second Ctrl-C kills it from the signal handler
      return true;
    }
    g_fork_server_refused = true;
  }
  if (options_.say_refusal && !g_refusal_said) {
    g_refusal_said = true;
    std::fprintf(stderr, "ctrlsched: note: no fork server for this program: %s; each seed runs in a fresh exec\n",
                 g_refusal_reason.c_str());
  }
  return false;
}

void WorkerPool::launch(Slot& slot, std::uint64_t index, RunJob job, bool more) {
  if (slot.spare) {
    slot.region.emplace(std::move(*slot.spare));
    slot.spare.reset();
  } else {
    slot.region.emplace();
  }
  slot.region->prepare(job.config, job.input_log);
  start(slot, index, std::move(job));
  // The run is under way: now the work that would otherwise delay the next one.
  slot.done.reset();
  if (more) slot.spare.emplace();
}

void WorkerPool::start(Slot& slot, std::uint64_t index, RunJob job) {
  if (slot.capture) slot.capture->reset();
  slot.served = serve(slot, job);
  if (slot.served) {
    slot.pid = slot.server->launch(*slot.region, slot.capture->fd());
    register_child(slot.pid);
    slot.pidfd = -1;  // the server's socket says when the run ended
    slot.index = index;
    slot.timed_out = false;
    slot.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(options_.timeout);
    return;
  }
  LaunchOptions launch_options;
  launch_options.output_fd = slot.capture ? slot.capture->fd() : -1;
  launch_options.cpu = slot.cpu;
  launch_options.trace_fd = job.trace_fd;
  if (target_.private_cwd) {
    slot.cwd.emplace();
    launch_options.cwd = slot.cwd->path().c_str();
  }
  slot.pid = launch_child(target_, *slot.region, launch_options);
  register_child(slot.pid);
  slot.pidfd = pidfd_open(slot.pid);
  if (slot.pidfd < 0) {
    const int saved = errno;
    ::kill(-slot.pid, SIGKILL);
    ::waitpid(slot.pid, nullptr, 0);
    unregister_child(slot.pid);
    slot.pid = -1;
    errno = saved;
    pool_internal("pidfd_open failed (ctrlsched needs Linux 5.3 or later)");
  }
  slot.index = index;
  slot.timed_out = false;
  const auto timeout = std::chrono::duration_cast<Clock::duration>(options_.timeout);
  slot.deadline = Clock::now() + timeout;
}

int WorkerPool::reap(Slot& slot) {
  // The child is a zombie now (its pidfd is readable), so its pid and process group id cannot
  // be reused yet: kill whatever it left running in its group, then collect it.
  if (slot.pid <= 0) return 0;
  if (slot.served) {  // the server kills the rest of the group and reaps the child
    const int status = slot.server->wait_status();
    unregister_child(slot.pid);
    slot.pid = -1;
    slot.served = false;
    return status;
  }
  ::kill(-slot.pid, SIGKILL);
  int status = 0;
  while (::waitpid(slot.pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::close(slot.pidfd);
  unregister_child(slot.pid);
  slot.pid = -1;
  slot.pidfd = -1;
  return status;
}

void WorkerPool::kill_all() {
  for (Slot& slot : slots_) {
    if (slot.pid >= 0) {
      ::kill(-slot.pid, SIGKILL);
      if (slot.served) {
        // The server reaps the killed child and says so. Wait for that a bounded time only: a
        // stop must end in a stop even when the server is slow or stuck. Without the answer the
        // server is torn down below; the child was killed above and dies with it anyway
        // (PR_SET_PDEATHSIG), so nothing runs on.
        if (!slot.server->wait_status_within(kServedReapLimit)) stop_server(slot);
        unregister_child(slot.pid);
        slot.pid = -1;
        slot.served = false;
      } else {
        reap(slot);
      }
    }
    slot.region.reset();
    slot.cwd.reset();
  }
}

void WorkerPool::stop_server(Slot& slot) {
  if (!slot.server) return;
  const pid_t server = slot.server->pid();
  slot.server.reset();  // closes the socket, kills and reaps the server
  unregister_child(server);
}

void WorkerPool::stop_servers() {
  for (Slot& slot : slots_) stop_server(slot);
}

void WorkerPool::keep_servers() {
  for (Slot& slot : slots_) {
    // Only a server between two runs is kept: run() returns with none in flight, and a server
    // that failed to report a killed run was stopped by kill_all().
    if (!slot.server || slot.pid >= 0) continue;
    idle_fork_servers().push_back(IdleForkServer{target_, slot.cpu, std::move(*slot.server)});
    slot.server.reset();
  }
}

WorkerPool::~WorkerPool() {
  if (options_.keep_fork_servers) {
    keep_servers();
    return;
  }
  stop_servers();
  // A pool of fork servers that keeps none is the command's last (the seeds after their
  // calibration): whatever is still idle has no run left to serve.
  if (options_.fork_server) stop_idle_fork_servers();
}

void WorkerPool::run(std::uint64_t count, const std::function<RunJob(std::uint64_t)>& make_job,
                     const std::function<bool(const FinishedRun&)>& on_done) {
  std::uint64_t next = 0;
  bool stopping = false;
  try {
    for (;;) {
      if (interrupted()) {  // checked before starting anything: a stop request starts nothing new
        kill_all();
        throw Interrupted();
      }
      for (Slot& slot : slots_) {
        if (stopping || next >= count) break;
        if (slot.pid < 0) {
          launch(slot, next, make_job(next), next + 1 < count);
          ++next;
        }
      }
      std::vector<pollfd> fds;
      std::vector<Slot*> busy;
      auto wait_until = Clock::time_point::max();
      for (Slot& slot : slots_) {
        if (slot.pid < 0) continue;
        fds.push_back(pollfd{slot.served ? slot.server->event_fd() : slot.pidfd, POLLIN, 0});
        busy.push_back(&slot);
        if (!slot.timed_out) wait_until = std::min(wait_until, slot.deadline);
      }
      if (busy.empty()) return;

      int timeout_ms = options_.tick ? kTickMs : -1;
      if (wait_until != Clock::time_point::max()) {
        const double left = std::chrono::duration<double, std::milli>(wait_until - Clock::now()).count();
        const int until_deadline = static_cast<int>(std::clamp(std::ceil(left), 0.0, 3.6e6));
        timeout_ms = timeout_ms < 0 ? until_deadline : std::min(timeout_ms, until_deadline);
      }
      const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
      if (ready < 0 && errno != EINTR) pool_internal("poll failed");
      if (interrupted()) {
        kill_all();
        throw Interrupted();
      }
      const auto now = Clock::now();
      for (std::size_t i = 0; i < busy.size(); ++i) {
        Slot& slot = *busy[i];
        if (slot.pid < 0) continue;  // killed by kill_all() earlier in this loop
        if (ready > 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
          ChildExit exit{slot.timed_out, reap(slot)};
          const FinishedRun finished{slot.index, *slot.region, exit,
                                     slot.capture ? &*slot.capture : nullptr};
          const bool go_on = on_done(finished);
          slot.done.emplace(std::move(*slot.region));  // released once the next run is under way
          slot.region.reset();
          slot.cwd.reset();
          if (!go_on) {
            stopping = true;
            kill_all();
          }
        } else if (!slot.timed_out && now >= slot.deadline) {
          ::kill(-slot.pid, SIGKILL);  // reported once its pidfd says it is gone
          slot.timed_out = true;
        }
      }
      if (options_.tick) options_.tick();
    }
  } catch (...) {
    kill_all();
    // A stop or an error ends this pool's work: the servers go now, not whenever the pool does,
    // and so do those kept idle for a next pool (a stop ends the command).
    stop_servers();
    stop_idle_fork_servers();
    throw;
  }
}

}  // namespace ctrlsched::driver
