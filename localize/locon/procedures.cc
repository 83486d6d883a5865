// Locon's test procedures I, II and III (see ctrlsched/localize/locon.h).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <range/v3/algorithm/all_of.hpp>
#include <range/v3/algorithm/any_of.hpp>
#include <range/v3/algorithm/none_of.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>

#include "ctrlsched/localize/locon.h"
#include "projection.h"

namespace ctrlsched::localize::locon {
namespace {

namespace views = ranges::views;

std::string runs_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " passing run" : " passing runs"); }

bool in_any(const std::vector<Projection>& runs, const PairKey& key) {
  return ranges::any_of(runs, [&](const Projection& r) { return r.contains(key); });
}

// A set of runs (by index), one bit each.
using RunSet = std::vector<std::uint64_t>;

RunSet runs_with(const std::vector<Projection>& runs, const PairKey& key) {
  RunSet set((runs.size() + 63) / 64, 0);
  for (std::size_t r = 0; r < runs.size(); ++r)
    if (runs[r].contains(key)) set[r / 64] |= std::uint64_t{1} << (r % 64);
  return set;
}

bool together(const RunSet& a, const RunSet& b) {
  for (std::size_t w = 0; w < a.size(); ++w)
    if (a[w] & b[w]) return true;
  return false;
}

// Drops every candidate that predicts another candidate (it is a consequence of that one, which
// must have happened first): Locon's filter of predictable pairs. Removal is decided against the
// whole input at once, so the result does not depend on the order of the candidates.
template <class Candidate, class Members>
std::vector<Candidate> without_predicting(const std::vector<Candidate>& candidates, Members members,
                                          const Projection& run) {
  auto predicts_another = [&](const Candidate& b) {
    return ranges::any_of(candidates, [&](const Candidate& a) {
      if (a == b) return false;
      return ranges::any_of(members(a), [&](const PairKey& x) {
        return ranges::any_of(members(b), [&](const PairKey& y) {
          return x != y && predictable_by(run.representative(x), run.representative(y));
        });
      });
    });
  };
  return candidates | views::filter([&](const Candidate& c) { return !predicts_another(c); })
         | ranges::to<std::vector>();
}

// Whether `seen` (a side executed in the failed run) shows that the access `tail` ran: the same
// site and kind (and thread, at tid and loop level) in the same or a later iteration.
bool tail_instance_ran(const Side& seen, const Side& tail, Level level) {
  return seen.site == tail.site && seen.write == tail.write && seen.sync == tail.sync && seen.thread == tail.thread &&
         (level != Level::Loop || seen.iteration >= tail.iteration);
}

std::vector<Finding> run_procedure(Procedure procedure, const RunPairs& failed,
                                   const std::vector<RunPairs>& passing, Level level) {
  switch (procedure) {
    case Procedure::I: return procedure_one(failed, passing, level);
    case Procedure::II: return procedure_two(failed, passing, level);
    case Procedure::III: return procedure_three(failed, passing, level);
  }
  return {};
}

}  // namespace

bool predictable_by(const Pair& a, const Pair& b) {
  return a.key.head.thread == b.key.head.thread && a.key.tail.thread == b.key.tail.thread &&
         a.head_access < b.head_access && b.tail_access < a.tail_access;
}

std::vector<Finding> procedure_one(const RunPairs& failed, const std::vector<RunPairs>& passing,
                                   Level level) {
  const Projection f(failed, level);
  const std::vector<Projection> ps = project(passing, level);
  const std::vector<PairKey> only_failed =
      f.keys() | views::filter([&](const PairKey& k) { return !in_any(ps, k); }) | ranges::to<std::vector>();
  const std::string reason = "only in the failed run, in none of the " + runs_text(ps.size());
  // keys() is in occurrence order, and filtering keeps it.
  const std::vector<PairKey> kept =
      without_predicting(only_failed, [](const PairKey& k) { return std::vector<PairKey>{k}; }, f);
  return kept | views::transform([&](const PairKey& k) {
             return Finding{Procedure::I, level, {k}, f.order(k), reason};
           })
         | ranges::to<std::vector>();
}

std::vector<Finding> procedure_two(const RunPairs& failed, const std::vector<RunPairs>& passing,
                                   Level level) {
  if (passing.empty()) return {};
  const Projection f(failed, level);
  const std::vector<Projection> ps = project(passing, level);

  // The accesses the failed run shows executing (the sides of its pairs), at this level.
  std::vector<Side> executed;
  for (const PairKey& k : f.keys()) {
    executed.push_back(k.head);
    executed.push_back(k.tail);
  }

  // The culprit (a reversed pair) → its finding; a culprit found twice keeps its best rank.
  std::map<PairKey, Finding> culprits;
  auto report = [&](const PairKey& missing, std::uint32_t order, std::vector<PairKey> partner,
                    std::string reason, bool culprit_first = false) {
    // Scenario II: the failing access ended the run before the culprit's tail. If the failed
    // run shows that tail (or a later iteration of it) executing, it is not this scenario.
    const Side tail = reversed(missing).tail;
    if (ranges::any_of(executed, [&](const Side& s) { return tail_instance_ran(s, tail, level); })) return;
    // The pairs show only the accesses that formed one; the run's executed accesses show the
    // rest. At pc level a site is the whole side, so a tail that ran without forming a pair (a
    // write to the other generation of a table that no reader saw) ran all the same. At tid and
    // loop level the executed list cannot say which thread or iteration ran it.
    if (level == Level::Pc && failed.executed && !tail.sync &&
        std::binary_search(failed.executed->begin(), failed.executed->end(), std::make_pair(tail.site, tail.write))) {
      return;
    }
    // ... and the failing access, the culprit's head, did run: a run that ended elsewhere (an
    // assertion in another thread) lacks every pair after its end, which is no reversed order.
    const Side head = reversed(missing).head;
    if (failed.executed && !head.sync &&
        !std::binary_search(failed.executed->begin(), failed.executed->end(), std::make_pair(head.site, head.write))) {
      return;
    }
    std::vector<PairKey> pairs{reversed(missing)};
    pairs.insert(pairs.end(), partner.begin(), partner.end());
    Finding finding{Procedure::II, level, std::move(pairs), order, std::move(reason), culprit_first};
    auto [it, inserted] = culprits.emplace(finding.pairs.front(), finding);
    if (!inserted && order < it->second.order) it->second = std::move(finding);
  };

  // Step 1.1 and 2.1: in every passing run, missing from the failed one.
  const std::vector<PairKey> always =
      ps.front().keys()
      | views::filter([&](const PairKey& k) {
          return ranges::all_of(ps, [&](const Projection& r) { return r.contains(k); });
        })
      | ranges::to<std::vector>();
  for (const PairKey& k : always)
    if (!f.contains(k))
      report(k, ps.front().order(k), {},
             "in all " + runs_text(ps.size()) +
                 " but not in the failed run: the reversed order ended the run before its tail");

  // Step 1.2 and 2.2: coupled pairs (on different locations, in exactly the same passing runs)
  // of which the failed run has only one. Keys with equal presence signatures are grouped.
  const std::set<PairKey> always_set(always.begin(), always.end());
  std::map<std::vector<bool>, std::vector<PairKey>> by_presence;
  std::set<PairKey> seen;
  for (const Projection& r : ps)
    for (const PairKey& k : r.keys()) {
      if (always_set.contains(k) || !seen.insert(k).second) continue;
      by_presence[ps | views::transform([&](const Projection& q) { return q.contains(k); })
                  | ranges::to<std::vector>()]
          .push_back(k);
    }
  for (const auto& [presence, keys] : by_presence) {
    const auto first_run = static_cast<std::size_t>(std::find(presence.begin(), presence.end(), true) - presence.begin());
    const Projection& witness = ps[first_run];
    for (std::size_t i = 0; i < keys.size(); ++i)
      for (std::size_t j = i + 1; j < keys.size(); ++j) {
        const PairKey& a = keys[i];
        const PairKey& b = keys[j];
        if (witness.representative(a).location == witness.representative(b).location) continue;
        const bool has_a = f.contains(a);
        const bool has_b = f.contains(b);
        if (has_a == has_b) continue;
        const PairKey& missing = has_a ? b : a;
        const PairKey& partner = has_a ? a : b;
        // The culprit is the missing pair reversed: its head is the missing pair's tail. It goes
        // first if, in the witness run, each of its accesses comes before the partner's access of
        // the same thread (program order: head_access/tail_access).
        const Pair& m = witness.representative(missing);
        const Pair& p = witness.representative(partner);
        const auto before_partner = [&](const Side& side, std::uint32_t index) {
          if (p.key.head.thread == side.thread) return index < p.head_access;
          if (p.key.tail.thread == side.thread) return index < p.tail_access;
          return true;
        };
        const bool culprit_first = before_partner(m.key.tail, m.tail_access) && before_partner(m.key.head, m.head_access);
        report(missing, witness.order(missing), {partner},
               "always together with its partner in the " + runs_text(ps.size()) +
                   "; the failed run has only the partner",
               culprit_first);
      }
  }

  // Step 3: rank by the original pair's occurrence; ties by the pair itself.
  std::vector<Finding> findings =
      culprits | views::transform([](const auto& entry) { return entry.second; }) | ranges::to<std::vector>();
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& x, const Finding& y) { return x.order < y.order; });
  return findings;
}

std::vector<Finding> procedure_three(const RunPairs& failed, const std::vector<RunPairs>& passing,
                                     Level level) {
  const Projection f(failed, level);
  const std::vector<Projection> ps = project(passing, level);
  // Step 1: pairs of the failed run that passing runs have too.
  const std::vector<PairKey> shared =
      f.keys() | views::filter([&](const PairKey& k) { return in_any(ps, k); }) | ranges::to<std::vector>();

  // Step 2: two of them on different locations between the same two threads (at tid and loop
  // level: in opposite directions, the only form of Table 1's MAV bugs) that no passing run has
  // together.
  // Which passing runs have each key, as bit sets: the pair loop below is quadratic.
  const std::vector<RunSet> presence =
      shared | views::transform([&](const PairKey& k) { return runs_with(ps, k); }) | ranges::to<std::vector>();
  using Coupled = std::pair<PairKey, PairKey>;
  std::vector<Coupled> coupled;
  for (std::size_t i = 0; i < shared.size(); ++i)
    for (std::size_t j = i + 1; j < shared.size(); ++j) {
      const Pair& a = f.representative(shared[i]);
      const Pair& b = f.representative(shared[j]);
      if (a.location == b.location) continue;
      const auto threads = [](const Pair& p) {
        return std::minmax(p.key.head.thread, p.key.tail.thread);
      };
      if (threads(a) != threads(b)) continue;
      if (level != Level::Pc && a.key.head.thread != b.key.tail.thread) continue;
      if (together(presence[i], presence[j])) continue;
      coupled.emplace_back(shared[i], shared[j]);
    }

  // Step 3: drop coupled pairs that predict another coupled pair.
  const std::string reason = "both in the failed run; each is in passing runs but never together in any of the " +
                             runs_text(ps.size());
  const std::vector<Coupled> kept = without_predicting(
      coupled, [](const Coupled& c) { return std::vector<PairKey>{c.first, c.second}; }, f);
  return kept | views::transform([&](const Coupled& c) {
             return Finding{Procedure::III, level, {c.first, c.second}, f.order(c.first), reason};
           })
         | ranges::to<std::vector>();
}

std::vector<Finding> localize(const RunPairs& failed, const std::vector<RunPairs>& passing,
                              const Options& options) {
  // Coarse levels first (the paper's progressive preciseness), and at each level the procedures
  // in the order I, II, III; the first that finds anything wins.
  const std::vector<Level> levels =
      options.level ? std::vector{*options.level} : std::vector{Level::Pc, Level::Tid, Level::Loop};
  const std::vector<Procedure> procedures =
      options.procedure            ? std::vector{*options.procedure}
      : options.failed_run_deadlocked ? std::vector{Procedure::I, Procedure::III}
                                      : std::vector{Procedure::I, Procedure::II, Procedure::III};
  for (Level level : levels)
    for (Procedure procedure : procedures)
      if (auto findings = run_procedure(procedure, failed, passing, level); !findings.empty())
        return findings;
  return {};
}

}  // namespace ctrlsched::localize::locon
