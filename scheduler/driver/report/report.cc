// Report assembly helpers (see report.h).
#include "report/report.h"

namespace ctrlsched::driver {

void finish_report(Report& report) {
  report.groups = group_failures(report.runs, report.header.test);
  report.counts = count_outcomes(report.runs);
}

RunSpec seed_spec(const ReportHeader& header, std::uint64_t seed) {
  return spec_for_seed(header.spec, header.portfolio, seed);
}

RunSpec directed_base_spec(const ReportHeader& header) {
  RunSpec spec = header.spec;
  spec.seed = header.seed_start;
  if (!header.portfolio) return spec;
  spec = header.portfolio->base;
  spec.seed = header.seed_start;
  spec.strategy = StrategyKind::Pct;
  spec.pct_depth = kDefaultPctDepth;
  spec.pct_steps = header.portfolio->profile.steps;
  return spec;
}

std::string strategy_text(const RunSpec& spec) {
  std::string text;
  if (spec.strategy == StrategyKind::Pct) {
    text = "pct(d=" + std::to_string(spec.pct_depth) + ", k=" + std::to_string(spec.pct_steps) + ")";
  } else if (spec.strategy == StrategyKind::Portfolio) {
    text = "portfolio(surw, pos, pct d=3, surw u50)";
  } else if (spec.strategy == StrategyKind::Surw && spec.surw_uniform_percent != 0) {
    text = "surw(uniform " + std::to_string(spec.surw_uniform_percent) + "%)";
  } else if (spec.strategy == StrategyKind::Random && spec.preemption_bound) {
    text = "random(pb=" + std::to_string(*spec.preemption_bound) + ")";
  } else {
    text = std::string(to_string(spec.strategy));
  }
  if (spec.spurious_wakeups) text += " · spurious wakeups";
  if (spec.points == PointsMode::Sync) text += " · sync points";
  if (spec.points == PointsMode::Accesses) text += " · access points";
  if (spec.max_steps != kDefaultMaxSteps) text += " · max " + std::to_string(spec.max_steps) + " steps";
  return text;
}

}  // namespace ctrlsched::driver
