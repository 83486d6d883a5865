// Forcing a pattern in the failing run's context (docs/forcing.md, "In the failing run's
// context"): the forced run first replays the reference failing run's decisions up to the moment
// it performed the pattern's first step, then forces the pattern from there; its opposite order is
// forced from the very same moment. Whatever the failing run had done before (the check of a
// check-then-act, the other half of a two-variable bug, the earlier iterations of a loop, the
// consumer's unlocked test of a lost wakeup) is then in place, and the two orders differ in
// nothing but themselves.
//
// A pattern the free bindings did not confirm is forced this way once more. The context makes
// every failure more likely (the failing run's own prefix is replayed), so the comparison that
// carries a confirmation is the pattern against its opposite order in the same context, not
// against the baseline: in context a pattern is confirmed only when it fails like a cause (at
// least half of its completed runs, above the baseline, not a symptom) AND its opposite order was
// made to happen there and fails significantly less often (one-sided Fisher exact test at
// kVerdictAlpha, not the free control's kCounterfactualAlpha: here it is the main evidence). An
// opposite order that cannot happen in context confirms nothing: a pattern after the point where
// the failure was already decided fails in context whatever it is.
// Pure, so the rule is unit-tested.
#pragma once

#include <cstdint>
#include <string>

#include "localize/verdict.h"

namespace ctrlsched::driver {

struct InContextEvidence {
  std::uint64_t completed = 0;           // the pattern, forced in context: runs where it completed
  std::uint64_t failed = 0;              // of those, failed the same way
  bool opposite_forced = false;          // the opposite order was forced in context
  std::uint64_t opposite_completed = 0;
  std::uint64_t opposite_failed = 0;
  double baseline_rate = 0;
  bool never_confirmed = false;          // a symptom, or an order seen only in passing runs
};

enum class InContextOutcome {
  Unrealized,          // the pattern completed in fewer than kMinCompletedRuns runs in context
  NoCause,             // it completed, and does not fail like a cause there (decide_verdict says no)
  OppositeUnrealized,  // it fails like a cause, but its opposite order cannot happen in context
  FailsAsOften,        // it fails like a cause, and so does its opposite order
  Confirms,            // it fails like a cause, and its opposite order significantly less often
};
std::string_view in_context_outcome_name(InContextOutcome outcome);

struct InContextDecision {
  InContextOutcome outcome = InContextOutcome::Unrealized;
  Verdict alone = Verdict::Unrealized;  // decide_verdict on the context's counts alone
  double p_above_baseline = 1;
  double p_opposite = 1;                // Fisher: P(the opposite fails this seldom | equal rates)
};

InContextDecision decide_in_context(const InContextEvidence& evidence);

// The verdict after the context, given the free bindings' verdict (never Confirmed: those are not
// forced in context). A refutation stands: forced freely the order happened and the failure did
// not follow, and an order that decides the failure only once the failing run's prefix is in
// place lies downstream of what that prefix did. Otherwise Confirms makes it confirmed; an
// unrealized pattern whose order happens in context is inconclusive (it can happen, and did not
// confirm); anything else stays (in context every order after the point where the failure was
// decided fails, its opposite with it, which says nothing about the order).
Verdict verdict_after_context(Verdict free, const InContextEvidence& evidence, const InContextDecision& decision);

}  // namespace ctrlsched::driver
