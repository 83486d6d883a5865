// Per-run summary of Falcon's interleaving patterns (--collect falcon), written by the shim's
// Falcon collector into the run record at kFalconOffset while the run happens.
//
// The collector runs ctrlsched/falcon_window.h over every plain shared access (one window per
// location, RunConfig::falcon_window slots) and stores each distinct pattern once, in first-seen
// order, with how often it occurred. A pattern's identity is its kind and its access sites (the
// kind fixes the thread roles); the location and the threads are an example (those of the first
// occurrence), not part of the identity: a heap address or a thread id may differ between runs.
// Fixed capacity: patterns that do not fit are counted, not stored.
#pragma once

#include <cstdint>

#include "ctrlsched/falcon_window.h"
#include "ctrlsched/run_record.h"

namespace ctrlsched {

inline constexpr std::uint32_t kFalconPatternsMagic = 0x334e4c46;  // "FLN3": with the executed sites and
                                                                     // the orders fixed by creation/join
inline constexpr std::uint32_t kMaxFalconPatterns = 8192;
inline constexpr std::uint32_t kMaxFalconAccesses = 8192;

struct FalconPatternEntry {
  std::uint64_t sites[3];    // the accesses' sites, oldest first; sites[2] = 0 for a pair
  std::uint64_t location;    // address of the location of the first occurrence
  std::uint32_t threads[2];  // threads of role 1 and role 2 at the first occurrence
  std::uint32_t count;       // occurrences in the run
  std::uint8_t kind;         // FalconKind
  std::uint8_t ops[3];       // SyncOp of each side (sync kinds), else 0
};

// One access (site, location, read or write) or sync operation the run executed, whether or not
// it formed a pattern: "this read of x ran, that write of x never did" (docs/localization.md,
// "Orders a run's end cut short"), and the symptom rule's "runs in a passing run".
enum class ExecutedKind : std::uint8_t { Read = 0, Write = 1, Sync = 2 };
struct FalconExecutedAccess {
  std::uint64_t site;
  std::uint64_t location;    // the address (of the sync object for Sync)
  std::uint32_t executions;  // saturating
  std::uint8_t kind;         // ExecutedKind
  std::uint8_t reserved[3];
};
static_assert(sizeof(FalconExecutedAccess) == 24);

struct FalconPatternSummary {
  std::uint32_t magic;             // kFalconPatternsMagic once the collector started
  std::uint32_t capacity;          // kMaxFalconPatterns
  std::uint32_t used;              // entries filled, in first-seen order
  std::uint32_t dropped;           // occurrences of patterns that did not fit
  std::uint32_t window;            // window size used
  std::uint32_t finished;          // 1 once the end-of-run extraction ran
  std::uint64_t accesses;          // plain shared accesses seen
  std::uint64_t locations;         // distinct locations given a window
  std::uint64_t untracked;         // accesses to locations that did not fit the table
  std::uint64_t fixed_by_lifecycle;  // pattern occurrences not counted: every step between two threads
                                     // ordered by thread creation or join (lifecycle_clocks.h)
  FalconPatternEntry patterns[kMaxFalconPatterns];
  std::uint32_t executed_used;     // entries of `executed` filled, in first-execution order
  std::uint32_t executed_dropped;  // executions that did not fit: then the set is incomplete
  FalconExecutedAccess executed[kMaxFalconAccesses];
};
static_assert(kFalconOffset + sizeof(FalconPatternSummary) <= kSpectraOffset);

}  // namespace ctrlsched
