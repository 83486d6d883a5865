// The lock-order-cycle explanation of a deadlock: from the run record's deadlock report (who
// waits for which lock, held by whom, and which locks each blocked thread holds, taken where),
// the cycle of threads each waiting for a lock the next one holds. Rendered as
//   T1 holds lock_a (abba_deadlock.c:26 transfer), waits for lock_b at abba_deadlock.c:27 transfer
//   T2 holds lock_b (abba_deadlock.c:38 refund), waits for lock_a at abba_deadlock.c:39 refund
// (docs/localization.md, "Synchronization orders").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/run_record.h"
#include "localize/confirm.h"
#include "ctrlsched/localize/trace.h"
#include "localize/record_names.h"
#include <nlohmann/json.hpp>

namespace ctrlsched::driver {

struct LockCycleThread {
  std::uint32_t thread = 0;
  std::uint64_t holds = 0;       // the lock the previous thread of the cycle waits for
  std::uint64_t holds_site = 0;  // where this thread took it (0 = unknown)
  std::uint64_t waits_for = 0;   // the lock it waits for, held by the next thread
  std::uint64_t wait_site = 0;   // where it waits
};

struct LockCycle {
  std::vector<LockCycleThread> threads;  // in cycle order, starting at the lowest thread id
};

// The cycle of the deadlock report, if the run deadlocked on locks that form one (a lost wakeup
// or a join on a blocked thread is no cycle: nullopt).
std::optional<LockCycle> find_lock_cycle(const DeadlockInfo& deadlock);

// The cycle as an order to force (force_directive.h), so it gets a verdict like the patterns:
// every thread takes what it holds, in cycle order, then each asks for the next one's lock, the
// last thread first (two threads: T1 takes, T2 takes, T2 asks for T1's lock, T1 for T2's; a
// lock step is performed by its acquisition or by the block of an attempt that waits;
// docs/forcing.md, "Sync steps"). Steps on one lock share a location. nullopt for a cycle of
// more than kMaxForceRoles threads (four: eight steps) or a site the report does not know.
std::optional<ForceDirective> lock_cycle_directive(const LockCycle& cycle, std::uint32_t hold_limit);

// The same steps in the order the deadlocked run performed them: each thread's last acquisition
// of what it holds and its last (blocked) request, sorted by their place in `trace`. A directive
// is one total order, and the fixed one above is often not the order a loop's threads can take
// (a four-stage ring deadlocked in 14 of 20 forced runs with the requests in another order, so
// the order never completed); the run's own order happened once, and the reference binding can
// then bind each step to its call and force it in the run's context (docs/localization.md,
// "Lock-order cycle"). `directive` unchanged when the trace lacks one of the events (the run
// that deadlocked is not the traced one).
ForceDirective order_as_in_trace(const ForceDirective& directive, const LockCycle& cycle, const localize::Trace& trace);

// A two-step lock order that is one lock's half of a cycle of three threads or more: one thread
// takes the lock where a cycle thread took what it holds, another asks for it where the cycle
// thread waiting for it asked (sites only: the halves of a ring of one function look alike).
// Forced alone such a half cannot deadlock (the others' locks are free), so a refutation of it
// says nothing about it.
bool is_half_of_longer_cycle(const ForceDirective& directive, const LockCycle& cycle);

// Turns such a half's refutation into `inconclusive`, with the reason (docs/localization.md,
// "Lock-order cycle").
void qualify_refutation_by_cycle(ConfirmationResult& c, const LockCycle& cycle);

std::vector<std::string> render_lock_cycle_text(const LockCycle& cycle, const RecordNames& names);
nlohmann::ordered_json lock_cycle_json(const LockCycle& cycle, const RecordNames& names);

}  // namespace ctrlsched::driver
