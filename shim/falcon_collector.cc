// The Falcon collector (kCollectFalcon): Algorithm 1 of Falcon over every plain shared access,
// one ctrlsched/falcon_window.h window per location, distinct patterns counted into the run
// record (ctrlsched/falcon_patterns.h).
//
// Both tables are fixed-size and mapped at start: a location that does not fit gets no window
// (counted in `untracked`), a pattern that does not fit is counted in `dropped`. Locations are
// exact addresses, as in the access-pair collector. Atomics are synchronization, not data, and
// are left out. At the end of the run (on_run_end) every window is drained, in the order the
// locations were first accessed, so short streams are not lost.
#include "falcon_collector.h"

#include <sys/mman.h>

#include <new>

#include "collectors.h"
#include "ctrlsched/falcon_patterns.h"

namespace ctrlsched::shim {

namespace {

class FalconCollector final : public Collector {
 public:
  bool start(RunRecord* record) {
    std::size_t bytes = sizeof(Location) * kLocations + sizeof(std::uint32_t) * kMaxLocations +
                        sizeof(std::int32_t) * kPatternSlots;
    void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return false;
    locations_ = static_cast<Location*>(mem);
    order_ = reinterpret_cast<std::uint32_t*>(locations_ + kLocations);
    pattern_slots_ = reinterpret_cast<std::int32_t*>(order_ + kMaxLocations);
    for (std::uint32_t i = 0; i < kPatternSlots; ++i) pattern_slots_[i] = -1;
    window_size_ = falcon_window_size(record->config.falcon_window);
    summary_ = new (reinterpret_cast<std::uint8_t*>(record) + kFalconOffset) FalconPatternSummary{};
    summary_->capacity = kMaxFalconPatterns;
    summary_->window = window_size_;
    summary_->magic = kFalconPatternsMagic;
    return true;
  }

  void on_event(const TraceEvent& e) override {
    const auto kind = static_cast<EventKind>(e.kind);
    if (kind != EventKind::Read && kind != EventKind::Write) return;
    ++summary_->accesses;
    Location* location = find(e.address);
    if (location == nullptr) {
      ++summary_->untracked;
      return;
    }
    current_ = e.address;
    location->window.add(FalconAccess{e.site, e.thread, kind == EventKind::Write},
                         [this](const FalconHit& hit) { count(hit); });
  }

  void on_run_end() override {
    for (std::uint64_t i = 0; i < summary_->locations; ++i) {
      Location& location = locations_[order_[i]];
      current_ = location.address;
      location.window.drain([this](const FalconHit& hit) { count(hit); });
    }
    summary_->finished = 1;
  }

 private:
  struct Location {
    std::uint64_t address;
    bool used;
    FalconWindow window;
  };
  static constexpr std::uint32_t kLocations = 1u << 16;  // power of two
  static constexpr std::uint32_t kMaxLocations = kLocations / 2;
  static constexpr std::uint32_t kPatternSlots = 2 * kMaxFalconPatterns;  // power of two

  static std::uint32_t mix(std::uint64_t key) {
    return static_cast<std::uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 40);
  }

  Location* find(std::uint64_t address) {
    for (std::uint32_t i = mix(address) & (kLocations - 1);; i = (i + 1) & (kLocations - 1)) {
      Location& slot = locations_[i];
      if (slot.used) {
        if (slot.address == address) return &slot;
        continue;
      }
      if (summary_->locations == kMaxLocations) return nullptr;
      order_[summary_->locations++] = i;
      slot.address = address;
      slot.used = true;
      slot.window.reset(window_size_);
      return &slot;
    }
  }

  void count(const FalconHit& hit) {
    const std::uint64_t sites[3] = {hit.accesses[0].site, hit.accesses[1].site,
                                    falcon_kind_length(hit.kind) == 3 ? hit.accesses[2].site : 0};
    const std::uint64_t key = (sites[0] * 31 + sites[1]) * 31 + sites[2] * 7 + static_cast<std::uint64_t>(hit.kind);
    for (std::uint32_t i = mix(key) & (kPatternSlots - 1);; i = (i + 1) & (kPatternSlots - 1)) {
      std::int32_t index = pattern_slots_[i];
      if (index >= 0) {
        FalconPatternEntry& p = summary_->patterns[index];
        if (p.kind == static_cast<std::uint8_t>(hit.kind) && p.sites[0] == sites[0] && p.sites[1] == sites[1] &&
            p.sites[2] == sites[2]) {
          ++p.count;
          return;
        }
        continue;
      }
      if (summary_->used == kMaxFalconPatterns) {
        ++summary_->dropped;
        return;
      }
      index = static_cast<std::int32_t>(summary_->used);
      FalconPatternEntry& p = summary_->patterns[index];
      for (int s = 0; s < 3; ++s) p.sites[s] = sites[s];
      p.location = current_;
      p.threads[0] = hit.accesses[0].thread;
      p.threads[1] = hit.accesses[1].thread;
      p.count = 1;
      p.kind = static_cast<std::uint8_t>(hit.kind);
      pattern_slots_[i] = index;
      ++summary_->used;  // last: the entry is complete before it counts
      return;
    }
  }

  Location* locations_ = nullptr;
  std::uint32_t* order_ = nullptr;  // location slots in first-access order
  std::int32_t* pattern_slots_ = nullptr;
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
