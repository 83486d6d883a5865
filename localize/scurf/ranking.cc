// SCURF's modified-Ochiai ranking and its stopping rule (see ctrlsched/localize/spectra.h).
#include <cmath>
#include <map>
#include <range/v3/algorithm/sort.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/map.hpp>

#include "ctrlsched/localize/spectra.h"

namespace ctrlsched::localize {

double modified_ochiai(std::uint32_t n11, std::uint32_t n10, std::uint32_t n01) {
  const double d = std::sqrt(static_cast<double>(n11 + n01) * static_cast<double>(n11 + n10));
  return d == 0 ? 0.0 : n11 / d;
}

namespace {

bool ranks_before(const RankedComponent& a, const RankedComponent& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.n11 != b.n11) return a.n11 > b.n11;
  if (a.n10 != b.n10) return a.n10 < b.n10;
  return a.site < b.site;
}

}  // namespace

std::vector<RankedComponent> rank_spectra(std::span<const SpectraRun> runs) {
  std::map<std::uint64_t, RankedComponent> by_site;
  for (const SpectraRun& run : runs)
    for (const ComponentObservation& c : run.components) {
      auto [it, fresh] = by_site.try_emplace(c.site);
      if (fresh) {
        it->second.site = c.site;
        it->second.example = c;
      }
    }
  for (const SpectraRun& run : runs) {
    std::map<std::uint64_t, const ComponentObservation*> seen;
    for (const ComponentObservation& c : run.components) seen.emplace(c.site, &c);
    for (auto& [site, r] : by_site) {
      auto it = seen.find(site);
      const ComponentObservation* c = it == seen.end() ? nullptr : it->second;
      const bool concurrent = c != nullptr && c->concurrent;
      if (c != nullptr && c->entries > 0) ++r.entered_runs;
      if (run.failed && concurrent && r.n11 == 0) r.example = *c;
      (run.failed ? (concurrent ? r.n11 : r.n01) : (concurrent ? r.n10 : r.n00)) += 1;
    }
  }
  auto ranking = by_site | ranges::views::values | ranges::to<std::vector>();
  for (RankedComponent& r : ranking) r.score = modified_ochiai(r.n11, r.n10, r.n01);
  ranges::sort(ranking, ranks_before);
  for (std::size_t i = 0; i < ranking.size();) {
    std::size_t end = i;
    while (end < ranking.size() && ranking[end].score == ranking[i].score) ++end;
    for (std::size_t k = i; k < end; ++k) {
      ranking[k].rank = static_cast<std::uint32_t>(i + 1);
      ranking[k].tied = static_cast<std::uint32_t>(end - i);
    }
    i = end;
  }
  return ranking;
}

bool spectra_significant(std::span<const RankedComponent> ranking, std::uint32_t failing_runs, SignificanceRule rule) {
  if (failing_runs == 0 || ranking.empty()) return false;
  const RankedComponent& top = ranking.front();
  if (top.score < rule.min_top_score) return false;
  const std::size_t below = top.tied;  // ranking.front().rank == 1
  if (below >= ranking.size()) return true;
  return top.score - ranking[below].score >= rule.margin;
}

}  // namespace ctrlsched::localize
