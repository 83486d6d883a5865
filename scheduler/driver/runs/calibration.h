// PCT calibration: PCT spreads its d-1 priority change points over the k steps it expects a run
// to take, so k must be known before the first seed. Unless --pct-steps is given we measure it
// with three runs (strategy random, seeds 0-2, same points and max-steps) and use the largest
// step count, but at least 16: a buggy program may crash within a couple of steps, and a k that
// small would put a change point on every step and give every seed the same schedule.
// k then goes into every handle, so a handle never depends on a calibration being repeated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

// Runs the calibration runs for `spec` and returns k. Throws DriverError(CannotRun) if the target
// cannot run under the shim.
std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name);
// What the calibration runs saw: PCT's k (as calibrate_pct_steps), SURW's estimated interesting
// events per thread (the largest count per thread, at least 1, at most kRecordSurwThreads
// threads; never empty), and whether the binary is instrumented.
struct RunProfile {
  std::uint64_t steps = 0;
  std::vector<std::uint32_t> events;
  bool instrumented = false;
  friend bool operator==(const RunProfile&, const RunProfile&) = default;
};
RunProfile calibrate_profile(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                             const std::string& target_name);
RunProfile calibration_run(const LaunchTarget& target, const RunSpec& spec, std::uint64_t seed,
                           double timeout_seconds, const std::string& target_name);
// One calibration run (strategy random, the given seed): the steps it took.
std::uint64_t calibration_run_steps(const LaunchTarget& target, const RunSpec& spec, std::uint64_t seed,
                                    double timeout_seconds, const std::string& target_name);

}  // namespace ctrlsched::driver
