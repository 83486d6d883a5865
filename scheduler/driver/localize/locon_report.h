// Locon on the driver side: the runs' access-pair summaries (RunResult::access_pairs) as input
// for the pure test procedures (ctrlsched/localize/locon.h), and their findings as text and JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctrlsched/localize/locon.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

// One run's pairs in Locon's terms; the location numbers stand in for the addresses.
localize::locon::RunPairs locon_pairs(const AccessPairs& pairs);

struct LoconInput {
  localize::locon::RunPairs failed;
  std::vector<localize::locon::RunPairs> passing;  // in the order of `runs`
};

// The same input without the pairs of synchronization operations (ctrlsched/sync_ops.h): Locon
// over memory accesses only, as before sync operations were collected.
LoconInput without_sync_pairs(const LoconInput& input);

// The failing run runs[failed] against every passing run that has an access-pair summary.
// nullopt if runs[failed] is out of range or has no summary (the collector did not run).
std::optional<LoconInput> locon_input(const std::vector<RunResult>& runs, std::size_t failed);

// Symbolized sites ("function (file:line)", as the collector reader named them) of every pair
// side in these runs, for rendering findings after the runs are gone.
using RunSiteNames = std::map<std::uint64_t, std::string>;
RunSiteNames site_names(const std::vector<RunResult>& runs);

// "R@function (file:line)"; at tid level + " [T2]"; at loop level + " [T2, iteration 0]".
// A site without a name shows as its raw value in hex.
std::string side_text(const localize::locon::Side& side, localize::locon::Level level,
                      const RunSiteNames& names);
// "<head> → <tail>"
std::string pair_text(const localize::locon::PairKey& pair, localize::locon::Level level,
                      const RunSiteNames& names);

// A numbered block per finding: the reported pair, the other pair (II's partner, III's coupled
// pair) if any, and the reason. "Locon: no buggy access pair found." when there is none.
std::string findings_text(const std::vector<localize::locon::Finding>& findings, const RunSiteNames& names);

// [{procedure, level, order, reason, pairs: [{text, head: {kind, site, thread?, iteration?},
// tail: {...}}]}]; thread only at tid and loop level, iteration only at loop level.
nlohmann::ordered_json findings_json(const std::vector<localize::locon::Finding>& findings,
                                     const RunSiteNames& names);

}  // namespace ctrlsched::driver
