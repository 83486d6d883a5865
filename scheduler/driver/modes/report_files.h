// The report files of a seeds run besides --json: --sarif and --junit (docs/reports.md).
// Checked before any run, so a path that cannot be written costs no exploration; written whole
// (temporary file + rename) once the report (and, with --localize, the localization) is final.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options/command_line.h"
#include "report/report.h"
#include "report/thread_flow.h"
#include "runs/child_launch.h"

namespace ctrlsched::driver {

class ReportFiles {
 public:
  // Checks every requested file can be written; usage_error (exit 2) when one cannot be.
  explicit ReportFiles(const Options& options);

  // SARIF's codeFlows need the interleaving of each group's first failing seed.
  bool wants_thread_flows() const { return sarif_.has_value(); }

  // Writes them; `localization` is the JSON report's "localization" object or null. A failed
  // write is a warning (the run's verdict stands).
  void write(const Report& report, const std::vector<std::optional<ThreadFlow>>& flows,
             const nlohmann::ordered_json& localization);

 private:
  std::optional<std::string> sarif_, junit_;  // the paths asked for
};

// Reruns the first failing seed of each group (the first kTracedGroups groups) traced and turns
// its trace into steps. A rerun that does not follow the same schedule (a test that is not
// deterministic) gets nullopt, never another run's steps.
inline constexpr std::size_t kTracedGroups = 10;
inline constexpr std::size_t kFlowSteps = 5000;
std::vector<std::optional<ThreadFlow>> trace_group_flows(const LaunchTarget& target, const Report& report,
                                                         double timeout_seconds, const std::string& target_name);

}  // namespace ctrlsched::driver
