// SURW, a selectively uniform random walk (after Zhao, Wolff, Mathur, Roychoudhury: "Selectively
// Uniform Concurrency Testing", ASPLOS 2025). Choosing a thread uniformly at every step (the
// random walk) does not sample interleavings uniformly: of two threads with a and b events left,
// the one that is ahead finishes early in most samples, so interleavings that keep both threads
// busy to the end are rare. Choosing each thread with probability proportional to its remaining
// events makes every interleaving of the remaining events equally likely (the number of
// completions from a state is the multinomial (a+b)!/(a! b!), and a/(a+b) of them start with the
// first thread). The remaining events are not known in advance, so each thread's count comes
// from a calibration run, as PCT's k does; "selective" means only the interesting events are
// counted and weighted: synchronization operations and instrumented accesses, the events whose
// order can matter. Thread starts and the continuation after a thread creation are scheduled
// first, without weighting (rule 4).
//
// Our own formulation of that idea; exact rules (a seed's schedule depends on them;
// tests/unit/core_surw_strategy_test.cc pins them):
//  1. Parameters: estimated interesting events per thread, estimate[t] for the threads in creation
//     order that the calibration saw. A thread past the list gets the mean of the list (rounded
//     down, at least 1).
//  2. Each thread's pending event has the kind of the last point at which it was the current
//     thread (ThreadStart before it was ever current). Interesting: Sync and Access.
//  3. One candidate: returned without drawing.
//  4. Candidates whose pending event is a thread start or the continuation after a thread
//     creation (kinds ThreadStart, Create) run first, without weighting: the first of them if
//     there is one, candidates-of-that-kind[prng.below(count)] if there are several. They are
//     not interesting, and letting them take part in the weighted choice would make the
//     interleavings of the interesting events non-uniform.
//  5. Otherwise candidate c is chosen with probability remaining(c) / sum of remaining over the
//     candidates, remaining(t) = max(1, estimate[t] - executed[t]), drawn as
//     r = prng.below(sum) with the candidates walked in tid order.
//     With a uniform percent P > 0 (`--surw-uniform P`, handle field u<P>), this choice first
//     draws prng.below(100) < P; if it holds, the candidate is candidates[prng.below(count)]
//     instead (a random-walk step). With P = 0 nothing extra is drawn, so the schedules are those
//     of plain SURW. Why: the weighting keeps threads busy to the end, which is what SURW is for,
//     but it makes a short thread's early turns unlikely while a long thread has many events
//     left, and some bugs need exactly those (the random walk finds them at once); mixing in
//     uniform steps keeps those schedules likely too (docs/strategies.md, "SURW").
//  6. executed[c] grows by one when c is chosen with an interesting pending event.
//  7. pick_waiter: a waiter with probability proportional to remaining (same draw as rule 5);
//     spurious_wakeup: prng.one_in(8). No lease.
//  8. preemptions() counts switches away from an enabled current thread at non-Yield points.
// With exact estimates and no blocking, every interleaving of the interesting events is equally
// likely (the unit test checks this on two threads of three events: 20 interleavings).
// No allocation after construction, no I/O: it runs inside the preloaded shim.
#include "surw_strategy.h"

#include <algorithm>

namespace ctrlsched {
namespace {

constexpr std::uint64_t kSurwSpuriousWakeupOdds = 8;

bool interesting(PointKind kind) { return kind == PointKind::Sync || kind == PointKind::Access; }
bool runs_first(PointKind kind) { return kind == PointKind::ThreadStart || kind == PointKind::Create; }

std::uint64_t mean_estimate(std::span<const std::uint32_t> estimates) {
  std::uint64_t sum = 0;
  for (const std::uint32_t e : estimates) sum += e;
  return estimates.empty() ? 1 : std::max<std::uint64_t>(1, sum / estimates.size());
}

}  // namespace

SurwStrategy::SurwStrategy(std::uint64_t seed, std::span<const std::uint32_t> estimates,
                           std::uint32_t uniform_percent)
    : prng_(seed),
      uniform_percent_(std::min<std::uint32_t>(uniform_percent, 100)),
      estimate_(kMaxThreads, mean_estimate(estimates)),
      executed_(kMaxThreads, 0),
      pending_(kMaxThreads, PointKind::ThreadStart) {
  for (std::size_t t = 0; t < estimates.size() && t < kMaxThreads; ++t) estimate_[t] = estimates[t];
}

std::uint64_t SurwStrategy::remaining(ThreadId tid) const {
  if (tid >= kMaxThreads) return 1;
  return estimate_[tid] > executed_[tid] ? estimate_[tid] - executed_[tid] : 1;
}

PointKind SurwStrategy::pending(ThreadId tid) const { return tid < kMaxThreads ? pending_[tid] : PointKind::ThreadStart; }

ThreadId SurwStrategy::next_thread(const SchedulingPoint& point) {
  if (point.current < kMaxThreads) pending_[point.current] = point.kind;
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
      for (const Candidate& c : candidates) total += remaining(c.tid);
      std::uint64_t r = prng_.below(total);
      for (const Candidate& c : candidates) {
        const std::uint64_t w = remaining(c.tid);
        if (r < w) {
          chosen = c.tid;
          break;
        }
        r -= w;
      }
    }
  }
  if (chosen < kMaxThreads && interesting(pending_[chosen])) ++executed_[chosen];
  if (chosen != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
  return chosen;
}

std::size_t SurwStrategy::pick_waiter(WakeKind, std::span<const ThreadId> waiters) {
  std::uint64_t total = 0;
  for (const ThreadId w : waiters) total += remaining(w);
  std::uint64_t r = prng_.below(total);
  for (std::size_t i = 0; i < waiters.size(); ++i) {
    const std::uint64_t w = remaining(waiters[i]);
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
