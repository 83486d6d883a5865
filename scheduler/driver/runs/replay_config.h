// The RunConfig of a replay (see run_record_region.h for a seed's): which strategy the shim
// builds and what it does with the input log.
#pragma once

#include <optional>

#include "ctrlsched/run_record.h"
#include "ctrlsched/run_spec.h"

namespace ctrlsched::driver {

// A schedule file's replay: the shim follows the input log, and builds the strategy the file's
// handle names (`seed_spec`, when the handle parses) without following it, so the run's address
// space is the seed run's (ctrlsched/in_place_schedule.h, kInputLogFollow).
RunConfig follow_config_for(const RunSpec& replay_spec, const std::optional<RunSpec>& seed_spec);

// A handle's replay: the seed's strategy, verified against a saved schedule when there is one.
RunConfig handle_config_for(const RunSpec& spec, bool verify);

}  // namespace ctrlsched::driver
