// Which event kinds read and which write memory, for the ConSeq analysis (internal).
#pragma once

#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

// Read, AtomicLoad, AtomicRmw: the events that observe a value (a failed compare-exchange too).
constexpr bool reads_memory(EventKind k) {
  return k == EventKind::Read || k == EventKind::AtomicLoad || k == EventKind::AtomicRmw;
}
// Write, AtomicStore, AtomicRmw: the events that may change the value at their address.
constexpr bool writes_memory(EventKind k) {
  return k == EventKind::Write || k == EventKind::AtomicStore || k == EventKind::AtomicRmw;
}

}  // namespace ctrlsched::localize
