// Refutations qualified by a sibling location on the same lines (see sibling_locations.h).
#include "localize/sibling_locations.h"

#include <algorithm>
#include <cstddef>

#include "localize/verdict.h"

namespace ctrlsched::driver {

bool same_lines(const ForcedPattern& a, const ForcedPattern& b) {
  const ForceDirective& x = a.directive;
  const ForceDirective& y = b.directive;
  if (x.kind != y.kind || x.count != y.count || x.count > kMaxForceSteps) return false;
  if (a.step_names.size() != x.count || b.step_names.size() != y.count) return false;
  for (std::uint32_t i = 0; i < x.count; ++i) {
    if (x.steps[i].access != y.steps[i].access || x.steps[i].role != y.steps[i].role ||
        a.step_names[i] != b.step_names[i]) {
      return false;
    }
  }
  return true;
}

bool fails_like_a_cause(const ConfirmationResult& sibling, bool symptom) {
  if (symptom || sibling.verdict == Verdict::Unrealized || sibling.completed < kMinCompletedRuns) return false;
  if (sibling.counterfactual.outcome == CounterfactualOutcome::FailsAsOften) return false;
  return static_cast<double>(sibling.failed) >= kCauseFailureRate * static_cast<double>(sibling.completed);
}

void qualify_refutation(ConfirmationResult& c, const ConfirmationResult& sibling, const std::string& sibling_location) {
  if (c.verdict != Verdict::Refuted) return;
  c.verdict = Verdict::Inconclusive;
  c.refuted = false;
  const std::string where = sibling_location.empty() ? std::string("another location") : sibling_location;
  c.reason = "the same lines on " + where + " fail " + std::to_string(sibling.failed) + "/" +
             std::to_string(sibling.completed) +
             " where that order completed: this location's order alone does not decide";
}

void qualify_refutations_by_lines(const std::vector<ForcedPattern>& patterns,
                                  const std::vector<ConfirmationResult*>& results) {
  const std::size_t n = std::min(patterns.size(), results.size());
  // Decide on the verdicts as forcing gave them, then apply: a qualified refutation is never
  // anyone's sibling evidence (it failed in less than kCauseFailureRate of its runs anyway).
  std::vector<std::size_t> sibling_of(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (results[i] == nullptr || results[i]->verdict != Verdict::Refuted) continue;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || results[j] == nullptr || results[j] == results[i]) continue;
      if (same_lines(patterns[i], patterns[j]) && fails_like_a_cause(*results[j], patterns[j].symptom)) {
        sibling_of[i] = j;
        break;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (sibling_of[i] < n) qualify_refutation(*results[i], *results[sibling_of[i]], patterns[sibling_of[i]].location);
  }
}

}  // namespace ctrlsched::driver
