// Replay mode: `ctrlsched replay <handle> | --seed S | --schedule FILE ./test args` runs one
// schedule with the test's output on the terminal, prints the outcome and whether the run
// followed the recorded schedule, and returns 0 (passed), 1 (failure reproduced) or 4 (diverged).
// `ctrlsched trace` (trace.h) is a replay that also records the run's events.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/run_spec.h"
#include "exit_codes.h"
#include "options/command_line.h"

namespace ctrlsched::driver {

// What to replay, resolved from the command line before anything runs.
struct ReplayPlan {
  RunSpec spec;                       // strategy Replay for --schedule
  std::vector<Decision> input;        // decisions for the input log (may be empty)
  bool verify = false;                // run spec.strategy but check it against `input`
  std::optional<std::uint64_t> expected_hash;
  std::string source;                 // "saved schedule <path>" / "schedule file <path>" / ""
  std::string file_handle;            // --schedule: the handle the file carries
};

// The verdict line(s) after the run, pure so it is unit-tested:
// "replay matched schedule <h>", "replay DIVERGED at decision i (step s): what",
// "replay DIVERGED: schedule hash X, expected Y", or "" when there was nothing to compare with.
struct ReplayVerdict {
  bool diverged = false;
  std::string line;
};
ReplayVerdict replay_verdict(bool shim_diverged, std::uint64_t decision_index, std::uint64_t step,
                             const std::string& what, std::uint64_t hash,
                             std::optional<std::uint64_t> expected_hash);

// What to replay, from a handle, --schedule FILE or --seed S with the schedule options. Throws
// DriverError(BadSchedule) for a bad handle or schedule file. Checks nothing about the target.
ReplayPlan plan_replay(const CommandLine& command_line);

// What `ctrlsched trace` adds to a replay: a trace region for the child, and a look at the
// finished run while its record is still mapped.
struct ReplayTracing {
  int trace_fd = -1;  // passed to the child as CTRLSCHED_TRACE_FD
  // Called once the run is classified, before anything is printed about it. `handle` names the
  // run: its own handle, or the one the --schedule file carries.
  std::function<void(const RunRecord& record, const std::string& handle)> on_finished;
};

// The same with a plan resolved beforehand; `tracing` may be null.
ExitCode run_replay(const CommandLine& command_line, ReplayPlan plan, const ReplayTracing* tracing);

}  // namespace ctrlsched::driver
