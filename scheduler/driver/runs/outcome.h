// Outcome classification: from a run record and how the process ended to an outcome kind, a
// printable failure and its grouping signature.
//
// The order of the checks is the contract (see the comments in outcome.cc): the shim's own
// knowledge beats the wait status, a driver timeout beats both, and a run where the shim never
// started is not an outcome at all but a reason to stop (the target cannot run under us).
// Pure: symbolization comes in as a function, so tests feed hand-filled records.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/run_record.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

enum class LaunchProblem {
  None,
  CannotRun,      // exec failed or the loader gave up (exit 127 before the shim started)
  ShimNotLoaded,  // the program ran but the shim never started (e.g. a setuid binary)
  ShimFailed,     // the shim loaded but its start-up failed (failure.message says why)
};

struct Classification {
  LaunchProblem problem = LaunchProblem::None;
  OutcomeKind kind = OutcomeKind::Pass;
  std::optional<FailureDetails> failure;  // set iff kind != Pass and problem == None
};

struct ClassifyContext {
  double timeout_seconds = 10;
  SymbolizeFn symbolize;  // empty: frames stay raw
  DataSymbolFn data_symbol;  // empty: sync objects are named by address only
  // Exit statuses that count as passing (--pass-exit-codes); any other status, from the process
  // or from exit() in a thread, is an Exit failure.
  std::vector<int> passing_exit_codes{0};
};

Classification classify(const RunRecord& record, const ChildExit& exit, const ClassifyContext& context);

// A note about threads the shim's watchdog had to release (blocked outside the model), or "".
std::string uncontrolled_note(const RunRecord& record, const ClassifyContext& context);

// "SIGSEGV" (or "signal 42").
std::string signal_name(int number);

// Copies a fixed-size, NUL-terminated record field defensively (stops at the array's end).
template <std::size_t N>
std::string record_text(const char (&field)[N]) {
  std::size_t n = 0;
  while (n < N && field[n] != '\0') ++n;
  return std::string(field, n);
}

}  // namespace ctrlsched::driver
