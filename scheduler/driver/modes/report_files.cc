// --sarif and --junit files (see report_files.h).
#include "modes/report_files.h"

#include <cstdio>

#include "exit_codes.h"
#include "localize/predict.h"
#include "report/junit_report.h"
#include "report/sarif_report.h"
#include "report/symbolizer.h"
#include "runs/atomic_file.h"

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
}

void ReportFiles::write(const Report& report, const std::vector<std::optional<ThreadFlow>>& flows,
                        const nlohmann::ordered_json& localization) {
  auto put = [](const std::string& path, const char* flag, const std::string& text) {
    if (const std::string problem = write_file_atomically(path, text); !problem.empty()) {
      std::fprintf(stderr, "ctrlsched: warning: writing the %s file %s failed: %s\n", flag, path.c_str(),
                   problem.c_str());
    }
  };
  if (sarif_) put(*sarif_, "--sarif", render_sarif(report, flows, localization));
  if (junit_) put(*junit_, "--junit", render_junit(report));
}

std::vector<std::optional<ThreadFlow>> trace_group_flows(const LaunchTarget& target, const Report& report,
                                                         double timeout_seconds, const std::string& target_name) {
  std::vector<std::optional<ThreadFlow>> flows(report.groups.size());
  Symbolizer symbolizer;
  for (std::size_t g = 0; g < report.groups.size() && g < kTracedGroups; ++g) {
    const RunResult& first = report.runs[report.groups[g].first];
    const RunSpec spec = seed_spec(report.header, first.seed);
    const TracedRun traced = run_traced(target, spec, timeout_seconds, target_name);
    if (traced.result.schedule_hash != first.schedule_hash) continue;
    DumpSymbolizer names(symbolizer);
    flows[g] = thread_flow(traced.trace, names, kFlowSteps);
  }
  return flows;
}

}  // namespace ctrlsched::driver
