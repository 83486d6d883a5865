// The in-process engine: one run of an explore body, its threads as Boost.Context fibers on the
// calling OS thread. The scheduling logic mirrors shim/engine.cc point for point (same points,
// same step numbers, same state-version rule for leases, same candidate lists), so a strategy
// and seed give the same decisions here as under the shim for the same program.
#pragma once

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/inprocess/detail.hpp"
#include "ctrlsched/strategy.h"

namespace ctrlsched::detail {

enum class ThreadState : std::uint8_t { Runnable, Blocked, Exited };

struct FiberThread {
  ThreadId id = 0;
  ThreadState state = ThreadState::Runnable;
  boost::context::fiber ctx;  // where to resume it (empty while it runs or once it finished)
  std::function<void()> fn;
  WaitKind wait_kind = WaitKind::None;
  ModelBase* wait_model = nullptr;
  FiberThread* join_target = nullptr;
  FiberThread* next_waiter = nullptr;
  WaitQueue joiners;
  std::uint64_t deadline = 0;
  bool timed_wait = false;
  bool timed_out = false;
  bool detached = false;
  bool joined = false;
  bool started = false;
  bool abandoned = false;  // left inside a frame that must not unwind (assert): never resumed
  std::uintptr_t stack_lo = 0;
  std::uintptr_t stack_size = 0;  // 0 once it created a thread (it may share its stack)
  std::uint32_t teardown_calls = 0;
  std::uintptr_t asan_lo = 0;  // the whole stack, for AddressSanitizer's switch annotations
  std::size_t asan_size = 0;
};

struct RunOutcome {
  FailureKind kind = FailureKind::None;
  std::string message;
  std::vector<Decision> decisions;
  std::uint64_t hash = kScheduleHashSeed;
  std::uint64_t steps = 0;
};

class VectorSink final : public DecisionSink {
 public:
  void append(Decision d) override { decisions.push_back(d); }
  std::vector<Decision> decisions;
};

class Engine {
 public:
  Engine(const RunSpec& spec, std::size_t stack_size,
         const std::function<std::optional<std::string>()>* probe);
  ~Engine();
  RunOutcome run(const std::function<void()>& body);

  // Operations behind detail.hpp.
  bool enter(bool releasing);  // teardown gate, see detail.hpp
  void point(PointKind kind, bool releasing);
  void access(std::uintptr_t address, bool releasing);
  bool block(ModelBase& m, WaitKind kind, bool timed, std::uint64_t deadline);
  bool wake_one(ModelBase& m, WakeKind kind);
  void wake_all(ModelBase& m);
  bool spurious_wakeup() { return spec_.spurious_wakeups && recorder_.spurious_wakeup(current_->id); }
  FiberThread* spawn(std::function<void()> fn);
  void join(FiberThread* t);
  void detach(FiberThread* t);
  [[noreturn]] void fail(FailureKind kind, std::string message);
  void note(FailureKind kind, std::string message);
  [[noreturn]] void abandon_for_assert(std::string message);
  bool first_use(ModelBase& m);
  bool tearing_down() const { return tearing_down_; }
  FiberThread* current() const { return current_; }
  std::uint64_t now() const { return virtual_now_; }
  void advance(std::uint64_t ns) { virtual_now_ += ns; }
  bool accesses_are_points() const { return spec_.points != PointsMode::Sync; }

 private:
  FiberThread* new_thread(std::function<void()> fn);
  boost::context::fiber entry(FiberThread* t, boost::context::fiber&& from);
  boost::context::fiber finish(FiberThread* t);
  void jump(boost::context::fiber& target, boost::context::fiber* my_slot);
  boost::context::fiber exit_to(FiberThread* next);
  void announce_switch(const FiberThread* to, void** save);
  void arrived(void* saved);
  void after_resume(bool releasing);
  void switch_to(FiberThread* next, bool releasing);
  bool block_on(WaitQueue& queue, ModelBase* model, WaitKind kind, bool timed, std::uint64_t deadline);
  bool count_step(bool releasing);
  bool leased(const FiberThread* t, std::uint64_t step) const;
  FiberThread* choose_next(PointKind kind);
  void make_runnable(FiberThread* t);
  void wake(FiberThread* t);
  void fire_timeout(FiberThread* t);
  void remove_live(ThreadId id);
  std::string deadlock_message() const;
  std::string hang_message() const;
  bool probe_failed();
  void teardown();

  RunSpec spec_;
  std::size_t stack_size_;
  const std::function<std::optional<std::string>()>* probe_;
  std::unique_ptr<Strategy> base_;
  VectorSink sink_;
  RecordingStrategy recorder_;
  std::vector<std::unique_ptr<FiberThread>> threads_;
  std::vector<ThreadId> live_;  // ascending ids
  std::vector<Candidate> candidates_;
  std::vector<ThreadId> waiter_ids_;
  FiberThread* current_ = nullptr;
  boost::context::fiber main_ctx_;
  boost::context::fiber* from_slot_ = nullptr;
  std::uint64_t steps_ = 0;
  std::uint64_t state_version_ = 0;
  const FiberThread* lease_holder_ = nullptr;
  std::uint64_t lease_end_ = 0;
  std::uint64_t lease_version_ = 0;
  std::uint32_t runnable_ = 0;
  std::uint32_t timed_blocked_ = 0;
  std::uint32_t object_serial_ = 0;
  std::uint64_t virtual_now_ = 0;
  bool tearing_down_ = false;
  // The OS thread's own stack, for AddressSanitizer's switch annotations (used only there).
  [[maybe_unused]] void* main_stack_lo_ = nullptr;
  [[maybe_unused]] std::size_t main_stack_size_ = 0;
  bool failed_ = false;
  bool pending_ = false;  // a failure was noted; leave at the next point that may unwind
  FailureKind kind_ = FailureKind::None;
  std::string message_;
};

extern thread_local Engine* tls_engine __attribute__((tls_model("initial-exec")));
// Incremented for every run: primitives compare it with ModelBase::run_epoch.
extern thread_local std::uint64_t tls_run_epoch __attribute__((tls_model("initial-exec")));

}  // namespace ctrlsched::detail
