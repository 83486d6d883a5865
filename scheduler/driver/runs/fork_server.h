// The driver's side of the fork server (docs/fork-server.md; the messages are in
// ctrlsched/fork_server.h, the server's loop in shim/fork_server.cc).
//
// One server per worker-pool slot: the test is exec'd once with the slot's process attributes
// (CPU, no ASLR, stdin, signal state) and forks one child per run from its snapshot before
// main(). The children are the server's; the server tells us each child's pid (so timeouts kill
// its process group as before) and its wait status once it has reaped it, so to the pool a
// served run looks like an exec'd one: the same record, output capture and ChildExit.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

#include "runs/child_launch.h"

namespace ctrlsched::driver {

class RunRecordRegion;

class ForkServer {
 public:
  // Starts a server for `target` pinned to `cpu` (-1: no pinning) and waits for its hello
  // (throws Interrupted if a stop request comes first).
  // Returns nullopt with the reason in `why_not` when the program cannot be served (threads
  // before main, the shim never answered, ...); the caller then execs every run.
  static std::optional<ForkServer> start(const LaunchTarget& target, int cpu, std::chrono::duration<double> timeout,
                                         std::string* why_not);
  // start() in two halves, so that several servers can start at once, or one while the driver
  // does other work: spawn() execs the server and returns without waiting for its hello;
  // await_hello() waits for it (a no-op once it came) and says false, with the reason, when the
  // program cannot be served. launch() needs a server whose hello came.
  static std::optional<ForkServer> spawn(const LaunchTarget& target, int cpu, std::string* why_not);
  bool await_hello(std::chrono::duration<double> timeout, std::string* why_not);
  ForkServer(ForkServer&& other) noexcept;
  ForkServer& operator=(ForkServer&&) = delete;
  ForkServer(const ForkServer&) = delete;
  ~ForkServer();

  // Starts one run with `region` as its record and `output_fd` as its stdout/stderr; returns the
  // child's pid (its process group). Throws DriverError(Internal) when the server is gone, and
  // Interrupted when a stop request comes before the server answered.
  pid_t launch(RunRecordRegion& region, int output_fd);
  // Readable once the current run has ended.
  int event_fd() const { return socket_; }
  // The current run's wait status (blocks until the server has reaped it).
  int wait_status();
  // The same for a run the driver has just killed, waiting at most `limit`; nullopt when the
  // server did not answer in time (the caller then tears the server down: see kill_all()).
  std::optional<int> wait_status_within(std::chrono::milliseconds limit);
  pid_t pid() const { return pid_; }

 private:
  ForkServer(pid_t pid, int socket) : pid_(pid), socket_(socket) {}
  pid_t pid_ = -1;
  int socket_ = -1;
  bool hello_pending_ = true;
};

}  // namespace ctrlsched::driver
