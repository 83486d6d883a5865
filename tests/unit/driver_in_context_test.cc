// The decision on a pattern forced in the failing run's context (localize/in_context.h): it
// confirms only when the opposite order, forced from the same moment, fails significantly less.
#include <catch2/catch.hpp>

#include "localize/counterfactual.h"
#include "localize/in_context.h"
#include "localize/verdict.h"

using namespace ctrlsched::driver;

TEST_CASE("in context: a pattern whose opposite order passes is confirmed", "[in-context]") {
  // download_slots' stale read before the other worker's store, at the failing iteration: 20 of 20
  // in context, the opposite order 0 of 20.
  const InContextEvidence e{20, 20, true, 20, 0, 0.003, false};
  const InContextDecision d = decide_in_context(e);
  CHECK(d.alone == Verdict::Confirmed);
  CHECK(d.outcome == InContextOutcome::Confirms);
  CHECK(d.p_opposite == Approx(fisher_at_most(0, 20, 20, 20)));
  CHECK(d.p_opposite < kVerdictAlpha);
  CHECK(verdict_after_context(Verdict::Inconclusive, e, d) == Verdict::Confirmed);
  CHECK(verdict_after_context(Verdict::Unrealized, e, d) == Verdict::Confirmed);
}

TEST_CASE("in context: the opposite order failing as often, or not happening, confirms nothing", "[in-context]") {
  // bank_deposit's two stale stores: whichever stores last, the update is lost.
  const InContextEvidence both{40, 40, true, 40, 40, 0.052, false};
  const InContextDecision same = decide_in_context(both);
  CHECK(same.outcome == InContextOutcome::FailsAsOften);
  CHECK(verdict_after_context(Verdict::Inconclusive, both, same) == Verdict::Inconclusive);
  // An order after the failure was decided fails in context whatever it is; its opposite cannot
  // happen there (plugin_registry's append, whose partner waits for the lock the writer holds).
  const InContextEvidence alone{20, 20, true, 0, 0, 0.136, false};
  const InContextDecision unrealized = decide_in_context(alone);
  CHECK(unrealized.outcome == InContextOutcome::OppositeUnrealized);
  CHECK(verdict_after_context(Verdict::Unrealized, alone, unrealized) == Verdict::Inconclusive);
  CHECK(verdict_after_context(Verdict::Inconclusive, alone, unrealized) == Verdict::Inconclusive);
  // The Fisher test is at the verdicts' level, 0.01: 10/20 against 3/20 (p = 0.02) is not enough.
  const InContextEvidence weak{20, 10, true, 20, 3, 0.01, false};
  CHECK(decide_in_context(weak).outcome == InContextOutcome::FailsAsOften);
}

TEST_CASE("in context: a refutation stands, a symptom is never confirmed", "[in-context]") {
  // tas_spinlock's second increment reading the first, with both threads inside the lock: it
  // decides the assertion in context, but forced alone it was refuted, 0 of 20.
  const InContextEvidence downstream{20, 20, true, 20, 0, 0.001, false};
  const InContextDecision d = decide_in_context(downstream);
  CHECK(d.outcome == InContextOutcome::Confirms);
  CHECK(verdict_after_context(Verdict::Refuted, downstream, d) == Verdict::Refuted);
  const InContextEvidence symptom{20, 20, true, 20, 0, 0.05, true};
  const InContextDecision s = decide_in_context(symptom);
  CHECK(s.alone == Verdict::Inconclusive);
  CHECK(s.outcome == InContextOutcome::NoCause);
  CHECK(verdict_after_context(Verdict::Inconclusive, symptom, s) == Verdict::Inconclusive);
}

TEST_CASE("in context: an order that cannot happen in context either stays unrealized", "[in-context]") {
  const InContextEvidence e{3, 3, false, 0, 0, 0.2, false};
  const InContextDecision d = decide_in_context(e);
  CHECK(d.outcome == InContextOutcome::Unrealized);
  CHECK(verdict_after_context(Verdict::Unrealized, e, d) == Verdict::Unrealized);
  // It happens in context and does not fail like a cause: no longer unrealized, not refuted.
  const InContextEvidence rare{20, 2, false, 0, 0, 0.2, false};
  const InContextDecision r = decide_in_context(rare);
  CHECK(r.outcome == InContextOutcome::NoCause);
  CHECK(verdict_after_context(Verdict::Unrealized, rare, r) == Verdict::Inconclusive);
}
