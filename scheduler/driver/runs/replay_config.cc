// Replay configurations (see replay_config.h).
#include "runs/replay_config.h"

#include "ctrlsched/in_place_schedule.h"
#include "runs/run_record_region.h"

namespace ctrlsched::driver {

RunConfig follow_config_for(const RunSpec& replay_spec, const std::optional<RunSpec>& seed_spec) {
  if (!seed_spec || seed_spec->strategy == StrategyKind::Replay || seed_spec->strategy == StrategyKind::Preemptions) {
    return run_config_for(replay_spec);  // no seed strategy to mirror: a plain replay
  }
  RunSpec spec = *seed_spec;
  // What the replay itself asked for wins where it matters to the run.
  spec.max_steps = replay_spec.max_steps;
  spec.points = replay_spec.points;
  spec.spurious_wakeups = replay_spec.spurious_wakeups;
  RunConfig config = run_config_for(spec);
  config.verify_input_log = kInputLogFollow;
  return config;
}

RunConfig handle_config_for(const RunSpec& spec, bool verify) {
  RunConfig config = run_config_for(spec);
  config.verify_input_log = verify ? kInputLogVerify : kInputLogNone;
  return config;
}

}  // namespace ctrlsched::driver
