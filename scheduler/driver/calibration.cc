// The PCT calibration run (see calibration.h).
#include "calibration.h"

#include <algorithm>

#include "run_collect.h"
#include "run_record_region.h"

namespace ctrlsched::driver {

std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name) {
  RunSpec calibration = spec;
  calibration.seed = 0;
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
  return std::max<std::uint64_t>(1, result.steps);
}

}  // namespace ctrlsched::driver
