// Replaying forced runs traced to see whether the pattern happened in them (without_pattern.h).
#include "localize/without_pattern.h"

#include "localize/predict.h"
#include "localize/reference_binding.h"

namespace ctrlsched::driver {

WithoutPatternCount runs_without_pattern(const LaunchTarget& target, const RunSpec& base,
                                         const std::vector<const DirectedRun*>& incomplete,
                                             const FailureIdentity& original, const ForceDirective& pattern,
                                             double timeout_seconds, const std::string& target_name) {
  WithoutPatternCount count;
  std::size_t replays = 0;
  for (const DirectedRun* run : incomplete) {
    if (replays == kMaxWithoutPatternReplays) break;
    if (!run->schedule) continue;  // its log was incomplete: nothing to replay
    ++replays;
    RunSpec spec = base;
    spec.seed = run->result.seed;
    const TracedRun traced = run_traced(target, spec, timeout_seconds, target_name, &*run->schedule);
    // A faithful replay ends as the run did.
    if (!traced.replayed_faithfully || same_failure(traced.result, original) != same_failure(run->result, original)) {
      continue;
    }
    const std::optional<bool> occurs = occurs_in(pattern, traced.trace);
    if (!occurs) continue;
    ++count.replayed;
    if (*occurs) continue;
    ++count.without;
    if (same_failure(run->result, original)) ++count.without_failed;
  }
  return count;
}

}  // namespace ctrlsched::driver
