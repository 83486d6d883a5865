// PCT calibration: PCT spreads its d-1 priority change points over the k steps it expects a run
// to take, so k must be known before the first seed. Unless --pct-steps is given we measure it
// with three runs (strategy random, seeds 0-2, same points and max-steps) and use the largest
// step count, but at least 16: a buggy program may crash within a couple of steps, and a k that
// small would put a change point on every step and give every seed the same schedule.
// k then goes into every handle, so a handle never depends on a calibration being repeated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

// A calibration run that reached --max-steps did not measure the program's length: k is then
// max_steps, a lower bound, and the user should hear why every seed may stop at the limit.
struct CalibrationLimit {
  std::uint64_t seed = 0;     // the first calibration run that reached the limit
  bool progressing = false;   // it was still making progress there (a long run, not a livelock)
};

// Runs the calibration runs for `spec` and returns k (at most max_steps). Throws
// DriverError(CannotRun) if the target cannot run under the shim. `limit`, when given, is set if
// a calibration run reached --max-steps. With `fork_server` (a seeds run without
// --no-fork-server) the runs are served by a fork server (docs/fork-server.md), otherwise exec'd.
std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name,
                                  std::optional<CalibrationLimit>* limit = nullptr, bool fork_server = false);
// The one-line note for a calibration that reached the limit (docs/cli.md, "PCT calibration").
std::string calibration_limit_note(const CalibrationLimit& limit, std::uint64_t max_steps);

// What the calibration runs saw: PCT's k (as calibrate_pct_steps), SURW's estimated interesting
// events per thread (the largest count per thread, at least 1, at most kRecordSurwThreads
// threads; never empty), and whether the binary is instrumented. `limit` as above.
struct RunProfile {
  std::uint64_t steps = 0;
  std::vector<std::uint32_t> events;
  bool instrumented = false;
  friend bool operator==(const RunProfile&, const RunProfile&) = default;
};
RunProfile calibrate_profile(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                             const std::string& target_name, std::optional<CalibrationLimit>* limit = nullptr,
                             bool fork_server = false);

}  // namespace ctrlsched::driver
