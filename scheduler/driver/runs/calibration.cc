// The PCT calibration run (see calibration.h).
#include "runs/calibration.h"

#include <algorithm>

#include "runs/run_collect.h"
#include "runs/run_record_region.h"

namespace ctrlsched::driver {

namespace {

// A calibration run of a buggy program may crash after a couple of steps; with k that small,
// PCT's d-1 change points would cover every step and every seed would run the same schedule.
// So k is the largest step count of a few calibration runs, and never below this floor.
constexpr std::uint64_t kCalibrationRuns = 3;
constexpr std::uint64_t kMinPctSteps = 16;

}  // namespace

std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name) {
  std::uint64_t steps = kMinPctSteps;
  for (std::uint64_t seed = 0; seed < kCalibrationRuns; ++seed)
    steps = std::max(steps, calibration_run_steps(target, spec, seed, timeout_seconds, target_name));
  return steps;
}

std::uint64_t calibration_run_steps(const LaunchTarget& target, const RunSpec& spec, std::uint64_t seed,
                                    double timeout_seconds, const std::string& target_name) {
  RunSpec calibration = spec;
  calibration.seed = seed;
  calibration.strategy = StrategyKind::Random;
  calibration.preemption_bound.reset();
  calibration.expected_hash.reset();
  PoolOptions options;
  options.jobs = 1;
  options.timeout = std::chrono::duration<double>(timeout_seconds);
  options.capture_output = true;  // the calibration run's output is never shown
  RunJob job;
  job.config = run_config_for(calibration);
  ClassifyContext context;  // raw frames: only the step count matters here
  context.timeout_seconds = timeout_seconds;
  const RunResult result = run_single<RunResult>(target, options, std::move(job), [&](const FinishedRun& run) {
    return collect_result(run, calibration, context, target_name);
  });
  return result.steps;
}

}  // namespace ctrlsched::driver
