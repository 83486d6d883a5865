// Random walk with an optional preemption bound (CHESS-style): the default exploration strategy.
//
// Exact rules (a seed's schedule depends on them; the pinned sequence in
// tests/unit/core_random_strategy_test.cc catches any change):
//  - One candidate: return it without drawing a random number.
//  - Bound K reached (K preemptions taken), the current thread enabled and the point not a Yield:
//    keep the current thread, without drawing.
//  - Otherwise: candidates[prng.below(candidates.size())].
//  - A preemption is counted when the chosen thread is not the current one, the current one was
//    enabled, and the point is not a Yield (yielding threads ask to be switched away from).
//  - pick_waiter: prng.below(number of waiters). spurious_wakeup: prng.one_in(8).
//  - lease: once the bound is reached, the current thread is kept at every non-Yield point for as
//    long as it can run, so the lease is unbounded; before that every point draws (no lease).
// No allocation, no I/O: it runs inside the preloaded shim.
#include "ctrlsched/strategy.h"

namespace ctrlsched {
namespace {

constexpr std::uint64_t kRandomSpuriousWakeupOdds = 8;  // one spurious wakeup per 8 questions

class RandomStrategy final : public Strategy {
 public:
  RandomStrategy(std::uint64_t seed, std::optional<std::uint32_t> preemption_bound)
      : prng_(seed), preemption_bound_(preemption_bound) {}

  void on_thread_created(ThreadId, ThreadId) override {}

  ThreadId next_thread(const SchedulingPoint& point) override {
    const std::span<const Candidate> candidates = point.candidates;
    if (candidates.size() == 1) return candidates.front().tid;
    const bool may_preempt = point.current_enabled && point.kind != PointKind::Yield;
    if (may_preempt && preemption_bound_ && preemptions_ >= *preemption_bound_) return point.current;
    const ThreadId chosen = candidates[prng_.below(candidates.size())].tid;
    if (may_preempt && chosen != point.current) ++preemptions_;
    return chosen;
  }

  std::size_t pick_waiter(WakeKind, std::span<const ThreadId> waiters) override {
    return static_cast<std::size_t>(prng_.below(waiters.size()));
  }

  bool spurious_wakeup(ThreadId) override { return prng_.one_in(kRandomSpuriousWakeupOdds); }

  std::uint32_t lease(const SchedulingPoint&) override {
    return preemption_bound_ && preemptions_ >= *preemption_bound_ ? kUnboundedLease : 0;
  }

  std::uint64_t preemptions() const override { return preemptions_; }

 private:
  Prng prng_;
  std::optional<std::uint32_t> preemption_bound_;
  std::uint64_t preemptions_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_random_strategy(std::uint64_t seed, std::optional<std::uint32_t> preemption_bound) {
  return std::make_unique<RandomStrategy>(seed, preemption_bound);
}

}  // namespace ctrlsched
