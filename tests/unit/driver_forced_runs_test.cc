// The run-count rule (localize/forced_runs.h): enough forced runs that a pattern failing in all
// of them could beat a high baseline, up to kMaxForcedRuns, and the reason when it cannot.
#include <catch2/catch.hpp>

#include <cmath>

#include "localize/forced_runs.h"
#include "localize/verdict.h"

using namespace ctrlsched::driver;

TEST_CASE("forced runs: the least n that could confirm against a baseline", "[verdict]") {
  // Low baselines: the verdict's own minimum.
  CHECK(least_confirming_runs(0.0) == kMinCompletedRuns);
  CHECK(least_confirming_runs(0.5) == kMinCompletedRuns);  // 0.5^7 = 0.0078
  // 0.91^48 = 0.0109, 0.91^49 = 0.0099.
  CHECK(least_confirming_runs(0.91) == 49u);
  CHECK(std::pow(0.91, 48) >= kVerdictAlpha);
  CHECK(std::pow(0.91, 49) < kVerdictAlpha);
  CHECK(least_confirming_runs(0.95) == 90u);
  CHECK(least_confirming_runs(0.954) == 98u);
  CHECK(least_confirming_runs(0.9549) == 100u);  // 0.9549^99 = 0.0104, 0.9549^100 = 0.0099
  // 0.955^100 = 0.0100: not below alpha, and the cap is reached.
  CHECK_FALSE(least_confirming_runs(0.955).has_value());
  CHECK_FALSE(least_confirming_runs(0.97).has_value());
  CHECK_FALSE(least_confirming_runs(1.0).has_value());
}

TEST_CASE("forced runs: the requested number unless it cannot confirm", "[verdict]") {
  CHECK(forced_runs_for_baseline(20, 0.0) == 20);
  CHECK(forced_runs_for_baseline(20, 0.3) == 20);
  // 0.79^20 = 0.0090 confirms; 0.8^20 = 0.0115 does not, 0.8^21 = 0.0092 does.
  CHECK(forced_runs_for_baseline(20, 0.79) == 20);
  CHECK(forced_runs_for_baseline(20, 0.80) == 21);
  CHECK(forced_runs_for_baseline(20, 0.91) == 49);
  // More than asked only as many as needed; a larger request is kept.
  CHECK(forced_runs_for_baseline(60, 0.91) == 60);
  CHECK(forced_runs_for_baseline(200, 0.97) == 200);
  // Nothing up to the cap could confirm: no extra runs, the reason says so instead.
  CHECK(forced_runs_for_baseline(20, 0.97) == 20);
  // Fewer than any verdict needs asked on purpose: kept (the verdict is then unrealized).
  CHECK(forced_runs_for_baseline(3, 0.0) == 3);
  CHECK(forced_runs_for_baseline(3, 0.91) == 3);
}

TEST_CASE("forced runs: why completed runs cannot confirm", "[verdict]") {
  CHECK(confirmation_power_limit(20, 0.02).empty());
  CHECK(confirmation_power_limit(49, 0.91).empty());
  CHECK(confirmation_power_limit(3, 0.91).empty());  // unrealized: its own reason
  CHECK(confirmation_power_limit(20, 0.91) == "baseline 91.0%: 20 completed runs cannot confirm even if all fail (49 could)");
  CHECK(confirmation_power_limit(100, 0.97) == "baseline 97.0%: no number of forced runs up to 100 can confirm");
  // The reason agrees with the verdict: n/n at that baseline is inconclusive, at 49 confirmed.
  CHECK(decide_verdict({20, 20, 0.91, false}).verdict == Verdict::Inconclusive);
  CHECK(decide_verdict({49, 49, 0.91, false}).verdict == Verdict::Confirmed);
}

TEST_CASE("forced runs: more seeds while too few completed to beat the baseline", "[verdict]") {
  // barrier_phase: baseline 81.8% needs 23 completed runs; 10 of 23 completed. At that rate,
  // 13 more completions take 30 more runs ((23 - 10) * 23 / 10 = 29.9, rounded up).
  REQUIRE(least_confirming_runs(0.818) == 23u);
  CHECK(top_up_runs(23, 10, 0.818) == 30);
  // Enough completed already, or a low baseline that 7 completed runs can beat: nothing more.
  CHECK(top_up_runs(23, 23, 0.818) == 0);
  CHECK(top_up_runs(20, 7, 0.3) == 0);
  // Unrealized orders are not chased: the binding could not make them happen.
  CHECK(top_up_runs(23, 6, 0.818) == 0);
  // Never past kMaxForcedRuns runs in all, and nothing when no number up to it could confirm.
  CHECK(top_up_runs(49, 7, 0.91) == kMaxForcedRuns - 49);
  CHECK(top_up_runs(kMaxForcedRuns, 40, 0.91) == 0);
  CHECK(top_up_runs(20, 10, 0.97) == 0);
}
