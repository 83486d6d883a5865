// Runs many test processes in parallel and watches them: pidfd + poll for exits and per-run
// wall-clock timeouts, a fixed number of slots (-j), one capture file per slot.
//
// Single-threaded on purpose: one poll loop over pidfds needs no locks and no SIGCHLD handler.
// Results are handed over in completion order with their index; callers store them by index so
// everything they report is in seed order, whatever -j is.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ctrlsched/run_record.h"
#include "runs/capture_file.h"
#include "runs/child_launch.h"
#include "runs/fork_server.h"
#include "runs/private_directory.h"
#include "runs/run_record_region.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

// Everything one run needs besides the target.
struct RunJob {
  RunConfig config{};
  std::vector<std::uint8_t> input_log;  // encoded decisions (replay / verify)
  int trace_fd = -1;                    // trace region for the child (ctrlsched trace), not owned
};

struct FinishedRun {
  std::uint64_t index;
  const RunRecordRegion& region;
  ChildExit exit;
  const CaptureFile* capture;  // nullptr when output is not captured
};

struct PoolOptions {
  unsigned jobs = 1;
  std::chrono::duration<double> timeout{10.0};
  bool capture_output = true;   // false: the test writes to our terminal (replay)
  std::function<void()> tick;   // called at least every 100 ms while runs are in flight
  // Serve runs by fork from one snapshot per slot (fork_server.h) instead of one exec per run.
  // Only with capture_output, never for a job with a trace_fd; falls back to exec (and says why
  // once on stderr) when the program cannot be served.
  bool fork_server = false;
  // Whether this pool says so when the program cannot be served. The calibration runs' pool does
  // not: a program that cannot run at all fails there with its one error line, and for one that
  // only cannot be served, the seeds' pool says it (the refusal holds for the whole command).
  bool say_refusal = true;
  // Keep this pool's fork servers, idle, for the next pool of the same target in this command
  // instead of stopping them: the calibration runs' pool does, so that the seeds that follow are
  // served by the server that is already running (a server's start is most of a command's fixed
  // cost). A pool that does not keep its servers stops those left idle when it ends.
  bool keep_fork_servers = false;
};

class WorkerPool {
 public:
  WorkerPool(LaunchTarget target, PoolOptions options);
  ~WorkerPool();  // stops the fork servers, or keeps them idle (PoolOptions::keep_fork_servers)

  // Runs indices [0, count). make_job(i) is called in index order just before run i starts;
  // on_done is called once per finished run, in completion order; when it returns false no new
  // run starts and the runs still in flight are killed and never reported.
  // Throws Interrupted after killing all children if a SIGINT/SIGTERM arrived.
  void run(std::uint64_t count, const std::function<RunJob(std::uint64_t)>& make_job,
           const std::function<bool(const FinishedRun&)>& on_done);

 private:
  struct Slot {
    std::optional<CaptureFile> capture;
    std::optional<RunRecordRegion> region;
    // Made and released while a run is in flight, not between two runs: the next run's fresh
    // region (memfd, size, mapping) and the finished run's, whose pages are freed after the next
    // run has started. At -j 1 the runs are one chain, and every step off it is a step saved.
    std::optional<RunRecordRegion> spare;
    std::optional<RunRecordRegion> done;
    std::optional<PrivateDirectory> cwd;  // --private-cwd: this run's working directory
    pid_t pid = -1;
    int pidfd = -1;
    std::uint64_t index = 0;
    std::chrono::steady_clock::time_point deadline;
    bool timed_out = false;
    int cpu = -1;
    std::optional<ForkServer> server;  // started at the slot's first run (PoolOptions::fork_server)
    bool served = false;               // the current run is a fork server's child
  };
  bool serve(Slot& slot, const RunJob& job);  // whether this run goes to the slot's fork server
  // `more`: another run may follow on this slot, so a spare region is made while this one runs.
  void launch(Slot& slot, std::uint64_t index, RunJob job, bool more);
  void start(Slot& slot, std::uint64_t index, RunJob job);  // the process of a prepared run
  int reap(Slot& slot);  // kills the rest of its process group, returns the wait status
  void kill_all();       // kills and reaps every run in flight, within a bounded time
  void stop_server(Slot& slot);
  void stop_servers();
  void keep_servers();  // hands the slots' servers, idle, to the next pool

  LaunchTarget target_;
  PoolOptions options_;
  std::vector<Slot> slots_;
};

// Starts the fork servers of a pool of `jobs` slots for `target` now, without waiting for them,
// and keeps them idle for the pools that follow (the calibration runs', then the seeds'), which
// take them by CPU and wait for their hello only then. The servers thus start in parallel, with
// each other and with the driver's work before its first run, instead of one after the other
// when each slot's first run is due. Does nothing when the program was found unservable.
void start_fork_servers_ahead(const LaunchTarget& target, unsigned jobs);

// Runs one job on a pool of one slot and returns what finish() makes of it.
template <typename Result>
Result run_single(const LaunchTarget& target, const PoolOptions& options, RunJob job,
                  const std::function<Result(const FinishedRun&)>& finish) {
  WorkerPool pool(target, options);
  std::optional<Result> result;
  pool.run(
      1, [&](std::uint64_t) { return std::move(job); },
      [&](const FinishedRun& run) {
        result = finish(run);
        return true;
      });
  return std::move(*result);
}

}  // namespace ctrlsched::driver
