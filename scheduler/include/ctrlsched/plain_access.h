// How the access analyses (Falcon's windows, Locon's access pairs) see a trace event: as a read,
// a write, or not an access of memory at all (sync operations, function entries, ...).
//
// Atomic operations are accesses like plain ones: a bug made of two atomic operations (a relaxed
// load and a store of a counter, an atomic "initialized" flag tested and set apart) is an
// interleaving of accesses to one location, and an analysis that skipped them could never name
// it. A load reads; a store writes; a read-modify-write (exchange, fetch_*, compare-exchange)
// counts as one write: it is indivisible, so no other thread's access can fall between its read
// and its write, and the forcing strategy sees its pending access as a write too
// (shim/tsan/access.cc). A fence (an AtomicRmw at address 0) touches no location.
//
// An access inside the zero page (below kFirstMappableAddress: a field read through a NULL
// pointer, `b->rate` with b == NULL at address 4) is not an access to shared memory either: the
// page is never mapped, so it faults, and no other thread can access that location. The hook sees
// it before the fault (the trace shows it), but the analyses do not: as a location it would pair
// the crashing read with the real object's write elsewhere only by its site, a consequence of the
// NULL read before it, not an order of its own.
#pragma once

#include "ctrlsched/trace_format.h"

namespace ctrlsched {

enum class PlainAccess : std::uint8_t { None, Read, Write };

inline constexpr std::uint64_t kFirstMappableAddress = 4096;

inline PlainAccess plain_access_kind(EventKind kind, std::uint64_t address = kFirstMappableAddress) {
  const bool null_page = address < kFirstMappableAddress;
  switch (kind) {
    case EventKind::Read:
    case EventKind::AtomicLoad:
      return null_page ? PlainAccess::None : PlainAccess::Read;
    case EventKind::Write:
    case EventKind::AtomicStore:
      return null_page ? PlainAccess::None : PlainAccess::Write;
    case EventKind::AtomicRmw:
      return null_page ? PlainAccess::None : PlainAccess::Write;
    default:
      return PlainAccess::None;
  }
}

}  // namespace ctrlsched
