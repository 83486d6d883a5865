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

// One calibration run (strategy random, the given seed): what it saw and how it ended.
struct CalibrationRun {
  RunProfile profile;
  bool reached_limit = false;  // hang or unfinished: it ran past --max-steps
  bool progressing = false;    // unfinished
};

RunSpec calibration_spec(const RunSpec& spec, std::uint64_t seed) {
  RunSpec calibration = spec;
  calibration.seed = seed;
  calibration.strategy = StrategyKind::Random;
  calibration.preemption_bound.reset();
  calibration.surw_events.clear();
  calibration.expected_hash.reset();
  return calibration;
}

// The kCalibrationRuns runs, one at a time, on one pool: with `fork_server`, served by one fork
// server like the seeds that follow (its runs report exactly what exec'd ones do), and the same
// server then serves the seeds' first slot (PoolOptions::keep_fork_servers).
std::vector<CalibrationRun> calibration_runs(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                             const std::string& target_name, bool fork_server) {
  PoolOptions options;
  options.jobs = 1;
  options.timeout = std::chrono::duration<double>(timeout_seconds);
  options.capture_output = true;  // the calibration run's output is never shown
  options.fork_server = fork_server;
  options.say_refusal = false;  // the seeds' pool says it (worker_pool.h)
  options.keep_fork_servers = fork_server;  // its server serves the seeds (or the next calibration)
  ClassifyContext context;  // raw frames: only the step count matters here
  context.timeout_seconds = timeout_seconds;
  std::vector<CalibrationRun> runs(kCalibrationRuns);
  WorkerPool pool(target, options);
  pool.run(
      kCalibrationRuns,
      [&](std::uint64_t seed) {
        RunJob job;
        job.config = run_config_for(calibration_spec(spec, seed));
        return job;
      },
      [&](const FinishedRun& run) {
        CalibrationRun& calibrated = runs[run.index];
        const RunResult result = collect_result(run, calibration_spec(spec, run.index), context, target_name);
        calibrated.profile.steps = result.steps;
        calibrated.reached_limit = result.kind == OutcomeKind::Hang || result.kind == OutcomeKind::Unfinished;
        calibrated.progressing = result.kind == OutcomeKind::Unfinished;
        const RunRecord& record = run.region.record();
        calibrated.profile.instrumented = record.instrumented != 0;
        const std::uint32_t threads = std::min<std::uint32_t>(record.threads_created, kRecordSurwThreads);
        calibrated.profile.events.assign(record.thread_events, record.thread_events + threads);
        return true;
      });
  return runs;
}

}  // namespace

std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name, std::optional<CalibrationLimit>* limit,
                                  bool fork_server) {
  return calibrate_profile(target, spec, timeout_seconds, target_name, limit, fork_server).steps;
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

RunProfile calibrate_profile(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                             const std::string& target_name, std::optional<CalibrationLimit>* limit,
                             bool fork_server) {
  RunProfile profile;
  profile.steps = kMinPctSteps;
  const std::vector<CalibrationRun> runs = calibration_runs(target, spec, timeout_seconds, target_name, fork_server);
  for (std::uint64_t seed = 0; seed < kCalibrationRuns; ++seed) {
    const CalibrationRun& run = runs[seed];
    // A run past the limit also took the probe window's steps (shim/step_limit.h); k is the limit.
    profile.steps = std::max(profile.steps, std::min(run.profile.steps, spec.max_steps));
    if (run.reached_limit && limit && !*limit) *limit = CalibrationLimit{seed, run.progressing};
    profile.instrumented = profile.instrumented || run.profile.instrumented;
    const std::vector<std::uint32_t>& events = run.profile.events;
    if (profile.events.size() < events.size()) profile.events.resize(events.size(), 0);
    for (std::size_t t = 0; t < events.size(); ++t) profile.events[t] = std::max(profile.events[t], events[t]);
  }
  if (profile.events.empty()) profile.events.push_back(1);
  for (std::uint32_t& events : profile.events) events = std::max<std::uint32_t>(events, 1);
  return profile;
}

}  // namespace ctrlsched::driver
