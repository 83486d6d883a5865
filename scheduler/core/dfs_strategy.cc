// The strategy of one dfs schedule: a prefix to follow, then the non-preemptive defaults, and a
// step log entry for every request with more than one option (see ctrlsched/dfs.h).
#include "ctrlsched/dfs.h"

#include <cstring>

#include "non_preemptive.h"
#include "recorded_schedule.h"

namespace ctrlsched {
namespace {

std::size_t count_decisions(std::span<const std::uint8_t> encoded) {
  std::size_t count = 0;
  std::size_t pos = 0;
  while (pos < encoded.size()) {
    if (!decode_decision(encoded, pos)) return count;
    ++count;
  }
  return count;
}

// The current thread goes on while it can; otherwise the non-preemptive switch.
ThreadId default_choice(const SchedulingPoint& point) {
  if (point.current_enabled && point.kind != PointKind::Yield) return point.current;
  return non_preemptive_switch(point);
}

// Appends entries to the step log area with plain stores; marks it truncated when full.
class StepLog {
 public:
  explicit StepLog(std::span<std::uint8_t> area) : area_(area) {
    if (area_.size() < sizeof(DfsLogHeader)) {
      area_ = {};
      return;
    }
    header_ = reinterpret_cast<DfsLogHeader*>(area_.data());
    std::memset(header_, 0, sizeof *header_);
  }

  void schedule(const SchedulingPoint& point, ThreadId chosen, bool hidden) {
    if (!header_) return;
    const DfsLogPoint entry{point.current, chosen, static_cast<std::uint8_t>(DecisionKind::Schedule),
                            static_cast<std::uint8_t>(point.kind), point.current_enabled ? std::uint8_t{1} : std::uint8_t{0},
                            hidden ? std::uint8_t{1} : std::uint8_t{0}, static_cast<std::uint16_t>(point.candidates.size()), 0};
    if (!begin(entry)) return;
    for (const Candidate& c : point.candidates) {
      const DfsLogOption option{c.tid, c.timed_wait ? std::uint8_t{1} : std::uint8_t{0},
                                static_cast<std::uint8_t>(c.pending), c.pending_op, 0, c.pending_address};
      put(&option, sizeof option);
    }
    ++header_->entries;
  }

  void wake(ThreadId running, std::span<const ThreadId> waiters, ThreadId chosen) {
    if (!header_) return;
    const DfsLogPoint entry{running, chosen, static_cast<std::uint8_t>(DecisionKind::Wake), 0, 1, 0,
                            static_cast<std::uint16_t>(waiters.size()), 0};
    if (!begin(entry)) return;
    for (const ThreadId tid : waiters) {
      const DfsLogOption option{tid, 0, static_cast<std::uint8_t>(PendingKind::None), 0, 0, 0};
      put(&option, sizeof option);
    }
    ++header_->entries;
  }

 private:
  bool begin(const DfsLogPoint& entry) {
    const std::size_t need = sizeof entry + std::size_t{entry.count} * sizeof(DfsLogOption);
    if (header_->truncated ||
        sizeof(DfsLogHeader) + header_->bytes + need > area_.size()) {
      header_->truncated = 1;
      return false;
    }
    put(&entry, sizeof entry);
    return true;
  }
  void put(const void* data, std::size_t size) {
    std::memcpy(area_.data() + sizeof(DfsLogHeader) + header_->bytes, data, size);
    header_->bytes += size;
  }

  std::span<std::uint8_t> area_;
  DfsLogHeader* header_ = nullptr;
};

class DfsStrategy final : public Strategy {
 public:
  DfsStrategy(std::span<const std::uint8_t> prefix, std::span<std::uint8_t> log)
      : prefix_(prefix), remaining_(count_decisions(prefix)), log_(log) {}

  void on_thread_created(ThreadId, ThreadId) override {}

  ThreadId next_thread(const SchedulingPoint& point) override {
    // Steps between the last point the strategy saw and this one were taken on the engine's fast
    // path: by the thread chosen last, alone.
    const bool hidden = point.step > last_step_ + 1;
    last_step_ = point.step;
    if (point.candidates.size() == 1) {
      running_ = point.candidates.front().tid;
      log_.schedule(point, running_, hidden);
      return running_;
    }
    ThreadId chosen = default_choice(point);
    if (remaining_ > 0) {
      --remaining_;
      const DecisionRequest request = DecisionRequest::schedule(point);
      if (const std::optional<Decision> recorded = prefix_.take(request)) {
        if (is_candidate(point, recorded->value)) {
          chosen = recorded->value;
        } else {
          prefix_.reject(*recorded, request);
        }
      }
    }
    if (chosen != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
    log_.schedule(point, chosen, hidden);
    return running_ = chosen;
  }

  std::size_t pick_waiter(WakeKind, std::span<const ThreadId> waiters) override {
    if (waiters.size() <= 1) return 0;
    std::size_t index = 0;
    if (remaining_ > 0) {
      --remaining_;
      const DecisionRequest request = DecisionRequest::wake(waiters);
      if (const std::optional<Decision> recorded = prefix_.take(request)) {
        std::size_t found = waiters.size();
        for (std::size_t i = 0; i < waiters.size(); ++i) {
          if (waiters[i] == recorded->value) found = i;
        }
        if (found < waiters.size()) index = found;
        else prefix_.reject(*recorded, request);
      }
    }
    log_.wake(running_, waiters, waiters[index]);
    return index;
  }

  bool spurious_wakeup(ThreadId) override { return false; }
  std::uint64_t preemptions() const override { return preemptions_; }
  const std::optional<Divergence>& divergence() const override { return prefix_.divergence(); }

 private:
  static bool is_candidate(const SchedulingPoint& point, ThreadId tid) {
    for (const Candidate& c : point.candidates) {
      if (c.tid == tid) return true;
    }
    return false;
  }

  RecordedSchedule prefix_;
  std::size_t remaining_;
  StepLog log_;
  ThreadId running_ = 0;  // the last thread chosen: it holds the baton when a wake is asked
  std::uint64_t last_step_ = 0;  // the step of the last point the strategy was asked about
  std::uint64_t preemptions_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_dfs_strategy(std::span<const std::uint8_t> prefix, std::span<std::uint8_t> log) {
  return std::make_unique<DfsStrategy>(prefix, log);
}

}  // namespace ctrlsched
