// The counterfactual control of a confirmed pattern (docs/forcing.md, "The counterfactual
// control"). A cause is an order: if forcing A→B makes the test fail, but forcing the opposite
// order fails just as often, the order is not what makes it fail (the forced schedule performs
// the real cause either way: a pattern riding along with it, or a symptom of it).
//
// The opposite order of a pattern keeps its steps, roles, locations, occurrences and thread
// bindings and changes only who goes first, with no interleaving: every step of the roles other
// than step 1's, in their order, then step 1's role's steps, in their order.
//   pair      A1 → B2            becomes  B2 → A1           (Locon pairs, ConSeq w'→r, sync pairs)
//   triple    a1 → b2 → c1       becomes  b2 → a1 → c1      (R1-W2-W1 → W2-R1-W1: the serial order
//                                                           with the other thread's step first)
//   four      a1 → b2 → c2 → d1  becomes  b2 → c2 → a1 → d1 (Locon procedure III, lock cycles)
//
// A refuted pattern gets the control too, the other way round (docs/forcing.md, "Refuted, but
// needed"): forced alone the order did not bring the failure back, but if its opposite order
// makes the failure significantly rarer than the baseline, the failing runs need this order; it
// is a part of the cause, not sufficient alone (one half of a two-variable bug), and the
// refutation does not stand (inconclusive, saying so).
// Pure, so the rule and the decision are unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ctrlsched/force_directive.h"

namespace ctrlsched::driver {

// One-sided: the counterfactual must fail significantly less often than the forced order for the
// confirmation to stand. 0.05 rather than kVerdictAlpha: the test compares two samples of about
// 20 runs, and at 0.01 a true pattern forced 7/20 whose opposite order fails 1/20 would lose its
// confirmation (p = 0.022); the claim itself was already made at kVerdictAlpha.
inline constexpr double kCounterfactualAlpha = 0.05;

// The positions of the pattern's steps in the opposite order (see above); empty when the directive
// has none: not an Order, no step, or a single role.
std::vector<std::uint32_t> counterfactual_order(const ForceDirective& directive);
// Every serial order the control tries, the one above first. A triple a1 → b2 → c1 has a second:
// a1 → c1 → b2, the other thread's step after the window. Each serialization can be spoiled by
// the other thread's unlisted accesses (lost_update's R1-W2-W1 with b after the window still loses
// the update through b's own read), and a symmetric bug spoils the first (c11_refcount's
// W1-W2-R1: with T2's decrement first, T2's own test still sees zero). The first is tested at
// kCounterfactualAlpha; when it was realized and did not decide, the second is tried at half that
// level, and the order matters if it prevents the failure. (An unrealized first order is no
// control, and the second does not replace it: it is the one unlisted accesses spoil.)
std::vector<std::vector<std::uint32_t>> counterfactual_orders(const ForceDirective& directive);
// The directive with its steps in counterfactual_order (or in `order`); nullopt when it has none.
std::optional<ForceDirective> counterfactual_directive(const ForceDirective& directive);
std::optional<ForceDirective> counterfactual_directive(const ForceDirective& directive,
                                                       const std::vector<std::uint32_t>& order);

// P(X <= k_low) for the low group in Fisher's exact test: X ~ Hypergeometric, the low group's
// failures among all failures when both groups share one failure rate. One-sided, exact.
double fisher_at_most(std::uint64_t k_low, std::uint64_t n_low, std::uint64_t k_high, std::uint64_t n_high);

enum class CounterfactualOutcome {
  NotRun,       // the pattern was not confirmed, or has no opposite order
  Unrealized,   // the opposite order completed in fewer than kMinCompletedRuns runs: no control
  OrderMatters, // the opposite order fails significantly less often: the confirmation stands
  FailsAsOften, // not significantly less often: the order is not the cause (inconclusive)
  // The control of a refuted pattern (decide_necessity):
  Needed,       // the opposite order fails significantly less often than the baseline
  NotNeeded,    // it does not: the refutation stands
};
std::string_view counterfactual_outcome_name(CounterfactualOutcome outcome);

// Without the pattern. A run forced toward the opposite order in which that order did not
// complete is no evidence either way as long as the pattern itself may have happened there (the
// hold on its first thread expired, and the pattern's order came after all). But when the run's
// trace, replayed, has no occurrence of the pattern (in order, any threads, any iteration; or cut
// short by the run's end), it is a run without the pattern: heldout2's start_gate, whose
// woken1 → wait2 rides along a broadcast sent before anyone waited; forced the other way round,
// 14 of 20 runs deadlocked with no occurrence of it. Such runs, failing or not (only failing ones
// would bias them toward failure), are a second control beside the opposite order's, which can
// only take a confirmation away: kept apart, because pooled with it they would hide an opposite
// order that fails as often (heldout2's tz_rules: the opposite 8/8, runs with neither 0/9).
struct CounterfactualEvidence {
  std::uint64_t forced_completed = 0;  // the pattern's order: completed runs
  std::uint64_t forced_failed = 0;     // of those, failed the same way
  std::uint64_t opposite_completed = 0;
  std::uint64_t opposite_failed = 0;
  std::uint64_t without_pattern = 0;         // see above; not among opposite_completed
  std::uint64_t without_pattern_failed = 0;  // of those, failed the same way
};

struct CounterfactualDecision {
  CounterfactualOutcome outcome = CounterfactualOutcome::Unrealized;
  double p_lower = 1;    // fisher_at_most(opposite, forced), or the larger with p_without; 1 when unrealized
  double p_without = 1;  // fisher_at_most(without the pattern, forced); 1 when that control is unrealized
};

// `serializations`: how many serial orders the control tries in all (counterfactual_orders); the
// test is at kCounterfactualAlpha / serializations.
CounterfactualDecision decide_counterfactual(const CounterfactualEvidence& evidence, std::size_t serializations = 1);

// The control of a refuted pattern: Needed when the opposite order, where it completed, failed
// significantly less often than the baseline rate (one-sided exact binomial, p <
// kCounterfactualAlpha); Unrealized below kMinCompletedRuns; else NotNeeded. p_lower is that
// binomial tail.
CounterfactualDecision decide_necessity(std::uint64_t opposite_completed, std::uint64_t opposite_failed,
                                        double baseline_rate, std::size_t serializations = 1);

}  // namespace ctrlsched::driver
