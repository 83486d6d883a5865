// What the exploration saw of a forced order, beside what forcing it showed (docs/forcing.md,
// "Refuted, but every failure had it").
//
// A refutation says "this order happened in enough forced runs and they did not fail that way":
// the order is not sufficient. It says nothing of whether the order is needed, and the control
// that could (the opposite order failing less often than the baseline, counterfactual.h) has no
// power at a low baseline: at 1.9%, 20 runs of the opposite order pass with probability 0.68
// even if the order were needed. The exploration has evidence of its own. An order that every
// failing run had, and significantly fewer passing runs, looks needed: the failure never happened
// without it. Such an order is kept from being refuted while forcing agrees: its opposite order
// was made to happen and never failed the same way. The refutation stands when
//   - some failing run lacked the order (the failure happens without it; an order merely more
//     frequent in failing runs rides along with the interleavings that fail, e.g. a counter
//     updated more often in runs that switch threads more),
//   - fewer than kMinCompletedRuns runs failed (one failing run has many orders of its own),
//   - the opposite order could not be made to happen (the order is then close to a constant of
//     the program, and its absence from passing runs is an artifact of Falcon's window: a run cut
//     short by its failure reports pairs a longer run covers with a triple or a later access), or
//   - the opposite order failed the same way (the failure happens without the order).
// Pure, so the rule is unit-tested.
#pragma once

#include <cstdint>
#include <string>

namespace ctrlsched::driver {

// The level of the association test; the same as the verdicts' (verdict.h).
inline constexpr double kAssociationAlpha = 0.01;

// The plain runs of the exploration that had the order (Falcon's counts of the pattern).
struct ExplorationCounts {
  std::uint64_t failing_with = 0;  // failing runs in which the order was seen (see below for a
                                   // read whose run ended before the write)
  std::uint64_t failing = 0;       // failing runs in all
  std::uint64_t passing_with = 0;
  std::uint64_t passing = 0;
};

// The counts of a Falcon pattern seen in `failed` failing runs, `failed_cut_short` of them only as
// an order the run's end cut short (its read happened, the write never came), and in `passed`
// passing runs. Such a run had the order: the write did not come before the read, so the run is
// one where the order held. Unless the read is on the failure's line (an assertion's own read, a
// crashing load: `read_fails`): every failing run ends there because it fails there, and "no
// write before the read" says no more than that it failed; the run does not count. heldout5's
// retry_policy `R1-W2 43→25`, the stale retry count read three lines before the assertion, is
// one half of a two-variable bug whose every failing run ends before the reloader's write. The
// line is all the rule knows: maintenance3's `R1-W2 27→27` on `serving` (the `+=` one line before
// the assertion that checks it) counts as well, and a wrong pattern is inconclusive, not refuted.
ExplorationCounts exploration_counts(std::uint64_t failed, std::uint64_t failed_cut_short, std::uint64_t total_failed,
                                     std::uint64_t passed, std::uint64_t total_passed, bool read_fails);

// One-sided Fisher exact test: P(the passing runs have the order this seldom | the order is as
// frequent in passing runs as in failing ones). 1 without runs on either side.
double failure_association_p(const ExplorationCounts& counts);

// The order is significantly more frequent in failing runs than in passing ones.
bool associated_with_failure(const ExplorationCounts& counts);

// "in 19/19 failing runs and 38% of passing ones (one-sided Fisher p = 3e-08)".
std::string association_text(const ExplorationCounts& counts);

// Whether a refutation stands beside the exploration (the rule above); `opposite_completed` and
// `opposite_failed` are the control's counts (0 and 0 when it was not run).
bool refutation_stands(const ExplorationCounts& counts, std::uint64_t opposite_completed, std::uint64_t opposite_failed);

}  // namespace ctrlsched::driver
