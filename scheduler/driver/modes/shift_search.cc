// Shift search (see shift_search.h).
#include "modes/shift_search.h"

#include <algorithm>

#include "modes/first_failing.h"

namespace ctrlsched::driver {

namespace {

bool is_preempt(const SwitchPoint& p) { return p.switch_kind() == SwitchKind::Preempt; }

std::size_t preempt_count(const Preemptions& set) {
  return static_cast<std::size_t>(std::count_if(set.begin(), set.end(), is_preempt));
}

}  // namespace

std::vector<Preemptions> shifted_candidates(const Preemptions& current, std::uint64_t max_shift) {
  std::vector<Preemptions> with_riders, without_riders;
  Preemptions riders;
  std::copy_if(current.begin(), current.end(), std::back_inserter(riders), [](const SwitchPoint& p) { return !is_preempt(p); });
  // Without the riders, dropping one preemption: nothing else changes.
  std::vector<Preemptions> dropped;
  for (std::size_t drop = 0; drop < current.size() && !riders.empty(); ++drop) {
    if (!is_preempt(current[drop])) continue;
    Preemptions next;
    for (std::size_t k = 0; k < current.size(); ++k) {
      if (k != drop && is_preempt(current[k])) next.push_back(current[k]);
    }
    dropped.push_back(std::move(next));
  }
  // A preemption turned into a free switch a few points later in its thread: where the thread
  // blocks or exits anyway, the same target runs next, and no preemption is needed.
  std::vector<Preemptions> delayed;
  for (std::size_t drop = 0; drop < current.size(); ++drop) {
    if (!is_preempt(current[drop])) continue;
    for (std::uint64_t distance = 1; distance <= max_shift; ++distance) {
      Preemptions next;
      for (std::size_t k = 0; k < current.size(); ++k) {
        if (k != drop) next.push_back(current[k]);
      }
      next.push_back(make_switch_point(SwitchKind::Free, current[drop].thread, current[drop].point + distance,
                                       current[drop].target));
      std::sort(next.begin(), next.end());
      delayed.push_back(std::move(next));
    }
  }
  for (std::size_t drop = 0; drop < current.size(); ++drop) {
    if (!is_preempt(current[drop])) continue;
    for (std::size_t move = 0; move < current.size(); ++move) {
      if (move == drop || !is_preempt(current[move])) continue;
      for (std::uint64_t distance = 1; distance <= max_shift; ++distance) {
        for (const bool later : {true, false}) {
          const SwitchPoint& original = current[move];
          if (!later && original.point <= distance) continue;
          SwitchPoint moved = original;
          moved.point = later ? original.point + distance : original.point - distance;
          Preemptions next;
          for (std::size_t k = 0; k < current.size(); ++k) {
            if (k != drop && k != move && is_preempt(current[k])) next.push_back(current[k]);
          }
          // Moving onto another preemption of the same thread would merge the two: not smaller
          // in a useful way, and the lookup keeps only one entry per point.
          if (std::any_of(next.begin(), next.end(), [&](const SwitchPoint& p) {
                return p.thread == moved.thread && p.point == moved.point;
              })) {
            continue;
          }
          next.push_back(moved);
          std::sort(next.begin(), next.end());
          without_riders.push_back(next);
          next.insert(next.end(), riders.begin(), riders.end());
          std::sort(next.begin(), next.end());
          with_riders.push_back(std::move(next));
        }
      }
    }
  }
  std::vector<Preemptions> candidates = std::move(dropped);
  candidates.insert(candidates.end(), delayed.begin(), delayed.end());
  candidates.insert(candidates.end(), with_riders.begin(), with_riders.end());
  if (!riders.empty()) candidates.insert(candidates.end(), without_riders.begin(), without_riders.end());
  return candidates;
}

ShiftResult shift_search(Preemptions current, std::uint64_t max_shift, std::uint64_t budget, std::size_t batch,
                         const PreemptionsTest& test) {
  std::sort(current.begin(), current.end());
  FirstFailing<Preemptions> first_failing(batch, test, budget);
  while (preempt_count(current) >= 2 && !first_failing.exhausted()) {
    const std::vector<Preemptions> candidates = shifted_candidates(current, max_shift);
    const std::optional<std::size_t> found = first_failing(candidates);
    if (!found) break;
    current = candidates[*found];
    for (bool removed = true; removed && preempt_count(current) >= 2;) {
      std::vector<Preemptions> singles;
      for (std::size_t i = 0; i < current.size(); ++i) {
        Preemptions smaller = current;
        smaller.erase(smaller.begin() + static_cast<std::ptrdiff_t>(i));
        singles.push_back(std::move(smaller));
      }
      const std::optional<std::size_t> single = first_failing(singles);
      removed = single.has_value();
      if (removed) current = singles[*single];
    }
  }
  return {current, first_failing.tests()};
}

}  // namespace ctrlsched::driver
