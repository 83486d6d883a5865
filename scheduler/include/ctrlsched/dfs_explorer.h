// The exploration engine of `--strategy dfs` (docs/strategies.md "dfs"): pure, no processes.
//
// Every schedule is one run from the start: a prefix of decisions chosen here, then the
// strategy's non-preemptive defaults (ctrlsched/dfs.h). A finished run's step log says, at every
// point with more than one option, what each option was about to do; each option the run did not
// take becomes a new branch (its prefix: the run's decisions up to that point, then the option),
// unless it would exceed the preemption bound or the reduction proves it redundant.
//
// Order (iterative context bounding, Musuvathi & Qadeer, PLDI 2007): every branch with p
// preemptions runs before any with p + 1; among equal counts, first found first run. A run's
// preemptions are those of its prefix (the defaults never preempt), so each branch knows its
// count when it is found. Every branch is found exactly once (by the run that first passed its
// parent point with another answer), so the set of schedules does not depend on the order, and
// the order does not depend on how many runs the driver has in flight (next_batch).
//
// Reduction (sleep sets, Godefroid 1996), restricted so that it never loses a schedule within the
// bound (see docs/strategies.md for the argument and Coons, Musuvathi, McKinley, "Bounded
// partial-order reduction", OOPSLA 2013, for why a bound and a reduction interact): at a point
// where the current thread r could continue and is preempted in favour of u, r sleeps in u's
// branch if r's next step is independent of u's. A sleeping thread wakes when a step dependent
// on its own runs; a branch to a sleeping thread is never made, and a run whose defaults schedule
// a sleeping thread is equivalent, from there on, to a schedule already covered: it is counted
// as redundant and yields no branches past that point. So is a run that ends with a thread still
// asleep (it ran alone after the last point with a choice).
// Dependence: two steps are dependent unless both are known (PendingKind Read/Write/Sync) and
// touch different locations/objects (compared by 8-byte granule), or both only read. Steps of unknown kind (thread start,
// creation, a thread resuming from a wait, a timeout) depend on everything.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/dfs.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched {

struct DfsOption {
  ThreadId tid = 0;
  bool timed = false;
  PendingKind pending = PendingKind::None;
  std::uint8_t op = 0;
  std::uint64_t address = 0;
};

// One step log entry (DfsLogPoint with its options).
struct DfsPoint {
  DecisionKind decision = DecisionKind::Schedule;
  PointKind kind = PointKind::Sync;
  ThreadId current = 0;
  bool current_enabled = true;
  ThreadId chosen = 0;
  std::vector<DfsOption> options;  // candidates in tid order, or waiters in FIFO order
};

// Decodes the step log area (header first). nullopt when malformed.
struct DfsLog {
  std::vector<DfsPoint> points;
  bool truncated = false;
};
std::optional<DfsLog> read_dfs_log(std::span<const std::uint8_t> area);

bool dependent(const DfsOption& a, const DfsOption& b);

struct DfsBranch {
  std::vector<Decision> prefix;  // Schedule and Wake decisions, in the run's order
  std::uint32_t preemptions = 0;
  std::vector<ThreadId> sleeping;  // asleep right after the prefix (sorted)
};

struct DfsRunVerdict {
  bool followed = true;          // the run took the prefix (false: the program is not deterministic)
  bool redundant = false;        // the defaults scheduled a sleeping thread (see above)
  std::uint64_t branches = 0;    // new branches this run added
};

class DfsExplorer {
 public:
  DfsExplorer(std::uint32_t preemption_bound, bool reduction);

  // Up to `max` branches to run next, all with the same preemption count (the lowest pending),
  // in exploration order. Empty when the exploration is complete.
  std::vector<DfsBranch> next_batch(std::size_t max);
  bool complete() const { return pending_ == 0; }
  std::uint64_t pending() const { return pending_; }

  // Reports the run of `branch` (runs must be reported in the order next_batch handed them out).
  DfsRunVerdict explored(const DfsBranch& branch, const std::vector<DfsPoint>& points);

 private:
  std::uint32_t bound_;
  bool reduction_;
  std::vector<std::deque<DfsBranch>> levels_;  // by preemption count, 0..bound
  std::uint64_t pending_ = 0;
};

}  // namespace ctrlsched
