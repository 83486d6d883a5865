// Failure groups: failing runs with the same signature (kind + where) reported once, with a
// count, the first seed and the exact command that replays it.
//
// Groups are ordered by their first seed and runs are given in seed order, so the report is the
// same whatever order the runs finished in.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runs/run_result.h"

namespace ctrlsched::driver {

// The test as the user invoked it, for replay commands.
struct TestCommand {
  std::string target;  // as written
  std::vector<std::string> args;
  // Options a replay needs to judge the run the same way (--pass-exit-codes, --private-cwd),
  // written after the handle.
  std::vector<std::string> replay_options = {};
};

// "ctrlsched replay <handle> <target> <args...>", shell-quoted.
std::string replay_command(const std::string& handle, const TestCommand& test);

struct FailureGroup {
  OutcomeKind kind = OutcomeKind::Error;
  std::string signature;
  std::uint64_t count = 0;
  std::size_t first = 0;  // index into the runs of its lowest-seed member
  std::string replay;     // replay_command for that member
};

std::vector<FailureGroup> group_failures(std::span<const RunResult> runs, const TestCommand& test);

// Runs per outcome kind, indexed by the kind's value.
using OutcomeCounts = std::array<std::uint64_t, std::size(kAllOutcomeKinds)>;
OutcomeCounts count_outcomes(std::span<const RunResult> runs);
inline std::uint64_t& at(OutcomeCounts& counts, OutcomeKind kind) { return counts[static_cast<std::size_t>(kind)]; }
inline std::uint64_t at(const OutcomeCounts& counts, OutcomeKind kind) {
  return counts[static_cast<std::size_t>(kind)];
}

}  // namespace ctrlsched::driver
