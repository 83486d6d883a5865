// Did the pattern happen in a forced run whose forced order did not complete? (counterfactual.h,
// "Without the pattern"; docs/forcing.md.)
//
// The counterfactual control forces a pattern's opposite order. A run in which that order did not
// complete says nothing while the pattern may have happened in it after all (the hold on its first
// thread expired); when the pattern never happened there, it is a run without the pattern, and
// whether it failed counts. Forced runs record no trace, so each such run is replayed from its
// kept schedule with the trace on, and the trace is searched for any occurrence of the pattern
// (occurs_in: any threads, any iteration). A replay that does not take the run's path, or a trace
// the search cannot finish, counts as neither.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/run_spec.h"
#include "localize/confirm.h"
#include "runs/child_launch.h"

namespace ctrlsched::driver {

// The most runs replayed per forced batch (in seed order): each replay is one more run of the
// test, and 40 of them, like a second batch of forced runs, are enough for the count to matter
// beside the batch's 20 to 100.
inline constexpr std::size_t kMaxWithoutPatternReplays = 40;

struct WithoutPatternCount {
  std::uint64_t replayed = 0;        // runs replayed and searched (faithful replays, finished searches)
  std::uint64_t without = 0;         // of those, no occurrence of the pattern
  std::uint64_t without_failed = 0;  // of those, failed like `original`
};

// `incomplete`: the runs of the batch whose forced order did not complete (in seed order, each
// with its schedule when it was kept). `base`: the batch's spec.
WithoutPatternCount runs_without_pattern(const LaunchTarget& target, const RunSpec& base,
                                         const std::vector<const DirectedRun*>& incomplete,
                                             const FailureIdentity& original, const ForceDirective& pattern,
                                             double timeout_seconds, const std::string& target_name);

}  // namespace ctrlsched::driver
