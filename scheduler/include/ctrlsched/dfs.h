// Exhaustive bounded search (`--strategy dfs`, docs/strategies.md "dfs"): the strategy that runs
// one schedule of the exploration inside the test process, and the step log through which the
// driver learns what that run could have done instead.
//
// One schedule = one process run from the start: the shim follows a decision prefix chosen by
// the driver (the run record's input log, read in place) and then continues without preempting:
//  - where the current thread can continue at a point that is not a Yield, it continues;
//  - after a Yield, the next candidate after the current thread in id order (wrapping) that is
//    not in a timed wait, else the lowest timed one, else the current thread;
//  - after a block or exit, the lowest-id candidate not in a timed wait, else the lowest timed
//    one (its timeout fires);
//  - a wake choice wakes the first waiter (FIFO); spurious wakeups never happen;
//  - no leases: the strategy sees every point with more than one candidate, so the step log
//    names every place where another thread could have run.
// Every thread choice the strategy is asked for (also one with a single candidate: after a block
// or an exit) and every wake choice with more than one waiter (the decisions of decision.h, in the
// same order) gets one entry in the step log: who was at the point, what each option was about to
// do (Candidate::pending*), and the answer. A prefix names only the choices with more than one
// option. The points where the current thread is the only one that can run never reach the
// strategy (the engine's fast path); the entry after such points says so (`hidden`), so the
// explorer knows that the thread chosen at the entry before took steps it did not see. Every
// switch from one thread to another is an entry: between two entries one thread runs. The
// driver's explorer (dfs_explorer.h) turns the log into the next prefixes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched {

// The step log lives where collector summaries and the switch log would: a dfs run asks for
// neither (the driver never combines them), so [kSummaryOffset, kLogRegionOffset) is its own.
inline constexpr std::uint64_t kDfsLogOffset = kSummaryOffset;
inline constexpr std::uint64_t kDfsLogEnd = kLogRegionOffset;

// Header at kDfsLogOffset, then `entries` DfsLogPoint records, each followed by its `count`
// DfsLogOption records; `bytes` counts everything after the header. `truncated`: the run had
// more entries than fit (the exploration is then not exhaustive).
struct DfsLogHeader {
  std::uint64_t entries;
  std::uint64_t bytes;
  std::uint32_t truncated;
  std::uint32_t reserved;
};

struct DfsLogPoint {
  ThreadId current;         // Schedule: the thread at the point; Wake: the thread holding the baton
  ThreadId chosen;          // the answer (a thread id in both kinds)
  std::uint8_t decision;    // DecisionKind::Schedule or DecisionKind::Wake
  std::uint8_t point_kind;  // PointKind (Schedule only)
  std::uint8_t current_enabled;
  std::uint8_t hidden;      // Schedule: the thread chosen at the previous Schedule entry took steps
                            // at points where it was the only thread that could run (not logged)
  std::uint16_t count;      // options that follow (candidates or waiters)
  std::uint16_t reserved1;
};
static_assert(sizeof(DfsLogPoint) == 16);

struct DfsLogOption {
  ThreadId tid;
  std::uint8_t timed;     // a timed waiter: choosing it fires its timeout
  std::uint8_t pending;   // PendingKind
  std::uint8_t op;        // SyncOp when pending == Sync
  std::uint8_t reserved;
  std::uint64_t address;  // the location or sync object (this run only)
};
static_assert(sizeof(DfsLogOption) == 16);

// `prefix`: encoded decisions (decision.h), read in place, must outlive the strategy. `log`: the
// step log area (header first), written with plain stores; empty = no log. A prefix decision that
// is not an option of the run records a Divergence and the run continues by the defaults.
// Never allocates after construction.
std::unique_ptr<Strategy> make_dfs_strategy(std::span<const std::uint8_t> prefix, std::span<std::uint8_t> log);

}  // namespace ctrlsched
