// Two-variable causes as one finding (issue 10, docs/forcing.md "A pair of a two-variable cause").
//
// Locon's procedures II and III report two pairs on two locations that must happen together: the
// reporter reads a sum that includes a sample and a count that does not. Forced together they are
// confirmed like any order. Each pair alone is half of the cause and, forced by itself, is rarely
// sufficient: Falcon's and ConSeq's single-location patterns that are such a half come out
// `inconclusive`, or, at a low baseline, worse. The finding's own control (counterfactual.h)
// serializes both pairs at once, so it cannot say whether each pair is needed.
//
// The same holds for two forced pairs of Falcon's or ConSeq's on two locations, coupled in the
// threads' program order (couple_pairs, reference_binding.h), since Locon has only the failing
// run's straddle. So a confirmed two-location finding gets one control per pair: that pair's order reversed, the
// other pair's kept, over the same seeds. A pair whose reversal, really happening, fails as often
// is not a part of the cause, and the finding, which says both are, is then not confirmed. When the reversal fails significantly less often than
// the finding (one-sided Fisher exact, kCounterfactualAlpha), the pair is a needed part of a
// sufficient order. A forced single pattern with exactly that pair's steps, not confirmed by
// itself, is then `confirmed` as that part, and says so, with its own verdict alone beside it.
// Pure, so the rules are unit-tested; confirm.cc runs the controls.
#pragma once

#include <cstdint>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "localize/confirm.h"
#include "localize/sibling_locations.h"

namespace ctrlsched::driver {

// One pair of a two-location directive and the step order that reverses it alone.
struct HalfReversal {
  std::uint16_t location = 0;
  std::uint32_t first = 0;   // the pair's step indexes, first < second
  std::uint32_t second = 0;
  std::vector<std::uint32_t> order;  // for counterfactual_directive: the two steps swapped
};

// The pairs of an Order directive of memory accesses on exactly two locations, each with exactly
// two steps by two roles, whose swap keeps every role's steps in their order (a role's steps are
// one thread's, in its program order). Empty for any other directive.
std::vector<HalfReversal> half_reversals(const ForceDirective& directive);

// Sets `needed` from the reversal's counts against the finding's: realized (kMinCompletedRuns
// completed) and failing significantly less often. Sets `not_needed` when it is not, and the
// reversed order itself happened in kMinCompletedRuns runs (not counting runs that failed after
// the failing thread's own steps, before the order was complete) without failing significantly
// less often: the finding then claims a pair the failure does not need.
void decide_half(HalfControl& half, std::uint64_t finding_failed, std::uint64_t finding_completed);

// The first pair of a finding shown not to be needed, or nullptr. A two-location finding with
// such a pair is not confirmed: `inconclusive`, the pair's evidence as the reason (confirm.cc).
const HalfControl* pair_not_needed(const std::vector<HalfControl>& halves);

// The pattern's two steps are the pair's: same sites and access kinds, in the finding's order.
bool is_pair_of(const ForceDirective& pattern, const ForceDirective& finding, const HalfControl& half);

// Confirms, as a part of a coupled finding, every forced two-step pattern that is not confirmed by
// itself and not a symptom, whose steps are a needed pair of a confirmed finding
// (results[i] belongs to patterns[i]; nullptr: not forced). Directives are compared by statement.
// Decides on the verdicts as forcing gave them; the first finding (in pattern order) names the
// reason.
void confirm_coupled_parts(const std::vector<ForcedPattern>& patterns, const std::vector<ConfirmationResult*>& results);

}  // namespace ctrlsched::driver
