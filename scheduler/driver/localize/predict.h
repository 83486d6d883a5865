// ConSeq prediction in the driver (docs/localization.md, "ConSeq prediction"): run one seed with
// tracing, choose the critical reads, compute the suspicious write→read orders
// (localize/conseq.h) and return them symbolized, as text lines and JSON, each with the
// ForceDirective that tests it.
//
// A passing run: critical reads are chosen in failure-site functions found statically in the
// executable (failure_sites.h). A failing run: the last reads of the failing thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/localize/conseq.h"
#include "ctrlsched/localize/trace.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/run_spec.h"
#include "ctrlsched/schedule.h"
#include "runs/child_launch.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

struct PredictSettings {
  std::vector<std::string> failure_sites;  // --failure-site FUNC, besides kDefaultFailureCalls
  std::uint32_t max_distance = localize::kDefaultMaxDistance;
  std::uint32_t hold_limit = 1000;         // copied into every directive
  localize::PredictOptions predict;
};

struct PredictedOrder {
  localize::OrderCandidate candidate;
  ForceDirective directive{};
  // "W T1 order.c:12 main → R T2 order.c:20 worker  g_config (read 0, could read 1)"
  std::string line;
};

struct Prediction {
  std::string handle;                     // the traced run
  bool run_failed = false;
  std::string selection;                  // "failure-site functions: main, withdraw" /
                                          // "failing thread T2"
  std::vector<std::string> failure_functions;  // static selection: the functions found
  std::size_t critical_reads = 0;
  std::vector<PredictedOrder> orders;     // ranked, best first
  std::string problem;                    // why nothing could be predicted, or ""
};

// One traced run of `spec` (output captured, not shown) and its trace. Throws DriverError like
// any run (CannotRun if the program never ran under the shim).
struct TracedRun {
  RunResult result;
  localize::Trace trace;
  std::optional<std::uint32_t> failing_thread;  // the thread that failed, if the run failed
  std::optional<Schedule> schedule;             // its decisions (nullopt if the log was incomplete)
  bool replayed_faithfully = true;              // a replay: it took the schedule's path (same hash)
};
// With `replay`, the run follows that schedule's decisions (a forced run traced after the fact:
// the strategy of `spec` is replaced by a replay, its other settings kept).
TracedRun run_traced(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                     const std::string& target_name, const Schedule* replay = nullptr);

// Traces one run of `spec`: if it passes, predicts from failure-site functions of the
// executable `target.path`; if it fails, from the failing thread's last reads.
Prediction predict_from_run(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                            const std::string& target_name, const PredictSettings& settings);

// The two selections on a trace in hand. `executable` is the ELF file to scan; the module of the
// trace it corresponds to is the one with the same file (module 0 if none matches).
Prediction predict_from_passing_trace(const localize::Trace& trace, const std::string& executable,
                                      const PredictSettings& settings);
Prediction predict_from_failing_trace(const localize::Trace& trace, std::uint32_t failing_thread,
                                      const PredictSettings& settings);

// The thread a failing run failed in: the failure's / signal's thread, else the thread of the
// trace's last event; nullopt for a passing run or one without a single failing thread
// (deadlock).
std::optional<std::uint32_t> failing_thread_of(const RunRecord& record, const localize::Trace& trace);

// Text: a header line and one line per order ("  1. W T0 ... → R T1 ..."); JSON: see
// docs/localization.md.
std::string render_prediction(const Prediction& prediction);
nlohmann::json prediction_json(const Prediction& prediction);

}  // namespace ctrlsched::driver
