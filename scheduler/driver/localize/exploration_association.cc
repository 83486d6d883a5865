// The exploration's association of an order with the failure (see exploration_association.h).
#include "localize/exploration_association.h"

#include <algorithm>
#include <cstdio>

#include "localize/counterfactual.h"
#include "localize/verdict.h"

namespace ctrlsched::driver {

ExplorationCounts exploration_counts(std::uint64_t failed, std::uint64_t failed_cut_short, std::uint64_t total_failed,
                                     std::uint64_t passed, std::uint64_t total_passed, bool read_fails) {
  const std::uint64_t not_had = read_fails ? std::min(failed_cut_short, failed) : 0;
  return ExplorationCounts{failed - not_had, total_failed, passed, total_passed};
}

double failure_association_p(const ExplorationCounts& c) {
  if (c.failing == 0 || c.passing == 0) return 1;
  // The passing runs are the "low" group: how seldom they have the order, when both groups share
  // one rate of having it.
  return fisher_at_most(c.passing_with, c.passing, c.failing_with, c.failing);
}

bool associated_with_failure(const ExplorationCounts& c) {
  if (c.failing == 0 || c.passing == 0 || c.failing_with == 0) return false;
  // More frequent in failing runs (cross-multiplied, no division).
  if (c.failing_with * c.passing <= c.passing_with * c.failing) return false;
  return failure_association_p(c) < kAssociationAlpha;
}

std::string association_text(const ExplorationCounts& c) {
  char text[160];
  const double passing_share = c.passing == 0 ? 0.0 : 100.0 * static_cast<double>(c.passing_with) / static_cast<double>(c.passing);
  std::snprintf(text, sizeof text, "in %llu/%llu failing runs and %.0f%% of passing ones (one-sided Fisher p = %.2g)",
                static_cast<unsigned long long>(c.failing_with), static_cast<unsigned long long>(c.failing),
                passing_share, failure_association_p(c));
  return text;
}

bool refutation_stands(const ExplorationCounts& c, std::uint64_t opposite_completed, std::uint64_t opposite_failed) {
  const bool in_every_failure = c.failing >= kMinCompletedRuns && c.failing_with == c.failing;
  const bool opposite_passes = opposite_completed >= kMinCompletedRuns && opposite_failed == 0;
  return !(in_every_failure && associated_with_failure(c) && opposite_passes);
}

}  // namespace ctrlsched::driver
