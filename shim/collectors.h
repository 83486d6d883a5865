// Online collectors: analyses that see every event of a run while it happens and keep only a
// fixed-size summary (memory grows with locations, not with accesses), plus the trace writer
// used by `ctrlsched trace`. When no collector is registered, emitting an event costs one
// predictable branch.
#pragma once

#include <cstdint>

#include "ctrlsched/run_record.h"
#include "ctrlsched/trace_format.h"
#include "thread_table.h"

namespace ctrlsched::shim {

class Collector {
 public:
  virtual ~Collector() = default;
  // Called with the baton held (events arrive in one total order); must not block or allocate.
  virtual void on_event(const TraceEvent& event) = 0;
  // The run is ending (normally, by exit, a failure report or a fatal signal): flush what is
  // pending into the summary. May run in a signal handler: no allocation, no locks; may be called
  // more than once (later calls flush only what arrived since).
  virtual void on_run_end() {}
};

inline constexpr int kMaxCollectors = 8;
struct CollectorRegistry {
  Collector* collectors[kMaxCollectors] = {};
  int count = 0;
};
extern constinit CollectorRegistry g_collectors;

bool register_collector(Collector* collector);
inline bool collecting() { return g_collectors.count != 0; }
void dispatch(const TraceEvent& event);
// Calls every collector's on_run_end(). Async-signal-safe and idempotent; a call that interrupts
// another one (a fatal signal during the flush) returns at once.
void finish_collectors();

inline void emit(EventKind kind, const Thread* me, std::uint64_t address, std::uint64_t site,
                 std::uint8_t size = 0, std::uint16_t aux = 0, std::uint64_t value = 0) {
  if (__builtin_expect(!collecting(), 1)) return;
  dispatch(TraceEvent{static_cast<std::uint8_t>(kind), size, aux, me->id, address, site, value});
}

// A synchronization event at the call site of the current interposed call.
void emit_sync(EventKind kind, const Thread* me, const void* object, WaitKind object_kind);

// Maps the trace region named by CTRLSCHED_TRACE_FD, if any, and registers the trace writer.
void start_trace_writer(RunRecord* record);

}  // namespace ctrlsched::shim
