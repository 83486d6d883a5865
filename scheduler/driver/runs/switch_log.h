// The switch log a run wrote into its record (kCollectSwitches, ctrlsched/run_record.h): where
// the run switched threads and why (preemption_schedule.h). Read by the HTML report to mark
// preemptions on a traced run.
#pragma once

#include <vector>

#include "ctrlsched/preemption_schedule.h"
#include "ctrlsched/run_record.h"

namespace ctrlsched::driver {

struct RecordedSwitches {
  std::vector<SwitchPoint> entries;
  bool truncated = false;  // the run switched more often than the record holds
};

RecordedSwitches recorded_switches(const RunRecord& record);

}  // namespace ctrlsched::driver
