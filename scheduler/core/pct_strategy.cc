// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS
// 2010): finds a bug of depth d in a run of n threads and k steps with probability at least
// 1/(n * k^(d-1)) per run, by randomizing thread priorities instead of every single choice.
//
// Exact rules (a seed's schedule depends on them; the tests pin them):
//  1. Construction: draw min(d-1, k) distinct change-point steps, each 1 + prng.below(k), redrawing
//     duplicates. The i-th drawn point (i = 1..d-1) carries priority i.
//  2. Initial priorities are a uniformly random permutation of d+1 .. d+n, built as threads appear:
//     on_thread_created inserts the new thread at position prng.below(count + 1) of the order of
//     the count threads announced before it (position 0 = highest). So creation order does not
//     bias who runs first, and threads need not be known up front.
//  3. At a scheduling point whose step equals change point i, the current thread's priority
//     becomes i (below every initial priority), before choosing. This is PCT's one "preemption
//     per unit of depth".
//  4. At a Yield point the current thread's priority becomes lower than every other: 0, then -1,
//     -2, ... for later yields, so threads spinning on sched_yield take turns instead of one of
//     them livelocking the run (plain PCT assumes a fair scheduler underneath). Applied after
//     rule 3 when both hit the same point.
//  5. next_thread returns the highest-priority candidate; a thread in a timed wait competes like
//     any other (choosing it fires its timeout). Threads never announced rank below everything.
//     A thread whose timeout fires then drops below every other priority, like a yield: a timeout
//     means it waited while others ran, and without this a top-priority thread in a wait_for
//     loop would time out again and again and livelock the run.
//  8. lease: when the current thread was kept, it stays the choice until the next change point
//     (the points strictly before it), unless the candidates change or it yields — priorities
//     change at no other moment. So a thread running alone at the top costs one decision per
//     change point, not one per memory access.
//  6. pick_waiter wakes the highest-priority waiter; spurious_wakeup is prng.one_in(8).
//  7. preemptions() counts switches away from an enabled current thread at non-Yield points
//     (informational: PCT has no preemption bound).
// No allocation after construction, no I/O: it runs inside the preloaded shim.
#include "pct_strategy.h"

#include <algorithm>

namespace ctrlsched {
namespace {

constexpr std::uint64_t kPctSpuriousWakeupOdds = 8;

}  // namespace

PctStrategy::PctStrategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps)
    : prng_(seed), depth_(depth), priority_(kMaxThreads, kUnknownThread), lowered_(kMaxThreads, false) {
  const std::uint64_t wanted = depth > 0 ? depth - 1 : 0;
  draw_change_points(std::min(wanted, steps), steps);
}

void PctStrategy::draw_change_points(std::uint64_t count, std::uint64_t steps) {
  change_points_.reserve(count);
  change_points_by_step_.reserve(count);
  const auto by_step = [](const ChangePoint& a, const ChangePoint& b) { return a.step < b.step; };
  while (change_points_.size() < count) {
    const std::uint64_t step = 1 + prng_.below(steps);
    const ChangePoint point{step, static_cast<Priority>(change_points_.size() + 1)};
    const auto at = std::lower_bound(change_points_by_step_.begin(), change_points_by_step_.end(), point, by_step);
    if (at != change_points_by_step_.end() && at->step == step) continue;  // duplicate: redraw
    change_points_by_step_.insert(at, point);
    change_points_.push_back(step);
  }
}

void PctStrategy::on_thread_created(ThreadId child, ThreadId) {
  if (child >= kMaxThreads || known(child)) return;
  const std::uint64_t position = prng_.below(thread_count_ + 1);  // from the top of the order
  const Priority inserted = static_cast<Priority>(depth_) + thread_count_ + 1 - static_cast<Priority>(position);
  // Make room: initial priorities at or above the new one move up by one. Lowered threads never
  // return to the initial order, so their place in it need not be kept.
  for (ThreadId tid = 0; tid < kMaxThreads; ++tid) {
    if (known(tid) && !lowered_[tid] && priority_[tid] >= inserted) ++priority_[tid];
  }
  priority_[child] = inserted;
  ++thread_count_;
}

ThreadId PctStrategy::next_thread(const SchedulingPoint& point) {
  const auto change = std::lower_bound(
      change_points_by_step_.begin(), change_points_by_step_.end(), point.step,
      [](const ChangePoint& a, std::uint64_t step) { return a.step < step; });
  if (change != change_points_by_step_.end() && change->step == point.step) lower(point.current, change->priority);
  if (point.kind == PointKind::Yield) lower(point.current, next_yield_priority_--);

  const Candidate* chosen = &point.candidates.front();
  for (const Candidate& candidate : point.candidates) {
    if (priority(candidate.tid) > priority(chosen->tid)) chosen = &candidate;
  }
  if (chosen->timed_wait) lower(chosen->tid, next_yield_priority_--);
  if (chosen->tid != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
  return chosen->tid;
}

std::uint32_t PctStrategy::lease(const SchedulingPoint& point) {
  const auto next_change = std::upper_bound(
      change_points_by_step_.begin(), change_points_by_step_.end(), point.step,
      [](std::uint64_t step, const ChangePoint& a) { return step < a.step; });
  if (next_change == change_points_by_step_.end()) return kUnboundedLease;
  const std::uint64_t between = next_change->step - point.step - 1;
  return between >= kUnboundedLease ? kUnboundedLease : static_cast<std::uint32_t>(between);
}

std::size_t PctStrategy::pick_waiter(WakeKind, std::span<const ThreadId> waiters) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < waiters.size(); ++i) {
    if (priority(waiters[i]) > priority(waiters[best])) best = i;
  }
  return best;
}

bool PctStrategy::spurious_wakeup(ThreadId) { return prng_.one_in(kPctSpuriousWakeupOdds); }

PctStrategy::Priority PctStrategy::priority(ThreadId tid) const {
  return known(tid) ? priority_[tid] : kUnknownThread;
}

void PctStrategy::lower(ThreadId tid, Priority priority) {
  if (!known(tid)) return;
  priority_[tid] = priority;
  lowered_[tid] = true;
}

std::unique_ptr<Strategy> make_pct_strategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps) {
  return std::make_unique<PctStrategy>(seed, depth, steps);
}

}  // namespace ctrlsched
