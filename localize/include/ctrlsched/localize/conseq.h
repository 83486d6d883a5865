// ConSeq-style prediction (ASPLOS 2011, section 7): from one run's trace, the write→read orders
// that could make a read near a failure site see a different value than it saw, each a candidate
// to confirm by forcing the order (ctrlsched/force_directive.h).
//
// 1. Critical reads: shared reads close to a failure site, with their distance (1 = the last
//    read before the site). Two selections:
//    - critical_reads_in_functions(): a passing run. Failure-site functions are the functions
//      whose code calls __assert_fail, abort, exit, ... or a function the user named (found
//      statically by the driver, scheduler/driver/localize/failure_sites.h). In every activation of such
//      a function (FuncEntry whose function site lies in the function, up to its matching
//      FuncExit or the thread's last event) the last `max_distance` shared reads the thread
//      performed, callees included, are critical; distance k = the k-th last. A read in several
//      activations keeps its smallest distance.
//    - critical_reads_before_failure(): a failing run: the last `max_distance` shared reads of
//      the failing thread.
//    "Shared read": Read, AtomicLoad or AtomicRmw of a location at least two threads accessed
//    in the trace (shared_locations.h); other reads do not count toward the distance.
// 2. predict_orders(): for each critical read r of location m, the writes w' to m that r did not
//    read from (its source is the last write to m before it) but could have, section 7.1:
//    - r does not happen before w';
//    - no write w to m with w' → w → r (w' is always overwritten: same thread or create/join/
//      barrier ordering);
//    - mutual exclusion: not (a write w precedes r in r's critical section on a lock L and w' is
//      in a critical section on L of another thread), and not (w' is followed by a write w in
//      its critical section on L and r is in a critical section on L of another thread);
//    - the value w' wrote differs from the value r read (equal values cannot hurt). The value
//      w' wrote is the `value` of the next access to m after w' (trace_format.h); unknown if
//      none, or if the trace has no values: then the candidate is kept.
//    Happens-before here is the one of happens_before.h without the lock edges (mutex, rwlock,
//    spinlock Acquire/Release): a lock order is an accident of this run, and locks enter only
//    through mutual exclusion, as in the paper. Thread create/join, barriers, condition
//    variables, semaphores, once, futex and atomics keep their edges.
//    Plus the paper's "read too early" extension (7.2), generalized: r could run before the
//    write w it read from (w from another thread, w does not happen before r) and read the
//    value m held before w; under a lock both hold, before the first write to m of w's
//    critical section. Kind EarlyRead; the value must differ too.
//    Cost: for C critical reads of locations with W writes each, O(C · W²) happens-before
//    queries in the worst case (the overwrite check scans the writes between w' and r), plus
//    one happens-before construction and one lockset pass over the trace.
// 3. Ranking: by distance, then by the read's first occurrence in the trace, then kind
//    (AlternativeWrite first), then the write's position. One candidate per distinct
//    (kind, write site, read site): the order forcing replays, since sites are what a directive
//    names; `occurrences` counts the dynamic pairs it stands for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

inline constexpr std::uint32_t kDefaultMaxDistance = 4;  // the paper's default MaxDistance

struct CriticalRead {
  std::size_t event = 0;      // index of the read in the trace
  std::uint32_t distance = 0; // 1 = the last shared read before the failure site
  bool operator==(const CriticalRead&) const = default;
};

// A failure-site function: module-relative code offsets [low, high) in module `module` of the
// trace (an index into Trace::modules).
struct FailureFunction {
  std::uint32_t module = 0;
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  std::string name;
};

// Both return reads in trace order.
std::vector<CriticalRead> critical_reads_in_functions(const Trace& trace,
                                                      std::span<const FailureFunction> functions,
                                                      std::uint32_t max_distance = kDefaultMaxDistance);
std::vector<CriticalRead> critical_reads_before_failure(const Trace& trace, std::uint32_t failing_thread,
                                                        std::uint32_t max_distance = kDefaultMaxDistance);

enum class OrderKind : std::uint8_t {
  AlternativeWrite = 0,  // force w' → r: r reads what w' wrote
  EarlyRead = 1,         // force r → w: r reads what m held before w
};

struct OrderCandidate {
  OrderKind kind = OrderKind::AlternativeWrite;
  std::size_t read = 0;   // event index of r
  std::size_t write = 0;  // event index of w' (AlternativeWrite) or of w (EarlyRead)
  std::uint32_t distance = 0;
  std::uint64_t address = 0;
  std::uint64_t value_read = 0;      // what r read in this run
  std::uint64_t value_possible = 0;  // what r could read instead
  bool value_possible_known = false;
  std::uint32_t occurrences = 1;  // dynamic (write, read) pairs with the same kind and sites
  std::optional<std::size_t> source;  // the write r read from in this run (none: an initial value)
  bool operator==(const OrderCandidate&) const = default;
};

struct PredictOptions {
  bool early_reads = true;       // also report EarlyRead candidates
  bool equal_value_filter = true;
};

// Ranked best first (see the header comment). Deterministic: depends only on the trace.
std::vector<OrderCandidate> predict_orders(const Trace& trace, std::span<const CriticalRead> critical,
                                           const PredictOptions& options = {});

// The directed run that tests the candidate: kind Order, steps [w' (Write, role 0), r (Read,
// role 1)] for AlternativeWrite, [r (Read, role 0), w (Write, role 1)] for EarlyRead. When w' is
// r's own thread's earlier write (r read another thread's write w in between), forcing w' → r
// would be program order, so the directive is [w (role 0), w' (role 1)]: w moves before w'. An
// atomic read-modify-write step is ForceAccess::Any (it both reads and writes).
ForceDirective to_force_directive(const Trace& trace, const OrderCandidate& candidate,
                                  std::uint32_t hold_limit);

// One line, e.g. "W T0 order.c:38 main → R T1 order.c:28 worker  g_config (read 0x5555558010,
// could read 0)" or for an early read "R T2 bank.c:26 withdraw → W T1 bank.c:30 withdraw
// balance (read 40, could read 100)"; the left access is forced first. `×3` is appended when
// the candidate stands for several dynamic pairs, and "  (by moving W T2 f.c:9 g before it)"
// for a write of r's own thread.
std::string describe_candidate(const Trace& trace, const OrderCandidate& candidate, Symbolizer& symbolizer);

std::string_view order_kind_name(OrderKind kind);  // "alternative-write", "early-read"

}  // namespace ctrlsched::localize
