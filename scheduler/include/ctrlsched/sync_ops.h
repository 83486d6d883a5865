// Synchronization operations as events of the localization analyses (Falcon windows, Locon
// pairs) and as steps of a forced order (force_directive.h).
//
// A lock-order deadlock, a lost wakeup or a hang on a re-set flag is caused by the order of
// synchronization operations, not of memory accesses. So each sync event of the run's stream
// (trace_format.h) is also an "access" to its sync object: the object is the location, the call
// site (the test's line, never the shim's) is the site, and the operation is one of these kinds.
// Names are the words of reports and of examples/root_causes.txt (`lock1@26` = role 1 locks at
// line 26).
//
// Mapping from events (header-only, allocation-free: the shim's collectors use it):
//   Acquire / Block on a mutex, rwlock or spinlock     lock   (Block: an attempt that waits)
//   Release of a mutex, rwlock or spinlock              unlock
//   Release of a condition variable                     signal (signal and broadcast)
//   Block on a condition variable                       wait   (the wait starts)
//   Acquire of a condition variable                     woken  (the wait returned, signalled)
//   Release of a semaphore                              post
//   Acquire / Block on a semaphore                      semwait
//   ThreadCreate                                        create (location: the child's thread id)
//   ThreadJoin / Block on a join                        join   (location: the joined thread's id)
// Barriers, once, futexes and atomics are not mapped (SyncOp::None).
#pragma once

#include <cstdint>

#include "ctrlsched/run_record.h"
#include "ctrlsched/trace_format.h"

namespace ctrlsched {

enum class SyncOp : std::uint8_t {
  None = 0,
  Lock = 1,
  Unlock = 2,
  Signal = 3,
  Wait = 4,
  Woken = 5,
  Post = 6,
  SemWait = 7,
  Create = 8,
  Join = 9,
};
inline constexpr std::uint8_t kSyncOps = 10;

constexpr const char* sync_op_name(SyncOp op) {
  constexpr const char* names[kSyncOps] = {"?",    "lock",  "unlock", "signal",  "wait",
                                           "woken", "post", "semwait", "create", "join"};
  const auto i = static_cast<std::uint8_t>(op);
  return i < kSyncOps ? names[i] : "?";
}

constexpr bool is_lock_kind(std::uint16_t aux) {
  const auto kind = static_cast<WaitKind>(aux);
  return kind == WaitKind::Mutex || kind == WaitKind::RwlockRead || kind == WaitKind::RwlockWrite ||
         kind == WaitKind::Spin;
}

// The sync operation an event is, or None (accesses, function events, barriers, ...).
constexpr SyncOp sync_op_of(const TraceEvent& e) {
  const auto aux = static_cast<WaitKind>(e.aux);
  switch (static_cast<EventKind>(e.kind)) {
    case EventKind::Acquire:
      if (is_lock_kind(e.aux)) return SyncOp::Lock;
      if (aux == WaitKind::Cond) return SyncOp::Woken;
      if (aux == WaitKind::Semaphore) return SyncOp::SemWait;
      return SyncOp::None;
    case EventKind::Release:
      if (is_lock_kind(e.aux)) return SyncOp::Unlock;
      if (aux == WaitKind::Cond) return SyncOp::Signal;
      if (aux == WaitKind::Semaphore) return SyncOp::Post;
      return SyncOp::None;
    case EventKind::Block:
      if (is_lock_kind(e.aux)) return SyncOp::Lock;
      if (aux == WaitKind::Cond) return SyncOp::Wait;
      if (aux == WaitKind::Semaphore) return SyncOp::SemWait;
      if (aux == WaitKind::Join) return SyncOp::Join;
      return SyncOp::None;
    case EventKind::ThreadCreate: return SyncOp::Create;
    case EventKind::ThreadJoin: return SyncOp::Join;
    default: return SyncOp::None;
  }
}

// One call of a blocking operation leaves several events when it has to wait: the Block of the
// attempt, another Block each time it was woken and found the object taken again, and, once
// granted, its Acquire (lock, semwait) or ThreadJoin. `e` continues such a call when `previous`,
// the same thread's last sync event (sync_op_of is not None: its switches do not count), is a
// Block of that operation at that site. Counting a thread's calls of an operation (a forced
// order's occurrence, docs/forcing.md "Binding") counts each call once.
constexpr bool continues_blocked_call(const TraceEvent& previous, const TraceEvent& e) {
  const auto kind = static_cast<EventKind>(e.kind);
  return static_cast<EventKind>(previous.kind) == EventKind::Block &&
         (kind == EventKind::Block || kind == EventKind::Acquire || kind == EventKind::ThreadJoin) &&
         previous.thread == e.thread && previous.site == e.site && sync_op_of(previous) == sync_op_of(e);
}

// Operations a thread stops at before it performs them (the shim's sync_point), so a forced run
// can start at one (a cut in the failing run's context). `woken` is the end of a wait and
// `create` is observed after the creation: neither has a point of its own.
constexpr bool has_sync_point(SyncOp op) {
  return op == SyncOp::Lock || op == SyncOp::Unlock || op == SyncOp::Signal || op == SyncOp::Wait ||
         op == SyncOp::Post || op == SyncOp::SemWait || op == SyncOp::Join;
}

// Locon's access-pair entries keep a side's kind in one byte (AccessPair::head_write): 0 read,
// 1 write, kSyncSide | op for a sync operation.
inline constexpr std::uint8_t kSyncSide = 0x80;
constexpr std::uint8_t sync_side_kind(SyncOp op) { return static_cast<std::uint8_t>(kSyncSide | static_cast<std::uint8_t>(op)); }
constexpr SyncOp sync_op_of_side(std::uint8_t kind) {
  return (kind & kSyncSide) != 0 ? static_cast<SyncOp>(kind & 0x7f) : SyncOp::None;
}

}  // namespace ctrlsched
