// The dfs exploration engine (see ctrlsched/dfs_explorer.h).
#include "ctrlsched/dfs_explorer.h"

#include <algorithm>
#include <cstring>

#include "ctrlsched/sync_ops.h"

namespace ctrlsched {
namespace {

bool contains(const std::vector<ThreadId>& sorted, ThreadId tid) {
  return std::binary_search(sorted.begin(), sorted.end(), tid);
}

const DfsOption* option_of(const DfsPoint& point, ThreadId tid) {
  for (const DfsOption& o : point.options) {
    if (o.tid == tid) return &o;
  }
  return nullptr;
}

// The threads of `sleeping` whose next step (as offered at `point`) is independent of `step`.
std::vector<ThreadId> still_asleep(const std::vector<ThreadId>& sleeping, const DfsPoint& point, const DfsOption& step) {
  std::vector<ThreadId> out;
  for (const ThreadId tid : sleeping) {
    const DfsOption* own = option_of(point, tid);
    if (own && !dependent(*own, step)) out.push_back(tid);
  }
  return out;
}

bool is_preemption(const DfsPoint& point, ThreadId chosen) {
  return point.decision == DecisionKind::Schedule && point.current_enabled && point.kind != PointKind::Yield &&
         chosen != point.current;
}

}  // namespace

std::optional<DfsLog> read_dfs_log(std::span<const std::uint8_t> area) {
  if (area.size() < sizeof(DfsLogHeader)) return std::nullopt;
  DfsLogHeader header;
  std::memcpy(&header, area.data(), sizeof header);
  if (header.bytes > area.size() - sizeof header) return std::nullopt;
  DfsLog log;
  log.truncated = header.truncated != 0;
  const std::uint8_t* at = area.data() + sizeof header;
  const std::uint8_t* end = at + header.bytes;
  for (std::uint64_t i = 0; i < header.entries; ++i) {
    DfsLogPoint entry;
    if (end - at < static_cast<std::ptrdiff_t>(sizeof entry)) return std::nullopt;
    std::memcpy(&entry, at, sizeof entry);
    at += sizeof entry;
    if (entry.decision != static_cast<std::uint8_t>(DecisionKind::Schedule) &&
        entry.decision != static_cast<std::uint8_t>(DecisionKind::Wake)) {
      return std::nullopt;
    }
    if (static_cast<std::size_t>(end - at) < std::size_t{entry.count} * sizeof(DfsLogOption)) return std::nullopt;
    DfsPoint point;
    point.decision = static_cast<DecisionKind>(entry.decision);
    point.kind = static_cast<PointKind>(entry.point_kind);
    point.current = entry.current;
    point.current_enabled = entry.current_enabled != 0;
    point.chosen = entry.chosen;
    point.hidden = entry.hidden != 0;
    for (std::uint16_t k = 0; k < entry.count; ++k) {
      DfsLogOption raw;
      std::memcpy(&raw, at, sizeof raw);
      at += sizeof raw;
      point.options.push_back({raw.tid, raw.timed != 0, static_cast<PendingKind>(raw.pending), raw.op, raw.address});
    }
    log.points.push_back(std::move(point));
  }
  return log;
}

namespace {

// A join names the joined thread (its id is the join's object). Whether the join blocks depends
// on whether that thread has exited, and a thread exits at the end of whichever of its steps
// runs into its exit: so a join depends on every step of the thread it joins.
bool joins(const DfsOption& a, const DfsOption& b) {
  return a.pending == PendingKind::Sync && a.op == static_cast<std::uint8_t>(SyncOp::Join) && a.address == b.tid;
}

// A condition wait releases its mutex (and wakes the threads blocked on it) in the same step; the
// pending event names only the condition variable.
bool waits(const DfsOption& a) {
  return a.pending == PendingKind::Sync && a.op == static_cast<std::uint8_t>(SyncOp::Wait);
}

}  // namespace

bool dependent(const DfsOption& a, const DfsOption& b) {
  if (a.timed || b.timed) return true;
  if (a.pending == PendingKind::None || b.pending == PendingKind::None) return true;
  if (joins(a, b) || joins(b, a)) return true;
  if ((waits(a) && b.pending == PendingKind::Sync) || (waits(b) && a.pending == PendingKind::Sync)) return true;
  // By 8-byte granule, so accesses of different sizes that overlap are caught (conservatively
  // also neighbours within one granule).
  if (a.address >> 3 != b.address >> 3) return false;
  return !(a.pending == PendingKind::Read && b.pending == PendingKind::Read);
}

DfsExplorer::DfsExplorer(std::uint32_t preemption_bound, DfsReduction reduction)
    : bound_(preemption_bound), reduction_(reduction), levels_(std::size_t{preemption_bound} + 1) {
  levels_[0].push_back(DfsBranch{});  // the run with no prefix: every default, no preemption
  pending_ = 1;
  if (reduction_ == DfsReduction::Dpor) nodes_.emplace_back();  // the root: the first point with a choice
}

std::vector<DfsBranch> DfsExplorer::next_batch(std::size_t max) {
  std::vector<DfsBranch> batch;
  for (std::uint32_t level = 0; level < levels_.size(); ++level) {
    auto& queue = levels_[level];
    if (queue.empty()) continue;
    level_ = level;
    while (!queue.empty() && batch.size() < max) {
      batch.push_back(std::move(queue.front()));
      queue.pop_front();
    }
    break;
  }
  pending_ -= batch.size();
  return batch;
}

void DfsExplorer::push(DfsBranch branch) {
  levels_[std::max(branch.preemptions, level_)].push_back(std::move(branch));
  ++pending_;
}

DfsRunVerdict DfsExplorer::explored(const DfsBranch& branch, const std::vector<DfsPoint>& points, bool precise) {
  if (reduction_ == DfsReduction::Dpor) return explored_dpor(branch, points, precise);
  // Without DPOR only the points with a choice matter (a single option is no branch, and a
  // sleeping thread that runs alone is caught at the end).
  std::vector<DfsPoint> choices;
  choices.reserve(points.size());
  for (const DfsPoint& p : points) {
    if (p.options.size() > 1) choices.push_back(p);
  }
  return explored_full(branch, choices);
}

DfsRunVerdict DfsExplorer::explored_full(const DfsBranch& branch, const std::vector<DfsPoint>& points) {
  DfsRunVerdict verdict;
  const std::size_t start = branch.prefix.size();
  if (points.size() < start) {
    verdict.followed = false;
    return verdict;
  }
  std::vector<Decision> prefix;
  prefix.reserve(points.size() + 1);
  std::uint32_t preemptions = 0;
  for (std::size_t i = 0; i < start; ++i) {
    const DfsPoint& p = points[i];
    if (p.decision != branch.prefix[i].kind || p.chosen != branch.prefix[i].value) {
      verdict.followed = false;
      return verdict;
    }
    preemptions += is_preemption(p, p.chosen);
    prefix.push_back({p.decision, p.chosen});
  }
  std::vector<ThreadId> sleeping = reduction_ == DfsReduction::SleepSets ? branch.sleeping : std::vector<ThreadId>{};
  for (std::size_t i = start; i < points.size(); ++i) {
    const DfsPoint& p = points[i];
    const bool blocked = p.decision == DecisionKind::Schedule && contains(sleeping, p.chosen);
    for (const DfsOption& option : p.options) {
      if (option.tid == p.chosen) continue;
      // A yield lets the others run: the yielding thread itself is not an alternative (otherwise
      // a yield loop would branch at every iteration).
      if (p.decision == DecisionKind::Schedule && p.kind == PointKind::Yield && option.tid == p.current) continue;
      if (p.decision == DecisionKind::Schedule && contains(sleeping, option.tid)) continue;
      const std::uint32_t cost = preemptions + (is_preemption(p, option.tid) ? 1u : 0u);
      if (cost > bound_) continue;
      DfsBranch child;
      child.prefix = prefix;
      child.prefix.push_back({p.decision, option.tid});
      child.preemptions = cost;
      if (reduction_ == DfsReduction::SleepSets) {
        if (p.decision == DecisionKind::Schedule) {
          std::vector<ThreadId> base = sleeping;
          // The one sleep-set entry the bound allows (docs/strategies.md): the preempted thread.
          if (is_preemption(p, option.tid) && p.chosen == p.current) base.push_back(p.current);
          std::sort(base.begin(), base.end());
          base.erase(std::unique(base.begin(), base.end()), base.end());
          child.sleeping = still_asleep(base, p, option);
        } else {
          child.sleeping = sleeping;  // a wake choice is part of the step already accounted for
        }
      }
      push(std::move(child));
      ++verdict.branches;
    }
    if (blocked) {
      verdict.redundant = true;
      return verdict;
    }
    if (reduction_ == DfsReduction::SleepSets && p.decision == DecisionKind::Schedule) {
      if (const DfsOption* step = option_of(p, p.chosen)) sleeping = still_asleep(sleeping, p, *step);
    }
    preemptions += is_preemption(p, p.chosen);
    prefix.push_back({p.decision, p.chosen});
  }
  // A thread still asleep at the end was never scheduled at a point with a choice: it ran later
  // alone (every other thread had exited or waited for it), so the run is equivalent to one
  // already covered. (If the process ended without running it, the run is counted as redundant
  // all the same; its branches are kept either way.)
  if (!sleeping.empty()) verdict.redundant = true;
  return verdict;
}

std::uint32_t DfsExplorer::child(std::uint32_t node, ThreadId value, bool create) {
  for (const auto& [v, index] : nodes_[node].children) {
    if (v == value) return index;
  }
  if (!create) return UINT32_MAX;
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_[node].children.emplace_back(value, index);
  nodes_.emplace_back();
  return index;
}

DfsRunVerdict DfsExplorer::explored_dpor(const DfsBranch& branch, const std::vector<DfsPoint>& points, bool precise) {
  DfsRunVerdict verdict;
  // Per entry with a choice: its node in the tree, the preemptions before it, and how many
  // decisions of the run precede it (its prefix).
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> node_at(points.size(), kNone);
  std::vector<std::uint32_t> preemptions_at(points.size(), 0);
  std::vector<std::size_t> prefix_at(points.size(), 0);
  std::vector<Decision> prefix;
  prefix.reserve(points.size());
  std::uint32_t node = 0;
  std::uint32_t preemptions = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const DfsPoint& p = points[i];
    if (p.options.size() > 1) {
      if (prefix.size() < branch.prefix.size() &&
          (p.decision != branch.prefix[prefix.size()].kind || p.chosen != branch.prefix[prefix.size()].value)) {
        verdict.followed = false;
        return verdict;
      }
      node_at[i] = node;
      preemptions_at[i] = preemptions;
      prefix_at[i] = prefix.size();
      prefix.push_back({p.decision, p.chosen});
      node = child(node, p.chosen, true);
    }
    preemptions += is_preemption(p, p.chosen);
  }
  if (prefix.size() < branch.prefix.size()) {
    verdict.followed = false;
    return verdict;
  }
  // Branch to `value` at entry i, unless it was made before or costs more than the bound.
  const auto branch_to = [&](std::size_t i, ThreadId value) {
    const DfsPoint& p = points[i];
    if (value == p.chosen || child(node_at[i], value, false) != kNone) return;
    const std::uint32_t cost = preemptions_at[i] + (is_preemption(p, value) ? 1u : 0u);
    if (cost > bound_) return;
    child(node_at[i], value, true);
    DfsBranch next;
    next.prefix.assign(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(prefix_at[i]));
    next.prefix.push_back({p.decision, value});
    next.preemptions = cost;
    push(std::move(next));
    ++verdict.branches;
  };
  // A wake choice is the program's own nondeterminism inside one step: every waiter, at every
  // point this run reached first.
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (node_at[i] == kNone || points[i].decision != DecisionKind::Wake || prefix_at[i] < branch.prefix.size()) continue;
    for (const DfsOption& o : points[i].options) branch_to(i, o.tid);
  }
  for (const DfsBacktrack& b : dpor_backtracks(points, precise)) branch_to(b.entry, b.thread);
  return verdict;
}

}  // namespace ctrlsched
