// The shim's process-wide state, created once at start-up by the library constructor.
//
// Everything here is touched only by the thread holding the baton (threads run one at a time),
// so it needs no locks. `active` is false until start-up succeeds and in processes the shim does
// not own (fork children, programs the test spawns): every interposer then forwards to libc.
#pragma once

#include <pthread.h>
#include <sys/types.h>


#include "ctrlsched/forcing.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"
#include "object_table.h"
#include "thread_table.h"

namespace ctrlsched::shim {

// Writes the decision log into the run record, so it survives a crash of the test.
class RecordLogSink final : public DecisionSink {
 public:
  void attach(RunRecord* record);
  void append(Decision d) override;

 private:
  RunRecord* record_ = nullptr;
  std::uint8_t* log_ = nullptr;
  std::uint64_t capacity_ = 0;
  std::uint64_t used_ = 0;
};

struct Runtime {
  bool active = false;
  pid_t pid = 0;
  RunRecord* record = nullptr;
  RunConfig config{};
  ThreadTable threads;
  ObjectTable objects;

  // Never freed: library destructors and atexit handlers of the test may still reach a
  // scheduling point while the process exits, so these must outlive every static destructor.
  Strategy* base_strategy = nullptr;      // random / pct / replay
  Strategy* verifier = nullptr;           // wraps base_strategy when verifying a saved log
  RecordLogSink log_sink;
  ForcingStrategy* forcing = nullptr;     // directed runs (config.force): wraps the above
  bool pending_events = false;            // fill Thread::pending* outside directed runs (POS)
  RecordingStrategy* recorder = nullptr;  // what the engine talks to

  std::uint64_t steps = 0;
  std::uint32_t runnable = 0;       // threads in state Runnable
  std::uint32_t timed_blocked = 0;  // blocked threads that may time out
  Thread* current = nullptr;        // baton holder
  Thread* dump_request = nullptr;   // deadlock report: this parked thread should dump its stack
  Thread* dump_requester = nullptr;
  bool access_points = false;       // scheduling points at instrumented accesses
  bool dfs_pending = false;         // dfs runs: tell the strategy what each thread is about to do
  std::uint32_t escaped = 0;        // threads released by the watchdog, not yet back
  pid_t dying_os_tid = 0;           // a thread that gave up the baton for good but may still be
                                    // running glibc's teardown (frees); see engine.cc
  bool may_diverge = false;         // replaying or verifying: check for divergence
  // Lease (Strategy::lease): `lease_holder` keeps running without a decision at its points up to
  // step `lease_end`, while `state_version` (bumped whenever any thread changes state) stays at
  // `lease_version`.
  std::uint64_t state_version = 0;
  Thread* lease_holder = nullptr;
  std::uint64_t lease_end = 0;
  std::uint64_t lease_version = 0;
  std::uint64_t preemptions = 0;    // switches away from a thread that could continue
  pthread_key_t exit_key{};
  Candidate candidates[kMaxThreads]{};
  ThreadId waiter_ids[kMaxThreads]{};
};

extern Runtime g_rt;
extern thread_local Thread* tls_self __attribute__((tls_model("initial-exec")));
// How deep the calling thread is inside shim code; the watchdog never releases a thread that is
// inside the shim (it is parked on its baton or busy deciding, not stuck).
extern thread_local int tls_shim_depth __attribute__((tls_model("initial-exec")));

// Set while the shim itself runs library code that may call interposed functions (the unwinder
// behind backtrace() calls pthread_once): those calls go straight to libc.
extern thread_local bool tls_shim_internal __attribute__((tls_model("initial-exec")));

// The calling thread if the shim controls it right now, else nullptr (forward to libc).
inline Thread* controlled_self() {
  if (__builtin_expect(!g_rt.active || tls_shim_internal, 0)) return nullptr;
  Thread* me = tls_self;
  if (me == nullptr || me->state == ThreadState::Exited) return nullptr;
  return me;
}

void rejoin(Thread* me);  // watchdog.cc

// Marks the calling thread as inside the shim for the lifetime of an interposer call, and brings
// a thread the watchdog released back under control first.
class ShimEntry {
 public:
  explicit ShimEntry(Thread* me) {
    ++tls_shim_depth;
    if (__builtin_expect(me->escaped.load(std::memory_order_relaxed), 0)) rejoin(me);
  }
  ~ShimEntry() { --tls_shim_depth; }
  ShimEntry(const ShimEntry&) = delete;
  ShimEntry& operator=(const ShimEntry&) = delete;
};

}  // namespace ctrlsched::shim
