// The happens-before relation of one trace, as vector clocks computed from its synchronization
// events (the rules are listed in ctrlsched/trace_format.h):
//
//   ThreadCreate(address = child)  the parent releases its clock to the child
//   ThreadStart                    the child acquires it
//   ThreadExit                     releases to the thread's joiners
//   ThreadJoin(address = joined)   acquires the joined thread's exit clock
//   Release / Acquire (object)     join through a per-object clock, keyed by (address, aux);
//                                  barriers also by round (`size` = round mod 256), so a round
//                                  orders only what came before it
//   AtomicStore / AtomicLoad / AtomicRmw   release / acquire / both on the address (sequential
//                                  consistency). Atomics share the key (address, WaitKind::None)
//                                  with user annotations (__tsan_release/__tsan_acquire), as in
//                                  ThreadSanitizer. A fence (AtomicRmw at address 0) orders
//                                  nothing: under sequential consistency it has no effect.
//
// After each release the releasing thread's own component ticks, so its events after the release
// are not ordered before an acquirer of that release. Every thread's own component starts at 1,
// so "knows nothing of thread t" (0) is never confused with "knows t's first epoch".
//
// Read-write locks: the shim tags every rwlock unlock with aux = RwlockWrite, whether the thread
// held it for reading or writing. Keyed naively, readers would never acquire what writers
// released. So both rwlock kinds share one object, an unlock counts as a read unlock when the
// thread holds the lock for reading (seen from its own Acquire(RwlockRead) events), and, as in
// ThreadSanitizer, read unlocks release into a separate clock that only writers acquire: readers
// do not order one another.
//
// Cost, for N events, S synchronization events, K distinct sync objects, T threads: time
// O(N + S·(T + log K)); memory 8 bytes per event plus one stored clock (≤ T words) per point
// where some thread's clock changed (≤ one per sync event), plus K object clocks. Consecutive
// events of a thread with no synchronization in between share one stored clock, which is why
// every event (not only accesses and sync events) can have its clock at that price.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

class HappensBefore {
 public:
  explicit HappensBefore(std::span<const TraceEvent> events);
  explicit HappensBefore(const Trace& trace) : HappensBefore(std::span(trace.events)) {}

  // True if event i happens before event j (i < j and j's thread knows i's epoch; same thread:
  // program order). False for i == j, out-of-range indices, and events of corrupt thread ids.
  bool ordered(std::size_t i, std::size_t j) const;
  // Distinct events neither of which happens before the other.
  bool concurrent(std::size_t i, std::size_t j) const;

  // Event i's vector clock: component k is the epoch of thread k that the event knows about
  // (missing components are 0). Sized by the threads the event's thread knew of; empty for
  // out-of-range indices and corrupt thread ids. Valid as long as this object.
  std::span<const std::uint32_t> clock(std::size_t i) const;

  std::size_t event_count() const { return entries_.size(); }
  // 1 + the highest thread id seen (as an event's thread or a created/joined thread).
  std::uint32_t thread_count() const { return thread_count_; }
  // Distinct clocks stored (the memory the relation takes beyond 8 bytes per event).
  std::size_t stored_clocks() const { return snapshots_.size(); }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  struct Entry {
    std::uint32_t thread = kNone;
    std::uint32_t snapshot = kNone;
  };
  struct Snapshot {
    std::size_t offset;
    std::uint32_t size;
  };
  friend class HappensBeforeBuilder;

  std::vector<Entry> entries_;
  std::vector<Snapshot> snapshots_;
  std::vector<std::uint32_t> arena_;  // the stored clocks, back to back
  std::uint32_t thread_count_ = 0;
};

}  // namespace ctrlsched::localize
