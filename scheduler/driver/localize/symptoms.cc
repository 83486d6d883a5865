// Symptom patterns (see symptoms.h).
#include "localize/symptoms.h"

#include <algorithm>

#include "ctrlsched/localize/falcon.h"

namespace ctrlsched::driver {

std::set<std::uint64_t> passing_sites(std::span<const localize::FalconRun> runs) {
  std::set<std::uint64_t> sites;
  for (const localize::FalconRun& run : runs) {
    if (run.failed) continue;
    if (run.executed) {
      for (const localize::ExecutedAccess& a : *run.executed) sites.insert(a.site);
    }
    for (const localize::FalconSighting& s : run.patterns) {
      if (s.cut_short) continue;  // its write never ran in that run (add_orders_cut_short)
      const std::uint32_t n = falcon_kind_length(s.id.kind);
      const auto pcs = s.forcing_sites();
      for (std::uint32_t i = 0; i < n; ++i) {
        sites.insert(s.id.sites[i]);
        sites.insert(pcs[i]);
      }
    }
  }
  return sites;
}

bool is_symptom(const localize::FalconPatternId& pattern, const std::set<std::uint64_t>& passing, bool any_passing) {
  if (!any_passing) return false;
  const std::uint32_t n = falcon_kind_length(pattern.kind);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!passing.contains(pattern.sites[i])) return true;
  }
  return false;
}

std::vector<bool> demote_symptoms(localize::FalconRanking& ranking, const std::set<std::uint64_t>& passing,
                                  bool any_passing, bool sync_first) {
  std::vector<std::pair<bool, localize::RankedFalconPattern>> tagged;
  for (auto& p : ranking.patterns) tagged.emplace_back(is_symptom(p.id, passing, any_passing), std::move(p));
  std::stable_partition(tagged.begin(), tagged.end(), [](const auto& t) { return !t.first; });
  std::vector<bool> symptom;
  ranking.patterns.clear();
  for (std::size_t i = 0; i < tagged.size(); ++i) {
    auto& [is, p] = tagged[i];
    const bool tie = i > 0 && tagged[i - 1].first == is &&
                     localize::falcon_rank_key(tagged[i - 1].second, sync_first) == localize::falcon_rank_key(p, sync_first);
    p.rank = tie ? ranking.patterns.back().rank : static_cast<std::uint32_t>(i + 1);
    symptom.push_back(is);
    ranking.patterns.push_back(std::move(p));
  }
  // `tied` counts patterns sharing the rank.
  for (auto& p : ranking.patterns) {
    p.tied = static_cast<std::uint32_t>(std::count_if(ranking.patterns.begin(), ranking.patterns.end(),
                                                      [&](const auto& q) { return q.rank == p.rank; }));
  }
  return symptom;
}

}  // namespace ctrlsched::driver
