// The portfolio (the default when no --strategy is given): seeds are spread over strategies and
// parameters in a fixed rotation by seed number, so a user need not know which strategy finds
// which bug, and every seed's handle still names the concrete strategy it ran (a replay needs no
// portfolio). The rotation and the reasons for it are in docs/strategies.md ("The portfolio").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ctrlsched/run_spec.h"
#include "runs/calibration.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

struct Portfolio {
  RunSpec base;                       // strategy Portfolio; points, max steps, spurious wakeups
  RunProfile profile;                 // calibrated with base.points
  std::optional<RunProfile> sync;     // instrumented binary and points auto: calibrated with sync points
  friend bool operator==(const Portfolio&, const Portfolio&) = default;
};

// Number of seeds after which the rotation of strategies repeats (seed 19 of each cycle decides
// at sync operations only on an instrumented binary with points auto).
inline constexpr std::uint64_t kPortfolioCycle = 20;

// The calibration runs of `base` (and, for an instrumented binary with points auto, of the same
// with sync points). Throws like calibrate_pct_steps; `limit` and `fork_server` as there (the
// limit of the runs with base.points).
Portfolio calibrate_portfolio(const LaunchTarget& target, const RunSpec& base, double timeout_seconds,
                              const std::string& target_name, std::optional<CalibrationLimit>* limit = nullptr,
                              bool fork_server = false);

// The concrete spec of `seed` (pure: the rotation only).
RunSpec portfolio_spec(const Portfolio& portfolio, std::uint64_t seed);

// `spec` with `seed`, resolved through the portfolio when there is one.
RunSpec spec_for_seed(const RunSpec& spec, const std::optional<Portfolio>& portfolio, std::uint64_t seed);

// For one run named by a spec (replay --seed, shrink, trace, confirmation runs): fills in what a
// calibration provides (PCT's k, SURW's estimates) and resolves a portfolio for spec.seed.
RunSpec calibrated_spec(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                        const std::string& target_name);

}  // namespace ctrlsched::driver
