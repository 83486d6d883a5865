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
// creation, a thread resuming from a wait, a timeout) depend on everything; so does a condition
// wait on every synchronization operation (it releases a mutex that its pending event does not
// name).
//
// Dynamic partial-order reduction (DfsReduction::Dpor, dfs_dpor.cc): instead of branching at every
// point, a run branches only where its trace shows a reason to: BPOR's backtracking points
// (Coons, Musuvathi, McKinley, "Bounded partial-order reduction", OOPSLA 2013). For every state
// of the run and every thread u that could run there, for every other thread v: the last step i
// of v that is dependent with u's next step gets u as a branch at the point before i (every
// option there if u was not one), and so does the last context switch before i (the bound's
// conservative point: running u there costs no preemption the run did not already pay). The
// explored choices of every point are kept in a tree of prefixes, so a branch is made once
// whichever run asks for it. No sleep sets: their combination with the bound is argued only for
// the full search (above). Wake choices are branched in full, as without reduction.
#pragma once

#include <compare>
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
  bool hidden = false;             // the previous Schedule entry's thread took unlogged steps (dfs.h)
  std::vector<DfsOption> options;  // candidates in tid order, or waiters in FIFO order
};

// Decodes the step log area (header first). nullopt when malformed.
struct DfsLog {
  std::vector<DfsPoint> points;
  bool truncated = false;
};
std::optional<DfsLog> read_dfs_log(std::span<const std::uint8_t> area);

bool dependent(const DfsOption& a, const DfsOption& b);

// A branch that BPOR asks for: option `thread` at the log entry `entry` (a Schedule entry with
// more than one option).
struct DfsBacktrack {
  std::size_t entry = 0;
  ThreadId thread = 0;
  friend bool operator==(const DfsBacktrack&, const DfsBacktrack&) = default;
  friend auto operator<=>(const DfsBacktrack&, const DfsBacktrack&) = default;
};
// Every backtracking point of one run (the whole log, prefix included), sorted, each once; the
// run's own choices included (the caller skips what was explored already). `precise`: every
// shared access was a point (then a thread's start touches nothing shared).
std::vector<DfsBacktrack> dpor_backtracks(const std::vector<DfsPoint>& points, bool precise);

enum class DfsReduction : std::uint8_t {
  None,       // every schedule within the bound
  SleepSets,  // the restricted sleep sets above
  Dpor,       // BPOR's backtracking points (dfs_dpor.cc)
};

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

// Order with DPOR: a run may ask for a branch at a point of its prefix whose preemption count is
// below the level being run. Such a branch joins the level being run (at its end), never a lower
// one, so that the order of runs is the same whatever the batch size (every branch is appended
// behind those handed out already); it keeps its own preemption count.
class DfsExplorer {
 public:
  DfsExplorer(std::uint32_t preemption_bound, DfsReduction reduction);

  // Up to `max` branches to run next, all with the same preemption count (the lowest pending),
  // in exploration order. Empty when the exploration is complete.
  std::vector<DfsBranch> next_batch(std::size_t max);
  bool complete() const { return pending_ == 0; }
  std::uint64_t pending() const { return pending_; }

  // Reports the run of `branch` (runs must be reported in the order next_batch handed them out).
  // `precise`: every shared access of the run was a point (an instrumented build).
  DfsRunVerdict explored(const DfsBranch& branch, const std::vector<DfsPoint>& points, bool precise = true);

 private:
  DfsRunVerdict explored_full(const DfsBranch& branch, const std::vector<DfsPoint>& points);
  DfsRunVerdict explored_dpor(const DfsBranch& branch, const std::vector<DfsPoint>& points, bool precise);
  void push(DfsBranch branch);

  // DPOR: the tree of choice points reached so far; a node's children are the choices made or
  // handed out there (by value: thread or waiter id).
  struct Node {
    std::vector<std::pair<ThreadId, std::uint32_t>> children;
  };
  std::uint32_t child(std::uint32_t node, ThreadId value, bool create);

  std::uint32_t bound_;
  DfsReduction reduction_;
  std::vector<std::deque<DfsBranch>> levels_;  // by preemption count, 0..bound
  std::uint32_t level_ = 0;                    // the level of the last batch
  std::uint64_t pending_ = 0;
  std::vector<Node> nodes_;
};

}  // namespace ctrlsched
