// The preemption strategy and the decorator that records a run as switch points (see
// ctrlsched/preemption_schedule.h for the rules). Both run inside the shim: tables are reserved
// in the constructors, lookups are binary searches over the sorted plan, nothing allocates later.
#include <algorithm>

#include "ctrlsched/preemption_schedule.h"
#include "non_preemptive.h"

namespace ctrlsched {

RunPosition::RunPosition() : points_(kMaxThreads, 0), wakes_(kMaxThreads, 0), spurious_(kMaxThreads, 0) {}

std::uint64_t& RunPosition::at(std::vector<std::uint64_t>& table, ThreadId tid) {
  return tid < table.size() ? table[tid] : overflow_;
}

// Between two questions only the thread that was chosen at the first one ran, and it reached
// every point in between (skipped points included), so the step difference is its own count.
std::uint64_t RunPosition::at_point(const SchedulingPoint& point) {
  const std::uint64_t delta = point.step >= last_step_ ? point.step - last_step_ : 0;
  last_step_ = point.step;
  std::uint64_t& index = at(points_, point.current);
  index += delta;
  return index;
}

namespace {

bool has_candidate(std::span<const Candidate> candidates, ThreadId tid) {
  return std::any_of(candidates.begin(), candidates.end(), [&](const Candidate& c) { return c.tid == tid; });
}

// Where a preemption goes when its target cannot run: the lowest-id other candidate, one that is
// not in a timed wait if there is such a one (there is at least one other: size > 1).
ThreadId other_than_current(const SchedulingPoint& point) {
  const Candidate* timed = nullptr;
  for (const Candidate& c : point.candidates) {
    if (c.tid == point.current) continue;
    if (!c.timed_wait) return c.tid;
    if (!timed) timed = &c;
  }
  return timed ? timed->tid : point.current;
}

class PreemptionStrategy final : public Strategy {
 public:
  explicit PreemptionStrategy(std::vector<SwitchPoint> plan) : plan_(std::move(plan)) {
    std::sort(plan_.begin(), plan_.end());
  }

  void on_thread_created(ThreadId, ThreadId) override {}

  ThreadId next_thread(const SchedulingPoint& point) override {
    const std::uint64_t index = position_.at_point(point);
    current_index_ = index;
    const ThreadId chosen = choose(point, index);
    position_.ran(chosen);
    return chosen;
  }

  std::size_t pick_waiter(WakeKind, std::span<const ThreadId> waiters) override {
    const std::uint64_t ordinal = position_.next_wake();
    if (const SwitchPoint* entry = find(SwitchKind::Wake, position_.running(), ordinal)) {
      for (std::size_t i = 0; i < waiters.size(); ++i) {
        if (waiters[i] == entry->target) return i;
      }
    }
    return 0;
  }

  bool spurious_wakeup(ThreadId waiter) override {
    return find(SwitchKind::Spurious, waiter, position_.next_spurious(waiter)) != nullptr;
  }

  std::uint32_t lease(const SchedulingPoint& point) override {
    // The next Preempt entry of this thread after its current point.
    const SwitchPoint key = make_switch_point(SwitchKind::Preempt, point.current, current_index_ + 1, 0);
    const auto next = std::lower_bound(plan_.begin(), plan_.end(), key);
    if (next == plan_.end() || next->switch_kind() != SwitchKind::Preempt || next->thread != point.current) {
      return kUnboundedLease;
    }
    const std::uint64_t free_points = next->point - current_index_ - 1;
    return free_points >= kUnboundedLease ? kUnboundedLease - 1 : static_cast<std::uint32_t>(free_points);
  }

  std::uint64_t preemptions() const override { return preemptions_; }

 private:
  ThreadId choose(const SchedulingPoint& point, std::uint64_t index) {
    if (point.candidates.size() == 1) return point.candidates.front().tid;
    if (point.current_enabled && point.kind != PointKind::Yield) {
      const SwitchPoint* entry = find(SwitchKind::Preempt, point.current, index);
      if (!entry) return point.current;
      ++preemptions_;
      if (entry->target != point.current && has_candidate(point.candidates, entry->target)) return entry->target;
      return other_than_current(point);
    }
    const SwitchPoint* entry = find(SwitchKind::Free, point.current, index);
    if (entry && has_candidate(point.candidates, entry->target)) return entry->target;
    return non_preemptive_switch(point);
  }

  // The first entry of this kind at (thread, point), if any.
  const SwitchPoint* find(SwitchKind kind, ThreadId thread, std::uint64_t point) const {
    const SwitchPoint key = make_switch_point(kind, thread, point, 0);
    const auto it = std::lower_bound(plan_.begin(), plan_.end(), key);
    if (it == plan_.end() || it->kind != key.kind || it->thread != thread || it->point != point) return nullptr;
    return &*it;
  }

  std::vector<SwitchPoint> plan_;
  RunPosition position_;
  std::uint64_t current_index_ = 0;
  std::uint64_t preemptions_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_preemption_strategy(std::vector<SwitchPoint> plan) {
  return std::make_unique<PreemptionStrategy>(std::move(plan));
}

ThreadId SwitchRecordingStrategy::next_thread(const SchedulingPoint& point) {
  const std::uint64_t index = position_.at_point(point);
  const ThreadId chosen = inner_.next_thread(point);
  position_.ran(chosen);
  if (point.current_enabled && point.kind != PointKind::Yield) {
    if (chosen != point.current) sink_.append(make_switch_point(SwitchKind::Preempt, point.current, index, chosen));
  } else if (point.candidates.size() > 1 || chosen != point.current) {
    sink_.append(make_switch_point(SwitchKind::Free, point.current, index, chosen));
  }
  return chosen;
}

std::size_t SwitchRecordingStrategy::pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) {
  const std::uint64_t ordinal = position_.next_wake();
  const std::size_t index = inner_.pick_waiter(kind, waiters);
  if (index < waiters.size()) {
    sink_.append(make_switch_point(SwitchKind::Wake, position_.running(), ordinal, waiters[index]));
  }
  return index;
}

bool SwitchRecordingStrategy::spurious_wakeup(ThreadId waiter) {
  const std::uint64_t ordinal = position_.next_spurious(waiter);
  const bool wakes = inner_.spurious_wakeup(waiter);
  if (wakes) sink_.append(make_switch_point(SwitchKind::Spurious, waiter, ordinal, 1));
  return wakes;
}

}  // namespace ctrlsched
