// Seeds mode: `ctrlsched [options] ./test args` runs seeds S..S+N-1 in parallel, reports in seed
// order, saves the schedules of the first failing seeds and returns the exit code.
#pragma once

#include "exit_codes.h"
#include "options.h"
#include "worker_pool.h"

namespace ctrlsched::driver {

// Checks the target, finds the shim and builds what every run executes. Throws DriverError.
LaunchTarget prepare_launch(const CommandLine& command_line);

ExitCode run_seeds(const CommandLine& command_line);

}  // namespace ctrlsched::driver
