// The dfs loop (`--strategy dfs`, docs/strategies.md "dfs"): the exhaustive bounded search run
// through the worker pool.
//
// The exploration frontier stays here, in the driver (ctrlsched/dfs_explorer.h); every schedule
// is one run of the test from the start: the branch's decision prefix in the input log, then the
// shim's non-preemptive defaults, and the step log read back from the run record. Runs go out in
// batches of branches with the same preemption count and are reported to the explorer in batch
// order, whatever order they finish in, so the schedules, their numbers and the reports do not
// depend on -j. A batch's runs past the point where the loop stops (--stop-after failures,
// --max-schedules) are discarded, as the seeds loop discards seeds past --stop-after.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "ctrlsched/dfs_explorer.h"
#include "runs/outcome.h"
#include "runs/run_result.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

struct DfsLoopSettings {
  RunSpec spec;                                // strategy Dfs; points and max steps
  std::uint32_t preemption_bound = 2;
  DfsReduction reduction = DfsReduction::Dpor;  // --sleep-sets, --no-reduction
  std::optional<std::uint64_t> max_schedules;  // runs started at most (--max-schedules)
  std::uint64_t stop_after = 1;                // stop once this many schedules failed
  unsigned jobs = 1;
  double timeout_seconds = 10;
  bool fork_server = true;
};

struct DfsLoopHooks {
  // Once per finished run, in completion order, with its record still mapped (failures: keep the
  // schedule); `number` is the run's place in the exploration (RunResult::seed). Runs past the
  // stop are finished too but not reported: keep by number, use only the reported ones.
  std::function<void(std::uint64_t number, const FinishedRun& run, const RunResult& result)> finished;
  std::function<void(std::uint64_t done, std::uint64_t failures)> counted;
  std::function<void()> tick;
};

struct DfsLoopResult {
  std::vector<RunResult> runs;     // every reported run in exploration order; run.seed = its number
  std::vector<std::uint32_t> preemptions;  // per run: its preemptions (the branch's)
  std::vector<bool> redundant;     // per run: cut short by the sleep sets (equivalent to another)
  std::uint64_t schedules = 0;     // reported runs that are not redundant
  std::uint64_t redundant_runs = 0;
  std::uint64_t failures = 0;
  std::uint64_t branches_left = 0;  // frontier not run when the loop stopped
  bool max_schedules_reached = false;
  bool stopped_at_failures = false;
  bool interrupted = false;
  // Why the result does not cover every schedule within the bound even if the frontier is empty:
  // one line each (runs released by the watchdog, uncontrolled spinning, a prefix the program did
  // not follow, a step log that overflowed), with the first run concerned.
  std::vector<std::string> gaps;

  // Every schedule within the bound was run (up to the reduction's equivalence).
  bool exhaustive() const {
    return branches_left == 0 && !max_schedules_reached && !stopped_at_failures && !interrupted && gaps.empty();
  }
};

// Throws DriverError(CannotRun) when the program never ran under the shim.
DfsLoopResult run_dfs_loop(const LaunchTarget& target, const DfsLoopSettings& settings, const DfsLoopHooks& hooks,
                           const ClassifyContext& context, const std::string& target_name);

}  // namespace ctrlsched::driver
