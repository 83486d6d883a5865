// Vector clocks for every event of a trace; the rules and their costs are in happens_before.h.
//
// One pass over the events. Each event is handled in two halves: first what it acquires (its
// thread's clock joins another clock), then its clock is recorded, then what it releases (another
// clock joins its thread's clock, and the thread's own component ticks). An event that both
// releases and acquires (AtomicRmw) therefore sees the acquired clock and publishes it.
#include "ctrlsched/localize/happens_before.h"

#include <compare>
#include <map>
#include <utility>

namespace ctrlsched::localize {

namespace {

using Clock = std::vector<std::uint32_t>;

// Returns true if `into` changed.
bool join(Clock& into, const Clock& from) {
  bool changed = false;
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (std::size_t k = 0; k < from.size(); ++k)
    if (from[k] > into[k]) {
      into[k] = from[k];
      changed = true;
    }
  return changed;
}

// A synchronization object as the relation sees it. `slot` separates clocks of one object:
// the barrier round, or a rwlock's write clock (0) and read clock (1).
struct SyncKey {
  std::uint64_t address;
  std::uint16_t kind;  // WaitKind; both rwlock kinds map to RwlockWrite
  std::uint32_t slot;
  auto operator<=>(const SyncKey&) const = default;
};

constexpr auto kind_value(WaitKind k) { return static_cast<std::uint16_t>(k); }
constexpr std::uint32_t kRwWriteSlot = 0;
constexpr std::uint32_t kRwReadSlot = 1;

bool is_rwlock(std::uint16_t aux) {
  return aux == kind_value(WaitKind::RwlockRead) || aux == kind_value(WaitKind::RwlockWrite);
}

}  // namespace

// Holds the state of the single pass; HappensBefore keeps only the results.
class HappensBeforeBuilder {
 public:
  explicit HappensBeforeBuilder(HappensBefore& out) : out_(out) {}

  void add(const TraceEvent& e) {
    if (e.thread >= kMaxTraceThreads) {
      out_.entries_.push_back({});
      return;
    }
    Thread& me = thread(e.thread);
    acquire_half(e, me);
    out_.entries_.push_back({e.thread, snapshot(me)});
    if (release_half(e, me)) {
      ++me.clock[e.thread];
      me.snapshot = HappensBefore::kNone;
    }
  }

 private:
  struct Thread {
    Clock clock;
    std::uint32_t snapshot = HappensBefore::kNone;  // stored copy of `clock`, if still current
  };

  Thread& thread(std::uint32_t id) {
    if (id >= threads_.size()) threads_.resize(id + 1);
    note_thread(id);
    Thread& t = threads_[id];
    if (t.clock.size() <= id) t.clock.resize(id + 1, 0);
    if (t.clock[id] == 0) t.clock[id] = 1;  // own epochs start at 1: 0 means "knows nothing"
    return t;
  }

  void note_thread(std::uint64_t id) {
    if (id < kMaxTraceThreads && id + 1 > out_.thread_count_)
      out_.thread_count_ = static_cast<std::uint32_t>(id + 1);
  }

  std::uint32_t snapshot(Thread& t) {
    if (t.snapshot == HappensBefore::kNone) {
      t.snapshot = static_cast<std::uint32_t>(out_.snapshots_.size());
      out_.snapshots_.push_back({out_.arena_.size(), static_cast<std::uint32_t>(t.clock.size())});
      out_.arena_.insert(out_.arena_.end(), t.clock.begin(), t.clock.end());
    }
    return t.snapshot;
  }

  void acquire_from(Thread& me, const std::map<SyncKey, Clock>::const_iterator& it) {
    if (it != objects_.end() && join(me.clock, it->second)) me.snapshot = HappensBefore::kNone;
  }
  void acquire_from(Thread& me, const Clock* clock) {
    if (clock != nullptr && join(me.clock, *clock)) me.snapshot = HappensBefore::kNone;
  }

  static const Clock* find(const std::map<std::uint32_t, Clock>& clocks, std::uint64_t id) {
    auto it = id < kMaxTraceThreads ? clocks.find(static_cast<std::uint32_t>(id)) : clocks.end();
    return it == clocks.end() ? nullptr : &it->second;
  }

  void acquire_half(const TraceEvent& e, Thread& me) {
    switch (kind_of(e)) {
      case EventKind::ThreadStart:
        acquire_from(me, find(start_clocks_, e.thread));
        break;
      case EventKind::ThreadJoin:
        note_thread(e.address);
        acquire_from(me, find(exit_clocks_, e.address));
        break;
      case EventKind::Acquire:
        if (is_rwlock(e.aux)) {
          acquire_from(me, objects_.find(rwlock_key(e, kRwWriteSlot)));
          if (e.aux == kind_value(WaitKind::RwlockWrite))
            acquire_from(me, objects_.find(rwlock_key(e, kRwReadSlot)));
          else
            ++read_held_[{e.thread, e.address}];
        } else {
          acquire_from(me, objects_.find(object_key(e)));
        }
        break;
      case EventKind::AtomicLoad:
      case EventKind::AtomicRmw:
        if (e.address != 0) acquire_from(me, objects_.find(atomic_key(e)));
        break;
      default:
        break;
    }
  }

  // Returns true if the event released the thread's clock.
  bool release_half(const TraceEvent& e, Thread& me) {
    switch (kind_of(e)) {
      case EventKind::ThreadCreate:
        note_thread(e.address);
        if (e.address >= kMaxTraceThreads) return false;
        join(start_clocks_[static_cast<std::uint32_t>(e.address)], me.clock);
        return true;
      case EventKind::ThreadExit:
        join(exit_clocks_[e.thread], me.clock);
        return true;
      case EventKind::Release:
        join(objects_[release_key(e)], me.clock);
        return true;
      case EventKind::AtomicStore:
      case EventKind::AtomicRmw:
        if (e.address == 0) return false;
        join(objects_[atomic_key(e)], me.clock);
        return true;
      default:
        return false;
    }
  }

  static SyncKey rwlock_key(const TraceEvent& e, std::uint32_t slot) {
    return {e.address, kind_value(WaitKind::RwlockWrite), slot};
  }
  static SyncKey atomic_key(const TraceEvent& e) { return {e.address, kind_value(WaitKind::None), 0}; }
  static SyncKey object_key(const TraceEvent& e) {
    std::uint32_t round = e.aux == kind_value(WaitKind::Barrier) ? e.size : 0;
    return {e.address, e.aux, round};
  }

  // A rwlock unlock is a read unlock if the thread holds the lock for reading.
  SyncKey release_key(const TraceEvent& e) {
    if (!is_rwlock(e.aux)) return object_key(e);
    auto held = read_held_.find({e.thread, e.address});
    if (held == read_held_.end()) return rwlock_key(e, kRwWriteSlot);
    if (--held->second == 0) read_held_.erase(held);
    return rwlock_key(e, kRwReadSlot);
  }

  HappensBefore& out_;
  std::vector<Thread> threads_;
  std::map<SyncKey, Clock> objects_;
  std::map<std::uint32_t, Clock> start_clocks_;  // child id -> its creator's clock at creation
  std::map<std::uint32_t, Clock> exit_clocks_;   // thread id -> its clock at exit
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> read_held_;  // (thread, rwlock)
};

HappensBefore::HappensBefore(std::span<const TraceEvent> events) {
  entries_.reserve(events.size());
  HappensBeforeBuilder builder(*this);
  for (const TraceEvent& e : events) builder.add(e);
}

std::span<const std::uint32_t> HappensBefore::clock(std::size_t i) const {
  if (i >= entries_.size() || entries_[i].snapshot == kNone) return {};
  const Snapshot& s = snapshots_[entries_[i].snapshot];
  return std::span(arena_).subspan(s.offset, s.size);
}

bool HappensBefore::ordered(std::size_t i, std::size_t j) const {
  if (i >= j || j >= entries_.size()) return false;
  std::uint32_t ti = entries_[i].thread;
  std::uint32_t tj = entries_[j].thread;
  if (ti == kNone || tj == kNone) return false;
  if (ti == tj) return true;  // program order
  auto ci = clock(i);
  auto cj = clock(j);
  std::uint32_t own = ti < ci.size() ? ci[ti] : 0;
  std::uint32_t known = ti < cj.size() ? cj[ti] : 0;
  return own <= known;
}

bool HappensBefore::concurrent(std::size_t i, std::size_t j) const {
  if (i == j || i >= entries_.size() || j >= entries_.size()) return false;
  if (entries_[i].thread == kNone || entries_[j].thread == kNone) return false;
  return !ordered(i, j) && !ordered(j, i);
}

}  // namespace ctrlsched::localize
