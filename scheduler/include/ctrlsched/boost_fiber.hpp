// A Boost.Fiber scheduling algorithm whose choices come from a ctrlsched strategy, so a program
// that already runs on Boost.Fiber gets seeded, replayable fiber interleavings:
//
//   boost::fibers::use_scheduling_algorithm<ctrlsched::fibers::controlled_scheduler>(spec);
//   ... launch and join fibers ...
//   auto run = ctrlsched::fibers::controlled_scheduler::current()->result();
//   // run.handle() == "17:random@9f3a2b1c0d4e5f67", run.decisions == {S2, S1, ...}
//
// What is controlled: every time Boost asks the algorithm for the next fiber (a fiber yields,
// blocks on a fiber mutex / condition variable / join / channel, or ends), the strategy picks one
// of the ready fibers. Fibers are named by ThreadId in order of first appearance: the thread's
// main context is 0, then 1, 2, ... as fibers are first made ready (or first run); the id is
// kept in the fiber's properties slot, so fiber properties are not available. Boost itself
// keeps its wait queues (FIFO); the algorithm only sees fibers become ready or not.
// Limits: one OS thread per scheduler (no work_stealing / shared_work, no cross-thread wakeups),
// and sleeps / timed waits still follow the real clock. See docs/boost-fiber.md.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/fiber/algo/algorithm.hpp>
#include <boost/fiber/context.hpp>

#include "ctrlsched/decision.h"
#include "ctrlsched/run_spec.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched::fibers {

// PCT needs the expected number of steps k; the process driver measures it with a calibration
// run, an in-process scheduler cannot. A RunSpec with pct_steps == 0 gets this value (and the
// handle shows it, so a replay uses the same k).
inline constexpr std::uint64_t kDefaultFiberPctSteps = 100;

// What one controlled run produced: enough to name it (handle) and to replay it (decisions).
struct FiberRun {
  RunSpec spec;                          // as run: pct_steps resolved, expected_hash = schedule_hash
  std::vector<Decision> decisions;       // decisions with more than one option, in order
  std::uint64_t schedule_hash = kScheduleHashSeed;
  std::uint64_t steps = 0;               // scheduling points (including single-candidate ones)
  std::uint32_t fibers = 0;              // ThreadIds handed out (main context included)
  std::optional<Divergence> divergence;  // a replay left its recorded decisions
  bool hash_mismatch = false;            // the spec carried an expected hash and this run differs
  std::string handle() const { return to_handle(spec); }
};

class controlled_scheduler final : public boost::fibers::algo::algorithm {
 public:
  // Random walk or PCT, as spec names them (a Replay spec replays nothing: use the overload below).
  explicit controlled_scheduler(const RunSpec& spec);
  // Follows `decisions` (a FiberRun's decisions); spec only names the run in result().
  controlled_scheduler(const RunSpec& spec, std::vector<Decision> decisions);
  // Any strategy (e.g. make_replay_strategy, make_verifying_strategy); spec names the run.
  controlled_scheduler(const RunSpec& spec, std::unique_ptr<Strategy> strategy);
  ~controlled_scheduler() override;

  controlled_scheduler(const controlled_scheduler&) = delete;
  controlled_scheduler& operator=(const controlled_scheduler&) = delete;

  // The controlled_scheduler installed on the calling OS thread, or nullptr.
  static controlled_scheduler* current() noexcept;

  FiberRun result() const;
  std::string handle() const { return result().handle(); }
  const std::vector<Decision>& decisions() const { return decisions_; }
  std::uint64_t schedule_hash() const { return recording_.hash(); }
  // The ThreadId of the fiber running now (assigned on first sight).
  ThreadId active_fiber_id();

  // boost::fibers::algo::algorithm
  void awakened(boost::fibers::context* ctx) noexcept override;
  boost::fibers::context* pick_next() noexcept override;
  bool has_ready_fibers() const noexcept override;
  void suspend_until(std::chrono::steady_clock::time_point const& when) noexcept override;
  void notify() noexcept override;

 private:
  class LogSink final : public DecisionSink {
   public:
    explicit LogSink(std::vector<Decision>& log) : log_(log) {}
    void append(Decision d) override { log_.push_back(d); }

   private:
    std::vector<Decision>& log_;
  };
  struct ReadyFiber {
    ThreadId id;
    boost::fibers::context* ctx;
  };
  ThreadId id_of(boost::fibers::context* ctx);
  boost::fibers::context* decide(ThreadId departing);
  [[noreturn]] void abort_on_step_limit() const;

  RunSpec spec_;
  std::optional<std::uint64_t> expected_hash_;  // from the spec (a handle's "@<hash>")
  std::unique_ptr<Strategy> strategy_;
  std::vector<Decision> decisions_;
  LogSink sink_{decisions_};
  RecordingStrategy recording_;

  // Ids live in each fiber's properties slot (deleted with the fiber, so a new fiber at a
  // recycled address is still new); `run_` tells this run's ids from an earlier scheduler's.
  std::uint64_t run_;
  ThreadId next_id_ = 1;  // 0 is the main context
  std::vector<ReadyFiber> ready_;  // sorted by id
  std::vector<Candidate> candidates_;
  boost::fibers::context* dispatcher_ = nullptr;
  bool dispatcher_ready_ = false;
  std::optional<ThreadId> departing_;  // the fiber the dispatcher decides for (see the .cc)
  ThreadId last_running_ = 0;
  std::uint64_t steps_ = 0;

  // Idle wait of the dispatcher, as in round_robin (only sleeps and notify() end it).
  std::mutex idle_mutex_;
  std::condition_variable idle_cv_;
  bool notified_ = false;
};

// Installs a fresh controlled_scheduler on the calling thread, runs body() (which must launch and
// join its fibers), puts the round_robin algorithm back and returns what the run recorded.
FiberRun run_controlled(const RunSpec& spec, const std::function<void()>& body);
// The same, following recorded decisions (replay of a FiberRun).
FiberRun run_controlled(const RunSpec& spec, std::vector<Decision> decisions,
                        const std::function<void()>& body);

}  // namespace ctrlsched::fibers
