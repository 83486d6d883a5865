// Contiguous-prefix bookkeeping for --stop-after (see stop_after.h).
#include "runs/stop_after.h"

namespace ctrlsched::driver {

PrefixTracker::PrefixTracker(std::uint64_t count, std::optional<std::uint64_t> stop_after)
    : count_(count), stop_after_(stop_after), state_(static_cast<std::size_t>(count), kPending) {}

bool PrefixTracker::record(std::uint64_t index, bool failed) {
  if (cut_) return true;
  if (index >= count_) return false;
  state_[static_cast<std::size_t>(index)] = failed ? kFailed : kPassed;
  while (prefix_ < count_ && state_[static_cast<std::size_t>(prefix_)] != kPending) {
    if (state_[static_cast<std::size_t>(prefix_)] == kFailed) ++prefix_failures_;
    ++prefix_;
    if (stop_after_ && prefix_failures_ >= *stop_after_) {
      cut_ = prefix_;  // the seed just added is the N-th failure
      return true;
    }
  }
  return false;
}

}  // namespace ctrlsched::driver
