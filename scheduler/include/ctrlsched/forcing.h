// The directed strategy: makes a ForceDirective (force_directive.h) happen on top of a base
// strategy (random or PCT), for confirming a suspected access order and for SCURF's directed
// exploration. Rules and bounds: docs/forcing.md.
//
// It decides with what the engine tells it about each candidate (Candidate::pending*: the access
// a thread stopped at a scheduling point is about to perform) and learns what was performed from
// the run's events (observe). Like every strategy it is deterministic per seed, and it never
// allocates after construction (it runs inside the shim).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

#include "ctrlsched/context_strategy.h"
#include "ctrlsched/force_directive.h"
#include "ctrlsched/strategy.h"
#include "ctrlsched/trace_format.h"

namespace ctrlsched {

// Holds per thread and per step of the order when ForceDirective::hold_limit is 0.
inline constexpr std::uint32_t kDefaultHoldLimit = 200;

// False for a directive the strategy cannot follow (no steps, too many, a role out of range,
// an unknown kind or access): such a directive is ignored, the run is a plain run.
bool valid_directive(const ForceDirective& directive);

// A directive built in code: Order over up to kMaxForceSteps steps.
ForceDirective order_directive(std::initializer_list<ForceStep> steps, std::uint32_t hold_limit = 0);
ForceDirective switch_at_entry_directive(std::initializer_list<std::uint64_t> function_sites);
inline ForceStep force_step(std::uint64_t site, ForceAccess access, std::uint8_t role) {
  return ForceStep{site, static_cast<std::uint8_t>(access), role, 0, 0};
}
// A synchronization operation (SyncOp value, ctrlsched/sync_ops.h) at `site` as a step.
inline ForceStep force_sync_step(std::uint64_t site, std::uint8_t sync_op, std::uint8_t role) {
  return ForceStep{site, static_cast<std::uint8_t>(kForceSync + sync_op), role, 0, 0};
}
// One side of a suspected pattern: a site and whether it writes.
struct ForceSide {
  std::uint64_t site;
  bool write;
};
// A cross-thread pair (Locon pair, ConSeq w'→r): `first` by one thread, then `second` by another.
ForceDirective pair_directive(ForceSide first, ForceSide second, std::uint32_t hold_limit = 0);
// A Falcon-style triple: `first` and `third` by one thread, `second` by another in between
// (e.g. R W W: the lost update, W R W: a dirty read, R W R: a non-repeatable read).
ForceDirective triple_directive(ForceSide first, ForceSide second, ForceSide third, std::uint32_t hold_limit = 0);

class ForcingStrategy final : public Strategy {
 public:
  // `inner` decides whenever the directive leaves a choice. `publish`, if given, receives the
  // outcome every time it changes (the shim points it into the run record, so a crash loses
  // nothing); otherwise outcome() is the only copy. `context`, for a directive in the failing
  // run's context (ForceDirective::context), is `inner` itself: it follows the reference run
  // until this strategy sees the cut and stops it (docs/forcing.md, "In the failing run's
  // context"); without it, or when its log is empty, the context is ignored.
  ForcingStrategy(Strategy& inner, const ForceDirective& directive, ForceOutcome* publish = nullptr,
                  ContextStrategy* context = nullptr);

  // An event of the run, in the run's order, emitted right after a point returned and before
  // the access happens: a performed access (or a function entry) for the directive.
  void observe(const TraceEvent& event);

  // True while the directive can still change a decision; then lease() is 0, so every point
  // with a choice is decided here.
  bool active() const;
  // In the failing run's context, before the cut: the engine asks at each point it would skip
  // under the reference run's lease whether that point is the cut (`self`: the leased thread with
  // what it is about to do). If so, it decides the point after all, and next_thread takes the
  // reference's choice there to be that thread (a lease kept it), without asking the follower.
  bool watching_cut() const { return in_context(); }
  bool cut_under_lease(const Candidate& self);
  const ForceOutcome& outcome() const { return *outcome_; }

  void on_thread_created(ThreadId child, ThreadId parent) override;
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override {
    return inner_.pick_waiter(kind, waiters);
  }
  bool spurious_wakeup(ThreadId waiter) override { return inner_.spurious_wakeup(waiter); }
  // While the context is followed its leases are the reference run's.
  std::uint32_t lease(const SchedulingPoint& point) override {
    return in_context() || !active() ? inner_.lease(point) : 0;
  }
  std::uint64_t preemptions() const override { return preemptions_; }
  const std::optional<Divergence>& divergence() const override { return inner_.divergence(); }

 private:
  static constexpr std::uint8_t kNoRole = 0xff;
  static constexpr std::uint32_t kNoStep = 0xffffffffu;
  static constexpr std::uint32_t kUnbornPartnerFactor = 10;

  ThreadId order_choice(const SchedulingPoint& point);
  // Following the reference run's decisions (nothing is held, no step is performed).
  bool in_context() const { return context_ != nullptr && context_->following(); }
  // The followed choice at `point` runs the context thread's access at the cut.
  bool at_cut(const SchedulingPoint& point, ThreadId chosen) const;
  bool is_cut(const Candidate& c) const;  // `c` is the context thread about to perform the cut
  void reach_cut(std::uint64_t step);
  ThreadId counted(const SchedulingPoint& point, ThreadId chosen);
  // The followed log ended or stopped fitting before the cut: say where and why, once.
  void note_context_lost(const SchedulingPoint& point);
  ThreadId switch_choice(const SchedulingPoint& point);
  // Asks the inner strategy to choose among the first `count` entries of filtered_.
  ThreadId inner_choice(const SchedulingPoint& point, std::size_t count);
  bool role_fits(const ForceStep& step, ThreadId tid) const;
  bool step_matches_pending(std::uint32_t index, const Candidate& candidate) const;
  bool step_matches_event(std::uint32_t index, const TraceEvent& event) const;
  // The first step after next_ the candidate's pending access matches, or kNoStep.
  std::uint32_t later_step(const Candidate& candidate) const;
  // The candidate's thread is bound to a role, not the next step's (rule 3b).
  bool waits_for_partner(const Candidate& candidate) const;
  // The event writes the location a read step must read from its write step first (rule 7).
  bool breaks_read_from(const TraceEvent& event) const;
  bool held(const Candidate& candidate) const;
  // It would be held but owns a lock another thread is blocked on (rule 3c: never held).
  bool would_hold_lock_owner(const Candidate& candidate) const;
  // The step has no occurrence, or `tid`'s next access at its site is that occurrence.
  bool at_occurrence(std::uint32_t index, ThreadId tid) const;
  void advance(ThreadId tid, std::uint64_t address);
  // The step's location is bound to another address than `address`.
  bool elsewhere(const ForceStep& step, std::uint64_t address) const;

  Strategy& inner_;
  ContextStrategy* context_;
  std::uint32_t context_seen_ = 0;  // the context thread's accesses (calls) at the cut's site so far
  TraceEvent context_previous_{};   // the context thread's last sync event (a Block: a call waits)
  bool context_previous_seen_ = false;
  bool lease_cut_ = false;          // the next point is the cut, reached under a lease
  ForceDirective directive_;
  ForceKind kind_;
  std::uint32_t hold_limit_;
  ForceOutcome own_outcome_{};
  ForceOutcome* outcome_;
  std::uint64_t preemptions_ = 0;
  std::uint64_t last_step_ = 0;

  // Order
  std::uint32_t next_ = 0;                                 // index of the step to happen next
  std::array<ThreadId, kMaxForceRoles> role_thread_{};     // kNoThread until bound
  std::array<std::uint64_t, kMaxForceSteps> location_address_{};  // per step.location, 0 until bound
  std::array<std::uint8_t, kMaxThreads> thread_role_{};    // kNoRole until bound
  std::array<std::uint32_t, kMaxThreads> held_for_{};      // decisions held since the last step
  std::array<bool, kMaxThreads> released_{};               // hold dropped until the next step
  std::array<Candidate, kMaxThreads> filtered_{};
  std::array<bool, kMaxThreads> created_{};                // threads created so far (T0 always)
  std::array<std::array<std::uint32_t, kMaxForceSteps>, kMaxThreads> site_seen_{};  // per thread:
                                                           // accesses at each step's site so far
  std::uint32_t unborn_holds_ = 0;                         // holds while the partner did not exist

  // SwitchAtEntry
  std::array<bool, kMaxForceSteps> entered_{};             // the component's one switch is used
  ThreadId switch_pending_ = kNoThread;                    // entered a component, not yet switched
};

}  // namespace ctrlsched
