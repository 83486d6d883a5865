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
#pragma once

#include "ctrlsched/trace_format.h"

namespace ctrlsched {

enum class PlainAccess : std::uint8_t { None, Read, Write };

inline PlainAccess plain_access_kind(EventKind kind, std::uint64_t address = 1) {
  switch (kind) {
    case EventKind::Read:
    case EventKind::AtomicLoad:
      return PlainAccess::Read;
    case EventKind::Write:
    case EventKind::AtomicStore:
      return PlainAccess::Write;
    case EventKind::AtomicRmw:
      return address == 0 ? PlainAccess::None : PlainAccess::Write;
    default:
      return PlainAccess::None;
  }
}

}  // namespace ctrlsched
