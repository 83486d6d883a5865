// The in-memory trace of one run: the contents of a trace file (ctrlsched/trace_format.h) with
// the header strings and module table decoded. Every analysis in localize/ reads this type, never
// the raw file or the shared-memory region, so analyses are tested with traces built by hand.
//
// Event indices (positions in `events`) are the identity of an event throughout localize/: the
// happens-before relation, the call stacks and the dump all speak of "event i".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctrlsched/run_record.h"
#include "ctrlsched/trace_format.h"

namespace ctrlsched::localize {

struct TraceModuleInfo {
  std::string path;        // as the dynamic loader named it (the executable: its real path)
  std::uint64_t bias = 0;  // load bias: site offset = pc - bias
  std::uint64_t size = 0;  // extent of the module's PT_LOAD segments, from the lowest one
};

struct Trace {
  std::string handle;                    // the run handle (run_spec.h) the trace came from
  std::uint64_t schedule_hash = 0;       // the run's schedule hash (schedule.h)
  bool truncated = false;                // the run produced more events than were kept
  std::vector<TraceModuleInfo> modules;  // indexed by the module part of a site
  std::vector<TraceEvent> events;        // in the order they happened (one thread ran at a time)
  // False for traces read from version 1 files: every event's `value` is 0, meaning unknown.
  bool has_values = true;
};

// Thread ids above this are treated as corrupt: the reader rejects them and the analyses ignore
// such events (the shim itself stops at 1024 threads). It bounds the size of vector clocks.
inline constexpr std::uint32_t kMaxTraceThreads = 1u << 16;

constexpr EventKind kind_of(const TraceEvent& e) { return static_cast<EventKind>(e.kind); }

// Read, Write and the three atomic kinds: the events that touch memory at `address`.
constexpr bool is_access(EventKind k) {
  return k == EventKind::Read || k == EventKind::Write || k == EventKind::AtomicLoad ||
         k == EventKind::AtomicStore || k == EventKind::AtomicRmw;
}
constexpr bool is_atomic(EventKind k) {
  return k == EventKind::AtomicLoad || k == EventKind::AtomicStore || k == EventKind::AtomicRmw;
}
constexpr bool is_known_kind(std::uint8_t kind) {
  return kind <= static_cast<std::uint8_t>(EventKind::Block);
}

constexpr std::uint32_t site_module(std::uint64_t site) {
  return static_cast<std::uint32_t>(site >> kSiteModuleShift);
}
constexpr std::uint64_t site_offset(std::uint64_t site) { return site & kSiteOffsetMask; }
constexpr std::uint64_t make_site(std::uint32_t module, std::uint64_t offset) {
  return (std::uint64_t{module} << kSiteModuleShift) | (offset & kSiteOffsetMask);
}

// An access's value as people read it: the first min(size, 8) bytes as a signed integer, in
// decimal when its magnitude is below 65536, else in hex as unsigned ("7", "-20", "0x55558010").
std::string value_text(std::uint64_t value, std::uint8_t size);

// "mutex", "rwlock-read", "barrier", ...; "object" for WaitKind::None (user annotations),
// "kind<n>" for values this build does not know.
std::string wait_kind_name(std::uint16_t aux);
// "read", "write", "atomic-load", ..., "switch"; "unknown" for values this build does not know.
std::string_view event_kind_name(std::uint8_t kind);

}  // namespace ctrlsched::localize
