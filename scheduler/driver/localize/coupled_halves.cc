// Two-variable findings' pairs, each controlled alone (see coupled_halves.h).
#include "localize/coupled_halves.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "localize/counterfactual.h"
#include "localize/verdict.h"

namespace ctrlsched::driver {

namespace {

std::string joined(const std::vector<std::string>& names, const std::vector<std::uint32_t>& steps) {
  std::string text;
  for (const std::uint32_t i : steps) {
    text += (text.empty() ? "" : " → ") + (i < names.size() ? names[i] : "step " + std::to_string(i + 1));
  }
  return text;
}

// Each role's steps appear in `order` in the directive's order.
bool keeps_role_order(const ForceDirective& d, const std::vector<std::uint32_t>& order) {
  std::array<std::int64_t, kMaxForceRoles> last{};
  last.fill(-1);
  for (const std::uint32_t i : order) {
    const std::uint8_t role = d.steps[i].role;
    if (role >= kMaxForceRoles || static_cast<std::int64_t>(i) < last[role]) return false;
    last[role] = i;
  }
  return true;
}

}  // namespace

std::vector<HalfReversal> half_reversals(const ForceDirective& d) {
  if (static_cast<ForceKind>(d.kind) != ForceKind::Order || d.count < 4 || d.count > kMaxForceSteps) return {};
  std::vector<std::uint16_t> locations;
  for (std::uint32_t i = 0; i < d.count; ++i) {
    if (d.steps[i].access >= kForceSync || d.steps[i].access == static_cast<std::uint8_t>(ForceAccess::Entry)) return {};
    if (std::find(locations.begin(), locations.end(), d.steps[i].location) == locations.end())
      locations.push_back(d.steps[i].location);
  }
  if (locations.size() != 2) return {};
  std::vector<HalfReversal> reversals;
  for (const std::uint16_t location : locations) {
    std::vector<std::uint32_t> steps;
    for (std::uint32_t i = 0; i < d.count; ++i) {
      if (d.steps[i].location == location) steps.push_back(i);
    }
    if (steps.size() != 2 || d.steps[steps[0]].role == d.steps[steps[1]].role) return {};
    HalfReversal r{location, steps[0], steps[1], {}};
    for (std::uint32_t i = 0; i < d.count; ++i) r.order.push_back(i);
    std::swap(r.order[steps[0]], r.order[steps[1]]);
    if (keeps_role_order(d, r.order)) reversals.push_back(std::move(r));
  }
  return reversals;
}

void decide_half(HalfControl& half, std::uint64_t finding_failed, std::uint64_t finding_completed) {
  half.p_lower = fisher_at_most(half.failed, half.completed, finding_failed, finding_completed);
  half.needed = half.completed >= kMinCompletedRuns && half.p_lower < kCounterfactualAlpha;
  half.p_in_order = fisher_at_most(half.failed_in_order, half.completed_in_order, finding_failed, finding_completed);
  half.not_needed = !half.needed && half.completed_in_order >= kMinCompletedRuns && half.p_in_order >= kCounterfactualAlpha;
}

const HalfControl* pair_not_needed(const std::vector<HalfControl>& halves) {
  const auto it = std::find_if(halves.begin(), halves.end(), [](const HalfControl& h) { return h.not_needed; });
  return it == halves.end() ? nullptr : &*it;
}

bool is_pair_of(const ForceDirective& pattern, const ForceDirective& finding, const HalfControl& half) {
  if (static_cast<ForceKind>(pattern.kind) != ForceKind::Order || pattern.count != 2) return false;
  if (half.first >= finding.count || half.second >= finding.count) return false;
  const ForceStep& a = finding.steps[half.first];
  const ForceStep& b = finding.steps[half.second];
  return pattern.steps[0].site == a.site && pattern.steps[0].access == a.access && pattern.steps[1].site == b.site &&
         pattern.steps[1].access == b.access && pattern.steps[0].role != pattern.steps[1].role;
}

void confirm_coupled_parts(const std::vector<ForcedPattern>& patterns, const std::vector<ConfirmationResult*>& results) {
  const std::size_t n = std::min(patterns.size(), results.size());
  struct Part {
    std::size_t pattern;
    std::size_t finding;
    const HalfControl* half;
  };
  // The first confirmed finding (in pattern order) of which pattern i is a needed pair.
  const auto part_of = [&](std::size_t i) -> std::optional<Part> {
    for (std::size_t j = 0; j < n; ++j) {
      const ConfirmationResult* f = results[j];
      if (j == i || f == nullptr || f == results[i] || f->verdict != Verdict::Confirmed) continue;
      for (const HalfControl& half : f->halves) {
        if (half.needed && is_pair_of(patterns[i].directive, patterns[j].directive, half)) return Part{i, j, &half};
      }
    }
    return std::nullopt;
  };
  std::vector<Part> parts;
  for (std::size_t i = 0; i < n; ++i) {
    const ConfirmationResult* c = results[i];
    if (c == nullptr || c->verdict == Verdict::Confirmed || patterns[i].symptom) continue;
    if (std::any_of(parts.begin(), parts.end(), [&](const Part& p) { return results[p.pattern] == c; })) continue;
    if (const std::optional<Part> part = part_of(i)) parts.push_back(*part);
  }
  for (const Part& part : parts) {
    ConfirmationResult& c = *results[part.pattern];
    const ConfirmationResult& f = *results[part.finding];
    const ForcedPattern& finding = patterns[part.finding];
    std::vector<std::uint32_t> all, partner;
    for (std::uint32_t k = 0; k < finding.directive.count; ++k) {
      all.push_back(k);
      if (k != part.half->first && k != part.half->second) partner.push_back(k);
    }
    ConfirmationResult::CoupledPart coupled;
    coupled.finding = joined(finding.step_names, all);
    coupled.partner = joined(finding.step_names, partner);
    coupled.finding_completed = f.completed;
    coupled.finding_failed = f.failed;
    coupled.control = *part.half;
    coupled.replay_command = f.replay_command;
    c.alone = ConfirmationResult::Alone{c.verdict, c.completed, c.failed, c.reason};
    c.verdict = Verdict::Confirmed;
    c.refuted = false;
    c.reason = "a part of a two-variable cause: with " + coupled.partner + " it fails " + std::to_string(f.failed) +
               "/" + std::to_string(f.completed) + " where both completed, and with this order reversed, the other kept, " +
               std::to_string(part.half->failed) + "/" + std::to_string(part.half->completed);
    c.coupled_part = std::move(coupled);
  }
}

}  // namespace ctrlsched::driver
