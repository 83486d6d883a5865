// report/ — what the user reads about runs: the report of a seeds run and how it is rendered.
//
// Owns: the Report value (this file), failure groups and their replay commands (grouping), the
// text summary and the JSON report, the SARIF, JUnit and HTML reports (with the traced steps
// behind them: thread_flow, timeline), the progress line, symbolization with libdw (symbolizer),
// shell quoting of printed commands, and the readable interleaving of a shrunk run.
// May call: runs/ (its RunResult values) and the policy core. Renderers are pure functions of
// their values: they start no process and read no run record.
//
// Everything a seeds run reports, gathered in one value: the header facts, the per-seed results
// in seed order, the failure groups and the counts. summary.cc renders it as text, json_report.cc
// as JSON; both are pure functions of this struct.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "report/grouping.h"
#include "runs/portfolio.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

struct ReportHeader {
  std::uint64_t seed_start = 0;
  std::uint64_t seeds_requested = 0;
  std::optional<std::uint64_t> stop_after;
  bool stopped_early = false;  // --stop-after or a stop request cut the seeds short
  bool interrupted = false;    // a signal stopped the run: only the seeds that finished are reported
  int interrupt_signal = 0;    // which (SIGINT, SIGTERM, SIGHUP), when interrupted
  RunSpec spec;                // strategy and parameters (seed / hash unused)
  bool pct_steps_calibrated = false;
  bool pct_calibration_reached_limit = false;  // a calibration run reached --max-steps: k is the limit
  std::optional<Portfolio> portfolio;  // spec.strategy == Portfolio: what each seed ran
  double elapsed_seconds = 0;  // the only nondeterministic value
  unsigned jobs = 1;
  TestCommand test;
  // --shard K/N (docs/scale-out.md): runs holds only this shard's seeds. 0 = not sharded.
  std::uint64_t shard_index = 0;
  std::uint64_t shard_count = 0;
  std::uint64_t merged_shards = 0;  // `ctrlsched merge`: put together from this many shards
};

struct Report {
  ReportHeader header;
  std::vector<RunResult> runs;  // seed order, exactly the reported seeds
  std::vector<FailureGroup> groups;
  OutcomeCounts counts{};
  std::uint64_t failures() const {
    return runs.size() - at(counts, OutcomeKind::Pass) - at(counts, OutcomeKind::Unfinished);
  }
};

// Fills groups and counts from runs.
void finish_report(Report& report);

// "pct(d=3, k=412)", "random", "random(pb=2)", plus ", spurious wakeups" / ", points=sync".
std::string strategy_text(const RunSpec& spec);
// The spec seed `seed` ran with (through the portfolio when there is one).
RunSpec seed_spec(const ReportHeader& header, std::uint64_t seed);
// The base of directed runs (forcing, spectra) over many seeds: the header's spec, or with a
// portfolio its PCT d=3 slot with the calibrated k (docs/strategies.md says why).
RunSpec directed_base_spec(const ReportHeader& header);

}  // namespace ctrlsched::driver
