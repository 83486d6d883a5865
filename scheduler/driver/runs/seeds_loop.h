// runs/ — starting test processes under the shim and turning what they leave behind into values.
//
// Owns: the checks on the target (target_check), the child's launch (child_launch), the worker
// pool (pidfd + poll, -j slots, timeouts), the shared-memory run record and trace regions, output
// capture, outcome classification and failure details, the summaries collectors leave in the run
// record (access pairs), PCT calibration, schedule files on disk, --stop-after, the stop request
// of Ctrl-C, and this file: the seeds loop.
// May call: the policy core and the shared formats (scheduler/include, localize/include) and
// exit_codes.h. Nothing of report/, localize/, modes/, options/ or cli/: whoever needs a progress
// line, localization data or a saved schedule hooks into the loop instead.
//
// The seeds loop runs seeds S..S+N-1 through the worker pool, classifies each run while its
// record is still mapped, hands it to the caller's hook, and keeps the results by seed index, so
// what it returns is in seed order whatever -j is and however runs finish.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "runs/outcome.h"
#include "runs/portfolio.h"
#include "runs/run_result.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

struct SeedsLoopSettings {
  RunSpec spec;                              // every run's spec but its seed
  std::optional<Portfolio> portfolio;        // set: each seed's spec comes from the rotation
  std::uint64_t seed_start = 0;
  std::uint64_t count = 0;
  std::uint64_t seed_stride = 1;             // run i has seed seed_start + i * seed_stride (--shard)
  unsigned jobs = 1;                         // more than `count` are never started
  double timeout_seconds = 10;
  std::optional<std::uint64_t> stop_after;   // --stop-after
  bool fork_server = true;                   // PoolOptions::fork_server (--no-fork-server)
};

// What the caller adds to the loop. Every hook may be empty.
struct SeedsLoopHooks {
  // Before run `index` starts: collectors and other RunConfig fields.
  std::function<void(std::uint64_t index, RunConfig& config)> configure;
  // Once per finished run, in completion order, with its record still mapped.
  std::function<void(const FinishedRun& run, const RunResult& result)> finished;
  // Counts after each finished run, and the pool's tick (at least every 100 ms).
  std::function<void(std::uint64_t done, std::uint64_t failures)> counted;
  std::function<void()> tick;
};

struct SeedsLoopResult {
  std::vector<RunResult> runs;  // the reported seeds, in seed order: all, or up to --stop-after,
                                // or (interrupted) every seed that finished
  bool stopped_early = false;   // --stop-after or a stop request cut the seeds short
  bool interrupted = false;     // a stop request (Ctrl-C, SIGTERM, SIGHUP): the runs in flight
                                // were killed and are not reported
};

// Throws DriverError(CannotRun) when the program never ran under the shim. After a stop request
// it returns what finished, with `interrupted` set.
SeedsLoopResult run_seeds_loop(const LaunchTarget& target, const SeedsLoopSettings& settings,
                               const SeedsLoopHooks& hooks, const ClassifyContext& context,
                               const std::string& target_name);

}  // namespace ctrlsched::driver
