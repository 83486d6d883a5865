// The report files of a seeds run besides --json: --sarif, --junit and --html (docs/reports.md).
// Checked before any run, so a path that cannot be written costs no exploration; written whole
// (temporary file + rename) once the report (and, with --localize, the localization) is final.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options/command_line.h"
#include "report/html_report.h"
#include "report/report.h"
#include "report/thread_flow.h"
#include "runs/child_launch.h"

namespace ctrlsched::driver {

class ReportFiles {
 public:
  // Checks every requested file can be written; usage_error (exit 2) when one cannot be.
  explicit ReportFiles(const Options& options);

  // SARIF's codeFlows and the HTML timelines need the interleaving of each group's first
  // failing seed.
  bool wants_thread_flows() const { return sarif_.has_value() || html_.has_value(); }
  bool wants_timelines() const { return html_.has_value(); }

  // Writes them; `localization` is the JSON report's "localization" object or null. A failed
  // write is a warning (the run's verdict stands).
  void write(const Report& report, const struct TracedGroups& traced, const nlohmann::ordered_json& localization);

 private:
  std::optional<std::string> sarif_, junit_, html_;  // the paths asked for
};

// The interleavings of the groups' first failing seeds: one entry per traced group (the first
// kTracedGroups), nullopt where the rerun did not follow the same schedule.
struct TracedGroups {
  std::vector<std::optional<ThreadFlow>> flows;        // SARIF codeFlows
  std::vector<std::optional<GroupTimeline>> timelines; // HTML timelines (only when asked for)
};

// Reruns the first failing seed of each group (the first kTracedGroups groups) traced, with its
// switch log, and turns its trace into steps. A rerun that does not follow the same schedule (a
// test that is not deterministic) gets nullopt, never another run's steps.
inline constexpr std::size_t kTracedGroups = 10;
inline constexpr std::size_t kFlowSteps = 5000;
inline constexpr std::size_t kTimelineSteps = 200000;
TracedGroups trace_groups(const LaunchTarget& target, const Report& report, double timeout_seconds,
                          const std::string& target_name, bool timelines);

}  // namespace ctrlsched::driver
