// The block-spectra collector (kCollectSpectra): per function (component), whether it was
// entered and whether two threads were inside it at once (SCURF's "executed concurrently"),
// written into the run record (ctrlsched/block_spectra.h).
//
// Each thread has a fixed-depth stack of the components it is inside (FuncEntry pushes,
// FuncExit pops, ThreadExit unwinds what is left). A component counts the threads inside it; a
// thread already inside (recursion) is not counted twice. Entries deeper than kMaxSpectraDepth
// are counted but not tracked; components that do not fit the table are counted in `dropped`.
// Everything is mapped at start; nothing allocates.
#include "spectra_collector.h"

#include <sys/mman.h>

#include <new>

#include "collectors.h"
#include "ctrlsched/block_spectra.h"
#include "ctrlsched/strategy.h"
#include "fixed_table.h"
#include "optional_maps.h"

namespace ctrlsched::shim {

namespace {

class SpectraCollector final : public Collector {
 public:
  bool start(RunRecord* record) {
    const std::size_t bytes = sizeof(ThreadStack) * kMaxThreads + sizeof(ComponentState) * kMaxSpectraComponents +
                              IndexTable::bytes(kComponentSlots);
    void* mem = map_optional(OptionalMap::Spectra, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
    if (mem == MAP_FAILED) return false;
    stacks_ = static_cast<ThreadStack*>(mem);
    states_ = reinterpret_cast<ComponentState*>(stacks_ + kMaxThreads);
    components_.attach(states_ + kMaxSpectraComponents, kComponentSlots);
    summary_ = new (reinterpret_cast<std::uint8_t*>(record) + kSpectraOffset) BlockSpectraSummary{};
    summary_->capacity = kMaxSpectraComponents;
    summary_->magic = kBlockSpectraMagic;
    return true;
  }

  void on_event(const TraceEvent& e) override {
    if (e.thread >= kMaxThreads) return;
    switch (static_cast<EventKind>(e.kind)) {
      case EventKind::FuncEntry: enter(stacks_[e.thread], e.thread, e.address, e.site); break;
      case EventKind::FuncExit: leave(stacks_[e.thread]); break;
      case EventKind::ThreadExit:
        while (stacks_[e.thread].depth != 0) leave(stacks_[e.thread]);
        break;
      default: break;
    }
  }

  void on_run_end() override { summary_->finished = 1; }

 private:
  static constexpr std::uint32_t kUntracked = ~0u;
  static constexpr std::uint32_t kComponentSlots = 2 * kMaxSpectraComponents;  // power of two
  static constexpr std::uint32_t kThreadWords = (kMaxThreads + 63) / 64;

  struct ThreadStack {
    std::uint32_t depth;  // may exceed kMaxSpectraDepth; frames beyond it are not stored
    std::uint32_t frames[kMaxSpectraDepth];
  };
  struct ComponentState {
    std::uint32_t inside;   // threads inside now
    std::uint32_t holder;   // a thread inside (for the example pair)
    std::uint64_t entered_by[kThreadWords];
  };

  std::uint32_t component(std::uint64_t site, std::uint64_t call_site) {
    const IndexTable::Lookup found = components_.find_or_insert(
        site, summary_->used, [&](std::int32_t index) { return summary_->components[index].site == site; },
        [&](std::int32_t index) {
          ComponentSpectrum& c = summary_->components[index];
          c.site = site;
          c.call_site = call_site;
          c.first_entry = summary_->entries;
        });
    return found.index < 0 ? kUntracked : static_cast<std::uint32_t>(found.index);
  }

  static bool on_stack(const ThreadStack& stack, std::uint32_t id) {
    const std::uint32_t tracked = stack.depth < kMaxSpectraDepth ? stack.depth : kMaxSpectraDepth;
    for (std::uint32_t i = 0; i < tracked; ++i)
      if (stack.frames[i] == id) return true;
    return false;
  }

  void enter(ThreadStack& stack, std::uint32_t thread, std::uint64_t site, std::uint64_t call_site) {
    const std::uint32_t id = component(site, call_site);
    ++summary_->entries;
    if (stack.depth >= kMaxSpectraDepth) {
      ++summary_->deep_entries;
      ++stack.depth;
      if (id != kUntracked) ++summary_->components[id].entries;
      return;
    }
    if (id == kUntracked) {
      ++summary_->dropped;
      stack.frames[stack.depth++] = kUntracked;
      return;
    }
    ComponentSpectrum& c = summary_->components[id];
    ComponentState& s = states_[id];
    if (c.entries++ == 0) c.first_thread = thread;
    std::uint64_t& word = s.entered_by[thread / 64];
    const std::uint64_t bit = std::uint64_t{1} << (thread % 64);
    if (!(word & bit)) {
      word |= bit;
      ++c.threads;
    }
    if (!on_stack(stack, id)) {
      if (s.inside != 0 && !c.concurrent) {
        c.concurrent = 1;
        c.concurrent_threads[0] = s.holder;
        c.concurrent_threads[1] = thread;
      }
      if (s.inside++ == 0) s.holder = thread;
      if (s.inside > c.max_inside) c.max_inside = s.inside;
    }
    stack.frames[stack.depth++] = id;
  }

  void leave(ThreadStack& stack) {
    if (stack.depth == 0) return;  // an exit without its entry (entered before collecting)
    if (--stack.depth >= kMaxSpectraDepth) return;
    const std::uint32_t id = stack.frames[stack.depth];
    if (id == kUntracked || on_stack(stack, id)) return;
    --states_[id].inside;
  }

  ThreadStack* stacks_ = nullptr;
  ComponentState* states_ = nullptr;
  IndexTable components_;
  BlockSpectraSummary* summary_ = nullptr;
};

constinit SpectraCollector g_spectra;

}  // namespace

void start_spectra_collector(RunRecord* record) {
  if (g_spectra.start(record)) register_collector(&g_spectra);
}

}  // namespace ctrlsched::shim
