// The access-pair summary of a run (--access-pairs; ctrlsched/access_pairs.h), read from the run
// record and symbolized for the JSON report (the result types are in run_result.h).
#pragma once

#include <optional>

#include "ctrlsched/run_record.h"
#include "runs/outcome.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

// nullopt if the collector did not run. Sites are symbolized through `context`.
std::optional<AccessPairs> read_access_pairs(const RunRecord& record, const ClassifyContext& context);

}  // namespace ctrlsched::driver
