// SurwStrategy, declared here (not in the public headers) so the unit tests can look at its
// weights. Everyone else builds it through make_surw_strategy (strategy.h); the exact rules are at
// the top of surw_strategy.cc.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ctrlsched/strategy.h"

namespace ctrlsched {

class SurwStrategy final : public Strategy {
 public:
  // uniform_percent: rule 5's share of uniform choices, 0-100 (larger values count as 100).
  SurwStrategy(std::uint64_t seed, std::span<const std::uint32_t> estimates, std::uint32_t uniform_percent = 0);

  void on_thread_created(ThreadId, ThreadId) override {}
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint64_t preemptions() const override { return preemptions_; }

  // Rule 5: the weight of a thread at the next weighted choice.
  std::uint64_t remaining(ThreadId tid) const;
  // Rule 2: the kind of a thread's pending event.
  PointKind pending(ThreadId tid) const;

 private:
  Prng prng_;
  std::uint32_t uniform_percent_;        // rule 5
  std::vector<std::uint64_t> estimate_;  // per thread, kMaxThreads entries
  std::vector<std::uint64_t> executed_;  // rule 6, per thread
  std::vector<PointKind> pending_;       // rule 2, per thread
  std::uint64_t preemptions_ = 0;
};

}  // namespace ctrlsched
