// Falcon patterns on the driver's side: a run's summary (ctrlsched/falcon_patterns.h) read out
// of its record into localize's FalconRun, and a ranking (ctrlsched/localize/falcon.h) rendered
// as text lines and as JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/localize/falcon.h"
#include "ctrlsched/run_record.h"
#include "localize/record_names.h"

namespace ctrlsched::driver {

// nullopt if the collector was not asked for or did not start. Locations of globals are named
// through `names` (location_name; "" for the heap).
std::optional<localize::FalconRun> read_falcon_run(const RunRecord& record, bool failed, const RecordNames& names);

// For merge_by_statement (ctrlsched/localize/falcon.h): every site the runs' patterns name or
// the runs executed, mapped to the smallest such site of its source statement (RecordNames::statement); sites whose
// statement is unknown are left out (they stay as they are).
std::map<std::uint64_t, std::uint64_t> statement_sites(const std::vector<localize::FalconRun>& runs,
                                                       const RecordNames& names);

// One line per pattern, at most `limit` (0 = all), in rank order:
//   "  1  0.50  W1-W2-R1  x  a.c:7 t1 → a.c:12 t2 [T2] → a.c:8 t1   failing 1/1 · passing 1/3 · 4 tied"
// The role-2 access carries the thread of the example occurrence; "· N tied" only when N > 1.
std::vector<std::string> render_falcon_text(const localize::FalconRanking& ranking, const RecordNames& names,
                                            std::size_t limit = 0);

// The Falcon header's note on what the collector left out (docs/localization.md, "Orders fixed by
// creation and join are no patterns"): "; 12 occurrences of orders thread creation or join fixes
// not counted", empty for none.
std::string fixed_orders_note(std::uint64_t occurrences);

// {"score": "jaccard", "runs", "failing", "passing", "dropped", "fixed_by_lifecycle", "patterns": [{"rank", "tied",
//  "score", "kind", "location", "accesses": [{"access": "W", "role": 1, "site", "thread"}...],
//  "failed", "passed", "occurrences"}]}
nlohmann::ordered_json falcon_json(const localize::FalconRanking& ranking, const RecordNames& names);

}  // namespace ctrlsched::driver
