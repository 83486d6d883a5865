// The counterfactual control of a confirmed pattern (localize/counterfactual.h): the opposite
// order of each pattern shape, Fisher's one-sided exact test, the decision, and how it changes a
// confirmed verdict (apply_counterfactual in localize/confirm.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"
#include "localize/confirm.h"
#include "localize/counterfactual.h"
#include "localize/verdict.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

ForceDirective order_of(std::vector<ForceStep> steps) {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.hold_limit = 1000;
  for (const ForceStep& s : steps) d.steps[d.count++] = s;
  return d;
}

ForceStep write_step(std::uint64_t site, std::uint8_t role) { return force_step(site, ForceAccess::Write, role); }
ForceStep read_step(std::uint64_t site, std::uint8_t role) { return force_step(site, ForceAccess::Read, role); }

// C(n, k) for the hand-computed hypergeometric tails below.
double choose(unsigned n, unsigned k) {
  double c = 1;
  for (unsigned i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

}  // namespace

TEST_CASE("counterfactual: a pair is forced the other way round", "[counterfactual]") {
  // Falcon W1-W2 39→39 (two_preemptions' users), a Locon pair or a ConSeq w'→r: B2 → A1.
  ForceDirective pair = order_of({write_step(39, 0), read_step(52, 1)});
  pair.steps[0].occurrence = 3;
  REQUIRE(bind_role(pair, 0, 2));
  REQUIRE(bind_role(pair, 1, 1));
  CHECK(counterfactual_order(pair) == std::vector<std::uint32_t>{1, 0});
  const auto opposite = counterfactual_directive(pair);
  REQUIRE(opposite);
  CHECK(opposite->count == 2);
  CHECK(opposite->steps[0].site == 52);
  CHECK(opposite->steps[0].access == static_cast<std::uint8_t>(ForceAccess::Read));
  CHECK(opposite->steps[0].role == 1);
  CHECK(opposite->steps[1].site == 39);
  CHECK(opposite->steps[1].role == 0);
  // Occurrences travel with their steps; the threads stay bound to the same roles.
  CHECK(opposite->steps[1].occurrence == 3);
  CHECK(opposite->steps[0].occurrence == 0);
  CHECK(opposite->role_threads == pair.role_threads);
  CHECK(opposite->hold_limit == pair.hold_limit);
}

TEST_CASE("counterfactual: a triple becomes the serial order with the other thread's step first",
          "[counterfactual]") {
  // R1-W2-W1 (a lost update) → W2-R1-W1: the other thread's write before the read-write pair, so
  // the pattern's own thread is held at its read until the write happened.
  const ForceDirective triple = order_of({read_step(28, 0), write_step(28, 1), write_step(29, 0)});
  CHECK(counterfactual_order(triple) == std::vector<std::uint32_t>{1, 0, 2});
  const auto opposite = counterfactual_directive(triple);
  REQUIRE(opposite);
  CHECK(opposite->steps[0].role == 1);
  CHECK(opposite->steps[0].access == static_cast<std::uint8_t>(ForceAccess::Write));
  CHECK(opposite->steps[1].site == 28);
  CHECK(opposite->steps[1].role == 0);
  CHECK(opposite->steps[2].site == 29);
  CHECK(opposite->steps[2].role == 0);
}

TEST_CASE("counterfactual: a triple's second serial order puts the other thread's step after", "[counterfactual]") {
  // W1-W2-R1 (c11_refcount: both decrements, then T1's test): with T2's decrement first, T2's own
  // test still sees zero; with it after T1's decrement and test, nobody does.
  const ForceDirective triple = order_of({write_step(31, 0), write_step(31, 1), read_step(33, 0)});
  const auto orders = counterfactual_orders(triple);
  REQUIRE(orders.size() == 2);
  CHECK(orders[0] == std::vector<std::uint32_t>{1, 0, 2});
  CHECK(orders[1] == std::vector<std::uint32_t>{0, 2, 1});
  const auto after = counterfactual_directive(triple, orders[1]);
  REQUIRE(after);
  CHECK(after->steps[2].role == 1);
  CHECK(after->steps[1].site == 33);
  // A pair and four steps have one serial order each.
  CHECK(counterfactual_orders(order_of({write_step(1, 0), read_step(2, 1)})).size() == 1);
  // Each of two serial orders is tested at half the level: p = 0.03 decides alone, not as one of two.
  CHECK(decide_counterfactual({20, 12, 20, 5}).p_lower == Approx(0.0267).epsilon(0.05));
  CHECK(decide_counterfactual({20, 12, 20, 5}, 1).outcome == CounterfactualOutcome::OrderMatters);
  CHECK(decide_counterfactual({20, 12, 20, 5}, 2).outcome == CounterfactualOutcome::FailsAsOften);
}

TEST_CASE("counterfactual: runs with no occurrence of the pattern are a second control", "[counterfactual]") {
  // heldout2's start_gate, unlock1 -> unlock2 of its gate lock: forced, 10/10 completed runs
  // fail; forced the other way round, 6 complete and none fails, and 14 deadlock before it
  // completes. 6 completed runs are no control: the confirmation stood.
  CHECK(decide_counterfactual({10, 10, 6, 0}).outcome == CounterfactualOutcome::Unrealized);
  // If the pattern itself happened in those 14 (a hold expired), they are no control: the same.
  CHECK(decide_counterfactual({10, 10, 6, 0, 0, 0}).outcome == CounterfactualOutcome::Unrealized);
  // Replayed, none of the 14 has the pattern, and all failed: the failure comes without it.
  const CounterfactualDecision without = decide_counterfactual({10, 10, 6, 0, 14, 14}, 2);
  CHECK(without.p_without == Approx(1.0));
  CHECK(without.p_lower == without.p_without);
  CHECK(without.outcome == CounterfactualOutcome::FailsAsOften);
  // Runs without the pattern that pass only take nothing away: with the opposite order
  // unrealized there is still no control that the order matters (so no triple is rescued by its
  // second serial order on them: heldout3's quota).
  const CounterfactualDecision passing = decide_counterfactual({10, 10, 6, 0, 14, 2}, 2);
  CHECK(passing.p_without == Approx(fisher_at_most(2, 14, 10, 10)));
  CHECK(passing.outcome == CounterfactualOutcome::Unrealized);
  // Kept apart from the opposite order's control: heldout2's tz_rules, whose opposite order fails
  // 8/8 as the pattern does, while 9 runs with neither order pass. Pooled, 8/17 would look rarer.
  CHECK(decide_counterfactual({8, 8, 8, 8, 9, 0}, 2).outcome == CounterfactualOutcome::FailsAsOften);
  // Both realized: both must show the failure rarer; the larger p decides.
  const CounterfactualDecision both = decide_counterfactual({20, 20, 20, 0, 10, 9}, 2);
  CHECK(both.p_lower == Approx(fisher_at_most(9, 10, 20, 20)));
  CHECK(both.outcome == CounterfactualOutcome::FailsAsOften);
  CHECK(decide_counterfactual({20, 20, 20, 0, 10, 1}, 2).outcome == CounterfactualOutcome::OrderMatters);
  // Fewer than 7 runs without the pattern are no control, whatever they did.
  CHECK(decide_counterfactual({20, 20, 20, 0, 6, 6}).outcome == CounterfactualOutcome::OrderMatters);
  CHECK(decide_counterfactual({20, 20, 5, 0, 6, 6}).outcome == CounterfactualOutcome::Unrealized);
}

TEST_CASE("counterfactual: four steps of two threads are serialized, the other thread first", "[counterfactual]") {
  // Locon procedure III: W1x → R2x, R2y → W1y (an inconsistent snapshot) → R2x, R2y, W1x, W1y.
  ForceDirective snapshot = order_of({write_step(10, 0), read_step(20, 1), read_step(21, 1), write_step(11, 0)});
  snapshot.steps[2].location = snapshot.steps[3].location = 1;
  CHECK(counterfactual_order(snapshot) == std::vector<std::uint32_t>{1, 2, 0, 3});
  const auto opposite = counterfactual_directive(snapshot);
  REQUIRE(opposite);
  CHECK(opposite->steps[0].location == 0);  // R2x: locations travel with the steps
  CHECK(opposite->steps[1].location == 1);  // R2y
  CHECK(opposite->steps[2].location == 0);  // W1x
  CHECK(opposite->steps[3].location == 1);  // W1y
  // A lock cycle (lock A by 1, lock B by 2, lock A by 2, lock B by 1): 2 takes both, then 1.
  const auto lock = static_cast<std::uint8_t>(SyncOp::Lock);
  ForceDirective cycle = order_of({force_sync_step(26, lock, 0), force_sync_step(38, lock, 1),
                                   force_sync_step(39, lock, 1), force_sync_step(27, lock, 0)});
  CHECK(counterfactual_order(cycle) == std::vector<std::uint32_t>{1, 2, 0, 3});
  const auto serial = counterfactual_directive(cycle);
  REQUIRE(serial);
  CHECK(serial->steps[0].access == kForceSync + lock);
  CHECK(serial->steps[0].site == 38);
}

TEST_CASE("counterfactual: no opposite order without two threads or an Order", "[counterfactual]") {
  CHECK(counterfactual_order(order_of({write_step(1, 0), write_step(2, 0)})).empty());
  CHECK_FALSE(counterfactual_directive(order_of({write_step(1, 0)})));
  CHECK_FALSE(counterfactual_directive(ForceDirective{}));
  ForceDirective entry = order_of({write_step(1, 0), write_step(2, 1)});
  entry.kind = static_cast<std::uint32_t>(ForceKind::SwitchAtEntry);
  CHECK_FALSE(counterfactual_directive(entry));
}

TEST_CASE("counterfactual: Fisher's one-sided exact test", "[counterfactual]") {
  // 0/20 against 7/20: only the table with all 7 failures in the other group is as extreme.
  CHECK(fisher_at_most(0, 20, 7, 20) == Approx(choose(20, 7) / choose(40, 7)));
  // 1/20 against 7/20: X <= 1 among 8 failures.
  CHECK(fisher_at_most(1, 20, 7, 20) ==
        Approx((choose(20, 8) + choose(20, 1) * choose(20, 7)) / choose(40, 8)));
  // Equal or higher rates are nowhere near significant.
  CHECK(fisher_at_most(12, 19, 13, 20) > 0.5);
  CHECK(fisher_at_most(20, 20, 10, 20) == Approx(1.0));
  // No failure at all: nothing to compare.
  CHECK(fisher_at_most(0, 20, 0, 20) == Approx(1.0));
  // Counts above the runs are clamped.
  CHECK(fisher_at_most(30, 20, 20, 20) == Approx(1.0));
}

TEST_CASE("counterfactual: the decision", "[counterfactual]") {
  auto decide = [](std::uint64_t nf, std::uint64_t kf, std::uint64_t nc, std::uint64_t kc) {
    return decide_counterfactual({nf, kf, nc, kc}).outcome;
  };
  // The opposite order could not be made to happen: no control.
  CHECK(decide(20, 20, kMinCompletedRuns - 1, 0) == CounterfactualOutcome::Unrealized);
  CHECK(decide(20, 20, 0, 0) == CounterfactualOutcome::Unrealized);
  // A cause: its opposite order does not fail (or rarely).
  CHECK(decide(20, 20, 20, 0) == CounterfactualOutcome::OrderMatters);
  CHECK(decide(20, 11, 20, 0) == CounterfactualOutcome::OrderMatters);
  CHECK(decide(20, 7, 20, 0) == CounterfactualOutcome::OrderMatters);
  CHECK(decide(7, 7, 7, 0) == CounterfactualOutcome::OrderMatters);
  // A pattern riding along with the cause: forced either way, the cause happens.
  CHECK(decide(20, 13, 19, 12) == CounterfactualOutcome::FailsAsOften);
  CHECK(decide(20, 15, 20, 20) == CounterfactualOutcome::FailsAsOften);
  // Lower, but not significantly: 7/20 vs 2/20 (p = 0.064).
  CHECK(decide(20, 7, 20, 2) == CounterfactualOutcome::FailsAsOften);
  const CounterfactualDecision d = decide_counterfactual({20, 7, 20, 1});
  CHECK(d.outcome == CounterfactualOutcome::OrderMatters);  // p = 0.022 < 0.05
  CHECK(d.p_lower == Approx(0.0218).epsilon(1e-2));
  CHECK(decide_counterfactual({20, 20, 3, 3}).p_lower == 1.0);
}

TEST_CASE("counterfactual: a confirmed verdict becomes inconclusive, never refuted", "[counterfactual]") {
  ConfirmationResult c;
  c.forced_runs = 20;
  c.completed = 20;
  c.failed = 13;
  c.verdict = Verdict::Confirmed;
  CounterfactualResult o;
  o.forced_runs = 20;
  o.completed = 19;
  o.failed = 12;
  o.order = "W T.c:39 → W T.c:39";
  const CounterfactualDecision d = decide_counterfactual({c.completed, c.failed, o.completed, o.failed});
  o.outcome = d.outcome;
  o.p_lower = d.p_lower;
  ConfirmationResult ride_along = c;
  apply_counterfactual(ride_along, o);
  CHECK(ride_along.verdict == Verdict::Inconclusive);
  CHECK_FALSE(ride_along.refuted);
  CHECK(ride_along.reason.starts_with("the opposite order fails as often: 12/19 where it completed vs 13/20"));
  const nlohmann::json j = confirmation_json(ride_along);
  CHECK(j.at("verdict") == "inconclusive");
  CHECK(j.at("counterfactual").at("outcome") == "fails as often");
  CHECK(j.at("counterfactual").at("completed") == 19);
  CHECK(j.at("counterfactual").at("failed") == 12);
  CHECK(j.at("counterfactual").at("test").at("alpha") == kCounterfactualAlpha);
  CHECK(render_confirmation(1, ride_along).ends_with("; the opposite order fails as often (12/19)"));

  // The cause: the opposite order rarely fails, the confirmation stands, with its evidence.
  ConfirmationResult cause = c;
  o.failed = 0;
  o.outcome = decide_counterfactual({c.completed, c.failed, o.completed, o.failed}).outcome;
  apply_counterfactual(cause, o);
  CHECK(cause.verdict == Verdict::Confirmed);
  CHECK(cause.reason.empty());
  CHECK(confirmation_json(cause).at("counterfactual").at("outcome") == "order matters");

  // Unrealized control: confirmed stays, and says so.
  ConfirmationResult uncontrolled = c;
  o.completed = 3;
  o.failed = 3;
  o.outcome = decide_counterfactual({c.completed, c.failed, o.completed, o.failed}).outcome;
  apply_counterfactual(uncontrolled, o);
  CHECK(uncontrolled.verdict == Verdict::Confirmed);
  CHECK(confirmation_json(uncontrolled).at("counterfactual").at("outcome") == "unrealized");

  // Nothing happens to a verdict that was not confirmed, and a skipped control is not reported.
  ConfirmationResult inconclusive = c;
  inconclusive.verdict = Verdict::Inconclusive;
  o.completed = 19;
  o.failed = 12;
  o.outcome = CounterfactualOutcome::FailsAsOften;
  apply_counterfactual(inconclusive, o);
  CHECK(inconclusive.verdict == Verdict::Inconclusive);
  CHECK(inconclusive.reason.empty());
  CHECK_FALSE(confirmation_json(c).contains("counterfactual"));
}

// docs/forcing.md, "Refuted, but needed".
TEST_CASE("counterfactual: a refuted order whose opposite prevents the failure is needed", "[counterfactual]") {
  // Forced alone: 0/12 failed. Opposite order: 0/20 where the baseline is 30%: needed.
  CHECK(decide_necessity(20, 0, 0.3).outcome == CounterfactualOutcome::Needed);
  CHECK(decide_necessity(20, 0, 0.3).p_lower == Approx(std::pow(0.7, 20)));
  // At the baseline rate the order is not needed; too few completed runs decide nothing.
  CHECK(decide_necessity(20, 6, 0.3).outcome == CounterfactualOutcome::NotNeeded);
  CHECK(decide_necessity(6, 0, 0.9).outcome == CounterfactualOutcome::Unrealized);

  ConfirmationResult c;
  c.forced_runs = 20;
  c.completed = 12;
  c.failed = 0;
  c.baseline_rate = 0.3;
  c.verdict = Verdict::Refuted;
  c.refuted = true;
  CounterfactualResult o;
  o.forced_runs = 20;
  o.completed = 20;
  o.failed = 0;
  const CounterfactualDecision d = decide_necessity(o.completed, o.failed, c.baseline_rate);
  o.outcome = d.outcome;
  o.p_lower = d.p_lower;
  ConfirmationResult half = c;
  apply_counterfactual(half, o);
  CHECK(half.verdict == Verdict::Inconclusive);
  CHECK_FALSE(half.refuted);
  CHECK(half.reason.starts_with("needed, not sufficient: forced alone it fails 0/12, but the opposite order fails 0/20"));
  CHECK(confirmation_json(half).at("counterfactual").at("outcome") == "needed");

  // The opposite order fails at the baseline: the refutation stands.
  ConfirmationResult irrelevant = c;
  o.failed = 7;
  o.outcome = decide_necessity(o.completed, o.failed, c.baseline_rate).outcome;
  apply_counterfactual(irrelevant, o);
  CHECK(irrelevant.verdict == Verdict::Refuted);
  CHECK(confirmation_json(irrelevant).at("counterfactual").at("outcome") == "not needed");
}
