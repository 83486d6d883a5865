// The locks each event's thread holds (internal to the ConSeq analysis): mutexes, spinlocks and
// rwlocks, from Acquire/Release events. A hold is identified by the Acquire event that took the
// lock (the outermost one for a recursive mutex), so two events are in the same critical section
// exactly when they share a hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

struct LockHold {
  std::uint64_t object = 0;
  std::size_t acquired_at = 0;  // event index of the Acquire
  bool shared = false;          // a read hold of an rwlock
  bool operator==(const LockHold&) const = default;
};

// Mutex, spinlock and both rwlock kinds: the objects whose Acquire/Release bracket a critical
// section (and whose happens-before edges ConSeq leaves out).
bool is_lock_kind(std::uint16_t aux);

class Locksets {
 public:
  explicit Locksets(const Trace& trace);

  // The holds of event i's thread at event i (ordered by object).
  const std::vector<LockHold>& held_at(std::size_t i) const;
  // The hold event i has on `object`, if any.
  std::optional<LockHold> hold_on(std::size_t i, std::uint64_t object) const;
  // True if one hold of i and one hold of j are on the same lock and exclude each other (not
  // both read holds). Meant for events of different threads.
  std::optional<std::uint64_t> common_exclusive_lock(std::size_t i, std::size_t j) const;

 private:
  std::vector<std::vector<LockHold>> snapshots_;  // snapshot 0 = no locks
  std::vector<std::uint32_t> snapshot_of_event_;
};

}  // namespace ctrlsched::localize
