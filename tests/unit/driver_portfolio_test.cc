// The portfolio's rotation (runs/portfolio.h, docs/strategies.md "The portfolio"): which strategy
// and which points each seed runs, and that a seed's spec is the one its named strategy runs.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "runs/portfolio.h"

namespace ctrlsched::driver {
namespace {

Portfolio instrumented() {
  Portfolio p;
  p.base.strategy = StrategyKind::Portfolio;
  p.base.points = PointsMode::Auto;
  p.profile = RunProfile{412, {5, 9}, true};
  p.sync = RunProfile{37, {2, 3}, true};
  return p;
}

std::string name(const RunSpec& s) {
  std::string n = std::string(to_string(s.strategy));
  if (s.strategy == StrategyKind::Pct) n += " d=" + std::to_string(s.pct_depth);
  if (s.strategy == StrategyKind::Surw && s.surw_uniform_percent != 0) n += " u" + std::to_string(s.surw_uniform_percent);
  if (s.points == PointsMode::Sync) n += " sync";
  return n;
}

TEST_CASE("portfolio: the documented rotation of 20 seeds") {
  const Portfolio p = instrumented();
  const char* expected[kPortfolioCycle] = {"pct d=3", "surw", "surw u50", "pos",     "surw",
                                           "surw u50", "pos", "surw",    "pos",     "surw",
                                           "pos",     "pos",  "surw",    "pos",     "surw",
                                           "pct d=3", "surw", "pct d=3", "pct d=3", "surw sync"};
  for (std::uint64_t seed = 0; seed < 3 * kPortfolioCycle; ++seed) {
    INFO("seed " << seed);
    const RunSpec s = portfolio_spec(p, seed);
    CHECK(name(s) == expected[seed % kPortfolioCycle]);
    CHECK(s.seed == seed);
    CHECK_FALSE(s.preemption_bound);
  }
}

TEST_CASE("portfolio: shares per cycle (SURW 7, POS 6, PCT 4, SURW u50 2, SURW at sync points 1)") {
  const Portfolio p = instrumented();
  std::map<std::string, int> shares;
  for (std::uint64_t seed = 100; seed < 100 + kPortfolioCycle; ++seed) ++shares[name(portfolio_spec(p, seed))];
  CHECK(shares ==
        std::map<std::string, int>{{"surw", 7}, {"pos", 6}, {"pct d=3", 4}, {"surw u50", 2}, {"surw sync", 1}});
}

TEST_CASE("portfolio: calibrations follow the points in use") {
  const Portfolio p = instrumented();
  const RunSpec pct = portfolio_spec(p, 0);
  CHECK(pct.pct_steps == 412);
  CHECK(pct.points == PointsMode::Auto);
  const RunSpec surw = portfolio_spec(p, 1);
  CHECK(surw.surw_events == std::vector<std::uint32_t>{5, 9});
  CHECK(surw.surw_uniform_percent == 0);
  CHECK(portfolio_spec(p, 2).surw_uniform_percent == 50);
  const RunSpec surw_sync = portfolio_spec(p, 19);
  CHECK(surw_sync.points == PointsMode::Sync);
  CHECK(surw_sync.surw_events == std::vector<std::uint32_t>{2, 3});
  CHECK(surw_sync.surw_uniform_percent == 0);
}

TEST_CASE("portfolio: without a sync calibration (plain binary, or points given) every seed keeps its points") {
  Portfolio p = instrumented();
  p.sync.reset();
  const RunSpec s = portfolio_spec(p, 19);
  CHECK(s.strategy == StrategyKind::Surw);
  CHECK(s.points == PointsMode::Auto);
  CHECK(s.surw_events == std::vector<std::uint32_t>{5, 9});
}

}  // namespace
}  // namespace ctrlsched::driver
