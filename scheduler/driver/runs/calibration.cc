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
// SURW's per-thread event estimates come from the same runs (the largest count per thread).
constexpr std::uint64_t kCalibrationRuns = 3;
constexpr std::uint64_t kMinPctSteps = 16;

}  // namespace

std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name) {
  return calibrate_profile(target, spec, timeout_seconds, target_name).steps;
}

RunProfile calibrate_profile(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                             const std::string& target_name) {
  RunProfile profile;
  profile.steps = kMinPctSteps;
  for (std::uint64_t seed = 0; seed < kCalibrationRuns; ++seed) {
    const RunProfile run = calibration_run(target, spec, seed, timeout_seconds, target_name);
    profile.steps = std::max(profile.steps, run.steps);
    profile.instrumented = profile.instrumented || run.instrumented;
    if (profile.events.size() < run.events.size()) profile.events.resize(run.events.size(), 0);
    for (std::size_t t = 0; t < run.events.size(); ++t) profile.events[t] = std::max(profile.events[t], run.events[t]);
  }
  if (profile.events.empty()) profile.events.push_back(1);
  for (std::uint32_t& events : profile.events) events = std::max<std::uint32_t>(events, 1);
  return profile;
}

std::uint64_t calibration_run_steps(const LaunchTarget& target, const RunSpec& spec, std::uint64_t seed,
                                    double timeout_seconds, const std::string& target_name) {
  return calibration_run(target, spec, seed, timeout_seconds, target_name).steps;
}

RunProfile calibration_run(const LaunchTarget& target, const RunSpec& spec, std::uint64_t seed,
                           double timeout_seconds, const std::string& target_name) {
  RunSpec calibration = spec;
  calibration.seed = seed;
  calibration.strategy = StrategyKind::Random;
  calibration.preemption_bound.reset();
  calibration.surw_events.clear();
  calibration.expected_hash.reset();
  PoolOptions options;
  options.jobs = 1;
  options.timeout = std::chrono::duration<double>(timeout_seconds);
  options.capture_output = true;  // the calibration run's output is never shown
  RunJob job;
  job.config = run_config_for(calibration);
  ClassifyContext context;  // raw frames: only the step count matters here
  context.timeout_seconds = timeout_seconds;
  return run_single<RunProfile>(target, options, std::move(job), [&](const FinishedRun& run) {
    RunProfile profile;
    profile.steps = collect_result(run, calibration, context, target_name).steps;
    const RunRecord& record = run.region.record();
    profile.instrumented = record.instrumented != 0;
    const std::uint32_t threads = std::min<std::uint32_t>(record.threads_created, kRecordSurwThreads);
    profile.events.assign(record.thread_events, record.thread_events + threads);
    return profile;
  });
}

}  // namespace ctrlsched::driver
