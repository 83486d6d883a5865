// A confirmed pattern whose forced failures are explained by another confirmed pattern
// (docs/forcing.md, "Explained by another pattern").
//
// Forcing pattern P can bring the failure back because the schedule it forces also performs the
// real cause Q: the binding pins the same threads at the same lines, and Q rides along. The
// binomial test against the baseline cannot tell P from Q: both fail well above it. What tells
// them apart is which order the failing forced runs actually performed. Every forced run records
// the Falcon patterns it saw; then P is *explained by* Q when
//   (1) Q happened in every forced run of P that failed the same way (with P's order complete),
//       so none of P's failures came about without Q; and
//   (2) Q's own forced failures include at least one run in which P did not happen: Q brings the
//       failure back without P; and
//   (3) Q comes before P in rank order (Falcon's rank, then Locon's first finding, then ConSeq's
//       predictions). A run's patterns are what Falcon's finite window saw, so a pattern can be
//       missing from a run in which it happened: "failed without P" is the weaker half of the
//       evidence, and it is trusted only against the lower-ranked pattern.
// P then stays `inconclusive` (with the reason), not `confirmed`. When each happened in all of
// the other's failures (1) holds both ways and (2) neither, so both stay confirmed: the evidence
// cannot separate them. Only patterns a Falcon pattern can express (a two-step order of two
// threads, or a three-step order whose first and last step share a thread, on one location) take
// part; the others keep their verdicts.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/localize/falcon.h"

namespace ctrlsched::driver {

struct ForcedPatternEvidence {
  std::optional<localize::FalconPatternId> id;  // the pattern as Falcon names it, if it can
  bool confirmed = false;
  // Per forced run that completed the order and failed the same way: the patterns it saw, sorted.
  std::vector<std::vector<localize::FalconPatternId>> failing_runs;
};

// For each pattern, the index of the first confirmed pattern before it (the order given is rank
// order) that explains it, or nullopt.
std::vector<std::optional<std::size_t>> explained_by(std::span<const ForcedPatternEvidence> patterns);

// The Falcon pattern a forced order of memory accesses expresses: R1-W2, W1-R2, W1-W2 (two steps,
// two roles) or a triple whose first and third step share a role; nullopt for anything else
// (sync steps, a read-read pair, more steps, a second location).
std::optional<localize::FalconPatternId> falcon_pattern_of(const ForceDirective& directive);

}  // namespace ctrlsched::driver
