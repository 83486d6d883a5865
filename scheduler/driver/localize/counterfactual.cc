// The counterfactual control (see counterfactual.h).
#include "localize/counterfactual.h"

#include <algorithm>
#include <cmath>

#include "localize/verdict.h"

namespace ctrlsched::driver {
namespace {

double log_choose(std::uint64_t n, std::uint64_t k) {
  const double dn = static_cast<double>(n), dk = static_cast<double>(k);
  return std::lgamma(dn + 1) - std::lgamma(dk + 1) - std::lgamma(dn - dk + 1);
}

}  // namespace

std::vector<std::uint32_t> counterfactual_order(const ForceDirective& d) {
  if (d.kind != static_cast<std::uint32_t>(ForceKind::Order) || d.count == 0 || d.count > kMaxForceSteps) return {};
  const std::uint8_t first_role = d.steps[0].role;
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < d.count; ++i) {
    if (d.steps[i].role != first_role) order.push_back(i);
  }
  if (order.empty()) return {};  // one thread: there is no other order of two threads
  for (std::uint32_t i = 0; i < d.count; ++i) {
    if (d.steps[i].role == first_role) order.push_back(i);
  }
  return order;
}

std::vector<std::vector<std::uint32_t>> counterfactual_orders(const ForceDirective& d) {
  std::vector<std::uint32_t> first = counterfactual_order(d);
  if (first.empty()) return {};
  std::vector<std::vector<std::uint32_t>> orders = {std::move(first)};
  if (d.count == 3 && d.steps[0].role == d.steps[2].role && d.steps[1].role != d.steps[0].role) {
    orders.push_back({0, 2, 1});  // a1 → c1 → b2
  }
  return orders;
}

std::optional<ForceDirective> counterfactual_directive(const ForceDirective& d, const std::vector<std::uint32_t>& order) {
  if (order.empty() || order.size() != d.count) return std::nullopt;
  ForceDirective opposite = d;  // roles, their threads, locations and occurrences travel with the steps
  for (std::size_t i = 0; i < order.size(); ++i) opposite.steps[i] = d.steps[order[i]];
  return opposite;
}

std::optional<ForceDirective> counterfactual_directive(const ForceDirective& d) {
  return counterfactual_directive(d, counterfactual_order(d));
}

double fisher_at_most(std::uint64_t k_low, std::uint64_t n_low, std::uint64_t k_high, std::uint64_t n_high) {
  k_low = std::min(k_low, n_low);
  k_high = std::min(k_high, n_high);
  const std::uint64_t failures = k_low + k_high;
  const std::uint64_t total = n_low + n_high;
  // X = failures in the low group: from max(0, failures - n_high) to min(failures, n_low).
  const std::uint64_t from = failures > n_high ? failures - n_high : 0;
  if (k_low < from) return 0;
  const double log_denominator = log_choose(total, failures);
  double sum = 0;
  for (std::uint64_t x = from; x <= k_low; ++x)
    sum += std::exp(log_choose(n_low, x) + log_choose(n_high, failures - x) - log_denominator);
  return std::min(sum, 1.0);
}

std::string_view counterfactual_outcome_name(CounterfactualOutcome outcome) {
  switch (outcome) {
    case CounterfactualOutcome::NotRun: return "not run";
    case CounterfactualOutcome::Unrealized: return "unrealized";
    case CounterfactualOutcome::OrderMatters: return "order matters";
    case CounterfactualOutcome::FailsAsOften: return "fails as often";
    case CounterfactualOutcome::Needed: return "needed";
    case CounterfactualOutcome::NotNeeded: return "not needed";
  }
  return "not run";
}

CounterfactualDecision decide_counterfactual(const CounterfactualEvidence& e, std::size_t serializations) {
  CounterfactualDecision d;
  // Two controls, each realized from kMinCompletedRuns runs on: the runs where the opposite order
  // completed, and those with no occurrence of the pattern at all (CounterfactualEvidence). The
  // second can only take a confirmation away: runs with neither order are not what the control
  // forces, so they never show alone that the order matters (nor rescue a triple through its
  // second serial order). The order matters when the opposite order's control is realized and
  // both realized controls fail significantly less often than the order: the larger p decides,
  // and each test keeps its level.
  const bool opposite = e.opposite_completed >= kMinCompletedRuns;
  const bool without = e.without_pattern >= kMinCompletedRuns;
  if (without) d.p_without = fisher_at_most(e.without_pattern_failed, e.without_pattern, e.forced_failed, e.forced_completed);
  const double alpha = kCounterfactualAlpha / static_cast<double>(std::max<std::size_t>(serializations, 1));
  if (!opposite) {
    // No control of its own: a realized second control that fails as often still takes the
    // confirmation away; otherwise unrealized, and the verdict stays.
    if (without && d.p_without >= alpha) {
      d.outcome = CounterfactualOutcome::FailsAsOften;
      d.p_lower = d.p_without;
    }
    return d;
  }
  d.p_lower = fisher_at_most(e.opposite_failed, e.opposite_completed, e.forced_failed, e.forced_completed);
  if (without) d.p_lower = std::max(d.p_lower, d.p_without);
  d.outcome = d.p_lower < alpha ? CounterfactualOutcome::OrderMatters : CounterfactualOutcome::FailsAsOften;
  return d;
}

CounterfactualDecision decide_necessity(std::uint64_t opposite_completed, std::uint64_t opposite_failed,
                                        double baseline_rate, std::size_t serializations) {
  CounterfactualDecision d;
  if (opposite_completed < kMinCompletedRuns) return d;  // unrealized: the refutation stands
  d.p_lower = binomial_at_most(std::min(opposite_failed, opposite_completed), opposite_completed,
                               std::clamp(baseline_rate, 0.0, 1.0));
  const double alpha = kCounterfactualAlpha / static_cast<double>(std::max<std::size_t>(serializations, 1));
  d.outcome = d.p_lower < alpha ? CounterfactualOutcome::Needed : CounterfactualOutcome::NotNeeded;
  return d;
}

}  // namespace ctrlsched::driver
