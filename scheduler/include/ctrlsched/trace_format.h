// The event stream of one run, as the shim emits it and as trace files store it.
//
// Events are fixed-size records. Sites are program counters relative to their module:
// site = (module index << 48) | offset, where the module index refers to the module table of the
// run (RunRecord::modules, copied into the trace file), and offset = pc - the module's load bias
// (so it is what DWARF tools expect for PIE executables and shared libraries). Site 0 = unknown.
// For accesses the pc is the return address of the hook call (just after the call, inside the
// instrumented function); symbolize site - 1 to get the access's line.
//
// Happens-before (see ctrlsched/localize/happens_before.h) is derived from the synchronization
// events:
//   ThreadCreate (parent releases to the child)  ThreadStart (child acquires)
//   ThreadExit (releases to joiners)             ThreadJoin (joiner acquires)
//   Release(object) / Acquire(object)            mutex unlock/lock, semaphore post/wait,
//                                                condvar signal/wakeup, rwlock, spin, once,
//                                                barrier rounds, futex wake/wait
//   AtomicStore releases, AtomicLoad acquires, AtomicRmw does both (sequential consistency).
//   Block orders nothing: it only says that a thread started to wait (sync_ops.h).
// Details: a fence is an AtomicRmw at address 0 (it orders nothing by itself); barrier events
// carry the round number (mod 256) in `size`, so rounds do not order one another; an rwlock
// release carries aux = RwlockRead for a read unlock and RwlockWrite for a write unlock.
// Module table entries cover [bias, bias + size), which includes the whole mapping.
//
// Values (version 2): an access event's `value` is the memory at `address` when the hook ran,
// its first min(size, 8) bytes zero-extended (little-endian). The hook runs before the access and
// the thread holds the baton from then until the access, so for a Read or an atomic it is the
// value read, and for a Write it is the value the write overwrites: the value a write wrote is
// the `value` of the next access to the same address. Other events carry 0.
//
// Trace file (version 2), little-endian:
//   TraceFileHeader, then module_count × TraceModule, then event_count × TraceEvent.
// Version 1 files (24-byte events without `value`) are still read, with values unknown.
#pragma once

#include <cstdint>

namespace ctrlsched {

enum class EventKind : std::uint8_t {
  Read = 0,         // address, size: a plain shared read
  Write = 1,        // address, size: a plain shared write
  AtomicLoad = 2,
  AtomicStore = 3,
  AtomicRmw = 4,    // exchange, fetch_*, compare-exchange (even a failed one: it reads)
  FuncEntry = 5,    // site = the call site; address = a site inside the entered function (just
                    // after its entry hook: symbolizes to the function); pushes onto the stack
  FuncExit = 6,
  ThreadCreate = 7, // address = the child's thread id
  ThreadStart = 8,  // first event of every thread but T0
  ThreadExit = 9,
  ThreadJoin = 10,  // address = the joined thread's id
  Acquire = 11,     // address = sync object (aux = WaitKind of the object)
  Release = 12,     // address = sync object (aux = WaitKind of the object)
  Switch = 13,      // the scheduler handed the baton from `thread` to thread `address`
  Block = 14,       // the thread starts waiting on a sync object (address = the object, aux =
                    // WaitKind; a join's address = the joined thread's id): a lock attempt that
                    // finds it held, a condition wait, a semaphore wait at 0, a join
};

inline constexpr std::uint64_t kSiteModuleShift = 48;
inline constexpr std::uint64_t kSiteOffsetMask = (std::uint64_t{1} << kSiteModuleShift) - 1;

struct TraceEvent {
  std::uint8_t kind;     // EventKind
  std::uint8_t size;     // access size in bytes (accesses), 0 otherwise
  std::uint16_t aux;     // sync events: WaitKind of the object
  std::uint32_t thread;  // ThreadId
  std::uint64_t address;
  std::uint64_t site;
  std::uint64_t value = 0;  // accesses: memory at `address` before the access (see above)
};
static_assert(sizeof(TraceEvent) == 32);

// The event record of trace file version 1 (no value), for reading old files.
struct TraceEventV1 {
  std::uint8_t kind;
  std::uint8_t size;
  std::uint16_t aux;
  std::uint32_t thread;
  std::uint64_t address;
  std::uint64_t site;
};
static_assert(sizeof(TraceEventV1) == 24);

// Where the shim writes events during a run: a memfd passed in CTRLSCHED_TRACE_FD, starting with
// this header; events follow at offset sizeof(TraceRegionHeader).
inline constexpr const char* kTraceFdEnv = "CTRLSCHED_TRACE_FD";
inline constexpr std::uint64_t kTraceRegionBytes = 1ull << 30;  // sparse
struct TraceRegionHeader {
  std::uint64_t capacity_events;
  std::uint64_t event_count;
  std::uint32_t truncated;
  std::uint32_t reserved;
};

inline constexpr char kTraceFileMagic[8] = {'C', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};
inline constexpr std::uint32_t kTraceFileVersion = 2;

struct TraceFileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t module_count;
  std::uint64_t event_count;
  std::uint32_t truncated;
  std::uint32_t reserved;
  std::uint64_t schedule_hash;
  char handle[128];
};

struct TraceModule {
  char path[240];
  std::uint64_t bias;
  std::uint64_t size;
};

}  // namespace ctrlsched
