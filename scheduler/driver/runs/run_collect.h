// From a finished run (record + exit status + captured output) to the RunResult we keep.
//
// This is where a run that could not start under the shim turns into the command's error (exit
// code 3, reported once), so seeds and replay treat it the same way.
#pragma once

#include <string>

#include "ctrlsched/run_spec.h"
#include "runs/outcome.h"
#include "runs/run_result.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

// `spec` is the run's spec (its hash is replaced by the one the run produced). `target` names the
// program in error messages. Throws DriverError(CannotRun) if the program never ran under the shim.
RunResult collect_result(const FinishedRun& run, RunSpec spec, const ClassifyContext& context,
                         const std::string& target);

}  // namespace ctrlsched::driver
