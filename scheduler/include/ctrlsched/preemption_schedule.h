// A schedule described by where it switches threads, for shrinking (docs/shrinking.md).
//
// A decision log (schedule.h) answers every question of a run in order, so removing one answer
// shifts all later ones. Shrinking needs a form in which one preemption can be removed and the
// rest keeps its meaning: every switch is named by the thread that reached the point and the
// index of that point among *its own* scheduling points (1-based, counting every point of the
// thread, also those no strategy was asked about). A thread's k-th point is the same code
// whatever the other threads did, so (thread, k) survives removing an earlier preemption.
//
// The preemption strategy follows such a list and is non-preemptive everywhere else:
//  - Preempt entries apply where `thread` could continue (enabled, not a Yield): run `target` if
//    it is a candidate, else the lowest-id other candidate (one not in a timed wait if there is
//    one): the place of a preemption is what matters, its target is a preference, and the thread
//    it went to in the original run may not exist or may wait when other preemptions are gone.
//    At every other such point keep the current thread.
//  - Free entries apply where `thread` blocked, exited or yielded (the switches that are not
//    preemptions): run `target` if it is a candidate. Without one: after a Yield the next
//    non-timed candidate after the current thread in id order (wrapping), else the lowest timed
//    one, else the current thread; after a block or exit the lowest-id non-timed candidate, else
//    the lowest-id timed one (its timeout fires).
//  - Wake entries: the `point`-th wake choice (a signal or futex wake with several waiters) made
//    while `thread` held the baton wakes `target` if it waits; otherwise the first waiter (FIFO).
//  - Spurious entries: the `point`-th spurious-wakeup question about waiter `thread` is answered
//    yes; every other one no.
//  - lease: kept points are leased up to the thread's next Preempt entry (unbounded after it).
// The Free, Wake and Spurious entries of a run are its free choices: shrinking keeps them as
// hints and minimizes only the Preempt entries.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <vector>

#include "ctrlsched/strategy.h"

namespace ctrlsched {

enum class SwitchKind : std::uint8_t { Preempt = 0, Free = 1, Wake = 2, Spurious = 3 };

// Plain data with a fixed layout: it travels through the run record (see kSwitchLogOffset).
struct SwitchPoint {
  std::uint8_t kind;      // SwitchKind
  std::uint8_t reserved0[3];
  ThreadId thread;        // the thread at the point (Wake: holding the baton; Spurious: the waiter)
  std::uint64_t point;    // its point index (Wake, Spurious: the ordinal of the question)
  ThreadId target;        // the thread to run / to wake; Spurious: 1
  std::uint32_t reserved1;

  SwitchKind switch_kind() const { return static_cast<SwitchKind>(kind); }
  friend bool operator==(const SwitchPoint& a, const SwitchPoint& b) {
    return a.kind == b.kind && a.thread == b.thread && a.point == b.point && a.target == b.target;
  }
  friend std::strong_ordering operator<=>(const SwitchPoint& a, const SwitchPoint& b) {
    if (auto c = a.kind <=> b.kind; c != 0) return c;
    if (auto c = a.thread <=> b.thread; c != 0) return c;
    if (auto c = a.point <=> b.point; c != 0) return c;
    return a.target <=> b.target;
  }
};
static_assert(sizeof(SwitchPoint) == 24);

inline SwitchPoint make_switch_point(SwitchKind kind, ThreadId thread, std::uint64_t point, ThreadId target) {
  return SwitchPoint{static_cast<std::uint8_t>(kind), {}, thread, point, target, 0};
}

// Where a run stands, as a strategy sees it: the point index of every thread (from the global
// step numbers of the points it is asked about), the thread holding the baton, and the ordinals
// of wake and spurious-wakeup questions. Reserves its tables up front; never allocates after.
class RunPosition {
 public:
  RunPosition();
  // The point index of point.current at this point; call once per next_thread.
  std::uint64_t at_point(const SchedulingPoint& point);
  void ran(ThreadId chosen) { running_ = chosen; }
  ThreadId running() const { return running_; }
  std::uint64_t next_wake() { return ++at(wakes_, running_); }
  std::uint64_t next_spurious(ThreadId waiter) { return ++at(spurious_, waiter); }

 private:
  std::uint64_t& at(std::vector<std::uint64_t>& table, ThreadId tid);
  std::vector<std::uint64_t> points_, wakes_, spurious_;
  std::uint64_t last_step_ = 0;
  ThreadId running_ = 0;
  std::uint64_t overflow_ = 0;  // the slot of thread ids beyond kMaxThreads
};

// Follows `plan` as described above. Never allocates after construction.
std::unique_ptr<Strategy> make_preemption_strategy(std::vector<SwitchPoint> plan);

// Receives the switch points a run takes.
class SwitchSink {
 public:
  virtual ~SwitchSink() = default;
  virtual void append(const SwitchPoint& point) = 0;
};

// Decorator: forwards to `inner` and appends to `sink`, in run order, every choice that the
// preemption strategy would need to take the same run: a Preempt entry for every preemption, a
// Free entry for every switch at a block, exit or yield (and for a yield that kept the current
// thread), a Wake entry for every wake choice, a Spurious entry for every spurious wakeup. The
// preemption strategy fed the whole list runs the same interleaving as `inner`.
class SwitchRecordingStrategy final : public Strategy {
 public:
  SwitchRecordingStrategy(Strategy& inner, SwitchSink& sink) : inner_(inner), sink_(sink) {}
  void on_thread_created(ThreadId child, ThreadId parent) override { inner_.on_thread_created(child, parent); }
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint32_t lease(const SchedulingPoint& point) override { return inner_.lease(point); }
  std::uint64_t preemptions() const override { return inner_.preemptions(); }
  const std::optional<Divergence>& divergence() const override { return inner_.divergence(); }

 private:
  Strategy& inner_;
  SwitchSink& sink_;
  RunPosition position_;
};

// A switch log entry that handed the baton to another thread (all Preempt entries, Free entries
// whose target is not their thread).
inline bool is_thread_switch(const SwitchPoint& p) {
  return p.switch_kind() == SwitchKind::Preempt || (p.switch_kind() == SwitchKind::Free && p.target != p.thread);
}

}  // namespace ctrlsched
