// `ctrlsched shrink` support in the shim: the strategy that follows a list of switch points
// (strategy Preemptions, the list in the run record's input log) and the switch log
// (kCollectSwitches), which records where the run switched threads (preemption_schedule.h).
#pragma once

#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched::shim {

// The preemption strategy for the plan in the record's input log.
Strategy* make_planned_preemption_strategy(const RunRecord* record);

// Wraps `inner` so every switch point lands in the record's switch log. Never freed (see
// Runtime): library destructors may still reach scheduling points at exit.
Strategy* record_switches(Strategy& inner, RunRecord* record);

}  // namespace ctrlsched::shim
