// SCURF's directed exploration as a plan of directed runs (see ctrlsched/localize/spectra.h).
#include <algorithm>
#include <map>
#include <range/v3/algorithm/stable_partition.hpp>

#include "ctrlsched/localize/spectra.h"

namespace ctrlsched::localize {

std::vector<std::uint64_t> spectra_candidates(std::span<const SpectraRun> runs) {
  std::map<std::uint64_t, std::uint32_t> most_threads;
  for (const SpectraRun& run : runs)
    for (const ComponentObservation& c : run.components) {
      std::uint32_t& t = most_threads[c.site];
      t = std::max(t, c.threads);
    }
  std::vector<std::uint64_t> sites;
  for (const RankedComponent& r : rank_spectra(runs)) sites.push_back(r.site);
  ranges::stable_partition(sites, [&](std::uint64_t site) { return most_threads[site] >= 2; });
  return sites;
}

namespace {

PlannedDirective directive(std::initializer_list<std::uint64_t> sites, std::uint32_t level, std::uint32_t seeds) {
  PlannedDirective planned;
  planned.level = level;
  planned.seeds = seeds;
  ForceDirective& d = planned.directive;
  d.kind = static_cast<std::uint32_t>(ForceKind::SwitchAtEntry);
  for (std::uint64_t site : sites) {
    ForceStep& step = d.steps[d.count];
    step.site = site;
    step.access = static_cast<std::uint8_t>(ForceAccess::Entry);
    ++d.count;
  }
  return planned;
}

}  // namespace

std::vector<PlannedDirective> plan_spectra_level(std::span<const std::uint64_t> candidates, std::uint32_t level,
                                                 std::uint32_t seeds_per_directive, std::uint64_t budget) {
  std::vector<PlannedDirective> plan;
  if (seeds_per_directive == 0 || (level != 1 && level != 2)) return plan;
  std::uint64_t left = budget;
  auto add = [&](std::initializer_list<std::uint64_t> sites) {
    if (left == 0) return false;
    const auto seeds = static_cast<std::uint32_t>(std::min<std::uint64_t>(seeds_per_directive, left));
    plan.push_back(directive(sites, level, seeds));
    left -= seeds;
    return true;
  };
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (level == 1) {
      if (!add({candidates[i]})) break;
      continue;
    }
    for (std::size_t j = i + 1; j < candidates.size(); ++j)
      if (!add({candidates[i], candidates[j]})) return plan;
  }
  return plan;
}

}  // namespace ctrlsched::localize
