// After ddmin: a local search for a smaller failing set of preemptions beyond the ones the
// original run took. ddmin only removes preemptions, so its result is 1-minimal among subsets of
// the original run's preemptions; a failure that needs two preemptions may be reached with three
// when the run never preempted at the two right places. Moving a preemption a few points earlier
// or later in its thread (the lock or access before or after) makes new candidates.
//
// Entries that are not Preempt entries ("riders") are never moved and not counted. A round tries,
// in this fixed order: every set that drops one preemption and the riders; every set that turns
// preemption i into a free switch (a Free entry: same thread and target) d = 1, ..., max_shift
// points later, where the thread may block or exit anyway; every set that drops
// preemption i and moves another preemption j by d points of its thread (same target), keeping
// the riders, for i, j in list order and d = +1, -1, +2, -2, ..., +-max_shift (a point index stays
// >= 1); the same sets without the riders. The first one that fails becomes the current set; then
// single entries are removed while the set still fails (1-minimality); the next round starts
// from there. It stops when a round finds nothing, when one preemption is left, or when `budget`
// tests were run. Pure: the runs come in through `test`, batched as in first_failing.h, so the
// result does not depend on the batch size. (Shrinking uses one rider to stand for all the
// free-choice hints of the run, so the search may also find that they are not needed.)
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ctrlsched/preemption_schedule.h"

namespace ctrlsched::driver {

using Preemptions = std::vector<SwitchPoint>;  // sorted
using PreemptionsTest = std::function<std::vector<bool>(const std::vector<Preemptions>&)>;

// The candidates of one round from `current` (sorted), in the order above, each sorted.
std::vector<Preemptions> shifted_candidates(const Preemptions& current, std::uint64_t max_shift);

struct ShiftResult {
  Preemptions preemptions;  // fails (or is `failing` unchanged)
  std::uint64_t tests = 0;  // distinct sets tested
};

ShiftResult shift_search(Preemptions failing, std::uint64_t max_shift, std::uint64_t budget, std::size_t batch,
                         const PreemptionsTest& test);

}  // namespace ctrlsched::driver
