// A forced pattern's result as confirm() leaves it, for the driver's verdict unit tests: the
// counts, and the verdict decide_verdict gives them.
#pragma once

#include <cstdint>

#include "localize/confirm.h"
#include "localize/verdict.h"

namespace ctrlsched::driver::testing {

inline ConfirmationResult forced_result(std::uint64_t completed, std::uint64_t failed, double baseline) {
  ConfirmationResult c;
  c.forced_runs = 20;
  c.completed = completed;
  c.failed = failed;
  c.baseline_rate = baseline;
  const VerdictDecision d = decide_verdict({completed, failed, baseline, false});
  c.verdict = d.verdict;
  c.refuted = d.verdict == Verdict::Refuted;
  c.p_above_baseline = d.p_above_baseline;
  c.p_below_cause = d.p_below_cause;
  return c;
}

}  // namespace ctrlsched::driver::testing
