// The access-pair collector (--collect pairs): Locon's cross-thread access pairs of one run, kept
// at the finest level (sites, kinds, threads, iterations) in a fixed-size table in the run record
// (ctrlsched/access_pairs.h).
//
// A location table remembers, per address, the last write and, per thread, the last read since
// that write (thread, site, kind, iteration, access index). The pairs are the immediate
// dependences between threads, as data dependences are defined: a read depends on the last write
// (W→R); a write depends on the last write (W→W) and on every read since it (R→W, one per other
// thread, its latest read). A read by a third thread in between does not hide a dependence: in
// the check-then-act R1 R2 W2 W1, T2's write depends on T1's check (R1→W2) although T2's own
// check came in between. The hook runs before the access, so a read that crashes on a valid
// address is still seen: its pair is recorded before the fault. A read through a NULL pointer (an
// address in the zero page) is no shared access (ctrlsched/plain_access.h): nothing else can
// touch that address, so no pair is lost there.
//
// Iterations: per thread, a stack of function activations (FuncEntry/FuncExit events), each with
// a small table counting how often a site ran in that activation (a new activation number makes
// the previous activation's counters stale, so entering a function clears nothing). All tables are fixed-size and
// mapped up front: a location that does not fit is not tracked (`untracked`), a pair that does not
// fit is counted in `dropped_pairs`, activations deeper than kDepths share the deepest level, and
// a site that finds its activation's table full gets the saturated iteration.
// Accesses are keyed by exact address, so a 4-byte read of half of an 8-byte field is another
// location. Atomic operations are accesses (plain_access_kind). Sync operations (ctrlsched/sync_ops.h) are accesses to their
// sync object: a side's kind is then kSyncSide | SyncOp, and every two operations of different
// threads in a row on one object are a pair.
#include "access_pairs.h"

#include <sys/mman.h>

#include <new>

#include "ctrlsched/access_pairs.h"
#include "ctrlsched/plain_access.h"
#include "ctrlsched/strategy.h"
#include "ctrlsched/sync_ops.h"
#include "collectors.h"
#include "fixed_table.h"
#include "optional_maps.h"

namespace ctrlsched::shim {

static_assert(kSummaryOffset + sizeof(AccessPairSummary) <= kFalconOffset);

namespace {

// Per-thread activation stacks with per-activation site counters (Locon's loop iteration,
// approximated: see docs/localization.md).
class Iterations {
 public:
  static constexpr std::uint32_t kDepths = 16;
  static constexpr std::uint32_t kSitesPerActivation = 32;  // power of two

  bool start() {
    const std::size_t bytes = sizeof(ThreadStack) * kMaxThreads;
    void* mem = map_optional(OptionalMap::AccessPairIterations, bytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1);
    if (mem == MAP_FAILED) return false;
    threads_ = static_cast<ThreadStack*>(mem);  // zero pages: every stack empty
    return true;
  }

  void enter(std::uint32_t thread) {
    ThreadStack* t = stack(thread);
    if (t == nullptr) return;
    ++t->depth;
    // A new activation number makes the level's old counters stale: nothing to clear.
    if (t->depth < kDepths) t->levels[t->depth].activation = ++t->activations;
  }

  void exit(std::uint32_t thread) {
    ThreadStack* t = stack(thread);
    if (t == nullptr || t->depth == 0) return;
    --t->depth;
  }

  // Previous executions of `site` by `thread` in its current activation; counts this one.
  std::uint8_t next(std::uint32_t thread, std::uint64_t site) {
    ThreadStack* t = stack(thread);
    if (t == nullptr) return kAccessPairMaxIteration;
    Level& level = t->levels[t->depth < kDepths ? t->depth : kDepths - 1];
    if (level.activation == 0) level.activation = ++t->activations;  // depth 0, first use
    for (std::uint32_t n = 0, i = fibonacci_hash(site) & (kSitesPerActivation - 1); n < kSitesPerActivation;
         ++n, i = (i + 1) & (kSitesPerActivation - 1)) {
      SiteCount& slot = level.sites[i];
      const bool current = slot.activation == level.activation;
      if (current && slot.site == site) {
        const std::uint8_t previous = slot.count;
        if (slot.count < kAccessPairMaxIteration) ++slot.count;
        return previous;
      }
      if (!current) {  // free in this activation
        slot = SiteCount{site, level.activation, 1};
        return 0;
      }
    }
    return kAccessPairMaxIteration;
  }

 private:
  struct SiteCount {
    std::uint64_t site;
    std::uint32_t activation;  // the counter is valid while this is its level's activation
    std::uint8_t count;
  };
  struct Level {
    std::uint32_t activation;  // number of the activation now using this level
    SiteCount sites[kSitesPerActivation];
  };
  struct ThreadStack {
    std::uint32_t depth;        // 0 = outside any instrumented activation
    std::uint32_t activations;  // activations entered so far (numbers them from 1)
    Level levels[kDepths];
  };

  ThreadStack* stack(std::uint32_t thread) {
    return thread < kMaxThreads ? &threads_[thread] : nullptr;
  }

  ThreadStack* threads_ = nullptr;
};

// One side of a pair: what the location table remembers of the last access.
struct Side {
  std::uint64_t site;
  std::uint32_t thread;
  std::uint32_t access;
  std::uint8_t write;
  std::uint8_t iteration;
};

class AccessPairCollector final : public Collector {
 public:
  bool start(RunRecord* record) {
    const std::size_t bytes = Locations::bytes(kLocations) + IndexTable::bytes(kPairSlots);
    void* mem = map_optional(OptionalMap::AccessPairTables, bytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1);
    if (mem == MAP_FAILED) return false;
    if (!iterations_.start()) {
      munmap(mem, bytes);
      return false;
    }
    locations_.attach(mem, kLocations);
    pairs_.attach(static_cast<std::uint8_t*>(mem) + Locations::bytes(kLocations), kPairSlots);
    summary_ = new (reinterpret_cast<std::uint8_t*>(record) + kSummaryOffset) AccessPairSummary{};
    summary_->capacity = kMaxAccessPairs;
    summary_->magic = kAccessPairsMagic;
    return true;
  }

  void on_event(const TraceEvent& e) override {
    const auto kind = static_cast<EventKind>(e.kind);
    if (kind == EventKind::FuncEntry) return iterations_.enter(e.thread);
    if (kind == EventKind::FuncExit) return iterations_.exit(e.thread);
    const PlainAccess plain = plain_access_kind(kind, e.address);
    std::uint8_t side_kind = plain == PlainAccess::Write;
    std::uint64_t key = e.address;
    if (plain != PlainAccess::None) {
      ++summary_->accesses;
    } else {
      // A sync operation is an access to its object (ctrlsched/sync_ops.h); any two operations
      // of different threads in a row form a pair.
      const SyncOp op = sync_op_of(e);
      if (op == SyncOp::None) return;
      side_kind = sync_side_kind(op);
      key |= kSyncLocation;
    }
    const Side now{e.site, e.thread, access_index(events_++), side_kind, iterations_.next(e.thread, e.site)};
    auto* location = locations_.find_or_insert(key, [this](auto&) { ++summary_->locations; });
    if (location == nullptr) {
      ++summary_->untracked;
      return;
    }
    LocationState& state = location->value;
    if (plain == PlainAccess::None) {
      // Every two operations of different threads in a row on a sync object are a pair.
      if (state.has_write && state.last_write.thread != now.thread) count_pair(state.last_write, now, e.address);
      state.has_write = true;
      state.last_write = now;
      return;
    }
    if (!now.write) {
      if (state.has_write && state.last_write.thread != now.thread) count_pair(state.last_write, now, e.address);
      state.remember_read(now);
      return;
    }
    if (state.has_write && state.last_write.thread != now.thread) count_pair(state.last_write, now, e.address);
    for (std::uint32_t i = 0; i < state.readers; ++i) {
      if (state.reads[i].thread != now.thread) count_pair(state.reads[i], now, e.address);
    }
    state.readers = 0;
    state.has_write = true;
    state.last_write = now;
  }

 private:
  // Per location: the last write (for a sync object, the last operation) and the reads since it,
  // the latest of each thread, in program order (the oldest is dropped when more threads read).
  struct LocationState {
    static constexpr std::uint32_t kReaders = 4;
    Side last_write;
    Side reads[kReaders];
    std::uint8_t readers;
    bool has_write;

    void remember_read(const Side& read) {
      std::uint32_t i = 0;
      while (i < readers && reads[i].thread != read.thread) ++i;
      if (i == readers && readers == kReaders) i = 0;  // full: the oldest thread's read goes
      if (i < readers) {
        for (std::uint32_t j = i + 1; j < readers; ++j) reads[j - 1] = reads[j];
        --readers;
      }
      reads[readers++] = read;
    }
  };
  using Locations = AddressTable<LocationState>;
  static constexpr std::uint32_t kLocations = 1u << 16;  // power of two, holds kLocations / 2
  static constexpr std::uint32_t kPairSlots = 2 * kMaxAccessPairs;  // power of two
  // Sync objects are keyed apart from data (a thread id names a create/join location).
  static constexpr std::uint64_t kSyncLocation = std::uint64_t{1} << 63;

  static std::uint32_t access_index(std::uint64_t accesses) {
    return accesses < 0xffffffffull ? static_cast<std::uint32_t>(accesses) : 0xffffffffu;
  }

  static bool same_key(const AccessPair& p, const Side& head, const Side& tail) {
    return p.head_site == head.site && p.tail_site == tail.site && p.head_write == head.write &&
           p.tail_write == tail.write && p.head_thread == head.thread &&
           p.tail_thread == tail.thread && p.head_iteration == head.iteration &&
           p.tail_iteration == tail.iteration;
  }

  void count_pair(const Side& head, const Side& tail, std::uint64_t address) {
    const std::uint64_t key = head.site * 31 + tail.site * 7 + (std::uint64_t{head.write} << 1) +
                              tail.write + (std::uint64_t{head.thread} << 8) +
                              (std::uint64_t{tail.thread} << 20) +
                              (std::uint64_t{head.iteration} << 32) +
                              (std::uint64_t{tail.iteration} << 40);
    const IndexTable::Lookup pair = pairs_.find_or_insert(
        key, summary_->used,
        [&](std::int32_t index) { return same_key(summary_->pairs[index], head, tail); },
        [&](std::int32_t index) {
          summary_->pairs[index] = AccessPair{head.site,   tail.site,   address,    head.thread,
                                              tail.thread, head.access, tail.access, 1,
                                              head.write,  tail.write,  head.iteration, tail.iteration};
        });
    if (pair.index < 0)
      ++summary_->dropped_pairs;
    else if (!pair.inserted)
      ++summary_->pairs[pair.index].count;
  }

  Iterations iterations_;
  Locations locations_;
  IndexTable pairs_;
  AccessPairSummary* summary_ = nullptr;
  std::uint64_t events_ = 0;  // accesses and sync operations: program order of the sides
};

constinit AccessPairCollector g_access_pairs;

}  // namespace

void start_access_pair_collector(RunRecord* record) {
  if (g_access_pairs.start(record)) register_collector(&g_access_pairs);
}

}  // namespace ctrlsched::shim
