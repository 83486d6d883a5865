// ReplayStrategy: follows a recorded schedule exactly, to reproduce a failing run bit for bit.
//
// Same rule as RecordingStrategy: only requests with more than one option consume a recorded
// decision; with one option the answer is forced and nothing is read. At the first recorded
// decision that does not fit (wrong kind, not an option, schedule exhausted) it records the
// Divergence and from then on answers first candidate / first waiter / no spurious wakeup, so the
// run still ends and the report can say where it left the schedule. Never allocates after
// construction.
#include "recorded_schedule.h"

namespace ctrlsched {
namespace {

class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(RecordedSchedule schedule) : schedule_(std::move(schedule)) {}

  void on_thread_created(ThreadId, ThreadId) override {}

  ThreadId next_thread(const SchedulingPoint& point) override {
    const ThreadId chosen = choose(point);
    if (chosen != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
    return chosen;
  }

  std::size_t pick_waiter(WakeKind, std::span<const ThreadId> waiters) override {
    if (waiters.size() <= 1) return 0;
    const DecisionRequest request = DecisionRequest::wake(waiters);
    const std::optional<Decision> recorded = schedule_.take(request);
    if (!recorded) return 0;
    for (std::size_t i = 0; i < waiters.size(); ++i) {
      if (waiters[i] == recorded->value) return i;
    }
    schedule_.reject(*recorded, request);
    return 0;
  }

  bool spurious_wakeup(ThreadId waiter) override {
    const DecisionRequest request = DecisionRequest::spurious(waiter);
    const std::optional<Decision> recorded = schedule_.take(request);
    if (!recorded) return false;
    if (recorded->value > 1) {
      schedule_.reject(*recorded, request);
      return false;
    }
    return recorded->value == 1;
  }

  std::uint32_t lease(const SchedulingPoint&) override {
    const std::optional<Decision> recorded = schedule_.take_lease();
    return recorded ? recorded->value : 0;
  }

  std::uint64_t preemptions() const override { return preemptions_; }
  const std::optional<Divergence>& divergence() const override { return schedule_.divergence(); }

 private:
  ThreadId choose(const SchedulingPoint& point) {
    const ThreadId fallback = point.candidates.front().tid;
    if (point.candidates.size() == 1) return fallback;
    const DecisionRequest request = DecisionRequest::schedule(point);
    const std::optional<Decision> recorded = schedule_.take(request);
    if (!recorded) return fallback;
    for (const Candidate& candidate : point.candidates) {
      if (candidate.tid == recorded->value) return candidate.tid;
    }
    schedule_.reject(*recorded, request);
    return fallback;
  }

  RecordedSchedule schedule_;
  std::uint64_t preemptions_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_replay_strategy(std::vector<Decision> decisions) {
  return std::make_unique<ReplayStrategy>(RecordedSchedule(std::move(decisions)));
}

std::unique_ptr<Strategy> make_replay_strategy_in_place(std::span<const std::uint8_t> encoded) {
  return std::make_unique<ReplayStrategy>(RecordedSchedule(encoded));
}

}  // namespace ctrlsched
