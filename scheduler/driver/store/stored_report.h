// A Report and the localization's data rebuilt from the run store, as a seeds run would have
// them after its runs (docs/store.md, "Reading the store").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "localize/localization.h"
#include "report/report.h"
#include "report/symbolizer.h"
#include "store/run_store.h"

namespace ctrlsched::driver {

struct StoredExploration {
  Report report;             // the runs of the latest invocation's strategy, by seed
  LocalizationData data{0};  // their stored summaries
  std::size_t summaries = 0;  // runs that carry Falcon or spectra summaries
  std::size_t other_strategies = 0;  // runs of the generation left out: another strategy
};

// Every run of `generation` that ran with the strategy of its latest invocation. Throws
// DriverError(BadStore) when the generation has no invocation.
StoredExploration load_exploration(RunStore& store, std::int64_t generation, Symbolizer& symbolizer);

}  // namespace ctrlsched::driver
