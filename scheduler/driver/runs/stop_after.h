// --stop-after N: which seeds to report when runs finish out of order.
//
// Runs complete in any order under -j, but the report must not depend on it. So the decision is
// taken on the contiguous prefix of finished seeds only: once that prefix holds N failures we
// stop, and report exactly the seeds up to and including the N-th failure. Results of later seeds
// that happened to finish early are discarded; seeds still running are killed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ctrlsched::driver {

class PrefixTracker {
 public:
  // `count` seeds; stop after `stop_after` failures (nullopt: never stop early).
  PrefixTracker(std::uint64_t count, std::optional<std::uint64_t> stop_after);

  // Records that seed number `index` (0-based) finished. Returns true once the stop condition is
  // met (and keeps returning true).
  bool record(std::uint64_t index, bool failed);

  bool stopped() const { return cut_.has_value(); }
  // How many leading seeds the report covers: all `count` unless stopped early.
  std::uint64_t reported_count() const { return cut_.value_or(count_); }
  // Finished seeds in the contiguous prefix (for progress display).
  std::uint64_t prefix() const { return prefix_; }

 private:
  enum : std::uint8_t { kPending = 0, kPassed = 1, kFailed = 2 };
  std::uint64_t count_;
  std::optional<std::uint64_t> stop_after_;
  std::vector<std::uint8_t> state_;
  std::uint64_t prefix_ = 0;           // seeds [0, prefix_) are all finished
  std::uint64_t prefix_failures_ = 0;  // failures among them
  std::optional<std::uint64_t> cut_;
};

}  // namespace ctrlsched::driver
