#include "collectors.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <cstdlib>

#include "runtime.h"
#include "stack.h"
#include "optional_maps.h"

namespace ctrlsched::shim {

constinit CollectorRegistry g_collectors;

bool register_collector(Collector* collector) {
  if (g_collectors.count == kMaxCollectors) return false;
  g_collectors.collectors[g_collectors.count++] = collector;
  return true;
}

void dispatch(const TraceEvent& event) {
  for (int i = 0; i < g_collectors.count; ++i) g_collectors.collectors[i]->on_event(event);
}

void finish_collectors() {
  static constinit bool finishing = false;
  if (__atomic_exchange_n(&finishing, true, __ATOMIC_ACQ_REL)) return;
  for (int i = 0; i < g_collectors.count; ++i) g_collectors.collectors[i]->on_run_end();
  __atomic_store_n(&finishing, false, __ATOMIC_RELEASE);
}

void emit_sync(EventKind kind, const Thread* me, const void* object, WaitKind object_kind) {
  if (__builtin_expect(!collecting(), 1)) return;
  emit(kind, me, reinterpret_cast<std::uint64_t>(object), site_of(me->sync_pc), 0,
       static_cast<std::uint16_t>(object_kind));
}

namespace {

// Appends every event to the shared trace region; the driver turns it into a trace file.
class TraceWriter final : public Collector {
 public:
  bool attach(int fd, RunRecord* record) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < sizeof(TraceRegionHeader))
      return false;
    void* mem = map_optional(OptionalMap::Trace, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE,
                             MAP_SHARED, fd);
    if (mem == MAP_FAILED) return false;
    header_ = static_cast<TraceRegionHeader*>(mem);
    events_ = reinterpret_cast<TraceEvent*>(header_ + 1);
    capacity_ = (static_cast<std::uint64_t>(st.st_size) - sizeof(TraceRegionHeader)) / sizeof(TraceEvent);
    header_->capacity_events = capacity_;
    header_->event_count = 0;
    header_->truncated = 0;
    record_ = record;
    return true;
  }

  void on_event(const TraceEvent& event) override {
    if (count_ == capacity_) {
      header_->truncated = record_->trace_truncated = 1;
      return;
    }
    events_[count_++] = event;
    header_->event_count = record_->trace_events = count_;
  }

 private:
  TraceRegionHeader* header_ = nullptr;
  TraceEvent* events_ = nullptr;
  RunRecord* record_ = nullptr;
  std::uint64_t capacity_ = 0;
  std::uint64_t count_ = 0;
};

constinit TraceWriter g_trace_writer;

}  // namespace

void start_trace_writer(RunRecord* record) {
  const char* text = std::getenv(kTraceFdEnv);
  if (text == nullptr || *text == '\0') return;
  char* end = nullptr;
  long fd = std::strtol(text, &end, 10);
  if (*end != '\0' || fd < 0) return;
  if (g_trace_writer.attach(static_cast<int>(fd), record)) register_collector(&g_trace_writer);
}

}  // namespace ctrlsched::shim
