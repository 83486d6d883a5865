// Trace mode (see trace.h).
#include "modes/trace.h"

#include "modes/modes.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "ctrlsched/localize/shared_locations.h"
#include "ctrlsched/localize/trace_file.h"
#include "ctrlsched/run_spec.h"
#include "modes/replay.h"
#include "runs/atomic_file.h"
#include "runs/trace_region.h"

namespace ctrlsched::driver {
namespace {

std::string count(std::uint64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : word.ends_with('s') ? "es" : "s");
}

// Renders into `path`; a failure after the run is ours (disk full, ...), not the user's.
// Written whole or not at all (runs/atomic_file.h).
void write_dump(const std::string& path, const localize::Trace& trace, const Options& o) {
  Symbolizer symbolizer;
  DumpSymbolizer names(symbolizer);
  std::ostringstream out;
  localize::render_dump(trace, names, out, dump_options_from(o));
  if (const std::string problem = write_file_atomically(path, out.str()); !problem.empty()) {
    throw DriverError(ExitCode::Internal, problem);
  }
}

ExitCode dump_trace_file(const Options& o) {
  localize::Expected<localize::Trace> trace = localize::read_trace_file(*o.dump);
  if (!trace) throw DriverError(ExitCode::BadSchedule, trace.error());
  if (!o.output) {
    Symbolizer symbolizer;
    DumpSymbolizer names(symbolizer);
    localize::render_dump(*trace, names, std::cout, dump_options_from(o));
    std::cout.flush();
    return ExitCode::Ok;
  }
  std::error_code ec;
  if (std::filesystem::equivalent(*o.output, *o.dump, ec)) {
    usage_error("--output " + *o.output + " is the trace file itself");
  }
  if (const std::string problem = output_problem(*o.output); !problem.empty()) {
    usage_error("cannot write " + *o.output + ": " + problem);
  }
  write_dump(*o.output, *trace, o);
  return ExitCode::Ok;
}

}  // namespace

std::string default_trace_path(std::optional<std::uint64_t> seed, std::uint64_t schedule_hash) {
  return "trace-" + (seed ? std::to_string(*seed) : format_hash(schedule_hash)) + ".cstrace";
}

std::string dump_path_for(const std::string& trace_path) { return trace_path + ".txt"; }

localize::DumpOptions dump_options_from(const Options& options) {
  localize::DumpOptions dump;
  dump.only_shared = options.shared_only;
  dump.stacks = !options.no_stacks;
  dump.func_events = options.funcs;
  dump.vector_clocks = options.clocks;
  return dump;
}

std::string output_problem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) return "it is a directory";
  if (fs::exists(status)) return ::access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) return "no directory " + dir.string();
  return ::access(dir.c_str(), W_OK | X_OK) == 0 ? "" : std::strerror(errno);
}

TraceSummary summarize_trace(const localize::Trace& trace) {
  TraceSummary summary;
  summary.events = trace.events.size();
  summary.truncated = trace.truncated;
  std::set<std::uint32_t> threads;
  for (const TraceEvent& e : trace.events) {
    threads.insert(e.thread);
    if (localize::is_access(localize::kind_of(e)) && e.address != 0) ++summary.accesses;
  }
  summary.threads = static_cast<std::uint32_t>(threads.size());
  summary.shared_locations = localize::shared_locations(trace).size();
  return summary;
}

std::string render_trace_summary(const TraceSummary& s, const std::string& trace_path,
                                 const std::string& dump_path) {
  std::string text = "trace: " + count(s.events, "event") + " · " + count(s.threads, "thread") + " · " +
                     count(s.accesses, "access") + " · " + count(s.shared_locations, "shared location");
  text += s.truncated ? " · TRUNCATED (the run produced more events than the trace region holds)" : " · complete";
  text += "\n";
  if (s.accesses == 0) {
    text += "      no memory accesses recorded: build the test instrumented to trace them "
            "(docs/instrumentation.md)\n";
  }
  text += "wrote " + trace_path + " and " + dump_path + "\n";
  return text;
}

ExitCode run_trace(const CommandLine& cl) {
  const Options& o = cl.options;
  if (o.dump) return dump_trace_file(o);

  // As replay: a bad handle or schedule file is reported before anything else.
  ReplayPlan plan = plan_replay(cl);
  std::optional<std::uint64_t> seed = plan.spec.seed;
  if (plan.spec.strategy == StrategyKind::Replay && !parse_handle(plan.file_handle)) seed.reset();
  const std::string trace_path = o.output ? *o.output : default_trace_path(seed, plan.expected_hash.value_or(0));
  const std::string text_path = dump_path_for(trace_path);
  for (const std::string& path : {trace_path, text_path}) {
    if (const std::string problem = output_problem(path); !problem.empty()) {
      usage_error("cannot write " + path + ": " + problem);
    }
  }

  TraceRegion region;
  std::optional<localize::Trace> trace;
  ReplayTracing tracing;
  tracing.trace_fd = region.fd();
  tracing.on_finished = [&](const RunRecord& record, const std::string& handle) {
    trace = localize::from_region(region.data(), region.size(), record.modules, handle, record.schedule_hash);
  };
  const ExitCode code = run_replay(cl, std::move(plan), &tracing);
  if (!trace) throw DriverError(ExitCode::Internal, "the traced run finished without a record");

  const std::string trace_problem = replace_file_atomically(trace_path, [&](const std::filesystem::path& temporary) {
    localize::Expected<void> written = localize::write_trace_file(temporary.string(), *trace);
    return written ? std::string() : written.error();
  });
  if (!trace_problem.empty()) throw DriverError(ExitCode::Internal, trace_problem);
  write_dump(text_path, *trace, o);
  if (!o.quiet) {
    const std::string text = render_trace_summary(summarize_trace(*trace), trace_path, text_path);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  return code;
}

}  // namespace ctrlsched::driver
