// The run-count rule (see forced_runs.h).
#include "localize/forced_runs.h"

#include <algorithm>
#include <cstdio>

#include "localize/verdict.h"

namespace ctrlsched::driver {
namespace {

bool could_confirm(std::uint64_t n, double baseline) {
  return n >= kMinCompletedRuns && binomial_at_least(n, n, std::clamp(baseline, 0.0, 1.0)) < kVerdictAlpha;
}

// "91.0%": as the localization report prints the baseline.
std::string baseline_percent(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * std::clamp(rate, 0.0, 1.0));
  return text;
}

}  // namespace

std::optional<std::uint64_t> least_confirming_runs(double baseline) {
  // baseline^n falls with n, so the first n that could confirm is the least.
  for (std::uint64_t n = kMinCompletedRuns; n <= kMaxForcedRuns; ++n) {
    if (could_confirm(n, baseline)) return n;
  }
  return std::nullopt;
}

std::uint64_t forced_runs_for_baseline(std::uint64_t requested, double baseline) {
  // Fewer than any verdict needs were asked (a quick look): the request stands, as unrealized.
  if (requested < kMinCompletedRuns || could_confirm(requested, baseline)) return requested;
  const std::optional<std::uint64_t> least = least_confirming_runs(baseline);
  return least ? std::max(requested, *least) : requested;
}

std::uint64_t top_up_runs(std::uint64_t forced, std::uint64_t completed, double baseline) {
  if (completed < kMinCompletedRuns || completed > forced || forced >= kMaxForcedRuns) return 0;
  const std::optional<std::uint64_t> least = least_confirming_runs(baseline);
  if (!least || completed >= *least) return 0;
  // At the completion rate so far, rounded up: (least - completed) * forced / completed.
  const std::uint64_t more = ((*least - completed) * forced + completed - 1) / completed;
  return std::min(more, kMaxForcedRuns - forced);
}

std::string confirmation_power_limit(std::uint64_t completed, double baseline) {
  if (completed < kMinCompletedRuns || could_confirm(completed, baseline)) return "";
  const std::optional<std::uint64_t> least = least_confirming_runs(baseline);
  if (!least) {
    return "baseline " + baseline_percent(baseline) + ": no number of forced runs up to " + std::to_string(kMaxForcedRuns) +
           " can confirm";
  }
  return "baseline " + baseline_percent(baseline) + ": " + std::to_string(completed) +
         " completed runs cannot confirm even if all fail (" + std::to_string(*least) + " could)";
}

}  // namespace ctrlsched::driver
