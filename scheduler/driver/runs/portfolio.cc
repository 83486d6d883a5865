// The portfolio rotation (see portfolio.h and docs/strategies.md, "The portfolio").
#include "runs/portfolio.h"

#include <array>

namespace ctrlsched::driver {
namespace {

struct Slot {
  StrategyKind strategy;
  bool sync_points = false;                // instrumented binary with points auto: decide at sync operations only
  std::uint32_t surw_uniform_percent = 0;  // SURW: share of uniform choices (surw_strategy.cc, rule 7)
};

constexpr Slot surw{StrategyKind::Surw};
constexpr Slot surw_sync{StrategyKind::Surw, true};
constexpr Slot pos{StrategyKind::Pos};
constexpr Slot pct{StrategyKind::Pct};

// One cycle of the rotation, indexed by seed % kPortfolioCycle (docs/strategies.md, "The
// portfolio", for the measurements behind it). Seeds 0-2 run one of each kind (SURW, PCT, POS),
// so that a bug one of them finds in most runs is found within the first few seeds; seeds 3-11
// alternate SURW and PCT, and 12-18 are SURW; seed 19 runs SURW at sync points. The shares (SURW
// 13 and 1 at sync points, PCT d=3 5, POS 1) come from the corpus: SURW is the best single
// strategy on most programs and the only good one on some (maintenance3, pending_hang), PCT on
// the start-up order violations (barrier_phase, log_queue_cv, latency_stats), POS on sem_results;
// the order puts the PCT seeds early, where a bug PCT finds in most runs is found first.
constexpr std::array<Slot, kPortfolioCycle> kRotation{{
    surw, pct,  pos,  surw, pct,
    surw, pct,  surw, pct,  surw,
    pct,  surw, surw, surw, surw,
    surw, surw, surw, surw, surw_sync,
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
  const Slot slot = kRotation[seed % kPortfolioCycle];
  const bool sync_points = slot.sync_points && portfolio.sync.has_value();
  const RunProfile& profile = sync_points ? *portfolio.sync : portfolio.profile;
  if (sync_points) spec.points = PointsMode::Sync;
  spec.strategy = slot.strategy;
  spec.pct_depth = kDefaultPctDepth;
  spec.pct_steps = 0;
  spec.preemption_bound.reset();
  spec.surw_events.clear();
  spec.surw_uniform_percent = 0;
  if (slot.strategy == StrategyKind::Pct) {
    spec.pct_steps = profile.steps;  // k follows the points in use
  } else if (slot.strategy == StrategyKind::Surw) {
    spec.surw_events = profile.events;
    spec.surw_uniform_percent = slot.surw_uniform_percent;
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
