// Orders a run's end cut short (see add_orders_cut_short in ctrlsched/localize/falcon.h).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "ctrlsched/localize/falcon.h"

namespace ctrlsched::localize {

namespace {

bool has(const std::vector<ExecutedAccess>& executed, const ExecutedAccess& access) {
  return std::binary_search(executed.begin(), executed.end(), access);
}

// Every site of `site`'s statement (itself when the map does not know it).
std::vector<std::uint64_t> copies_of(std::uint64_t site, const std::map<std::uint64_t, std::uint64_t>& statement_of) {
  const auto it = statement_of.find(site);
  if (it == statement_of.end()) return {site};
  std::vector<std::uint64_t> copies;
  for (const auto& [other, statement] : statement_of) {
    if (statement == it->second) copies.push_back(other);
  }
  return copies;
}

}  // namespace

std::size_t add_orders_cut_short(std::vector<FalconRun>& runs, const std::map<std::uint64_t, std::uint64_t>& statement_of) {
  // Every write→read flow between two threads some run showed (W1-R2), with its first sighting.
  std::map<std::pair<std::uint64_t, std::uint64_t>, const FalconSighting*> flows;
  for (const FalconRun& run : runs) {
    for (const FalconSighting& s : run.patterns) {
      if (s.id.kind == FalconKind::W1R2) flows.try_emplace({s.id.sites[0], s.id.sites[1]}, &s);
    }
  }
  // Pointers into `runs` stay valid: the sightings added below go to a separate list first.
  std::map<std::uint64_t, std::vector<std::uint64_t>> write_copies;
  for (const auto& [flow, example] : flows) write_copies.try_emplace(flow.first, copies_of(flow.first, statement_of));
  // Every location some run wrote at some site: a write that no run ever made to a location is
  // no write that "never came" (table_resize's reader reads the slot a capacity of one generation
  // picks in the other generation's array, which no statement ever writes).
  std::set<std::pair<std::uint64_t, std::uint64_t>> ever_written;
  for (const FalconRun& run : runs) {
    if (!run.executed) continue;
    for (const ExecutedAccess& a : *run.executed)
      if (a.write && !a.sync) ever_written.emplace(a.site, a.location);
  }
  std::vector<std::vector<FalconSighting>> added(runs.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const FalconRun& run = runs[i];
    if (!run.executed) continue;
    for (const auto& [flow, example] : flows) {
      const auto [write, read] = flow;
      // A location this run read at `read` and never wrote at `write`'s statement, which some run
      // did write there: a copy of that statement inlined elsewhere writing it is the statement
      // writing it.
      const std::vector<std::uint64_t>& writes = write_copies.at(write);
      const auto written = [&](std::uint64_t location) {
        return std::any_of(writes.begin(), writes.end(), [&](std::uint64_t site) {
          return has(*run.executed, ExecutedAccess{site, location, true, false});
        });
      };
      const auto written_somewhere = [&](std::uint64_t location) {
        return std::any_of(writes.begin(), writes.end(),
                           [&](std::uint64_t site) { return ever_written.contains({site, location}); });
      };
      std::optional<std::uint64_t> location;
      for (auto a = std::lower_bound(run.executed->begin(), run.executed->end(), ExecutedAccess{read, 0, false, false});
           a != run.executed->end() && a->site == read && !location; ++a) {
        if (!a->write && !a->sync && !written(a->location) && written_somewhere(a->location)) location = a->location;
      }
      if (!location) continue;
      const FalconPatternId id{FalconKind::R1W2, {read, write, 0}, {}};
      const bool seen = std::any_of(run.patterns.begin(), run.patterns.end(), [&](const FalconSighting& s) { return s.id == id; });
      if (seen) continue;
      FalconSighting s;
      s.id = id;
      s.location = *location;
      if (*location == example->location) s.location_name = example->location_name;
      s.threads = {example->threads[1], example->threads[0]};
      s.cut_short = true;
      added[i].push_back(std::move(s));
    }
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    total += added[i].size();
    for (FalconSighting& s : added[i]) runs[i].patterns.push_back(std::move(s));
  }
  return total;
}

}  // namespace ctrlsched::localize
