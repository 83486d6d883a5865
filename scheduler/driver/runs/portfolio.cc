// The portfolio rotation (see portfolio.h and docs/strategies.md, "The portfolio").
#include "runs/portfolio.h"

#include <array>

namespace ctrlsched::driver {
namespace {

struct Slot {
  StrategyKind strategy;
  std::uint32_t pct_depth;  // Pct only
};

// One cycle of the rotation, indexed by seed % kPortfolioCycle. The measured reasons for the
// shares (docs/strategies.md, "The portfolio"): random and POS found the corpus bugs fastest,
// so they get three slots each; PCT d=3 wins on start-up order violations (two slots), d=2, 4
// and 5 one each (shallow bugs, three-preemption bugs); SURW two (long runs, yield loops). The
// cycle length is prime so that the sync-only seeds (every 4th) meet every slot.
constexpr std::array<Slot, kPortfolioCycle> kRotation{{
    {StrategyKind::Random, 0},
    {StrategyKind::Pos, 0},
    {StrategyKind::Pct, 3},
    {StrategyKind::Surw, 0},
    {StrategyKind::Random, 0},
    {StrategyKind::Pos, 0},
    {StrategyKind::Pct, 2},
    {StrategyKind::Random, 0},
    {StrategyKind::Pos, 0},
    {StrategyKind::Pct, 3},
    {StrategyKind::Surw, 0},
    {StrategyKind::Pct, 4},
    {StrategyKind::Pct, 5},
}};

}  // namespace

Portfolio calibrate_portfolio(const LaunchTarget& target, const RunSpec& base, double timeout_seconds,
                              const std::string& target_name, std::optional<CalibrationLimit>* limit,
                              bool fork_server) {
  Portfolio portfolio;
  portfolio.base = base;
  portfolio.base.strategy = StrategyKind::Portfolio;
  portfolio.profile = calibrate_profile(target, base, timeout_seconds, target_name, limit, fork_server);
  if (portfolio.profile.instrumented && base.points == PointsMode::Auto) {
    RunSpec sync = base;
    sync.points = PointsMode::Sync;
    portfolio.sync = calibrate_profile(target, sync, timeout_seconds, target_name, nullptr, fork_server);
  }
  return portfolio;
}

RunSpec portfolio_spec(const Portfolio& portfolio, std::uint64_t seed) {
  RunSpec spec = portfolio.base;
  spec.seed = seed;
  spec.expected_hash.reset();
  // Instrumented with points auto: every 4th seed (seed % 4 == 3) decides at sync operations
  // only, the others at every access.
  const bool sync_points = portfolio.sync.has_value() && seed % kPortfolioSyncEvery == kPortfolioSyncEvery - 1;
  const Slot slot = kRotation[seed % kPortfolioCycle];
  const RunProfile& profile = sync_points ? *portfolio.sync : portfolio.profile;
  if (sync_points) spec.points = PointsMode::Sync;
  spec.strategy = slot.strategy;
  spec.pct_depth = kDefaultPctDepth;
  spec.pct_steps = 0;
  spec.preemption_bound.reset();
  spec.surw_events.clear();
  if (slot.strategy == StrategyKind::Pct) {
    spec.pct_depth = slot.pct_depth;
    spec.pct_steps = profile.steps;  // k follows the points in use
  } else if (slot.strategy == StrategyKind::Surw) {
    spec.surw_events = profile.events;
  }
  return spec;
}

RunSpec spec_for_seed(const RunSpec& spec, const std::optional<Portfolio>& portfolio, std::uint64_t seed) {
  if (portfolio) return portfolio_spec(*portfolio, seed);
  RunSpec resolved = spec;
  resolved.seed = seed;
  return resolved;
}

RunSpec calibrated_spec(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                        const std::string& target_name) {
  RunSpec resolved = spec;
  if (spec.strategy == StrategyKind::Portfolio) {
    resolved = portfolio_spec(calibrate_portfolio(target, spec, timeout_seconds, target_name), spec.seed);
    resolved.expected_hash = spec.expected_hash;
  } else if (spec.strategy == StrategyKind::Pct && spec.pct_steps == 0) {
    resolved.pct_steps = calibrate_pct_steps(target, spec, timeout_seconds, target_name);
  } else if (spec.strategy == StrategyKind::Surw && spec.surw_events.empty()) {
    resolved.surw_events = calibrate_profile(target, spec, timeout_seconds, target_name).events;
  }
  return resolved;
}

}  // namespace ctrlsched::driver
