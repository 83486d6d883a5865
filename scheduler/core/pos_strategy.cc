// POS, partial order sampling (Yuan, Yang, Gu: "Partial Order Aware Concurrency Sampling", CAV
// 2018). A random walk over single steps samples interleavings that differ only in the order of
// independent events many times over; POS gives every pending event a random priority, runs the
// highest, and re-draws the priorities of the pending events that race with the one it just ran.
// So the relative order of two racing events is a fresh coin flip each time one of them runs,
// while independent events keep their order by priority and do not multiply the samples.
//
// Exact rules (a seed's schedule depends on them; tests/unit/core_pos_strategy_test.cc pins them):
//  1. Every thread has a priority (a raw 64-bit PRNG output) for its pending event. A thread's
//     priority is "stale" when it has none yet or its last event ran; a stale priority is drawn
//     the next time the thread is a candidate at a point with more than one candidate, in
//     ascending tid order, before choosing.
//  2. next_thread returns the candidate with the highest priority (ties: lowest tid). With one
//     candidate it returns it without drawing.
//  3. After choosing thread c at a point: c's priority becomes stale (its event runs now), and
//     every other candidate whose pending event races with c's gets a fresh priority right away
//     (drawn in ascending tid order). Two pending events race when both are accesses to the same
//     address and at least one writes, or both are synchronization operations on the same object
//     (Candidate::pending*, filled by the shim for POS runs). An event the engine knows nothing
//     about (thread start, exit, a blocked thread's wakeup, a yield) races with nothing.
//  4. pick_waiter: prng.below(number of waiters); spurious_wakeup: prng.one_in(8), as the random
//     walk. No lease: every point is a decision.
//  5. preemptions() counts switches away from an enabled current thread at non-Yield points.
//  6. At a Yield point (sched_yield, or a spin-wait preempted by time) the current thread is not
//     chosen while another candidate exists; its priority is drawn afresh at the next point. A
//     fresh draw alone let a spinning thread win again and again against a low-priority thread
//     it waited for (spin_flag: thousands of 2 ms preemptions, then a timeout).
// No allocation after construction, no I/O: it runs inside the preloaded shim.
#include "pos_strategy.h"

namespace ctrlsched {
namespace {

constexpr std::uint64_t kPosSpuriousWakeupOdds = 8;

bool is_access(PendingKind kind) { return kind == PendingKind::Read || kind == PendingKind::Write; }

}  // namespace

bool pending_events_race(const Candidate& a, const Candidate& b) {
  if (a.pending_address == 0 || a.pending_address != b.pending_address) return false;
  if (a.pending == PendingKind::Sync && b.pending == PendingKind::Sync) return true;
  if (is_access(a.pending) && is_access(b.pending)) {
    return a.pending == PendingKind::Write || b.pending == PendingKind::Write;
  }
  return false;
}

PosStrategy::PosStrategy(std::uint64_t seed) : prng_(seed), priority_(kMaxThreads, 0), stale_(kMaxThreads, true) {}

ThreadId PosStrategy::next_thread(const SchedulingPoint& point) {
  const std::span<const Candidate> candidates = point.candidates;
  const Candidate* chosen = &candidates.front();
  if (candidates.size() > 1) {
    for (const Candidate& candidate : candidates) {
      if (candidate.tid < kMaxThreads && stale_[candidate.tid]) {
        priority_[candidate.tid] = prng_.next();
        stale_[candidate.tid] = false;
      }
    }
    const bool yielding = point.kind == PointKind::Yield;
    chosen = nullptr;
    for (const Candidate& candidate : candidates) {
      if (yielding && candidate.tid == point.current) continue;  // rule 6
      if (chosen == nullptr || priority(candidate.tid) > priority(chosen->tid)) chosen = &candidate;
    }
    if (chosen == nullptr) chosen = &candidates.front();
    if (yielding && point.current < kMaxThreads) stale_[point.current] = true;
    for (const Candidate& other : candidates) {
      if (other.tid != chosen->tid && other.tid < kMaxThreads && pending_events_race(*chosen, other)) {
        priority_[other.tid] = prng_.next();
      }
    }
  }
  if (chosen->tid < kMaxThreads) stale_[chosen->tid] = true;
  if (chosen->tid != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
  return chosen->tid;
}

std::size_t PosStrategy::pick_waiter(WakeKind, std::span<const ThreadId> waiters) {
  return static_cast<std::size_t>(prng_.below(waiters.size()));
}

bool PosStrategy::spurious_wakeup(ThreadId) { return prng_.one_in(kPosSpuriousWakeupOdds); }

std::uint64_t PosStrategy::priority(ThreadId tid) const { return tid < kMaxThreads ? priority_[tid] : 0; }

std::unique_ptr<Strategy> make_pos_strategy(std::uint64_t seed) { return std::make_unique<PosStrategy>(seed); }

}  // namespace ctrlsched
