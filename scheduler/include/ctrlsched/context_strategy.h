// The strategy of a forced run in the failing run's context (docs/forcing.md, "In the failing
// run's context"): it follows a recorded schedule, the reference failing run's decisions, while
// `following()`, and from the moment following stops every question goes to the continuation
// (the seed's own strategy). The forcing decorator on top of it (forcing.h) decides when the run
// has reached the pattern and stops following; a schedule that ends or stops fitting the run
// stops it too, and then the run goes on as a plain forced run, never as a divergence.
// Never allocates after construction (it runs inside the shim).
#pragma once

#include <optional>

#include "ctrlsched/strategy.h"

namespace ctrlsched {

class ContextStrategy final : public Strategy {
 public:
  // `follower` replays the context (make_replay_strategy*); both must outlive this object.
  ContextStrategy(Strategy& follower, Strategy& continuation) : follower_(follower), continuation_(continuation) {}

  bool following() const { return following_; }
  // The follower's choice at this point, or nullopt when the recorded schedule has no decision
  // that fits it (then following has stopped).
  std::optional<ThreadId> follow(const SchedulingPoint& point);
  void stop_following() { following_ = false; }
  // Why following stopped on its own (the follower's divergence), if it did.
  const std::optional<Divergence>& lost() const { return follower_.divergence(); }

  void on_thread_created(ThreadId child, ThreadId parent) override;
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint32_t lease(const SchedulingPoint& point) override;
  std::uint64_t preemptions() const override { return preemptions_; }
  // A context that ends is not a divergence of the run.
  const std::optional<Divergence>& divergence() const override { return no_divergence_; }

 private:
  // The follower left the schedule at its last answer.
  bool follower_lost() const { return follower_.divergence().has_value(); }

  Strategy& follower_;
  Strategy& continuation_;
  bool following_ = true;
  std::uint64_t preemptions_ = 0;
  std::optional<Divergence> no_divergence_;
};

}  // namespace ctrlsched
