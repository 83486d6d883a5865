// Confirmed patterns explained by another confirmed pattern (see explained_by.h).
#include "localize/explained_by.h"

#include <algorithm>
#include <string>

namespace ctrlsched::driver {
namespace {

bool saw(const std::vector<localize::FalconPatternId>& run, const localize::FalconPatternId& id) {
  return std::binary_search(run.begin(), run.end(), id);
}

bool explains(const ForcedPatternEvidence& q, const ForcedPatternEvidence& p) {
  if (!q.confirmed || !q.id || !p.id || *q.id == *p.id || p.failing_runs.empty()) return false;
  const bool q_in_all_of_p = std::all_of(p.failing_runs.begin(), p.failing_runs.end(),
                                         [&](const auto& run) { return saw(run, *q.id); });
  const bool q_fails_without_p = std::any_of(q.failing_runs.begin(), q.failing_runs.end(),
                                             [&](const auto& run) { return !saw(run, *p.id); });
  return q_in_all_of_p && q_fails_without_p;
}

}  // namespace

std::vector<std::optional<std::size_t>> explained_by(std::span<const ForcedPatternEvidence> patterns) {
  std::vector<std::optional<std::size_t>> result(patterns.size());
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    if (!patterns[p].confirmed) continue;
    for (std::size_t q = 0; q < p && !result[p]; ++q) {
      if (explains(patterns[q], patterns[p])) result[p] = q;
    }
  }
  return result;
}

std::optional<localize::FalconPatternId> falcon_pattern_of(const ForceDirective& directive) {
  if (static_cast<ForceKind>(directive.kind) != ForceKind::Order) return std::nullopt;
  if (directive.count != 2 && directive.count != 3) return std::nullopt;
  std::string shape;
  localize::FalconPatternId id;
  for (std::uint32_t i = 0; i < directive.count; ++i) {
    const ForceStep& s = directive.steps[i];
    if (s.site == 0 || s.location != directive.steps[0].location) return std::nullopt;
    if (s.access == static_cast<std::uint8_t>(ForceAccess::Read)) shape += 'R';
    else if (s.access == static_cast<std::uint8_t>(ForceAccess::Write)) shape += 'W';
    else return std::nullopt;
    id.sites[i] = s.site;
  }
  const ForceStep* st = directive.steps;
  if (st[0].role == st[1].role) return std::nullopt;
  if (directive.count == 3 && st[2].role != st[0].role) return std::nullopt;
  static constexpr struct {
    const char* shape;
    FalconKind kind;
  } kShapes[] = {{"RW", FalconKind::R1W2},    {"WR", FalconKind::W1R2},    {"WW", FalconKind::W1W2},
                 {"RWR", FalconKind::R1W2R1}, {"WWR", FalconKind::W1W2R1}, {"WRW", FalconKind::W1R2W1},
                 {"RWW", FalconKind::R1W2W1}, {"WWW", FalconKind::W1W2W1}};
  for (const auto& entry : kShapes) {
    if (shape == entry.shape) {
      id.kind = entry.kind;
      return id;
    }
  }
  return std::nullopt;
}

}  // namespace ctrlsched::driver
