// How many forced runs a pattern gets (docs/forcing.md, "How many forced runs"). A pattern is
// confirmed only if its failures are significantly above the baseline; even when every completed
// run fails, that takes P(X >= n | n, baseline) = baseline^n < kVerdictAlpha. With the default 20
// runs, no result can confirm anything once baseline^20 >= 0.01 (baseline >= 79.4%), so a
// pattern of a failure that is frequent without forcing would always be `inconclusive`. The rule:
// force max(requested, the least n that could confirm), at most kMaxForcedRuns; when not even
// kMaxForcedRuns could confirm (baseline >= 95.5%), force the requested number and say so.
// Pure, so the rule is unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ctrlsched::driver {

// The most forced runs per binding the run-count rule asks for. Forcing is paid per binding tried
// (up to 3) and again for the counterfactual control (up to 3 more), so 100 can mean 600 runs per
// pattern, three times a 200-seed exploration; and 100 runs reach any baseline below
// 0.01^(1/100) = 95.5% (0.955^100 = 0.0100 is not below 0.01). Above that the failure is all but
// certain without forcing, and forcing cannot show more than the plain runs do.
inline constexpr std::uint64_t kMaxForcedRuns = 100;

// The least n (>= kMinCompletedRuns) at which n failures in n completed runs are significantly
// above `baseline` (binomial_at_least(n, n, baseline) < kVerdictAlpha); nullopt when no n up to
// kMaxForcedRuns is.
std::optional<std::uint64_t> least_confirming_runs(double baseline);

// The forced runs to make when `requested` were asked: `requested` if it could confirm, if
// nothing up to kMaxForcedRuns could, or if it is below kMinCompletedRuns (too few for any
// verdict: asked on purpose); else the least n that could.
std::uint64_t forced_runs_for_baseline(std::uint64_t requested, double baseline);

// How many more runs to force, over the next seeds and with the same binding, after `forced`
// runs of which `completed` completed the order: while the order was realized (completed >=
// kMinCompletedRuns) but too few runs completed to confirm against `baseline` even if all of
// them failed, enough to reach the least confirming number at the completion rate seen so far,
// with no attempt going past kMaxForcedRuns runs in all; else 0. Depends on the completions
// only, never on how many failed, so the binomial test on the completed runs keeps its level.
std::uint64_t top_up_runs(std::uint64_t forced, std::uint64_t completed, double baseline);

// Why `completed` runs cannot confirm against `baseline` even if every one failed, or "" when
// they could (or when completed < kMinCompletedRuns: then the order is unrealized):
//   "baseline 97.0%: no number of forced runs up to 100 can confirm"
//   "baseline 91.0%: 40 completed runs cannot confirm even if all fail (49 could)"
std::string confirmation_power_limit(std::uint64_t completed, double baseline);

}  // namespace ctrlsched::driver
