// --sarif, --junit and --html files (see report_files.h).
#include "modes/report_files.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "exit_codes.h"
#include "localize/predict.h"
#include "report/html_report.h"
#include "report/junit_report.h"
#include "report/sarif_report.h"
#include "report/symbolizer.h"
#include "ctrlsched/localize/trace_file.h"
#include "runs/atomic_file.h"
#include "runs/outcome.h"
#include "runs/run_collect.h"
#include "runs/switch_log.h"
#include "runs/trace_region.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {
ReportFiles::ReportFiles(const Options& options) {
  // Checked, not opened: the files are written whole at the end (runs/atomic_file.h), so an
  // interrupted or killed run never leaves an empty or half-written report behind.
  auto check = [](const std::optional<std::string>& path, const char* flag, std::optional<std::string>& file) {
    if (!path) return;
    if (const std::string problem = check_writable(*path); !problem.empty()) {
      usage_error(std::string("cannot write the ") + flag + " file " + *path + ": " + problem);
    }
    file = *path;
  };
  check(options.sarif, "--sarif", sarif_);
  check(options.junit, "--junit", junit_);
  check(options.html, "--html", html_);
}

void ReportFiles::write(const Report& report, const TracedGroups& traced, const nlohmann::ordered_json& localization) {
  auto put = [](const std::string& path, const char* flag, const std::string& text) {
    if (const std::string problem = write_file_atomically(path, text); !problem.empty()) {
      std::fprintf(stderr, "ctrlsched: warning: writing the %s file %s failed: %s\n", flag, path.c_str(),
                   problem.c_str());
    }
  };
  if (sarif_) put(*sarif_, "--sarif", render_sarif(report, traced.flows, localization));
  if (junit_) put(*junit_, "--junit", render_junit(report));
  if (html_) put(*html_, "--html", render_html(report, traced.timelines, localization));
}

TracedGroups trace_groups(const LaunchTarget& target, const Report& report, double timeout_seconds,
                          const std::string& target_name, bool timelines) {
  const std::size_t traced_groups = std::min(report.groups.size(), kTracedGroups);
  TracedGroups traced;
  traced.flows.resize(traced_groups);
  if (timelines) traced.timelines.resize(traced_groups);
  Symbolizer symbolizer;
  ClassifyContext context;
  context.timeout_seconds = timeout_seconds;
  context.symbolize = symbolizer.function();
  context.data_symbol = symbolizer.data_function();
  PoolOptions options;
  options.jobs = 1;
  options.timeout = std::chrono::duration<double>(timeout_seconds);
  options.capture_output = true;
  for (std::size_t g = 0; g < traced_groups; ++g) {
    const RunResult& first = report.runs[report.groups[g].first];
    RunSpec spec = seed_spec(report.header, first.seed);
    spec.expected_hash.reset();
    // As run_traced (localize/predict.h), plus the switch log that tells preemptions apart.
    TraceRegion region;
    RunJob job;
    job.config = run_config_for(spec);
    job.config.collectors |= kCollectSwitches;
    job.trace_fd = region.fd();
    run_single<bool>(target, options, std::move(job), [&](const FinishedRun& run) {
      const RunResult result = collect_result(run, spec, context, target_name);
      if (result.schedule_hash != first.schedule_hash) return false;
      const RunRecord& record = run.region.record();
      const localize::Trace trace =
          localize::from_region(region.data(), region.size(), record.modules, result.handle, record.schedule_hash);
      DumpSymbolizer names(symbolizer);
      traced.flows[g] = thread_flow(trace, names, kFlowSteps);
      if (timelines) {
        const RecordedSwitches switches = recorded_switches(record);
        GroupTimeline timeline{build_timeline(trace, switches.entries, names, kTimelineSteps),
                               failing_thread_of(record, trace)};
        traced.timelines[g] = std::move(timeline);
      }
      return true;
    });
  }
  return traced;
}

}  // namespace ctrlsched::driver
