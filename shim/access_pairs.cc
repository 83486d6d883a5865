// The access-pair collector (--collect pairs): Locon's cross-thread access pairs of one run,
// counted by site into a fixed-size table in the run record (ctrlsched/access_pairs.h).
//
// A location table remembers, per address, the last plain access (thread, site, read or write);
// an access by another thread where either side is a write is an immediate dependence and is
// counted as the pair (last → this). Both tables are fixed-size: a location that does not fit is
// not tracked (counted in `untracked`), a pair that does not fit is counted in `dropped_pairs`.
// Accesses are keyed by exact address, so a 4-byte read of half of an 8-byte field is another
// location. Atomics are synchronization, not data accesses, and are left out.
#include "access_pairs.h"

#include <sys/mman.h>

#include <new>

#include "ctrlsched/access_pairs.h"
#include "collectors.h"

namespace ctrlsched::shim {

static_assert(kSummaryOffset + sizeof(AccessPairSummary) <= kFalconOffset);

namespace {

class AccessPairCollector final : public Collector {
 public:
  bool start(RunRecord* record) {
    std::size_t bytes = sizeof(Location) * kLocations + sizeof(std::int32_t) * kPairSlots;
    void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return false;
    locations_ = static_cast<Location*>(mem);
    pair_slots_ = reinterpret_cast<std::int32_t*>(locations_ + kLocations);
    for (std::uint32_t i = 0; i < kPairSlots; ++i) pair_slots_[i] = -1;
    summary_ = new (reinterpret_cast<std::uint8_t*>(record) + kSummaryOffset) AccessPairSummary{};
    summary_->capacity = kMaxAccessPairs;
    summary_->magic = kAccessPairsMagic;
    return true;
  }

  void on_event(const TraceEvent& e) override {
    const auto kind = static_cast<EventKind>(e.kind);
    if (kind != EventKind::Read && kind != EventKind::Write) return;
    ++summary_->accesses;
    Location* last = location(e.address);
    if (last == nullptr) {
      ++summary_->untracked;
      return;
    }
    const bool write = kind == EventKind::Write;
    if (last->used && last->thread != e.thread && (last->write || write))
      count_pair(last->site, last->write, e.site, write);
    last->used = true;
    last->thread = e.thread;
    last->site = e.site;
    last->write = write;
  }

 private:
  struct Location {
    std::uint64_t address;
    std::uint64_t site;
    std::uint32_t thread;
    bool write;
    bool used;
  };
  static constexpr std::uint32_t kLocations = 1u << 16;  // power of two
  static constexpr std::uint32_t kMaxLocations = kLocations / 2;
  static constexpr std::uint32_t kPairSlots = 2 * kMaxAccessPairs;  // power of two

  static std::uint32_t mix(std::uint64_t key) {
    return static_cast<std::uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 40);
  }

  Location* location(std::uint64_t address) {
    for (std::uint32_t i = mix(address) & (kLocations - 1);; i = (i + 1) & (kLocations - 1)) {
      Location& slot = locations_[i];
      if (slot.used || slot.address != 0) {
        if (slot.address == address) return &slot;
        continue;
      }
      if (summary_->locations == kMaxLocations) return nullptr;
      ++summary_->locations;
      slot.address = address;
      return &slot;
    }
  }

  void count_pair(std::uint64_t head, bool head_write, std::uint64_t tail, bool tail_write) {
    std::uint64_t key = head * 31 + tail * 7 + (head_write ? 2 : 0) + (tail_write ? 1 : 0);
    for (std::uint32_t i = mix(key) & (kPairSlots - 1);; i = (i + 1) & (kPairSlots - 1)) {
      std::int32_t index = pair_slots_[i];
      if (index >= 0) {
        AccessPair& p = summary_->pairs[index];
        if (p.head_site == head && p.tail_site == tail && p.head_write == head_write &&
            p.tail_write == tail_write) {
          ++p.count;
          return;
        }
        continue;
      }
      if (summary_->used == kMaxAccessPairs) {
        ++summary_->dropped_pairs;
        return;
      }
      index = static_cast<std::int32_t>(summary_->used);
      AccessPair& p = summary_->pairs[index];
      p.head_site = head;
      p.tail_site = tail;
      p.head_write = head_write;
      p.tail_write = tail_write;
      p.count = 1;
      pair_slots_[i] = index;
      ++summary_->used;  // last: the entry is complete before it counts
      return;
    }
  }

  Location* locations_ = nullptr;
  std::int32_t* pair_slots_ = nullptr;
  AccessPairSummary* summary_ = nullptr;
};

constinit AccessPairCollector g_access_pairs;

}  // namespace

void start_access_pair_collector(RunRecord* record) {
  if (g_access_pairs.start(record)) register_collector(&g_access_pairs);
}

}  // namespace ctrlsched::shim
