// One reservation for the optional mappings (see optional_maps.h).
#include "optional_maps.h"

#include <sys/mman.h>

#include <cstdint>

#include "ctrlsched/trace_format.h"

namespace ctrlsched::shim {
namespace {

// Each collector's tables are a few MiB to a few tens of MiB; the trace region is fixed.
constexpr std::size_t kCollectorSlotBytes = std::size_t{256} << 20;

constexpr std::size_t slot_bytes(OptionalMap which) {
  return which == OptionalMap::Trace ? static_cast<std::size_t>(kTraceRegionBytes) : kCollectorSlotBytes;
}

constexpr std::size_t slot_offset(OptionalMap which) {
  std::size_t offset = 0;
  for (unsigned i = 0; i < static_cast<unsigned>(which); ++i) offset += slot_bytes(static_cast<OptionalMap>(i));
  return offset;
}

constexpr std::size_t kReservationBytes = slot_offset(OptionalMap::Count);

std::uint8_t* g_reservation = nullptr;

}  // namespace

void reserve_optional_maps() {
  void* mem = mmap(nullptr, kReservationBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem != MAP_FAILED) g_reservation = static_cast<std::uint8_t*>(mem);
}

void* map_optional(OptionalMap which, std::size_t bytes, int prot, int flags, int fd) {
  if (g_reservation == nullptr || bytes > slot_bytes(which)) return mmap(nullptr, bytes, prot, flags, fd, 0);
  return mmap(g_reservation + slot_offset(which), bytes, prot, flags | MAP_FIXED, fd, 0);
}

}  // namespace ctrlsched::shim
