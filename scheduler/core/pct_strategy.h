// PctStrategy, declared here (not in the public headers) so the unit tests can look at its
// priorities and change points. Everyone else builds it through make_pct_strategy (strategy.h);
// the exact rules are at the top of pct_strategy.cc.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "ctrlsched/strategy.h"

namespace ctrlsched {

class PctStrategy final : public Strategy {
 public:
  using Priority = std::int64_t;  // higher runs first
  // Priority of a thread that was never announced: below everything, so it runs only when alone.
  static constexpr Priority kUnknownThread = std::numeric_limits<Priority>::min();

  PctStrategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps);

  void on_thread_created(ThreadId child, ThreadId parent) override;
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint32_t lease(const SchedulingPoint& point) override;
  std::uint64_t preemptions() const override { return preemptions_; }

  // Current priority of a thread (kUnknownThread if never announced).
  Priority priority(ThreadId tid) const;
  // Change-point steps in draw order: the i-th (1-based) lowers the running thread to priority i.
  std::span<const std::uint64_t> change_points() const { return change_points_; }

 private:
  struct ChangePoint {
    std::uint64_t step;
    Priority priority;
  };

  void draw_change_points(std::uint64_t count, std::uint64_t steps);
  bool known(ThreadId tid) const { return tid < kMaxThreads && priority_[tid] != kUnknownThread; }
  void lower(ThreadId tid, Priority priority);

  Prng prng_;
  std::uint32_t depth_;
  std::vector<std::uint64_t> change_points_;       // draw order
  std::vector<ChangePoint> change_points_by_step_;  // sorted by step, for the lookup at each point
  std::vector<Priority> priority_;                  // per thread, kMaxThreads entries
  std::vector<bool> lowered_;                       // left the initial order (change point or yield)
  std::uint32_t thread_count_ = 0;                  // threads announced so far
  Priority next_yield_priority_ = 0;                // 0, -1, -2, ...: below every change point
  std::uint64_t preemptions_ = 0;
};

}  // namespace ctrlsched
