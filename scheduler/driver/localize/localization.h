// localize/ — the localization pipeline of `ctrlsched --seeds N --localize`: the driver's side of
// the analyses in localize/ at the top of the tree (which are pure and start no process).
//
// Owns: this pipeline (localization.cc), reading the collectors' summaries out of run records
// (falcon_summary, spectra_summary; record_names for their site and data names), Locon's input and
// rendering (locon_report), ConSeq's traced run and predictions (predict, failure_sites), and
// confirmation by forcing (pattern_directives, confirm: directed batches of runs).
// May call: report/, runs/, the analyses (ctrlsched/localize/*) and the policy core. Not options/:
// the seeds mode hands it LocalizeSettings.
//
// `ctrlsched --seeds N --localize ./test`: after the runs, say WHY the test fails.
//
//   1. Falcon: the interleaving patterns of every run, ranked by suspiciousness (all runs).
//   2. Locon: the first failing run's access pairs against up to 100 passing runs (one failure
//      is enough), procedures I, II, III.
//   3. Block spectra (SCURF): functions run concurrently, ranked by modified Ochiai; with
//      --spectra level1|level2, more runs that force a context switch at component entries.
//   4. ConSeq: harmful write→read orders predicted from a trace (a passing run when no seed failed,
//      so a bug can be reported before it was ever seen; else the first failing run).
//   5. Confirmation: the top patterns are forced over M seeds each (confirm.h); the report says how
//      often the original failure comes back, and refutes a pattern that never brings it back.
// Decisions (data sets, budgets, which candidates are confirmed): docs/localization.md.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctrlsched/localize/falcon.h"
#include "ctrlsched/localize/locon.h"
#include "ctrlsched/localize/spectra.h"
#include "ctrlsched/run_record.h"
#include "localize/lock_cycle.h"
#include "localize/record_names.h"
#include "report/report.h"
#include "report/symbolizer.h"
#include "runs/child_launch.h"
#include "runs/outcome.h"

namespace ctrlsched::driver {

struct LocalizeSettings {
  localize::FalconScore score = localize::FalconScore::Jaccard;
  std::uint32_t window = 5;
  std::optional<localize::locon::Procedure> procedure;  // nullopt: I, II, III in turn
  std::uint32_t spectra_levels = 0;  // directed SCURF levels (--spectra): 0 none, 1 or 2
  std::vector<std::string> failure_sites;
  std::uint32_t max_distance = 4;
  std::size_t top = 3;                // Falcon patterns to confirm
  std::uint64_t confirm_seeds = 20;   // forced runs per pattern
  bool confirm = true;
  std::size_t locon_passing = 100;    // passing runs Locon compares the failing run with
  unsigned jobs = 1;
  double timeout_seconds = 10;
  std::string save_dir;               // where forced failing schedules are saved ("" = not saved)
};

// The collector bits and RunConfig fields every run of a localizing exploration needs.
void configure_localizing_run(RunConfig& config, const LocalizeSettings& settings);

// Per-run summaries read while each run's record is still mapped (seeds mode's finish callback).
class LocalizationData {
 public:
  explicit LocalizationData(std::size_t runs) : falcon_(runs), spectra_(runs) {}
  void add(std::uint64_t index, const RunRecord& record, bool failed, Symbolizer& symbolizer);
  // A run read back from the run store (store/, docs/store.md): the summaries it had when it ran.
  // The names come once from the store's module table (set_names). No lock cycle is stored.
  void add_stored(std::uint64_t index, bool failed, bool instrumented, std::optional<localize::FalconRun> falcon,
                  std::optional<localize::SpectraRun> spectra, const std::optional<AccessPairs>& pairs);
  void set_names(RecordNames names) { names_.emplace(std::move(names)); }

  bool instrumented() const { return instrumented_; }
  const std::vector<std::optional<localize::FalconRun>>& falcon() const { return falcon_; }
  const std::vector<std::optional<localize::SpectraRun>>& spectra() const { return spectra_; }
  const std::optional<RecordNames>& names() const { return names_; }
  // The lock-order cycle of the lowest failing seed that deadlocked on one (lock_cycle.h).
  const std::optional<LockCycle>& lock_cycle() const { return lock_cycle_; }
  std::size_t lock_cycle_index() const { return static_cast<std::size_t>(lock_cycle_index_); }
  // Every site a passing run accessed in a cross-thread access pair (either side): what the
  // symptom rule (symptoms.h) calls "runs in a passing run".
  const std::set<std::uint64_t>& passing_sites() const { return passing_sites_; }
  bool any_passing() const { return any_passing_; }

 private:
  std::optional<LockCycle> lock_cycle_;
  std::uint64_t lock_cycle_index_ = 0;
  std::vector<std::optional<localize::FalconRun>> falcon_;
  std::vector<std::optional<localize::SpectraRun>> spectra_;
  std::optional<RecordNames> names_;
  std::uint64_t names_index_ = 0;
  bool instrumented_ = false;
  std::set<std::uint64_t> passing_sites_;
  bool any_passing_ = false;
};

struct LocalizationReport {
  std::string text;             // printed after the seeds summary
  nlohmann::ordered_json json;  // the report's "localization" object
};

LocalizationReport run_localization(const LaunchTarget& target, const Report& report, const LocalizationData& data,
                                    const LocalizeSettings& settings, const ClassifyContext& context,
                                    const std::string& target_name);

}  // namespace ctrlsched::driver
