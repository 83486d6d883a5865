// Everything a seeds run reports, gathered in one value: the header facts, the per-seed results
// in seed order, the failure groups and the counts. summary.cc renders it as text, json_report.cc
// as JSON; both are pure functions of this struct.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "grouping.h"
#include "run_result.h"

namespace ctrlsched::driver {

struct ReportHeader {
  std::uint64_t seed_start = 0;
  std::uint64_t seeds_requested = 0;
  std::optional<std::uint64_t> stop_after;
  bool stopped_early = false;  // --stop-after cut the seeds short
  RunSpec spec;                // strategy and parameters (seed / hash unused)
  bool pct_steps_calibrated = false;
  double elapsed_seconds = 0;  // the only nondeterministic value
  unsigned jobs = 1;
  TestCommand test;
};

struct Report {
  ReportHeader header;
  std::vector<RunResult> runs;  // seed order, exactly the reported seeds
  std::vector<FailureGroup> groups;
  OutcomeCounts counts{};
  std::uint64_t failures() const { return runs.size() - at(counts, OutcomeKind::Pass); }
};

// Fills groups and counts from runs.
void finish_report(Report& report);

// "pct(d=3, k=412)", "random", "random(pb=2)", plus ", spurious wakeups" / ", points=sync".
std::string strategy_text(const RunSpec& spec);

}  // namespace ctrlsched::driver
