// Replay mode: `ctrlsched replay <handle> | --seed S | --schedule FILE ./test args` runs one
// schedule with the test's output on the terminal, prints the outcome and whether the run
// followed the recorded schedule, and returns 0 (passed), 1 (failure reproduced) or 4 (diverged).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/run_spec.h"
#include "exit_codes.h"
#include "options.h"

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

ExitCode run_replay(const CommandLine& command_line);

}  // namespace ctrlsched::driver
