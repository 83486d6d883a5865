// The seeds loop (see seeds_loop.h).
#include "runs/seeds_loop.h"

#include <algorithm>
#include <chrono>

#include "runs/run_collect.h"
#include "runs/stop_after.h"
#include "runs/stop_request.h"

namespace ctrlsched::driver {

SeedsLoopResult run_seeds_loop(const LaunchTarget& target, const SeedsLoopSettings& settings,
                               const SeedsLoopHooks& hooks, const ClassifyContext& context,
                               const std::string& target_name) {
  const std::uint64_t count = settings.count;
  std::vector<std::optional<RunResult>> results(static_cast<std::size_t>(count));
  PrefixTracker tracker(count, settings.stop_after);
  std::uint64_t done = 0, failures = 0;

  PoolOptions pool_options;
  pool_options.jobs = static_cast<unsigned>(std::min<std::uint64_t>(settings.jobs, count));
  pool_options.timeout = std::chrono::duration<double>(settings.timeout_seconds);
  pool_options.capture_output = true;
  pool_options.tick = hooks.tick;
  pool_options.fork_server = settings.fork_server;
  WorkerPool pool(target, pool_options);
  bool stopped_by_request = false;
  try {
    pool.run(
      count,
      [&](std::uint64_t index) {
        const RunSpec spec =
            spec_for_seed(settings.spec, settings.portfolio, settings.seed_start + index * settings.seed_stride);
        RunJob job{run_config_for(spec), {}};
        if (hooks.configure) hooks.configure(index, job.config);
        return job;
      },
      [&](const FinishedRun& run) {
        const RunSpec spec =
            spec_for_seed(settings.spec, settings.portfolio, settings.seed_start + run.index * settings.seed_stride);
        RunResult result = collect_result(run, spec, context, target_name);
        const bool failed = result.failed();
        if (hooks.finished) hooks.finished(run, result);
        results[static_cast<std::size_t>(run.index)] = std::move(result);
        ++done;
        failures += failed;
        if (hooks.counted) hooks.counted(done, failures);
        return !tracker.record(run.index, failed);
      });
  } catch (const Interrupted&) {
    stopped_by_request = true;  // the pool killed and reaped the runs in flight
  }

  SeedsLoopResult out;
  if (stopped_by_request) {
    // Every finished seed, in seed order, even past a gap left by a killed run: a failure found
    // is worth keeping. --stop-after's cut still applies to what it had seen.
    const std::uint64_t limit = tracker.stopped() ? tracker.reported_count() : count;
    for (std::uint64_t i = 0; i < limit; ++i) {
      if (results[static_cast<std::size_t>(i)]) out.runs.push_back(std::move(*results[static_cast<std::size_t>(i)]));
    }
    out.interrupted = true;
    out.stopped_early = true;
    return out;
  }
  const std::uint64_t reported = tracker.reported_count();
  out.stopped_early = tracker.stopped() && reported < count;
  out.runs.reserve(static_cast<std::size_t>(reported));
  for (std::uint64_t i = 0; i < reported; ++i) out.runs.push_back(std::move(*results[static_cast<std::size_t>(i)]));
  return out;
}

}  // namespace ctrlsched::driver
