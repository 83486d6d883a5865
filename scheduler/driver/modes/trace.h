// Trace mode: `ctrlsched trace <handle> | --seed S | --schedule FILE ./test args` replays one run
// exactly like `ctrlsched replay` (same options, same checks, same exit codes, the test's output
// on the terminal) and also records every event of it: the driver hands the shim a trace region
// (trace_region.h), then turns it into a trace file (localize/trace_file.h, default
// trace-<seed>.cstrace) and a readable dump next to it (<file>.txt, localize/dump.h).
// `ctrlsched trace --dump FILE` renders an existing trace file without running anything.
//
// Traces are made on demand, one seed at a time: seeds mode never records them. A trace of a
// fixed seed is a function of the binary, its arguments and environment, and the seed: the file
// and the dump are byte-identical across runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ctrlsched/localize/dump.h"
#include "ctrlsched/localize/trace.h"
#include "exit_codes.h"
#include "options/command_line.h"
#include "report/symbolizer.h"

namespace ctrlsched::driver {

// "trace-<seed>.cstrace"; "trace-<hash>.cstrace" when the seed is unknown (a schedule file whose
// handle does not parse).
std::string default_trace_path(std::optional<std::uint64_t> seed, std::uint64_t schedule_hash);
// Where the readable dump of the trace file `trace_path` goes: "<trace_path>.txt".
std::string dump_path_for(const std::string& trace_path);
// The dump options --shared-only, --no-stacks, --funcs and --clocks ask for.
localize::DumpOptions dump_options_from(const Options& options);
// Why `path` cannot be written (created or replaced), checked before the run so that a typo does
// not cost the run; "" when it looks writable.
std::string output_problem(const std::string& path);

struct TraceSummary {
  std::uint64_t events = 0;
  std::uint32_t threads = 0;            // distinct threads with at least one event
  std::uint64_t accesses = 0;           // Read, Write and atomic events
  std::uint64_t shared_locations = 0;   // addresses two threads or more accessed
  bool truncated = false;
};
TraceSummary summarize_trace(const localize::Trace& trace);
// The lines printed after a traced run, e.g.
//   trace: 240 events · 3 threads · 96 accesses · 1 shared location · complete
//   wrote trace-17.cstrace and trace-17.cstrace.txt
std::string render_trace_summary(const TraceSummary& summary, const std::string& trace_path,
                                 const std::string& dump_path);

}  // namespace ctrlsched::driver
