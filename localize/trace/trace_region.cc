// From the shim's shared-memory trace region (ctrlsched/trace_format.h) to a Trace, for the
// driver once the child is reaped. The region's counts come from a process that may have died
// at any instruction, so they are clamped to what is mapped rather than trusted.
#include <algorithm>
#include <cstring>

#include "ctrlsched/localize/trace_file.h"

namespace ctrlsched::localize {

Trace from_region(const TraceRegionHeader* header, std::span<const TraceEvent> events,
                  const ModuleTable& modules, std::string handle, std::uint64_t schedule_hash) {
  Trace trace;
  trace.handle = std::move(handle);
  trace.schedule_hash = schedule_hash;
  std::uint32_t module_count = std::min<std::uint32_t>(modules.count, kMaxRecordedModules);
  for (std::uint32_t i = 0; i < module_count; ++i) {
    const TraceModule& m = modules.modules[i];
    trace.modules.push_back({std::string(m.path, strnlen(m.path, sizeof m.path)), m.bias, m.size});
  }
  if (header == nullptr) return trace;
  std::uint64_t count = std::min<std::uint64_t>(header->event_count, events.size());
  trace.truncated = header->truncated != 0 || count < header->event_count;
  trace.events.assign(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(count));
  return trace;
}

Trace from_region(const void* region, std::size_t region_bytes, const ModuleTable& modules,
                  std::string handle, std::uint64_t schedule_hash) {
  const TraceRegionHeader* no_header = nullptr;
  if (region == nullptr || region_bytes < sizeof(TraceRegionHeader))
    return from_region(no_header, std::span<const TraceEvent>(), modules, std::move(handle),
                       schedule_hash);
  const auto* header = static_cast<const TraceRegionHeader*>(region);
  std::size_t capacity = (region_bytes - sizeof(TraceRegionHeader)) / sizeof(TraceEvent);
  std::span<const TraceEvent> events(reinterpret_cast<const TraceEvent*>(header + 1), capacity);
  return from_region(header, events, modules, std::move(handle), schedule_hash);
}

}  // namespace ctrlsched::localize
