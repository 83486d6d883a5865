// The Falcon collector (kCollectFalcon): Algorithm 1 of Falcon over every plain shared access,
// one ctrlsched/falcon_window.h window per location, distinct patterns counted into the run
// record (ctrlsched/falcon_patterns.h).
//
// Both tables are fixed-size and mapped at start: a location that does not fit gets no window
// (counted in `untracked`), a pattern that does not fit is counted in `dropped`. Locations are
// exact addresses, as in the access-pair collector. Atomic operations are accesses
// (plain_access_kind: a load reads, a store or read-modify-write writes). Sync operations
// (lock, unlock, signal, wait, ...: ctrlsched/sync_ops.h) are accesses to their sync object,
// which gets a window of its own: they form sync-pair / sync-triple patterns. At the end of the run (on_run_end) every window is drained, in the order the
// locations were first accessed, so short streams are not lost. Every distinct access (site,
// location, read or write) and sync operation the run executes is also kept in a fixed table,
// whether it forms a pattern or not. A pattern whose every step between two threads is an order
// thread creation or join imposes (ctrlsched/lifecycle_clocks.h) is not counted: no schedule
// could have changed it.
#include "falcon_collector.h"

#include <sys/mman.h>

#include <new>

#include "collectors.h"
#include "ctrlsched/falcon_patterns.h"
#include "ctrlsched/lifecycle_clocks.h"
#include "ctrlsched/plain_access.h"
#include "ctrlsched/sync_ops.h"
#include "fixed_table.h"
#include "optional_maps.h"

namespace ctrlsched::shim {

namespace {

class FalconCollector final : public Collector {
 public:
  bool start(RunRecord* record) {
    const std::size_t order_bytes = sizeof(Locations::Entry*) * (kLocations / 2);
    const std::size_t bytes =
        Locations::bytes(kLocations) + order_bytes + IndexTable::bytes(kPatternSlots) + IndexTable::bytes(kExecutedSlots);
    void* mem = map_optional(OptionalMap::Falcon, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
    if (mem == MAP_FAILED) return false;
    auto* bytes_at = static_cast<std::uint8_t*>(mem);
    locations_.attach(bytes_at, kLocations);
    order_ = reinterpret_cast<Locations::Entry**>(bytes_at + Locations::bytes(kLocations));
    patterns_.attach(bytes_at + Locations::bytes(kLocations) + order_bytes, kPatternSlots);
    executed_.attach(bytes_at + Locations::bytes(kLocations) + order_bytes + IndexTable::bytes(kPatternSlots),
                     kExecutedSlots);
    window_size_ = falcon_window_size(record->config.falcon_window);
    lifecycle_.reset();
    summary_ = new (reinterpret_cast<std::uint8_t*>(record) + kFalconOffset) FalconPatternSummary{};
    summary_->capacity = kMaxFalconPatterns;
    summary_->window = window_size_;
    summary_->magic = kFalconPatternsMagic;
    return true;
  }

  void on_event(const TraceEvent& e) override {
    const auto kind = static_cast<EventKind>(e.kind);
    // A create's own operation is still before the child (the parent's epoch ticks after the
    // child copied it); a join's already knows the joined thread.
    LifecycleClocks::Stamp stamp = lifecycle_.stamp(e.thread);
    switch (kind) {
      case EventKind::ThreadCreate: lifecycle_.on_create(e.thread, e.address); break;
      case EventKind::ThreadExit: lifecycle_.on_exit(e.thread); break;
      case EventKind::ThreadJoin:
        lifecycle_.on_join(e.thread, e.address);
        stamp = lifecycle_.stamp(e.thread);
        break;
      default: break;
    }
    std::uint64_t key = e.address;
    const PlainAccess plain = plain_access_kind(kind, e.address);
    FalconAccess access{e.site, e.thread, plain == PlainAccess::Write};
    access.lifecycle_epoch = stamp.epoch;
    access.lifecycle_version = stamp.version;
    if (plain == PlainAccess::None) {
      // A sync operation: an access to its object (sync_ops.h), in a window of its own.
      const SyncOp op = sync_op_of(e);
      if (op == SyncOp::None) return;
      access.write = true;
      access.op = static_cast<std::uint8_t>(op);
      key |= kSyncLocation;
    }
    ++summary_->accesses;
    count_executed(e.site, e.address, access.op != 0 ? ExecutedKind::Sync : access.write ? ExecutedKind::Write : ExecutedKind::Read);
    auto* location = locations_.find_or_insert(key, [this](Locations::Entry& added) {
      order_[summary_->locations++] = &added;
      added.value.reset(window_size_);
    });
    if (location == nullptr) {
      ++summary_->untracked;
      return;
    }
    current_ = e.address;
    location->value.add(access, [this](const FalconHit& hit) { count(hit); });
  }

  void on_run_end() override {
    for (std::uint64_t i = 0; i < summary_->locations; ++i) {
      Locations::Entry& location = *order_[i];
      current_ = location.address & ~kSyncLocation;
      location.value.drain([this](const FalconHit& hit) { count(hit); });
    }
    summary_->finished = 1;
  }

 private:
  using Locations = AddressTable<FalconWindow>;
  static constexpr std::uint32_t kLocations = 1u << 16;  // power of two, holds kLocations / 2
  static constexpr std::uint32_t kPatternSlots = 2 * kMaxFalconPatterns;  // power of two
  static constexpr std::uint32_t kExecutedSlots = 2 * kMaxFalconAccesses;  // power of two
  // Sync objects' windows are keyed apart from data (a thread id names a create/join location).
  static constexpr std::uint64_t kSyncLocation = std::uint64_t{1} << 63;

  void count_executed(std::uint64_t site, std::uint64_t location, ExecutedKind kind) {
    const auto kind_byte = static_cast<std::uint8_t>(kind);
    const IndexTable::Lookup found = executed_.find_or_insert(
        site * 31 + location * 7 + kind_byte, summary_->executed_used,
        [&](std::int32_t index) {
          const FalconExecutedAccess& a = summary_->executed[index];
          return a.site == site && a.location == location && a.kind == kind_byte;
        },
        [&](std::int32_t index) { summary_->executed[index] = FalconExecutedAccess{site, location, 1, kind_byte, {}}; });
    if (found.index < 0)
      ++summary_->executed_dropped;
    else if (!found.inserted && summary_->executed[found.index].executions != 0xffffffffu)
      ++summary_->executed[found.index].executions;
  }

  // Every cross-thread step of the pattern is fixed by thread creation and join: the same order in
  // every run, which no schedule could change (ctrlsched/lifecycle_clocks.h).
  bool fixed_by_lifecycle(const FalconHit& hit) const {
    const std::uint32_t length = falcon_kind_length(hit.kind);
    for (std::uint32_t i = 0; i + 1 < length; ++i) {
      const FalconAccess& a = hit.accesses[i];
      const FalconAccess& b = hit.accesses[i + 1];
      if (a.thread == b.thread) continue;
      if (!lifecycle_.ordered(a.thread, {a.lifecycle_epoch, a.lifecycle_version}, b.thread,
                              {b.lifecycle_epoch, b.lifecycle_version}))
        return false;
    }
    return true;
  }

  void count(const FalconHit& hit) {
    if (fixed_by_lifecycle(hit)) {
      ++summary_->fixed_by_lifecycle;
      return;
    }
    const std::uint64_t sites[3] = {hit.accesses[0].site, hit.accesses[1].site,
                                    falcon_kind_length(hit.kind) == 3 ? hit.accesses[2].site : 0};
    const bool triple = falcon_kind_length(hit.kind) == 3;
    const std::uint8_t ops[3] = {hit.accesses[0].op, hit.accesses[1].op, triple ? hit.accesses[2].op : std::uint8_t{0}};
    const std::uint64_t key = (sites[0] * 31 + sites[1]) * 31 + sites[2] * 7 + static_cast<std::uint64_t>(hit.kind) +
                              (std::uint64_t{ops[0]} << 40) + (std::uint64_t{ops[1]} << 48) + (std::uint64_t{ops[2]} << 56);
    const auto kind = static_cast<std::uint8_t>(hit.kind);
    const IndexTable::Lookup pattern = patterns_.find_or_insert(
        key, summary_->used,
        [&](std::int32_t index) {
          const FalconPatternEntry& p = summary_->patterns[index];
          return p.kind == kind && p.sites[0] == sites[0] && p.sites[1] == sites[1] && p.sites[2] == sites[2] &&
                 p.ops[0] == ops[0] && p.ops[1] == ops[1] && p.ops[2] == ops[2];
        },
        [&](std::int32_t index) {
          FalconPatternEntry& p = summary_->patterns[index];
          for (int s = 0; s < 3; ++s) {
            p.sites[s] = sites[s];
            p.ops[s] = ops[s];
          }
          p.location = current_;
          p.threads[0] = hit.accesses[0].thread;
          p.threads[1] = hit.accesses[1].thread;
          p.count = 1;
          p.kind = kind;
        });
    if (pattern.index < 0)
      ++summary_->dropped;
    else if (!pattern.inserted)
      ++summary_->patterns[pattern.index].count;
  }

  Locations locations_;
  Locations::Entry** order_ = nullptr;  // locations in first-access order
  IndexTable patterns_;
  IndexTable executed_;
  LifecycleClocks lifecycle_;
  FalconPatternSummary* summary_ = nullptr;
  std::uint32_t window_size_ = kDefaultFalconWindow;
  std::uint64_t current_ = 0;  // the location whose window is extracting
};

constinit FalconCollector g_falcon;

}  // namespace

void start_falcon_collector(RunRecord* record) {
  if (g_falcon.start(record)) register_collector(&g_falcon);
}

}  // namespace ctrlsched::shim
