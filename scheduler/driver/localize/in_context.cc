// The decision on a pattern forced in the failing run's context (see in_context.h).
#include "localize/in_context.h"

#include "localize/counterfactual.h"

namespace ctrlsched::driver {

std::string_view in_context_outcome_name(InContextOutcome outcome) {
  switch (outcome) {
    case InContextOutcome::Unrealized: return "unrealized";
    case InContextOutcome::NoCause: return "no cause";
    case InContextOutcome::OppositeUnrealized: return "opposite unrealized";
    case InContextOutcome::FailsAsOften: return "fails as often";
    case InContextOutcome::Confirms: return "order matters";
  }
  return "unrealized";
}

InContextDecision decide_in_context(const InContextEvidence& e) {
  InContextDecision d;
  const VerdictDecision alone = decide_verdict({e.completed, e.failed, e.baseline_rate, e.never_confirmed});
  d.alone = alone.verdict;
  d.p_above_baseline = alone.p_above_baseline;
  if (alone.verdict == Verdict::Unrealized) return d;
  if (alone.verdict != Verdict::Confirmed) {
    d.outcome = InContextOutcome::NoCause;
    return d;
  }
  if (!e.opposite_forced || e.opposite_completed < kMinCompletedRuns) {
    d.outcome = InContextOutcome::OppositeUnrealized;
    return d;
  }
  d.p_opposite = fisher_at_most(e.opposite_failed, e.opposite_completed, e.failed, e.completed);
  d.outcome = d.p_opposite < kVerdictAlpha ? InContextOutcome::Confirms : InContextOutcome::FailsAsOften;
  return d;
}

Verdict verdict_after_context(Verdict free, const InContextEvidence&, const InContextDecision& d) {
  // A refutation is evidence the context cannot overturn: the order happened in enough runs and
  // the failure did not follow. That the order decides the failure once the failing run's prefix
  // is in place says only that it lies downstream of what that prefix did (tas_spinlock: with both
  // threads already inside the broken spinlock, whether the second increment reads the first
  // decides the assertion; the order is refuted alone, 0 of 20, and the cause is the lock).
  if (free == Verdict::Refuted) return free;
  if (d.outcome == InContextOutcome::Confirms) return Verdict::Confirmed;
  if (d.outcome == InContextOutcome::Unrealized) return free;
  // Realized in context: the order can happen, so `unrealized` no longer describes it. Anything
  // else stays: a refuted order that fails in context together with its opposite (or whose
  // opposite cannot happen there) fails because of the context, not because of itself.
  if (free == Verdict::Unrealized) return Verdict::Inconclusive;
  return free;
}

}  // namespace ctrlsched::driver
