// BPOR's backtracking points of one dfs run (see ctrlsched/dfs_explorer.h and docs/strategies.md,
// "Reduction: DPOR").
//
// The run is read as a sequence of steps, each the move of one thread from one scheduling point
// to its next:
//  - every Schedule entry of the log is a step of the thread chosen there; what it does is the
//    chosen option's pending event (unknown for a timed waiter, a thread resuming in a wait, a
//    start, and for a thread at its own yield);
//  - a thread that has not run yet is at its start: with a point at every shared access
//    (`precise`), its first step reaches its first access or synchronization without touching
//    shared state, so it is independent of every step but a join of that thread (without
//    precision it is of unknown kind, like every step);
//  - an entry marked `hidden` is preceded by one more step of the thread chosen at the previous
//    Schedule entry, of unknown kind: the steps it took alone, which the strategy never saw. Only
//    that thread could run before it, so no branch can be made there.
// Wake entries are not steps (the wake happens inside the signalling thread's step).
//
// The rule (Coons, Musuvathi, McKinley, "Bounded partial-order reduction", OOPSLA 2013, the
// preemption bound's backtracking condition): for every step n, every thread u that could run
// before step n (with its next step as seen there) and every other thread v, let i be the last
// step before n of v that is dependent with u's next step. Then
//  1. at the point before step i: u if u could run there, otherwise every thread that could;
//  2. at the point before the last context switch before i (the largest j < i where step j's
//     thread differs from step j-1's, or j = 0): the same.
// No happens-before filter: every dependent pair counts, which asks for more branches than
// Flanagan and Godefroid's race condition, never fewer.
#include <algorithm>

#include "ctrlsched/dfs_explorer.h"
#include "ctrlsched/sync_ops.h"

namespace ctrlsched {
namespace {

constexpr std::size_t kNoEntry = SIZE_MAX;

// What a step does: an option's pending event, or (local) a thread's start.
struct Op {
  DfsOption what;      // tid = the thread
  bool local = false;  // touches nothing shared: only a join of its thread depends on it
};

bool joins(const DfsOption& join, ThreadId tid) {
  return join.pending == PendingKind::Sync && join.op == static_cast<std::uint8_t>(SyncOp::Join) && join.address == tid;
}

bool depends(const Op& a, const Op& b) {
  if (a.local || b.local) return joins(a.what, b.what.tid) || joins(b.what, a.what.tid);
  return dependent(a.what, b.what);
}

struct Step {
  ThreadId tid = 0;
  Op op;                        // what the step does
  std::size_t entry = kNoEntry;  // the log entry it was chosen at (kNoEntry: hidden steps)
  std::size_t lookahead = 0;    // first of its lookahead options in `ahead`
  std::size_t lookahead_end = 0;
};

Op unknown(ThreadId tid) { return Op{DfsOption{tid, false, PendingKind::None, 0, 0}, false}; }

// What option `o` of entry `p` will do when it runs: a thread at its own yield point does the
// yield, which is not its pending event; a thread that never ran starts.
Op next_of(const DfsPoint& p, const DfsOption& o, bool started, bool precise) {
  if (p.kind == PointKind::Yield && o.tid == p.current) return unknown(o.tid);
  if (!started && precise && !o.timed && o.pending == PendingKind::None) return Op{o, true};
  return Op{o, false};
}

// The options a branch at `p` may take: a yielding thread is not one at its own yield.
bool may_choose(const DfsPoint& p, ThreadId tid) {
  return !(p.kind == PointKind::Yield && p.current_enabled && tid == p.current && p.options.size() > 1);
}

}  // namespace

std::vector<DfsBacktrack> dpor_backtracks(const std::vector<DfsPoint>& points, bool precise) {
  std::vector<Step> steps;
  std::vector<Op> ahead;  // lookahead of every step: what each thread that could run would do
  ThreadId threads = 1;   // 1 + the largest thread id seen
  for (const DfsPoint& p : points) {
    threads = std::max(threads, p.chosen + 1);
    for (const DfsOption& o : p.options) threads = std::max(threads, o.tid + 1);
  }
  std::vector<char> started(threads, 0);
  started[0] = 1;  // main runs from the start
  bool any = false;
  for (std::size_t e = 0; e < points.size(); ++e) {
    const DfsPoint& p = points[e];
    if (p.decision != DecisionKind::Schedule) continue;
    if (p.hidden && any) {
      Step h;
      h.tid = steps.back().tid;
      h.op = unknown(h.tid);
      h.lookahead = ahead.size();
      ahead.push_back(h.op);
      h.lookahead_end = ahead.size();
      steps.push_back(h);
    }
    Step s;
    s.tid = p.chosen;
    s.op = unknown(p.chosen);
    s.entry = e;
    s.lookahead = ahead.size();
    for (const DfsOption& o : p.options) {
      const Op next = next_of(p, o, started[o.tid] != 0, precise);
      ahead.push_back(next);
      if (o.tid == p.chosen) s.op = next;
    }
    s.lookahead_end = ahead.size();
    started[p.chosen] = 1;
    steps.push_back(s);
    any = true;
  }

  // block[i]: the first step of the block of consecutive steps of one thread that holds step i.
  std::vector<std::size_t> block(steps.size(), 0);
  for (std::size_t i = 1; i < steps.size(); ++i) block[i] = steps[i].tid == steps[i - 1].tid ? block[i - 1] : i;

  std::vector<DfsBacktrack> out;
  const auto backtrack_at = [&](std::size_t i, ThreadId u) {
    const std::size_t e = steps[i].entry;
    if (e == kNoEntry) return;  // hidden steps: only their thread could run
    const DfsPoint& p = points[e];
    if (p.options.size() < 2) return;  // one option: nothing else could run
    bool found = false;
    for (const DfsOption& o : p.options) found = found || (o.tid == u && may_choose(p, u));
    if (found) {
      out.push_back({e, u});
      return;
    }
    for (const DfsOption& o : p.options) {
      if (may_choose(p, o.tid)) out.push_back({e, o.tid});
    }
  };

  std::vector<char> seen(threads, 0);
  std::vector<char> present(threads, 0);  // threads with a step before n
  std::size_t distinct = 0;
  for (std::size_t n = 0; n < steps.size(); ++n) {
    if (n > 0 && !present[steps[n - 1].tid]) {
      present[steps[n - 1].tid] = 1;
      ++distinct;
    }
    for (std::size_t a = steps[n].lookahead; a < steps[n].lookahead_end; ++a) {
      const Op& next = ahead[a];
      const ThreadId u = next.what.tid;
      std::fill(seen.begin(), seen.end(), 0);
      const std::size_t others = distinct - (present[u] ? 1 : 0);
      std::size_t found = 0;
      for (std::size_t i = n; i-- > 0 && found < others;) {
        const Step& s = steps[i];
        if (s.tid == u || seen[s.tid] || !depends(s.op, next)) continue;
        seen[s.tid] = 1;
        ++found;
        backtrack_at(i, u);
        // The conservative point: the last context switch before step i.
        if (i > 0) backtrack_at(block[i] < i ? block[i] : block[i - 1], u);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace ctrlsched
