// The controlled threads of the test process: one slot per thread, in creation order.
//
// Slots are never reused within a run, so a ThreadId (T0 = main) names one thread for the whole
// run. The table lives in memory mapped at start-up; creating a thread never allocates.
// Only the baton holder reads or writes a slot (apart from the baton word itself and the fields a
// new thread sets about itself before it first waits for the baton).
#pragma once

#include <pthread.h>
#include <sys/types.h>

#include <atomic>
#include <cstdint>

#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"
#include "wait_queue.h"

namespace ctrlsched::shim {

struct Model;

// Escaped: stuck in a call the shim does not model; released from the baton by the watchdog
// (watchdog.cc) and runs uncontrolled until it next enters the shim and rejoins.
enum class ThreadState : std::uint8_t { Runnable, Blocked, Exited, Escaped };

struct Thread {
  ThreadId id = 0;
  ThreadState state = ThreadState::Runnable;
  std::atomic<std::uint32_t> baton{0};  // futex word: 1 = this thread may run

  pid_t os_tid = 0;
  pthread_t handle{};
  void* (*start)(void*) = nullptr;
  int (*c11_start)(void*) = nullptr;  // thrd_create: the start routine returns int
  void* arg = nullptr;
  void* retval = nullptr;
  bool detached = false;   // logically detached (the OS thread is kept joinable, see engine.cc)
  bool joined = false;
  bool reaped = false;     // the OS thread has been joined by the shim
  std::uint32_t exit_rounds = 0;

  // What the thread waits on while Blocked.
  WaitKind wait_kind = WaitKind::None;
  const void* wait_object = nullptr;  // the user's object (for reports)
  Model* wait_model = nullptr;        // the queue it sits in (nullptr: joiners of a thread)
  Thread* join_target = nullptr;
  bool timed_wait = false;            // may time out: offered to the strategy as a candidate
  bool timed_out = false;             // result of the last wait
  std::uint64_t deadline = 0;         // virtual time at which a timed wait's timeout falls
  std::uint32_t futex_bitset = 0;     // while in a futex wait: the bits a wake must share
  bool rwlock_handed_over = false;    // woken as the new writer of a writer-preferring rwlock
  Thread* next_waiter = nullptr;
  WaitQueue joiners;

  void* altstack = nullptr;           // signal stack, so a stack overflow is still reported
  std::uintptr_t sync_pc = 0;         // call site of the interposed call in progress (traces)
  // While stopped at the point before an instrumented access, when a directed run asks
  // (runtime.h, forcing): what the thread will do as soon as it runs (Candidate::pending*).
  PendingKind pending = PendingKind::None;
  std::uint64_t pending_site = 0;
  std::uint64_t pending_address = 0;
  std::uint8_t pending_op = 0;        // pending == Sync: the SyncOp (shim/sync_point.h)

  // Mutexes and spinlocks held, with the call that took each (deadlock reports). Beyond
  // kMaxHeldLocks only the count grows.
  struct Held {
    const void* object;
    std::uintptr_t pc;
  };
  Held held_locks[kMaxHeldLocks] = {};
  std::uint32_t held_count = 0;
  void note_locked(const void* object) {
    if (held_count < kMaxHeldLocks) held_locks[held_count] = {object, sync_pc};
    ++held_count;
  }
  void note_unlocked(const void* object) {
    const std::uint32_t kept = held_count < kMaxHeldLocks ? held_count : kMaxHeldLocks;
    for (std::uint32_t i = kept; i-- > 0;) {
      if (held_locks[i].object != object) continue;
      for (std::uint32_t k = i + 1; k < kept; ++k) held_locks[k - 1] = held_locks[k];
      --held_count;
      return;
    }
    if (held_count > kMaxHeldLocks) --held_count;  // one of those not kept
  }

  // Thread-local memory, whose accesses are neither scheduling points nor trace events (see
  // shim/tsan/access.h): the static TLS block below the thread pointer, always; the stack only
  // until the thread creates a thread (it may then hand out pointers into its stack).
  std::uintptr_t tls_lo = 0, tls_size = 0;
  std::uintptr_t stack_lo = 0, stack_size = 0;
  std::uint64_t shadow_depth = 0;     // func entry/exit nesting (traces)
  // Instrumented spin-wait detection (tsan/access.cc): the few locations the thread's reads since
  // its last write found, their values, and how many reads in a row found one of them unchanged.
  static constexpr int kSpinLocations = 4;
  std::uintptr_t spin_addresses[kSpinLocations] = {};
  std::uint64_t spin_values[kSpinLocations] = {};
  int spin_locations = 0;
  std::uint32_t spin_reads = 0;

  // Robust mutexes this thread holds, so their waiters can be woken when it exits (glibc keeps
  // the same list in the kernel's robust-futex list). More than kMaxRobustHeld are not tracked.
  static constexpr int kMaxRobustHeld = 16;
  void* robust_held[kMaxRobustHeld] = {};
  int robust_count = 0;

  // Deferred cancellation (models/cancel.cc), as set by pthread_setcancelstate/-type and
  // pthread_cancel. `cancel_pending` stays set while cancellation is disabled.
  bool cancel_disabled = false;
  bool cancel_async = false;
  bool cancel_pending = false;

  // Uncontrolled blocking (watchdog.cc). `escaped` is written only by the thread itself (in its
  // signal handler); `rejoin_requested` is how it asks the baton holder to take it back.
  std::atomic<bool> escaped{false};
  std::atomic<bool> rejoin_requested{false};
};

class ThreadTable {
 public:
  bool init();                         // maps the slots
  Thread* create();                    // nullptr when kMaxThreads are used
  Thread* at(ThreadId id) { return &slots_[id]; }
  std::uint32_t count() const { return count_; }
  // The thread (live or exited: a lock holder may have exited) with kernel thread id `tid`.
  Thread* find_by_os_tid(pid_t tid);
  // Live = not exited, kept sorted by id for the candidate list.
  const ThreadId* live() const { return live_; }
  std::uint32_t live_count() const { return live_count_; }
  void remove_live(ThreadId id);

 private:
  Thread* slots_ = nullptr;
  ThreadId* live_ = nullptr;
  std::uint32_t count_ = 0;
  std::uint32_t live_count_ = 0;
};

}  // namespace ctrlsched::shim
