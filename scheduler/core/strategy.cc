// What every strategy shares: the default divergence() (none), RecordingStrategy (the decorator
// that turns a run into a schedule and its hash), and make_strategy (RunSpec -> strategy).
//
// Recording rule, relied on by ReplayStrategy and VerifyingStrategy: a request is logged only if
// it had more than one option. A forced choice carries no information, and leaving it out keeps
// schedules short and lets a replay survive changes that only add or remove forced points.
#include "ctrlsched/strategy.h"

#include "ctrlsched/dfs.h"
#include "ctrlsched/preemption_schedule.h"

namespace ctrlsched {

std::uint32_t Strategy::lease(const SchedulingPoint&) { return 0; }

const std::optional<Divergence>& Strategy::divergence() const {
  static const std::optional<Divergence> kNone;
  return kNone;
}

void RecordingStrategy::on_thread_created(ThreadId child, ThreadId parent) {
  inner_.on_thread_created(child, parent);
}

ThreadId RecordingStrategy::next_thread(const SchedulingPoint& point) {
  const ThreadId chosen = inner_.next_thread(point);
  if (point.candidates.size() > 1) log({DecisionKind::Schedule, chosen});
  return chosen;
}

std::size_t RecordingStrategy::pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) {
  const std::size_t index = inner_.pick_waiter(kind, waiters);
  if (waiters.size() > 1 && index < waiters.size()) log({DecisionKind::Wake, waiters[index]});
  return index;
}

bool RecordingStrategy::spurious_wakeup(ThreadId waiter) {
  const bool wakes = inner_.spurious_wakeup(waiter);
  log({DecisionKind::Spurious, wakes ? 1u : 0u});
  return wakes;
}

std::uint32_t RecordingStrategy::lease(const SchedulingPoint& point) {
  const std::uint32_t steps = inner_.lease(point);
  if (steps > 0) log({DecisionKind::Lease, steps});
  return steps;
}

void RecordingStrategy::log(Decision d) {
  sink_.append(d);
  hash_ = hash_decision(hash_, d);
  ++count_;
}

std::unique_ptr<Strategy> make_strategy(const RunSpec& spec) {
  switch (spec.strategy) {
    case StrategyKind::Random:
      return make_random_strategy(spec.seed, spec.preemption_bound);
    case StrategyKind::Pct:
      return make_pct_strategy(spec.seed, spec.pct_depth, spec.pct_steps);
    case StrategyKind::Pos:
      return make_pos_strategy(spec.seed);
    case StrategyKind::Surw:
      return make_surw_strategy(spec.seed, spec.surw_events, spec.surw_uniform_percent);
    case StrategyKind::Preemptions:
      // Its switch points come with the run (make_preemption_strategy); none: non-preemptive.
      return make_preemption_strategy({});
    case StrategyKind::Dfs:
      // Its prefix and step log come with the run (the shim calls make_dfs_strategy); none:
      // the non-preemptive defaults.
      return make_dfs_strategy({}, {});
    case StrategyKind::Replay:
    case StrategyKind::Portfolio:
      break;
  }
  // A Replay spec carries no decisions. An empty replay diverges, with a message, at the first
  // real choice: a loud and well-defined answer to a caller's mistake, unlike a null pointer.
  return make_replay_strategy({});
}

}  // namespace ctrlsched
