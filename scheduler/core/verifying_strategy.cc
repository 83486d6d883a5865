// VerifyingStrategy: runs another strategy unchanged and checks its decisions against a saved
// schedule, to say whether (and where) re-running a seed leaves the schedule it once produced,
// e.g. after the program or ctrlsched itself changed.
//
// It logs by the same rule as RecordingStrategy (only requests with more than one option), so
// decision i here is decision i of the saved file. Only the first difference is reported; the
// inner strategy's answers are never altered. A run that ends before the saved schedule does is
// not seen here (there is no end-of-run call): the caller compares decision counts. Never
// allocates after construction.
#include "recorded_schedule.h"

namespace ctrlsched {
namespace {

class VerifyingStrategy final : public Strategy {
 public:
  VerifyingStrategy(Strategy& inner, RecordedSchedule expected) : inner_(inner), expected_(std::move(expected)) {}

  void on_thread_created(ThreadId child, ThreadId parent) override { inner_.on_thread_created(child, parent); }

  ThreadId next_thread(const SchedulingPoint& point) override {
    const ThreadId chosen = inner_.next_thread(point);
    if (point.candidates.size() > 1) check({DecisionKind::Schedule, chosen}, DecisionRequest::schedule(point));
    return chosen;
  }

  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override {
    const std::size_t index = inner_.pick_waiter(kind, waiters);
    if (waiters.size() > 1 && index < waiters.size()) {
      check({DecisionKind::Wake, waiters[index]}, DecisionRequest::wake(waiters));
    }
    return index;
  }

  bool spurious_wakeup(ThreadId waiter) override {
    const bool wakes = inner_.spurious_wakeup(waiter);
    check({DecisionKind::Spurious, wakes ? 1u : 0u}, DecisionRequest::spurious(waiter));
    return wakes;
  }

  // A lease is part of the schedule: the saved one must have the same lease at the same place.
  std::uint32_t lease(const SchedulingPoint& point) override {
    const std::uint32_t steps = inner_.lease(point);
    if (expected_.diverged()) return steps;
    const std::optional<Decision> recorded = expected_.take_lease();
    const Decision actual{DecisionKind::Lease, steps};
    if (recorded && *recorded != actual) {
      expected_.mismatch(*recorded, actual, DecisionRequest::lease(point));
    } else if (!recorded && steps > 0) {
      expected_.take(DecisionRequest::lease(point));  // reports what the saved schedule has instead
    }
    return steps;
  }

  std::uint64_t preemptions() const override { return inner_.preemptions(); }
  const std::optional<Divergence>& divergence() const override { return expected_.divergence(); }

 private:
  void check(Decision actual, const DecisionRequest& request) {
    const std::optional<Decision> recorded = expected_.take(request);
    if (recorded && *recorded != actual) expected_.mismatch(*recorded, actual, request);
  }

  Strategy& inner_;
  RecordedSchedule expected_;
};

}  // namespace

std::unique_ptr<Strategy> make_verifying_strategy(Strategy& inner, std::vector<Decision> expected) {
  return std::make_unique<VerifyingStrategy>(inner, RecordedSchedule(std::move(expected)));
}

std::unique_ptr<Strategy> make_verifying_strategy_in_place(Strategy& inner, std::span<const std::uint8_t> encoded) {
  return std::make_unique<VerifyingStrategy>(inner, RecordedSchedule(encoded));
}

}  // namespace ctrlsched
