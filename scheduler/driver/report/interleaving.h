// The readable interleaving of a shrunk run: which thread ran which source lines between two
// switches, with the preemptions marked, e.g.
//   T0 runs two_preemptions.c:61 (main)
//   T1 runs two_preemptions.c:46-48 (worker)
//   -- preemption 1 of 2: T1 -> T2 after T1's release at two_preemptions.c:48 (worker)
//   T2 runs two_preemptions.c:46-53 (worker), two_preemptions.c:37-40 (device_users)
// Places come from the run's trace: every event with a site (instrumented accesses, and the call
// sites of synchronization operations, so an uninstrumented binary still shows its sync points).
// Consecutive events in one function of one file merge into a line range, unless a line comes
// before the start of the range (then a new range starts, so the order stays readable). Preemptions come from
// the run's switch log (preemption_schedule.h), whose thread switches line up one to one with the
// trace's Switch events; if they ever disagree, no further switch is marked.
// Pure: symbolization comes in through localize::Symbolizer.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"
#include "ctrlsched/preemption_schedule.h"

namespace ctrlsched::driver {

std::vector<std::string> render_interleaving(const localize::Trace& trace, std::span<const SwitchPoint> switch_log,
                                             localize::Symbolizer& symbolizer);

}  // namespace ctrlsched::driver
