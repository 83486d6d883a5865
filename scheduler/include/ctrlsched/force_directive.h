// A directed run: what the driver asks the scheduler to make happen, and how far it got.
//
// Localization ranks suspicious orders of accesses (Falcon patterns, Locon pairs, ConSeq
// write→read orders); confirmation re-runs the test with the order forced. SCURF's directed
// exploration forces a context switch when a thread enters a chosen component (function).
// Both travel to the shim in the run record (RunConfig::force) as plain data, and come back in
// RunRecord::force. Sites use the trace_format.h encoding (module << 48 | offset), which is
// stable across runs of one binary; addresses are not, so a directive never names one.
#pragma once

#include <cstdint>

namespace ctrlsched {

enum class ForceKind : std::uint32_t {
  None = 0,
  // Make steps[0..count) happen in this order: a thread about to perform step i+1 is held until
  // step i was performed; steps with the same role are performed by one thread, different roles
  // by different threads; steps with the same location access one address. Holds are bounded (hold_limit) so a directive never deadlocks a run.
  Order = 1,
  // Preempt a thread at its first scheduling point after it enters one of the components
  // steps[0..count) (site = the FuncEntry event's function site), once per component.
  SwitchAtEntry = 2,
};

enum class ForceAccess : std::uint8_t { Any = 0, Read = 1, Write = 2, Entry = 3 };
// A step that is a synchronization operation: access = kForceSync + SyncOp (ctrlsched/sync_ops.h),
// matched at the sync operation's scheduling point (the object is the step's location).
inline constexpr std::uint8_t kForceSync = 16;

inline constexpr std::uint32_t kMaxForceSteps = 4;

struct ForceStep {
  std::uint64_t site;
  std::uint8_t access;    // ForceAccess
  std::uint8_t role;      // 0, 1, ...: steps with equal roles run on one thread
  std::uint16_t location; // 0, 1, ...: steps with equal values access one location (the address
                          // of the first of them performed); Order only
  std::uint32_t reserved1;
};

struct ForceDirective {
  std::uint32_t kind;        // ForceKind
  std::uint32_t count;       // steps used
  std::uint32_t hold_limit;  // scheduling decisions a thread may be held before the hold is dropped
  std::uint32_t reserved;
  ForceStep steps[kMaxForceSteps];
};

struct ForceOutcome {
  std::uint32_t steps_done;     // Order: steps performed in order; SwitchAtEntry: switches forced
  std::uint32_t holds;          // decisions at which some thread was held
  std::uint32_t holds_dropped;  // holds released because hold_limit ran out
  std::uint32_t completed;      // 1 if every step happened in the forced order
  std::uint64_t completed_step; // scheduling step at which the last step happened
};

}  // namespace ctrlsched
