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

// A lock-order cycle of four threads is eight steps (lock_cycle.h); roles are threads, and
// ForceDirective::role_threads names one per byte.
inline constexpr std::uint32_t kMaxForceSteps = 8;
inline constexpr std::uint32_t kMaxForceRoles = 4;

struct ForceStep {
  std::uint64_t site;
  std::uint8_t access;    // ForceAccess
  std::uint8_t role;      // 0, 1, ...: steps with equal roles run on one thread
  std::uint16_t location; // 0, 1, ...: steps with equal values access one location (the address
                          // of the first of them performed); Order only
  std::uint32_t occurrence;  // Order: 0 = any; n = only the n-th access (1-based) its thread makes
                             // at this site in the run (a loop's failing iteration)
};

struct ForceDirective {
  std::uint32_t kind;        // ForceKind
  std::uint32_t count;       // steps used
  std::uint32_t hold_limit;  // scheduling decisions a thread may be held before the hold is dropped
  // Order: role r is bound from the start to thread (byte r) - 1 (ThreadId = creation index,
  // T0 = main); byte 0 = unbound (the role binds to the thread performing its first step).
  std::uint32_t role_threads;
  ForceStep steps[kMaxForceSteps];
  // Order, in the failing run's context (docs/forcing.md, "In the failing run's context"): while
  // `context` is 1 the run follows its input log, the decisions of the reference failing run, and
  // nothing is held; when that log runs thread `context_thread` to perform `context_step` (its
  // site and kind, and its occurrence-th access at that site when occurrence != 0), the run is
  // where the reference run was just before the pattern, and the directive takes over on top of
  // the seed's strategy. The opposite order of a pattern keeps the pattern's cut. 0: no context.
  std::uint32_t context;
  std::uint32_t context_thread;
  ForceStep context_step;
  // Order: 1 = a thread waiting for its partner (bound to a role that is not the next step's) is
  // held only where it is about to access one of the order's bound locations, not at every point
  // (docs/forcing.md, "A read reads the write before it"). 0: held at every point.
  std::uint32_t hold_at_location;
};

// ForceDirective::role_threads: role -> ThreadId, or kNoBoundThread.
inline constexpr std::uint32_t kNoBoundThread = 0xffffffffu;
constexpr std::uint32_t bound_thread(const ForceDirective& d, std::uint32_t role) {
  const std::uint32_t byte = (d.role_threads >> (8 * role)) & 0xffu;
  return byte == 0 ? kNoBoundThread : byte - 1;
}
// Binds `role` (< kMaxForceRoles) to `thread` (< 255); returns false if the thread cannot be named.
constexpr bool bind_role(ForceDirective& d, std::uint32_t role, std::uint32_t thread) {
  if (role >= kMaxForceRoles || thread >= 255) return false;
  d.role_threads = (d.role_threads & ~(0xffu << (8 * role))) | ((thread + 1) << (8 * role));
  return true;
}

struct ForceOutcome {
  std::uint32_t steps_done;     // Order: steps performed in order; SwitchAtEntry: switches forced
  std::uint32_t holds;          // decisions at which some thread was held
  std::uint32_t holds_dropped;  // holds released because hold_limit ran out
  std::uint32_t completed;      // 1 if every step happened in the forced order
  std::uint64_t completed_step; // scheduling step at which the last step happened
  // Order: the thread each role was bound to (ThreadId + 1; 0 = never bound), so an unrealized
  // order can say which thread never reached which step.
  std::uint8_t role_thread[kMaxForceRoles];
  std::uint32_t starvation_skips;  // decisions at which a thread was not held because it owned a
                                   // lock another thread was blocked on
  // In context (ForceDirective::context): 1 once the input log reached the cut; 0 while it was
  // followed, or when it ended or stopped fitting the run before (the run is then no evidence).
  std::uint32_t context_reached;
  std::uint32_t context_lost;      // 1 when the log ended or stopped fitting before the cut
  std::uint64_t context_step;      // the scheduling step of the cut, or of the loss
  char context_lost_what[96];      // the loss: what the log recorded and what the run offered
  // The first thread not held because it owned a lock another thread was blocked on
  // (starvation_skips), while it was about to perform a later step: that step's index, and the
  // site of the call that took the lock (0: none, or the call is unknown). Holding the thread at
  // that call instead, before it takes the lock, keeps the order (docs/forcing.md, "Held before
  // its lock").
  std::uint32_t starved_step;
  std::uint64_t starved_lock_site;
  // Order: a read step that must read the write step just before it (different roles, one
  // location) whose location another write reached first. The read step's index (0: never) and
  // that write's thread (ThreadId + 1) and site; the directive stops there, not completed: the
  // read can no longer see the step's write, so the run is not the pattern.
  std::uint32_t read_from_broken_step;
  std::uint32_t read_from_broken_thread;
  std::uint64_t read_from_broken_site;
};

}  // namespace ctrlsched
