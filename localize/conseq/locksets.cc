// Locksets per event (locksets.h). Each thread's set changes only at its lock events, so events
// share snapshots: memory is one index per event plus one set per lock event.
#include "locksets.h"

#include <algorithm>
#include <map>

#include "ctrlsched/run_record.h"

namespace ctrlsched::localize {

bool is_lock_kind(std::uint16_t aux) {
  return aux == static_cast<std::uint16_t>(WaitKind::Mutex) ||
         aux == static_cast<std::uint16_t>(WaitKind::Spin) ||
         aux == static_cast<std::uint16_t>(WaitKind::RwlockRead) ||
         aux == static_cast<std::uint16_t>(WaitKind::RwlockWrite);
}

Locksets::Locksets(const Trace& trace) : snapshots_(1), snapshot_of_event_(trace.events.size(), 0) {
  struct Held {
    LockHold hold;
    std::uint32_t depth = 0;  // recursive acquisitions
  };
  std::map<std::uint32_t, std::map<std::uint64_t, Held>> held;  // thread → object → hold
  std::map<std::uint32_t, std::uint32_t> current;                // thread → snapshot

  auto snapshot = [&](std::uint32_t thread) {
    std::vector<LockHold> set;
    for (const auto& [object, h] : held[thread]) set.push_back(h.hold);
    snapshots_.push_back(std::move(set));
    current[thread] = static_cast<std::uint32_t>(snapshots_.size() - 1);
  };

  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& e = trace.events[i];
    const EventKind kind = kind_of(e);
    const bool lock_event = (kind == EventKind::Acquire || kind == EventKind::Release) && is_lock_kind(e.aux);
    if (lock_event && kind == EventKind::Acquire) {
      Held& h = held[e.thread][e.address];
      if (h.depth++ == 0)
        h.hold = {e.address, i, e.aux == static_cast<std::uint16_t>(WaitKind::RwlockRead)};
      snapshot(e.thread);
    }
    auto it = current.find(e.thread);
    snapshot_of_event_[i] = it == current.end() ? 0 : it->second;
    if (lock_event && kind == EventKind::Release) {
      auto& objects = held[e.thread];
      if (auto h = objects.find(e.address); h != objects.end() && --h->second.depth == 0) objects.erase(h);
      snapshot(e.thread);
    }
  }
}

const std::vector<LockHold>& Locksets::held_at(std::size_t i) const {
  return snapshots_[i < snapshot_of_event_.size() ? snapshot_of_event_[i] : 0];
}

std::optional<LockHold> Locksets::hold_on(std::size_t i, std::uint64_t object) const {
  for (const LockHold& h : held_at(i))
    if (h.object == object) return h;
  return std::nullopt;
}

std::optional<std::uint64_t> Locksets::common_exclusive_lock(std::size_t i, std::size_t j) const {
  for (const LockHold& a : held_at(i))
    for (const LockHold& b : held_at(j))
      if (a.object == b.object && !(a.shared && b.shared)) return a.object;
  return std::nullopt;
}

}  // namespace ctrlsched::localize
