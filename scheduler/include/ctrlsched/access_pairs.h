// Per-run summary of cross-thread access pairs, written by the shim's access-pair collector into
// the run record (at kSummaryOffset) while the run happens.
//
// An access pair (Locon) is an immediate dependence between two accesses of different threads to
// one memory location, at least one of them a write: R→W, W→R or W→W. "Immediate" is meant as
// data dependences are: a read depends on the last write before it, a write on the last write and
// on the reads since then (the latest read of each thread); reads in between do not break a
// dependence. For sync objects the tail is the next operation on the object. Memory grows with locations and distinct
// pairs, not with accesses (Falcon's point): both tables have fixed capacity, and what does not
// fit is counted, not stored.
//
// Entries are keyed at the finest level Locon uses (its "loop" level): sites and kinds of both
// sides, the thread of each side, and the iteration of each side. Coarser levels (tid: drop the
// iterations; pc: drop threads too) are projections of these entries. Addresses are not part of
// the key (heap addresses change between schedules); `location` only tells, within one run, two
// locations apart.
//
// Iteration (approximating Locon's loop iteration): how many times the same thread executed the
// same site before, within the current activation of the enclosing instrumented function,
// saturated at kAccessPairMaxIteration. See docs/localization.md, "Locon access pairs".
#pragma once

#include <cstdint>

namespace ctrlsched {

inline constexpr std::uint32_t kAccessPairsMagic = 0x32504353;  // "SCP2": version 2 layout
inline constexpr std::uint32_t kMaxAccessPairs = 8192;
inline constexpr std::uint8_t kAccessPairMaxIteration = 255;  // iterations saturate here

struct AccessPair {
  std::uint64_t head_site;  // trace_format.h site encoding (module << 48 | offset)
  std::uint64_t tail_site;
  std::uint64_t location;     // address at the first occurrence: meaningful within this run only
  std::uint32_t head_thread;  // ThreadId (creation order, deterministic)
  std::uint32_t tail_thread;
  std::uint32_t head_access;  // index of the head among the run's accesses and sync operations, at the first
  std::uint32_t tail_access;  //   occurrence (saturating): program order within a thread
  std::uint32_t count;        // how often this pair occurred in the run
  std::uint8_t head_write;    // 1 = write, 0 = read, kSyncSide | SyncOp = a sync operation
  std::uint8_t tail_write;    //   (ctrlsched/sync_ops.h)
  std::uint8_t head_iteration;  // previous executions of the site in the activation (saturated)
  std::uint8_t tail_iteration;
};
static_assert(sizeof(AccessPair) == 48);

struct AccessPairSummary {
  std::uint32_t magic;           // kAccessPairsMagic once the collector started
  std::uint32_t capacity;        // kMaxAccessPairs
  std::uint32_t used;            // entries filled, in first-occurrence order (the entry index is
                                 // the pair's occurrence order in the run)
  std::uint32_t dropped_pairs;   // pair occurrences not stored: the table was full
  std::uint64_t accesses;        // plain shared accesses seen
  std::uint64_t locations;       // distinct locations tracked
  std::uint64_t untracked;       // accesses to locations that did not fit the location table
  AccessPair pairs[kMaxAccessPairs];
};

}  // namespace ctrlsched
