// The readable dump of a trace: a header, then one line per event, deterministic (the same trace
// and symbolizer give the same bytes), for `ctrlsched trace` and for reading a failing run.
//
//   trace 17:random  schedule 0x9f3a2b1c0d4e5f67  events 240
//   module 0  /work/bank_test  bias 0x555555554000  size 0x4028
//   showing 96 of 240 events (func entry/exit hidden)
//   #12  T1  W4  0x5555555580a0  counter  (was 6)  lost_update.c:14 work  [stack: work ← start]
//   #13  T1  → T2  (switch)
//   #14  T2  acquire mutex 0x7fffffffe010  bank.c:20 deposit
//
// Accesses: R/W (plain), AL/AS/AX (atomic load/store/read-modify-write) followed by the size,
// then the value (trace files of version 2): "= v" for what a read read, "(was v)" for what a
// write or read-modify-write replaced (trace_format.h, value_text() in trace.h).
// Sites are shown as "file:line function" (file by base name), or what the symbolizer knows.
// The stack lists the function of the event's own site, then the function of each call site.
#pragma once

#include <ostream>

#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

struct DumpOptions {
  // Hide accesses to locations only one thread touched (see shared_locations.h).
  bool only_shared = false;
  // Show FuncEntry ("call from <call site>") and FuncExit ("return") lines.
  bool func_events = false;
  // Append each event's vector clock, e.g. "VC[3,1,0]" (happens_before.h).
  bool vector_clocks = false;
  // Append "[stack: f ← g ← h]" to accesses and synchronization events of instrumented code.
  bool stacks = true;
};

void render_dump(const Trace& trace, Symbolizer& symbolizer, std::ostream& out,
                 const DumpOptions& options = {});

}  // namespace ctrlsched::localize
