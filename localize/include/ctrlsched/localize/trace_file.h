// Reading and writing trace files (format version 2; version 1 files are read with values
// unknown, Trace::has_values = false; see ctrlsched/trace_format.h), and turning
// the shim's shared-memory trace region into a Trace.
//
// The driver owns the processes and the memory: after a traced run it calls from_region() on
// the mapped region and the run record's module table, then write_trace_file(). `ctrlsched trace`
// (or any later analysis) calls read_trace_file(). Reading validates everything a corrupt or
// foreign file could get wrong and reports it in one line; it never trusts a count it has not
// checked against the file size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "ctrlsched/localize/expected.h"
#include "ctrlsched/localize/trace.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/trace_format.h"

namespace ctrlsched::localize {

// Errors name the file and the problem, e.g.
//   "t.cstrace: bad magic (not a ctrlsched trace file)"
//   "t.cstrace: unsupported trace format version 7 (this build reads 1 and 2)"
//   "t.cstrace: short file: 40 bytes, the header needs 184"
//   "t.cstrace: event count mismatch: header says 10 events, the file holds 9"
//   "t.cstrace: event 3: unknown kind 99"
Expected<Trace> read_trace_file(const std::string& path);

// Writes the file (replacing it). Strings longer than their fixed fields (handle 127 bytes,
// module path 239 bytes) are truncated, as in the run record.
Expected<void> write_trace_file(const std::string& path, const Trace& trace);

// Builds a Trace from the shim's trace region. `events` is the mapped event area that follows
// the header (at most header->capacity_events entries); the first header->event_count of them
// are copied, or fewer if the mapping is shorter (then the trace is marked truncated).
// `modules` is RunRecord::modules of the same run.
Trace from_region(const TraceRegionHeader* header, std::span<const TraceEvent> events,
                  const ModuleTable& modules, std::string handle, std::uint64_t schedule_hash);

// The same, given the whole mapped region (header followed by events) and its size in bytes.
Trace from_region(const void* region, std::size_t region_bytes, const ModuleTable& modules,
                  std::string handle, std::uint64_t schedule_hash);

}  // namespace ctrlsched::localize
