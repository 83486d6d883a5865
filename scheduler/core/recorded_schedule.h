// A recorded schedule being followed or checked, decision by decision; the shared part of
// ReplayStrategy and VerifyingStrategy.
//
// It hands out the recorded decisions in order and, at the first one that does not fit the run,
// records a Divergence whose one-line text says what was recorded and what the run offered.
// Runs inside the shim: after construction it never allocates (the divergence text is built in a
// buffer reserved up front and truncated to fit).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/in_place_schedule.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched {

// One question the run asks, with the options it offers.
struct DecisionRequest {
  DecisionKind kind;
  std::uint64_t step = 0;                  // scheduling step; 0 when not asked at a point
  std::span<const Candidate> candidates{}; // Schedule
  std::span<const ThreadId> waiters{};     // Wake
  ThreadId waiter = kNoThread;             // Spurious

  static DecisionRequest schedule(const SchedulingPoint& point) {
    return {.kind = DecisionKind::Schedule, .step = point.step, .candidates = point.candidates};
  }
  static DecisionRequest wake(std::span<const ThreadId> waiters) {
    return {.kind = DecisionKind::Wake, .waiters = waiters};
  }
  static DecisionRequest spurious(ThreadId waiter) { return {.kind = DecisionKind::Spurious, .waiter = waiter}; }
  static DecisionRequest lease(const SchedulingPoint& point) {
    return {.kind = DecisionKind::Lease, .step = point.step, .candidates = point.candidates};
  }
};

class RecordedSchedule {
 public:
  explicit RecordedSchedule(std::vector<Decision> decisions);
  // Reads the decisions in place from their compact encoding (decision.h), which must outlive
  // this object: the shim follows the run record's input log this way, so its heap use does not
  // depend on the schedule's length (docs/decisions.md, "One address space in every mode"). A
  // malformed encoding counts as an empty schedule.
  explicit RecordedSchedule(std::span<const std::uint8_t> encoded);

  // The next recorded decision, if there is one and it answers a request of this kind; otherwise
  // records the divergence. Always nullopt once diverged.
  std::optional<Decision> take(const DecisionRequest& request);
  // The next recorded decision if it is a Lease (consumed), else nullopt (nothing consumed).
  std::optional<Decision> take_lease();
  // The decision just taken is not one of the request's options.
  void reject(Decision recorded, const DecisionRequest& request);
  // The run decided `actual` where the decision just taken says `recorded`.
  void mismatch(Decision recorded, Decision actual, const DecisionRequest& request);

  bool diverged() const { return divergence_.has_value(); }
  const std::optional<Divergence>& divergence() const { return divergence_; }

 private:
  void diverge(std::uint64_t decision_index, std::uint64_t step);
  bool at_end() const { return next_ == count_; }
  Decision peek() const;  // decision next_ (not at_end)
  void advance();

  std::vector<Decision> decisions_;        // owned decisions, or empty when reading `encoded_`
  std::span<const std::uint8_t> encoded_;  // in-place decisions (count_ of them)
  bool in_place_ = false;
  std::size_t encoded_pos_ = 0;            // byte offset of decision next_ + 1 (after `current_`)
  Decision current_{};                     // decision next_ when in place
  std::size_t count_ = 0;
  std::size_t next_ = 0;
  std::string text_;  // reserved in the constructor; becomes divergence_->what
  std::optional<Divergence> divergence_;
};

}  // namespace ctrlsched
