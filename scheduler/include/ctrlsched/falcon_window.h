// Falcon's window over the accesses to one shared location (Park, Vuduc, Harrold, ICSE 2010,
// Algorithm 1 GatherPatterns), and the pattern extraction it performs when the window is full.
//
// Written once, header-only, allocation-free and exception-free, so that the shim's online
// collector (shim/falcon_collector.cc) and the golden tests of the paper's Figures 1 and 2
// (tests/unit/localize_falcon_test.cc) run the very same code.
//
// Window update (one window per location, `capacity` slots, oldest first):
//   - the first access fills slot 0;
//   - an access by the thread of the last slot (thread-local) replaces the last slot, except that
//     a read never replaces a write (writes are kept: every pattern needs one);
//   - an access by another thread (thread-remote) takes the next slot; if the window is full, the
//     patterns starting at the oldest slot are extracted first and the window slides by one.
// Extraction (the oldest slot is always the first access of a pattern):
//   - the triples of Table 2: the oldest slot, each remote slot j before the oldest thread's next
//     slot k, and slot k; every (0, j, k) whose kinds form a Table 2 pattern is reported;
//   - only if no triple was found, the pair of Table 1: the oldest slot and the next slot (always
//     another thread's), if at least one of them writes.
// drain() extracts and slides until the window is empty: the end of a run (or a crash) does not
// lose the patterns of a window that never filled up.
//
// Adjacent accesses (our extension, docs/localization.md "Falcon patterns"): a slot stands for a
// run of one thread's accesses, and the paper's representative (the last write, else the last
// read) is not always the access next to the other thread's. A thread that writes and then reads
// (a loop's store, then the next iteration's load) keeps the write, so the lost update R1-W2-W1
// shows as the serializable W1-W2-W1; a thread that reads and then writes (a check, then the
// decrement) keeps the write, and a thread that reads twice keeps the later read, so which of
// its accesses came right after the other thread's is lost. So a memory slot also remembers its
// first and its latest access, and extraction reports, beside the paper's pattern, the patterns
// whose first access is the oldest slot's latest one and/or whose last access is the later
// slot's first one, where those are at other sites (the middle stays the representative). Each
// is reported only if it is a pattern of Table 1 or 2. Sync windows keep the paper's rule alone.
//
// Sync objects (ctrlsched/sync_ops.h) get windows too, over their sync operations (all
// write-like, so a thread's later operation replaces its earlier one in the last slot): every
// triple (0, j, k) is a SyncTriple and the pair, when no triple was found, a SyncPair; the
// operations are in FalconAccess::op.
//
// Roles: the oldest access's thread is role 1, the other thread role 2, so kinds read like the
// paper's tables (R1-W2-R1 ...) whatever the thread ids were.
#pragma once

#include <cstdint>

namespace ctrlsched {

inline constexpr std::uint32_t kMaxFalconWindow = 16;
inline constexpr std::uint32_t kMinFalconWindow = 2;      // a pair; triples need 3
inline constexpr std::uint32_t kDefaultFalconWindow = 5;  // --window default

// The size actually used for a requested one: 0 means the default, others are clamped.
constexpr std::uint32_t falcon_window_size(std::uint32_t requested) {
  if (requested == 0) return kDefaultFalconWindow;
  if (requested < kMinFalconWindow) return kMinFalconWindow;
  return requested > kMaxFalconWindow ? kMaxFalconWindow : requested;
}

// Table 1 (pairs) then Table 2 (triples), in the papers' order.
enum class FalconKind : std::uint8_t {
  R1W2 = 0,
  W1R2 = 1,
  W1W2 = 2,
  R1W2R1 = 3,
  W1W2R1 = 4,
  W1R2W1 = 5,
  R1W2W1 = 6,
  W1W2W1 = 7,
  // Orders of synchronization operations on one sync object (ctrlsched/sync_ops.h): every pair
  // or triple of two threads is one, the sides' SyncOps say which (e.g. signal1-wait2).
  SyncPair = 8,
  SyncTriple = 9,
};
inline constexpr std::uint32_t kFalconKinds = 10;

constexpr const char* falcon_kind_name(FalconKind kind) {
  constexpr const char* names[kFalconKinds] = {"R1-W2",    "W1-R2",    "W1-W2",    "R1-W2-R1", "W1-W2-R1",
                                               "W1-R2-W1", "R1-W2-W1", "W1-W2-W1", "sync-pair", "sync-triple"};
  const auto i = static_cast<std::uint32_t>(kind);
  return i < kFalconKinds ? names[i] : "?";
}

constexpr bool falcon_kind_is_sync(FalconKind kind) {
  return kind == FalconKind::SyncPair || kind == FalconKind::SyncTriple;
}

constexpr std::uint32_t falcon_kind_length(FalconKind kind) {
  return static_cast<std::uint32_t>(kind) < 3 || kind == FalconKind::SyncPair ? 2 : 3;
}

struct FalconAccess {
  std::uint64_t site = 0;    // trace_format.h site encoding
  std::uint32_t thread = 0;  // ThreadId
  bool write = false;        // sync operations count as writes (each changes the object)
  std::uint8_t op = 0;       // SyncOp (sync_ops.h); 0 = a memory access
  // The thread's creation/join stamp at the access (ctrlsched/lifecycle_clocks.h), when the
  // collector keeps one: lets it tell orders no schedule can change. The window ignores it.
  std::uint8_t lifecycle_epoch = 0;
  std::uint8_t lifecycle_version = 0xff;  // LifecycleClocks::kUnknown
};
// Windows copy accesses on every slide: the stamp fits in the padding.
static_assert(sizeof(FalconAccess) == 16);

// One extracted pattern: accesses[0..falcon_kind_length(kind)), oldest first.
struct FalconHit {
  FalconKind kind = FalconKind::R1W2;
  FalconAccess accesses[3];
};

// Table 2: the kind of the triple (first, middle, last), or -1 if it is serializable.
constexpr int falcon_triple_kind(bool first_write, bool middle_write, bool last_write) {
  const int bits = (first_write ? 4 : 0) | (middle_write ? 2 : 0) | (last_write ? 1 : 0);
  switch (bits) {
    case 0b010: return static_cast<int>(FalconKind::R1W2R1);
    case 0b110: return static_cast<int>(FalconKind::W1W2R1);
    case 0b101: return static_cast<int>(FalconKind::W1R2W1);
    case 0b011: return static_cast<int>(FalconKind::R1W2W1);
    case 0b111: return static_cast<int>(FalconKind::W1W2W1);
    default: return -1;
  }
}

// Table 1: the kind of the pair (first, second), or -1 for two reads.
constexpr int falcon_pair_kind(bool first_write, bool second_write) {
  if (first_write && second_write) return static_cast<int>(FalconKind::W1W2);
  if (first_write) return static_cast<int>(FalconKind::W1R2);
  if (second_write) return static_cast<int>(FalconKind::R1W2);
  return -1;
}

// Plain data: lives zero-initialized inside the collector's fixed location table. Call reset()
// before the first add().
class FalconWindow {
 public:
  void reset(std::uint32_t capacity) {
    capacity_ = static_cast<std::uint8_t>(falcon_window_size(capacity));
    used_ = 0;
  }

  std::uint32_t capacity() const { return capacity_; }
  std::uint32_t size() const { return used_; }
  // The paper's slot content: the run's last write, else its last read.
  const FalconAccess& slot(std::uint32_t i) const { return slots_[i].representative; }
  // The first and the last access of the run of one thread's accesses the slot stands for.
  const FalconAccess& first_in_slot(std::uint32_t i) const { return slots_[i].first; }
  const FalconAccess& last_in_slot(std::uint32_t i) const { return slots_[i].last; }

  // Algorithm 1 for one access; `emit(const FalconHit&)` receives what a full window yields.
  template <class Emit>
  void add(const FalconAccess& access, Emit&& emit) {
    if (used_ != 0) {
      Slot& last = slots_[used_ - 1];
      if (last.representative.thread == access.thread) {
        if (access.write || !last.representative.write) last.representative = access;
        last.last = access;
        return;
      }
      if (used_ == capacity_) {
        extract(emit);
        slide();
      }
    }
    slots_[used_++] = Slot{access, access, access};
  }

  // End of the run: every slot gets its turn as the oldest one.
  template <class Emit>
  void drain(Emit&& emit) {
    while (used_ != 0) {
      extract(emit);
      slide();
    }
  }

  // The patterns that start at the oldest slot (see the top of this file).
  template <class Emit>
  void extract(Emit&& emit) const {
    if (used_ < 2) return;
    const Slot& first = slots_[0];
    std::uint32_t next_local = 1;
    while (next_local < used_ && slots_[next_local].representative.thread != first.representative.thread) ++next_local;
    bool found_triple = false;
    const bool sync = first.representative.op != 0;  // a sync object's window holds sync operations only
    if (next_local < used_) {
      const Slot& last = slots_[next_local];
      for (std::uint32_t j = 1; j < next_local; ++j) {
        const FalconAccess& middle = slots_[j].representative;
        if (sync) {
          emit(FalconHit{FalconKind::SyncTriple, {first.representative, middle, last.representative}});
          found_triple = true;
          continue;
        }
        for_each_end(first, last, [&](const FalconAccess& a, const FalconAccess& b) {
          const int kind = falcon_triple_kind(a.write, middle.write, b.write);
          if (kind < 0) return;
          emit(FalconHit{static_cast<FalconKind>(kind), {a, middle, b}});
          found_triple = true;
        });
      }
    }
    if (found_triple || slots_[1].representative.thread == first.representative.thread) return;
    if (sync) {
      emit(FalconHit{FalconKind::SyncPair, {first.representative, slots_[1].representative, {}}});
      return;
    }
    for_each_end(first, slots_[1], [&](const FalconAccess& a, const FalconAccess& b) {
      const int kind = falcon_pair_kind(a.write, b.write);
      if (kind >= 0) emit(FalconHit{static_cast<FalconKind>(kind), {a, b, {}}});
    });
  }

 private:
  struct Slot {
    FalconAccess representative;  // the paper's: the last write, else the last read
    FalconAccess first;           // the first access of this run of the thread's accesses
    FalconAccess last;            // its latest access
  };

  // The first and last access of a pattern: the paper's (the representatives) first, then with
  // the earlier slot's latest access and/or the later slot's first access where those are at
  // other sites. At the same site they are the read and the write of one read-modify-write
  // statement, which the paper's pattern already names (Figure 1's `x = x + 1`).
  template <class Fn>
  static void for_each_end(const Slot& earlier, const Slot& later, Fn&& fn) {
    const bool latest_differs = earlier.last.site != earlier.representative.site;
    const bool first_differs = later.first.site != later.representative.site;
    fn(earlier.representative, later.representative);
    if (first_differs) fn(earlier.representative, later.first);
    if (latest_differs) fn(earlier.last, later.representative);
    if (latest_differs && first_differs) fn(earlier.last, later.first);
  }

  void slide() {
    for (std::uint32_t i = 1; i < used_; ++i) slots_[i - 1] = slots_[i];
    --used_;
  }

  Slot slots_[kMaxFalconWindow];
  std::uint8_t used_;
  std::uint8_t capacity_;
};

}  // namespace ctrlsched
