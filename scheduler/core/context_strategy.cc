// ContextStrategy (ctrlsched/context_strategy.h): the reference run's decisions, then the seed's.
//
// Rules:
//  1. While following, every question (next thread, which waiter, spurious wakeup, lease) is the
//     follower's. When the follower's answer did not fit (its Divergence is set: the schedule is
//     exhausted, or its next decision is of another kind or not an option), following stops for
//     good and the same question is asked of the continuation, so the run never sees the
//     follower's fallback answer.
//  2. Every thread creation is announced to both, so the continuation knows every thread when it
//     takes over.
#include "ctrlsched/context_strategy.h"

namespace ctrlsched {

std::optional<ThreadId> ContextStrategy::follow(const SchedulingPoint& point) {
  if (!following_) return std::nullopt;
  const ThreadId chosen = follower_.next_thread(point);
  if (follower_lost()) {
    following_ = false;
    return std::nullopt;
  }
  return chosen;
}

void ContextStrategy::on_thread_created(ThreadId child, ThreadId parent) {
  follower_.on_thread_created(child, parent);
  continuation_.on_thread_created(child, parent);
}

ThreadId ContextStrategy::next_thread(const SchedulingPoint& point) {
  std::optional<ThreadId> chosen = follow(point);
  if (!chosen) chosen = continuation_.next_thread(point);
  if (*chosen != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
  return *chosen;
}

std::size_t ContextStrategy::pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) {
  if (following_) {
    const std::size_t index = follower_.pick_waiter(kind, waiters);
    if (!follower_lost()) return index;
    following_ = false;
  }
  return continuation_.pick_waiter(kind, waiters);
}

bool ContextStrategy::spurious_wakeup(ThreadId waiter) {
  if (following_) {
    const bool spurious = follower_.spurious_wakeup(waiter);
    if (!follower_lost()) return spurious;
    following_ = false;
  }
  return continuation_.spurious_wakeup(waiter);
}

std::uint32_t ContextStrategy::lease(const SchedulingPoint& point) {
  // A lease the reference run took is in its log (RecordingStrategy logs it as a decision);
  // the follower consumes it, or answers 0 when the next decision is not one.
  return following_ ? follower_.lease(point) : continuation_.lease(point);
}

}  // namespace ctrlsched
