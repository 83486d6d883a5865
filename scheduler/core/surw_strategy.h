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
  // uniform_percent: rule 7's share of uniform choices, 0-100 (larger values count as 100).
  SurwStrategy(std::uint64_t seed, std::span<const std::uint32_t> estimates, std::uint32_t uniform_percent = 0);

  void on_thread_created(ThreadId child, ThreadId parent) override;
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint64_t preemptions() const override { return preemptions_; }

  // Rule 3: a thread's estimated events not yet run, at least 1.
  std::uint64_t remaining(ThreadId tid) const;
  // Rule 4: the estimated events of the threads not created yet.
  std::uint64_t uncreated_events() const { return uncreated_; }
  // Rules 4 and 7: the weight of a thread at the next weighted choice.
  std::uint64_t weight(ThreadId tid) const;
  // Rule 2: the kind of a thread's pending event.
  PointKind pending(ThreadId tid) const;

 private:
  Prng prng_;
  std::uint32_t uniform_percent_;        // rule 7
  std::size_t estimated_threads_;        // rule 1: threads with an estimate of their own
  std::vector<std::uint64_t> estimate_;  // per thread, kMaxThreads entries
  std::vector<std::uint64_t> reached_;   // rule 3, per thread
  std::vector<PointKind> pending_;       // rule 2, per thread
  std::uint64_t last_step_ = 0;          // rule 3: point.step of the previous call
  std::size_t created_ = 0;              // rule 4: threads created so far (by creation index)
  std::uint64_t uncreated_ = 0;          // rule 4: the estimates of threads created_ and later
  ThreadId creator_ = 0;                 // rule 4: the parent of the most recently created thread
  std::uint64_t preemptions_ = 0;
};

}  // namespace ctrlsched
