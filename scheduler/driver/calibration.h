// PCT calibration: PCT spreads its d-1 priority change points over the k steps it expects a run
// to take, so k must be known before the first seed. Unless --pct-steps is given we measure it
// with one run (strategy random, seed 0, same points and max-steps) and use the steps it took.
// k then goes into every handle, so a handle never depends on a calibration being repeated.
#pragma once

#include <cstdint>
#include <string>

#include "ctrlsched/run_spec.h"
#include "worker_pool.h"

namespace ctrlsched::driver {

// Runs the calibration run for `spec` and returns max(1, its steps). Throws DriverError(CannotRun)
// if the target cannot run under the shim.
std::uint64_t calibrate_pct_steps(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                                  const std::string& target_name);

}  // namespace ctrlsched::driver
