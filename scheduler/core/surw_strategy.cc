// SURW, a selectively uniform random walk (after Zhao, Wolff, Mathur, Roychoudhury: "Selectively
// Uniform Concurrency Testing", ASPLOS 2025). Choosing a thread uniformly at every step (the
// random walk) does not sample interleavings uniformly: of two threads with a and b events left,
// the one that is ahead finishes early in most samples, so interleavings that keep both threads
// busy to the end are rare. Choosing each thread with probability proportional to its remaining
// events makes every interleaving of the remaining events equally likely (the number of
// completions from a state is the multinomial (a+b)!/(a! b!), and a/(a+b) of them start with the
// first thread). The remaining events are not known in advance, so each thread's count comes
// from calibration runs, as PCT's k does; "selective": thread starts and the continuation after
// a thread creation are scheduled first, without weighting (rule 6), and the events are the
// scheduling points, i.e. the synchronization operations and, when instrumented, the accesses.
//
// Our own formulation of that idea; exact rules (a seed's schedule depends on them;
// tests/unit/core_surw_strategy_test.cc pins them):
//  1. Parameters: estimated events per thread, estimate[t] for the threads in creation order that
//     the calibration saw: the steps each took (every scheduling point it reached, also where it
//     was the only thread that could run and nothing was decided; shim/engine.h). A thread past
//     the list gets the mean of the list (rounded down, at least 1). Why every step: counting
//     only the points where a decision was taken made a thread that ran alone in the calibration
//     runs look short (tas_spinlock's second worker, which runs after main blocks in its join:
//     2 events instead of 11), and a short thread is rarely chosen.
//  2. Each thread's pending event has the kind of the last point at which it was the current
//     thread (ThreadStart before it was ever current).
//  3. Steps taken: only the thread chosen at a decision runs until the next decision, so at every
//     call the steps since the previous call (point.step minus the previous call's step; all of
//     point.step at the first) are counted as steps of point.current: reached[t], which includes
//     the step of the point where t waits. remaining(t) = max(1, estimate[t] - reached[t]): the
//     events left, the pending one included and the exit step not (the exit follows the last
//     event without a choice).
//  4. Threads not created yet (creation index from the number created so far, as reported by
//     on_thread_created, up to the end of the estimate list) count for the thread expected to
//     create them: the parent of the most recently created thread (T0 before any). Its weight
//     is remaining(t) plus their events (each: its estimate minus its exit step); every other
//     thread's weight is remaining(t). Why: the interleavings left are the orders of a forest of
//     chains (a created thread's events come after its creator's create), and of all the orders
//     of a forest, the share that starts with the first event of one tree is that tree's size
//     over all the events left (the hook-length formula for forests, n! / the product of the
//     subtree sizes: Knuth, The Art of Computer Programming vol. 3, 5.1.4). So a uniform choice
//     weighs a creator by its own events and those of the threads it will create. Without that,
//     a main thread that takes a few steps between creating two workers is chosen in proportion
//     to those few steps, the first worker runs ahead, and the two workers rarely overlap
//     (tas_spinlock: 1 seed in 5,200 found its bug; with rules 1 and 4, 1 in 12).
//  5. One candidate: returned without drawing.
//  6. Candidates whose pending event is a thread start or the continuation after a thread
//     creation (kinds ThreadStart, Create) run first, without weighting: the first of them if
//     there is one, candidates-of-that-kind[prng.below(count)] if there are several.
//  7. Otherwise candidate c is chosen with probability weight(c) / sum of weights over the
//     candidates, drawn as r = prng.below(sum) with the candidates walked in tid order.
//     With a uniform percent P > 0 (`--surw-uniform P`, handle field u<P>), this choice first
//     draws prng.below(100) < P; if it holds, the candidate is candidates[prng.below(count)]
//     instead (a random-walk step). With P = 0 nothing extra is drawn. Why: the weighting keeps
//     threads busy to the end, which is what SURW is for, but it makes a short thread's early
//     turns unlikely while a long thread has many events left, and some bugs need exactly those
//     (the random walk finds them at once); mixing in uniform steps keeps those schedules likely
//     too (docs/strategies.md, "SURW").
//  8. pick_waiter: a waiter with probability proportional to its weight (same draw as rule 7);
//     spurious_wakeup: prng.one_in(8). No lease.
//  9. preemptions() counts switches away from an enabled current thread at non-Yield points.
// With exact estimates, no blocking and every thread present from the start, every interleaving
// of the events is equally likely (the unit test checks this on two threads of three events: 20
// interleavings). With creations on the way, rule 4 keeps the choice near uniform (the
// continuation after a create counts as one of the creator's steps though it runs first); the
// unit test checks that the first worker no longer runs ahead of a worker created later.
// No allocation after construction, no I/O: it runs inside the preloaded shim.
#include "surw_strategy.h"

#include <algorithm>

namespace ctrlsched {
namespace {

constexpr std::uint64_t kSurwSpuriousWakeupOdds = 8;

bool runs_first(PointKind kind) { return kind == PointKind::ThreadStart || kind == PointKind::Create; }

std::uint64_t mean_estimate(std::span<const std::uint32_t> estimates) {
  std::uint64_t sum = 0;
  for (const std::uint32_t e : estimates) sum += e;
  return estimates.empty() ? 1 : std::max<std::uint64_t>(1, sum / estimates.size());
}

// Rule 4: the events of a thread not yet created, by its estimate: its steps but the last, its
// exit, which follows its last event without a choice.
std::uint64_t events_of(std::uint64_t estimate) { return estimate > 0 ? estimate - 1 : 0; }

}  // namespace

SurwStrategy::SurwStrategy(std::uint64_t seed, std::span<const std::uint32_t> estimates,
                           std::uint32_t uniform_percent)
    : prng_(seed),
      uniform_percent_(std::min<std::uint32_t>(uniform_percent, 100)),
      estimated_threads_(std::min<std::size_t>(estimates.size(), kMaxThreads)),
      estimate_(kMaxThreads, mean_estimate(estimates)),
      reached_(kMaxThreads, 0),
      pending_(kMaxThreads, PointKind::ThreadStart) {
  for (std::size_t t = 0; t < estimated_threads_; ++t) {
    estimate_[t] = estimates[t];
    uncreated_ += events_of(estimates[t]);
  }
}

void SurwStrategy::on_thread_created(ThreadId child, ThreadId parent) {
  for (; created_ <= child && created_ < kMaxThreads; ++created_) {
    if (created_ < estimated_threads_) uncreated_ -= events_of(estimate_[created_]);
  }
  if (parent != kNoThread) creator_ = parent;
}

std::uint64_t SurwStrategy::remaining(ThreadId tid) const {
  if (tid >= kMaxThreads) return 1;
  return estimate_[tid] > reached_[tid] ? estimate_[tid] - reached_[tid] : 1;
}

std::uint64_t SurwStrategy::weight(ThreadId tid) const {
  return remaining(tid) + (tid == creator_ ? uncreated_ : 0);
}

PointKind SurwStrategy::pending(ThreadId tid) const { return tid < kMaxThreads ? pending_[tid] : PointKind::ThreadStart; }

ThreadId SurwStrategy::next_thread(const SchedulingPoint& point) {
  if (point.current < kMaxThreads) {
    pending_[point.current] = point.kind;
    reached_[point.current] += point.step > last_step_ ? point.step - last_step_ : 0;  // rule 3
  }
  last_step_ = point.step;
  const std::span<const Candidate> candidates = point.candidates;
  ThreadId chosen = candidates.front().tid;
  if (candidates.size() > 1) {
    std::uint64_t first = 0;
    for (const Candidate& c : candidates) first += runs_first(pending(c.tid)) ? 1 : 0;
    if (first > 0) {
      std::uint64_t r = first > 1 ? prng_.below(first) : 0;
      for (const Candidate& c : candidates) {
        if (!runs_first(pending(c.tid))) continue;
        if (r == 0) {
          chosen = c.tid;
          break;
        }
        --r;
      }
    } else if (uniform_percent_ > 0 && prng_.below(100) < uniform_percent_) {
      chosen = candidates[prng_.below(candidates.size())].tid;
    } else {
      std::uint64_t total = 0;
      for (const Candidate& c : candidates) total += weight(c.tid);
      std::uint64_t r = prng_.below(total);
      for (const Candidate& c : candidates) {
        const std::uint64_t w = weight(c.tid);
        if (r < w) {
          chosen = c.tid;
          break;
        }
        r -= w;
      }
    }
  }
  if (chosen != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
  return chosen;
}

std::size_t SurwStrategy::pick_waiter(WakeKind, std::span<const ThreadId> waiters) {
  std::uint64_t total = 0;
  for (const ThreadId w : waiters) total += weight(w);
  std::uint64_t r = prng_.below(total);
  for (std::size_t i = 0; i < waiters.size(); ++i) {
    const std::uint64_t w = weight(waiters[i]);
    if (r < w) return i;
    r -= w;
  }
  return waiters.size() - 1;  // unreachable: r < total
}

bool SurwStrategy::spurious_wakeup(ThreadId) { return prng_.one_in(kSurwSpuriousWakeupOdds); }

std::unique_ptr<Strategy> make_surw_strategy(std::uint64_t seed, std::span<const std::uint32_t> estimates,
                                             std::uint32_t uniform_percent) {
  return std::make_unique<SurwStrategy>(seed, estimates, uniform_percent);
}

}  // namespace ctrlsched
