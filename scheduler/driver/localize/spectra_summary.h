// Block spectra (SCURF) on the driver's side: a run's summary (ctrlsched/block_spectra.h) read
// out of its record into localize's SpectraRun, and a ranking (ctrlsched/localize/spectra.h)
// rendered as text lines and as JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/localize/spectra.h"
#include "ctrlsched/run_record.h"
#include "localize/record_names.h"

namespace ctrlsched::driver {

// nullopt if the collector was not asked for or did not start.
std::optional<localize::SpectraRun> read_spectra_run(const RunRecord& record, bool failed);

// One line per component, at most `limit` (0 = all), in rank order:
//   "  1  1.00  pipe.c:4 pipe  [T1 ∥ T2]   concurrent in failing 1/1 · passing 0/5 · 2 tied"
// The thread pair is the example run's first concurrent pair ("-" when never concurrent). When
// no component ran concurrently in any failing run, one line says so instead of a list of ties.
std::vector<std::string> render_spectra_text(std::span<const localize::RankedComponent> ranking,
                                             std::uint32_t failing, std::uint32_t passing, const RecordNames& names,
                                             std::size_t limit = 0);

// {"failing", "passing", "components": [{"rank", "tied", "score", "component", "n11", "n10",
//  "n01", "n00", "entered_runs", "threads": [a, b] or null}]}
nlohmann::ordered_json spectra_json(std::span<const localize::RankedComponent> ranking, std::uint32_t failing,
                                    std::uint32_t passing, const RecordNames& names);

}  // namespace ctrlsched::driver
