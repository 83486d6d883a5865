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
                                  const std::string& target_name, std::optional<CalibrationLimit>* limit) {
  std::uint64_t steps = kMinPctSteps;
  for (std::uint64_t seed = 0; seed < kCalibrationRuns; ++seed) {
    const CalibrationRun run = calibration_run(target, spec, seed, timeout_seconds, target_name);
    // A run past the limit also took the probe window's steps (shim/step_limit.h); k is the limit.
    steps = std::max(steps, std::min(run.steps, spec.max_steps));
    if (run.reached_limit && limit && !*limit) *limit = CalibrationLimit{seed, run.progressing};
  }
  return steps;
}

std::string calibration_limit_note(const CalibrationLimit& limit, std::uint64_t max_steps) {
  const std::string limit_text = "--max-steps " + std::to_string(max_steps);
  if (limit.progressing) {
    return "note: calibration run " + std::to_string(limit.seed) + " was still making progress at " + limit_text +
           ": the program runs longer than that, so pct's k is a lower bound and seeds may stop unfinished; "
           "raise it (e.g. --max-steps " + std::to_string(max_steps * 10) + ")";
  }
  return "note: calibration run " + std::to_string(limit.seed) + " reached " + limit_text +
         " without progress (a livelock under the random strategy); pct's k is the limit";
}

CalibrationRun calibration_run(const LaunchTarget& target, const RunSpec& spec, std::uint64_t seed,
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
  CalibrationRun run;
  run.steps = result.steps;
  run.reached_limit = result.kind == OutcomeKind::Hang || result.kind == OutcomeKind::Unfinished;
  run.progressing = result.kind == OutcomeKind::Unfinished;
  return run;
}

}  // namespace ctrlsched::driver
