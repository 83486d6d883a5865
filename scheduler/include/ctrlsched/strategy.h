// The policy interface: every nondeterministic choice of a run passes through a Strategy.
//
// Strategies are pure: they see thread ids, step numbers and point kinds, never pthreads, so the
// same code drives the LD_PRELOAD shim and in-process engines. They must not allocate after
// construction when used in the shim, so implementations reserve for kMaxThreads up front.
// Wrappers compose: RecordingStrategy logs and hashes the decisions of another strategy,
// VerifyingStrategy checks another strategy against a recorded schedule, ReplayStrategy follows
// a recorded schedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/prng.h"
#include "ctrlsched/run_spec.h"

namespace ctrlsched {

inline constexpr std::size_t kMaxThreads = 1024;
inline constexpr ThreadId kNoThread = 0xffffffffu;
inline constexpr std::uint32_t kUnboundedLease = 0xffffffffu;

enum class PointKind : std::uint8_t {
  ThreadStart,  // a newly created thread is about to run its start routine
  Create,       // the current thread just created a thread
  Sync,         // before a synchronization operation takes effect
  Access,       // before an instrumented memory access or atomic operation
  Yield,        // sched_yield / sleep / nanosleep: the current thread asks to let others run
  Blocked,      // the current thread cannot continue (waits on an object); a switch is forced
  ThreadExit,   // the current thread has exited; a switch is forced
};

// What a thread will do as soon as it runs, when the engine knows: it is stopped at the
// scheduling point that precedes an instrumented access (hooks run before the access).
// Directed strategies (forcing) use it; the others ignore it.
// Sync: stopped at a synchronization operation's point (with a directive only): pending_op says
// which (SyncOp, sync_ops.h), pending_address is the object.
enum class PendingKind : std::uint8_t { None, Read, Write, Sync };

struct Candidate {
  ThreadId tid;
  bool timed_wait;  // blocked in a timed wait: choosing it means "its timeout fires now"
  PendingKind pending = PendingKind::None;
  std::uint64_t pending_site = 0;     // trace_format.h site encoding, 0 = unknown
  std::uint64_t pending_address = 0;  // the location about to be accessed (this run only)
  std::uint8_t pending_op = 0;        // pending == Sync: the SyncOp
  // It owns a mutex (or an rwlock for writing) that another thread is blocked on: the forcing
  // strategy never holds such a thread (holding it would starve the waiter, docs/forcing.md).
  bool owns_awaited_lock = false;
  // The site of the call that took that lock (trace_format.h encoding), 0 when unknown: a forced
  // order that had to let the owner through can be retried holding it at that call instead.
  std::uint64_t owned_lock_site = 0;
  friend bool operator==(const Candidate&, const Candidate&) = default;
};

struct SchedulingPoint {
  ThreadId current;                       // the thread that reached the point
  bool current_enabled;                   // current could continue (false: blocked or exited)
  PointKind kind;
  std::uint64_t step;                     // 1-based index of this point in the run
  std::span<const Candidate> candidates;  // sorted by tid, never empty; holds current iff enabled
};

enum class WakeKind : std::uint8_t { CondSignal, FutexWake };

struct Divergence {
  std::uint64_t decision_index;  // 0-based index of the decision that did not match
  std::uint64_t step;            // scheduling step at which it happened (0 if not at a point)
  std::string what;              // one line: what was recorded and what the run offered
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  // A thread came into existence (T0 is announced with parent == kNoThread before any point).
  virtual void on_thread_created(ThreadId child, ThreadId parent) = 0;
  // Returns the tid of one of point.candidates.
  virtual ThreadId next_thread(const SchedulingPoint& point) = 0;
  // Index into waiters (FIFO order, size >= 2) of the one to wake.
  virtual std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) = 0;
  // Asked only when spurious wakeups are enabled: should this waiter wake without a signal?
  virtual bool spurious_wakeup(ThreadId waiter) = 0;
  // Asked right after next_thread(point) kept the current thread at a non-Yield point with more
  // than one candidate: for how many further points of that thread the answer will be the same
  // provided no thread changes state (blocks, wakes, starts, exits) and it does not yield.
  // The engine then skips those points without asking; the lease is logged (DecisionKind::Lease)
  // so a replay skips the same points. 0 = ask at every point. This is what keeps PCT cheap when
  // every memory access is a scheduling point.
  virtual std::uint32_t lease(const SchedulingPoint& point);
  // Number of preemptions taken so far (a switch away from a thread that could continue, at a
  // point that is not a Yield).
  virtual std::uint64_t preemptions() const = 0;
  // Set once a replay/verification found the run leaving the recorded schedule.
  virtual const std::optional<Divergence>& divergence() const;
};

// Receives every decision taken at a point with more than one option.
class DecisionSink {
 public:
  virtual ~DecisionSink() = default;
  virtual void append(Decision d) = 0;
};

// Random walk: uniform over candidates; with a preemption bound K, once K preemptions were taken
// the current thread keeps running while it is enabled (Yield points still switch freely).
std::unique_ptr<Strategy> make_random_strategy(std::uint64_t seed,
                                               std::optional<std::uint32_t> preemption_bound);
// PCT (Burckhardt et al. 2010), see pct_strategy.cc for the exact rules.
std::unique_ptr<Strategy> make_pct_strategy(std::uint64_t seed, std::uint32_t depth,
                                            std::uint64_t steps);
// POS, partial order sampling (Yuan, Yang, Gu, CAV 2018), see pos_strategy.cc. Uses the
// candidates' pending events (Candidate::pending*) to find the events that race.
std::unique_ptr<Strategy> make_pos_strategy(std::uint64_t seed);
// SURW, selectively uniform random walk (Zhao et al., ASPLOS 2025), see surw_strategy.cc.
// `estimates`: interesting events per thread in creation order, from a calibration run;
// `uniform_percent`: the share (0-100) of weighted choices made uniformly instead (rule 5).
std::unique_ptr<Strategy> make_surw_strategy(std::uint64_t seed, std::span<const std::uint32_t> estimates,
                                             std::uint32_t uniform_percent = 0);
// Follows `decisions` exactly. On the first mismatch (wrong kind, a thread that is not a
// candidate/waiter, or the schedule running out) it records a Divergence and from then on picks
// the first candidate / first waiter / no spurious wakeup.
std::unique_ptr<Strategy> make_replay_strategy(std::vector<Decision> decisions);
// Builds the strategy a RunSpec names (Random, Pct, Pos or Surw; Replay needs decisions, use the
// above; Portfolio must be resolved per seed by the driver first).
std::unique_ptr<Strategy> make_strategy(const RunSpec& spec);

// Decorator: forwards to `inner`, and for every request with more than one option appends the
// answer to `sink` and folds it into the schedule hash. Requests with one option are not logged.
class RecordingStrategy final : public Strategy {
 public:
  RecordingStrategy(Strategy& inner, DecisionSink& sink) : inner_(inner), sink_(sink) {}
  void on_thread_created(ThreadId child, ThreadId parent) override;
  ThreadId next_thread(const SchedulingPoint& point) override;
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override;
  bool spurious_wakeup(ThreadId waiter) override;
  std::uint32_t lease(const SchedulingPoint& point) override;
  std::uint64_t preemptions() const override { return inner_.preemptions(); }
  const std::optional<Divergence>& divergence() const override { return inner_.divergence(); }
  std::uint64_t hash() const { return hash_; }
  std::uint64_t decisions() const { return count_; }

 private:
  void log(Decision d);
  Strategy& inner_;
  DecisionSink& sink_;
  std::uint64_t hash_ = kScheduleHashSeed;
  std::uint64_t count_ = 0;
};

// Decorator: forwards to `inner` and compares each logged decision (same rule as
// RecordingStrategy: only requests with more than one option) with `expected`; the first
// difference becomes divergence(). Used to replay a seed and say where it left a saved schedule.
std::unique_ptr<Strategy> make_verifying_strategy(Strategy& inner, std::vector<Decision> expected);

}  // namespace ctrlsched
