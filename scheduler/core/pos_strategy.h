// PosStrategy, declared here (not in the public headers) so the unit tests can look at its
// priorities. Everyone else builds it through make_pos_strategy (strategy.h); the exact rules are
// at the top of pos_strategy.cc.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ctrlsched/strategy.h"

namespace ctrlsched {

// Rule 3 of pos_strategy.cc: do the pending events of two stopped threads race?
bool pending_events_race(const Candidate& a, const Candidate& b);

class PosStrategy final : public Strategy {
 public:
  explicit PosStrategy(std::uint64_t seed);

  void on_thread_created(ThreadId, ThreadId) override {}
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint64_t preemptions() const override { return preemptions_; }

  // Priority of a thread's pending event (meaningful once drawn).
  std::uint64_t priority(ThreadId tid) const;

 private:
  Prng prng_;
  std::vector<std::uint64_t> priority_;  // per thread, kMaxThreads entries
  std::vector<bool> stale_;              // rule 1: draw before the next choice
  std::uint64_t preemptions_ = 0;
};

}  // namespace ctrlsched
