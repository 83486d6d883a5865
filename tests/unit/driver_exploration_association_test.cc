// An order the exploration associates with the failure is not refuted unless its opposite order
// failed the same way (localize/exploration_association.h, apply_exploration in
// localize/confirm.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "localize/confirm.h"
#include "localize/exploration_association.h"
#include "localize/verdict.h"

using namespace ctrlsched::driver;

namespace {

// A refuted pattern as forcing left it: 2 of 20 completed runs failed, the opposite order 0 of 20
// (the control of a refutation, decide_necessity, found it not needed at a 1.9% baseline).
ConfirmationResult refuted_half() {
  ConfirmationResult c;
  c.forced_runs = 20;
  c.completed = 20;
  c.failed = 2;
  c.baseline_rate = 0.019;
  c.verdict = Verdict::Refuted;
  c.refuted = true;
  c.counterfactual.outcome = CounterfactualOutcome::NotNeeded;
  c.counterfactual.forced_runs = 20;
  c.counterfactual.completed = 20;
  c.counterfactual.failed = 0;
  return c;
}

}  // namespace

TEST_CASE("association: Fisher's one-sided test on the exploration's counts", "[association]") {
  // Every one of 3 failing runs had the order, 1 of 4 passing runs: the passing side is the low
  // group, P(X <= 1) with 4 "had it" among 7 runs, 4 of them passing:
  // [C(4,0)C(3,4) + C(4,1)C(3,3)] / C(7,4) = (0 + 4) / 35.
  const ExplorationCounts small{3, 3, 1, 4};
  CHECK(failure_association_p(small) == Approx(4.0 / 35.0));
  // export_wait's R1@27 → W2@21 as the exploration saw it: 19 of 19 failing runs, 390 of 981
  // passing; the chance that 19 failing runs all have an order that 40% of runs have is ~0.4^19.
  const ExplorationCounts strong{19, 19, 390, 981};
  CHECK(failure_association_p(strong) < 1e-6);
  CHECK(associated_with_failure(strong));
  CHECK_FALSE(associated_with_failure(small));  // p = 0.11: not at the 0.01 level
}

TEST_CASE("association: an order every run has, or one rarer in failing runs, is not associated", "[association]") {
  // A constructor's initialization read by a worker: every run, failing or passing.
  CHECK_FALSE(associated_with_failure({19, 19, 981, 981}));
  // More frequent in passing runs: no association with the failure, whatever the p-value says
  // about the other direction.
  CHECK_FALSE(associated_with_failure({1, 19, 900, 981}));
  // Nothing to compare with.
  CHECK_FALSE(associated_with_failure({19, 19, 0, 0}));
  CHECK_FALSE(associated_with_failure({0, 0, 10, 981}));
  CHECK(failure_association_p({19, 19, 0, 0}) == 1);
}

TEST_CASE("association: a refutation stands unless every failure had the order and its opposite passes", "[association]") {
  const ExplorationCounts strong{19, 19, 390, 981};
  CHECK_FALSE(refutation_stands(strong, 20, 0));
  // The opposite order failed the same way once: the failure happens without the order.
  CHECK(refutation_stands(strong, 20, 1));
  // The opposite order could not be made to happen (fewer than 7 completed): no evidence that the
  // failure needs the order rather than the order being (nearly) a constant of the program.
  CHECK(refutation_stands(strong, 6, 0));
  // Every run has it: not associated.
  CHECK(refutation_stands({19, 19, 981, 981}, 20, 0));
  // More frequent in failing runs (p = 0.0003) but missing from 27 of them: the failure happens
  // without it (rwlock_lru's `served` counter, bumped more often in runs that switch more).
  const ExplorationCounts rides_along{26, 53, 242, 947};
  CHECK(associated_with_failure(rides_along));
  CHECK(refutation_stands(rides_along, 9, 0));
  // One failing run has many orders of its own (tas_spinlock: 1 of 1000 runs failed).
  const ExplorationCounts one_failure{1, 1, 0, 999};
  CHECK(associated_with_failure(one_failure));
  CHECK(refutation_stands(one_failure, 20, 0));
  CHECK_FALSE(refutation_stands({7, 7, 0, 993}, 20, 0));
}

TEST_CASE("association: apply_exploration turns such a refutation inconclusive, with its counts", "[association]") {
  const ExplorationCounts strong{19, 19, 390, 981};
  ConfirmationResult c = refuted_half();
  apply_exploration(c, strong);
  CHECK(c.verdict == Verdict::Inconclusive);
  CHECK_FALSE(c.refuted);
  REQUIRE(c.exploration);
  CHECK(c.exploration->failing_with == 19);
  CHECK(c.reason.find("not sufficient alone (fails 2/20 where it completed)") != std::string::npos);
  CHECK(c.reason.find("in 19/19 failing runs and 40% of passing ones") != std::string::npos);
  CHECK(c.reason.find("the opposite order never failed this way (0/20 where it completed)") != std::string::npos);
  const auto json = confirmation_json(c);
  CHECK(json["verdict"] == "inconclusive");
  CHECK(json["exploration"]["failing_with"] == 19);
  CHECK(json["exploration"]["passing"] == 981);
  CHECK(json["exploration"]["test"]["p"].get<double>() < 1e-6);

  // An opposite order that cannot happen: the refutation stands.
  ConfirmationResult unrealized = refuted_half();
  unrealized.counterfactual.outcome = CounterfactualOutcome::Unrealized;
  unrealized.counterfactual.completed = 2;
  apply_exploration(unrealized, strong);
  CHECK(unrealized.verdict == Verdict::Refuted);
  CHECK_FALSE(unrealized.exploration);

  // The opposite order failed the same way: the refutation stands, untouched.
  ConfirmationResult stands = refuted_half();
  stands.counterfactual.failed = 3;
  apply_exploration(stands, strong);
  CHECK(stands.verdict == Verdict::Refuted);

  // Not associated: stands.
  ConfirmationResult everywhere = refuted_half();
  apply_exploration(everywhere, {19, 19, 981, 981});
  CHECK(everywhere.verdict == Verdict::Refuted);

  // Only refutations are touched.
  ConfirmationResult confirmed = refuted_half();
  confirmed.verdict = Verdict::Confirmed;
  confirmed.refuted = false;
  apply_exploration(confirmed, strong);
  CHECK(confirmed.verdict == Verdict::Confirmed);
}

TEST_CASE("association: a failing run whose order its end cut short had it, unless the read is the failure's",
          "[association]") {
  // 41 failing runs, each seeing only the read: the run ended before the reloader's write. The
  // write did not come before the read in any of them, so all 41 had the order (retry_policy).
  const ExplorationCounts half = exploration_counts(41, 41, 41, 415, 959, false);
  CHECK(half.failing_with == 41);
  CHECK(half.failing == 41);
  CHECK(half.passing_with == 415);
  CHECK(half.passing == 959);
  CHECK(associated_with_failure(half));
  CHECK_FALSE(refutation_stands(half, 14, 0));
  // The same counts when the read is the assertion's own read: the run ends there because it
  // fails, and the order is not had; it stays refuted.
  const ExplorationCounts symptom = exploration_counts(41, 41, 41, 415, 959, true);
  CHECK(symptom.failing_with == 0);
  CHECK(refutation_stands(symptom, 14, 0));
  // Only the cut-short runs are taken away: 30 failing runs had the order complete, 11 cut short.
  CHECK(exploration_counts(41, 11, 41, 415, 959, true).failing_with == 30);
  CHECK(exploration_counts(41, 11, 41, 415, 959, false).failing_with == 41);
}
