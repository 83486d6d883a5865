// controlled_scheduler: Boost.Fiber's algorithm interface driven by a ctrlsched strategy.
//
// How Boost calls an algorithm (boost/fiber/scheduler.hpp, one OS thread):
//  - awakened(ctx): ctx became ready (launched, woken from a wait queue, a yield finished, or the
//    dispatcher context re-queued after it resumed a fiber);
//  - pick_next(): called by the running context when it yields, blocks or ends, and by the
//    dispatcher context in its loop; the returned context runs next.
//
// The dispatcher context (it frees ended fibers, wakes sleepers, idles when nothing is ready)
// never competes with fibers. Instead, whenever a fiber leaves the CPU and the dispatcher is
// ready, the fiber is handed to the dispatcher first and the strategy decides in the dispatcher's
// pick_next (a "detour"). Two reasons: a yielding fiber is only re-queued by Boost after it has
// switched away, so deciding later lets the strategy see it as a candidate (it may keep running);
// and sleepers whose deadline passed are woken before every decision, as under round_robin, so a
// fiber spinning on yield() cannot starve a sleeping one.
//
// The kind of a point follows from where the departing fiber is when the dispatcher decides:
// ready again -> Yield (it stays enabled), otherwise -> Blocked. An ending fiber is a Blocked
// point too: Boost does not tell an algorithm that a fiber ended (its terminated flag is private
// and it is queued for release only after the switch), and strategies treat both kinds alike.
#include "ctrlsched/boost_fiber.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <boost/fiber/algo/round_robin.hpp>
#include <boost/fiber/operations.hpp>
#include <boost/fiber/properties.hpp>
#include <boost/fiber/type.hpp>

namespace ctrlsched::fibers {
namespace {

using boost::fibers::context;
using boost::fibers::type;

thread_local controlled_scheduler* installed = nullptr;
thread_local std::uint64_t runs_started = 0;

// A fiber's ctrlsched id, stored in the fiber's properties slot.
class FiberIdentity final : public boost::fibers::fiber_properties {
 public:
  FiberIdentity(context* ctx, std::uint64_t run, ThreadId id) noexcept
      : fiber_properties(ctx), run_(run), id_(id) {}
  std::uint64_t run() const { return run_; }
  ThreadId id() const { return id_; }

 private:
  std::uint64_t run_;
  ThreadId id_;
};

RunSpec resolved(RunSpec spec) {
  if (spec.strategy == StrategyKind::Pct && spec.pct_steps == 0) spec.pct_steps = kDefaultFiberPctSteps;
  return spec;
}

}  // namespace

controlled_scheduler::controlled_scheduler(const RunSpec& spec)
    : controlled_scheduler(spec, make_strategy(resolved(spec))) {}

controlled_scheduler::controlled_scheduler(const RunSpec& spec, std::vector<Decision> decisions)
    : controlled_scheduler(spec, make_replay_strategy(std::move(decisions))) {}

controlled_scheduler::controlled_scheduler(const RunSpec& spec, std::unique_ptr<Strategy> strategy)
    : spec_(resolved(spec)),
      expected_hash_(spec.expected_hash),
      strategy_(std::move(strategy)),
      recording_(*strategy_, sink_),
      run_(++runs_started) {
  recording_.on_thread_created(0, kNoThread);
  installed = this;
}

controlled_scheduler::~controlled_scheduler() {
  if (installed == this) installed = nullptr;
}

controlled_scheduler* controlled_scheduler::current() noexcept { return installed; }

FiberRun controlled_scheduler::result() const {
  FiberRun run;
  run.spec = spec_;
  run.spec.expected_hash = recording_.hash();
  run.decisions = decisions_;
  run.schedule_hash = recording_.hash();
  run.steps = steps_;
  run.fibers = next_id_;
  run.divergence = recording_.divergence();
  run.hash_mismatch = expected_hash_.has_value() && *expected_hash_ != recording_.hash();
  return run;
}

ThreadId controlled_scheduler::active_fiber_id() { return id_of(context::active()); }

ThreadId controlled_scheduler::id_of(context* ctx) {
  if (ctx->is_context(type::main_context)) return 0;
  if (const auto* identity = dynamic_cast<const FiberIdentity*>(ctx->get_properties());
      identity != nullptr && identity->run() == run_) {
    return identity->id();
  }
  const ThreadId id = next_id_++;
  ctx->set_properties(new FiberIdentity(ctx, run_, id));
  // The creator is not visible to an algorithm; the fiber that last got the CPU through it is
  // the creator whenever fibers are launched with launch::post (the default).
  recording_.on_thread_created(id, last_running_);
  return id;
}

void controlled_scheduler::awakened(context* ctx) noexcept {
  if (ctx->is_context(type::dispatcher_context)) {
    dispatcher_ = ctx;
    dispatcher_ready_ = true;
    return;
  }
  const ThreadId id = id_of(ctx);
  const auto at = std::lower_bound(ready_.begin(), ready_.end(), id,
                                   [](const ReadyFiber& fiber, ThreadId key) { return fiber.id < key; });
  if (at != ready_.end() && at->id == id) return;
  ready_.insert(at, ReadyFiber{id, ctx});
}

context* controlled_scheduler::pick_next() noexcept {
  context* active = context::active();
  if (!active->is_context(type::dispatcher_context)) {
    const ThreadId departing = id_of(active);
    if (dispatcher_ready_) {
      departing_ = departing;
      dispatcher_ready_ = false;
      return dispatcher_;
    }
    return decide(departing);
  }
  const ThreadId departing = departing_.value_or(last_running_);
  departing_.reset();
  return decide(departing);
}

context* controlled_scheduler::decide(ThreadId departing) {
  if (ready_.empty()) return nullptr;  // only the dispatcher asks with nothing ready: it idles
  candidates_.clear();
  bool current_enabled = false;
  for (const ReadyFiber& fiber : ready_) {
    candidates_.push_back(Candidate{fiber.id, false});
    current_enabled = current_enabled || fiber.id == departing;
  }
  const PointKind kind = current_enabled ? PointKind::Yield : PointKind::Blocked;
  if (++steps_ > spec_.max_steps) abort_on_step_limit();
  const SchedulingPoint point{departing, current_enabled, kind, steps_, candidates_};
  const ThreadId chosen = recording_.next_thread(point);
  auto at = std::find_if(ready_.begin(), ready_.end(), [&](const ReadyFiber& f) { return f.id == chosen; });
  if (at == ready_.end()) at = ready_.begin();  // strategies answer with a candidate; stay safe
  context* next = at->ctx;
  last_running_ = at->id;
  ready_.erase(at);
  return next;
}

void controlled_scheduler::abort_on_step_limit() const {
  // A livelock among fibers never returns control to the test; the handle is the one thing the
  // user needs to look at it again.
  std::fprintf(stderr, "ctrlsched: fiber run %s exceeded max-steps %llu (livelock?), aborting\n",
               result().handle().c_str(), static_cast<unsigned long long>(spec_.max_steps));
  std::abort();
}

bool controlled_scheduler::has_ready_fibers() const noexcept { return !ready_.empty() || dispatcher_ready_; }

void controlled_scheduler::suspend_until(std::chrono::steady_clock::time_point const& when) noexcept {
  std::unique_lock lock(idle_mutex_);
  if (when == std::chrono::steady_clock::time_point::max()) {
    idle_cv_.wait(lock, [this] { return notified_; });
  } else {
    idle_cv_.wait_until(lock, when, [this] { return notified_; });
  }
  notified_ = false;
}

void controlled_scheduler::notify() noexcept {
  {
    std::lock_guard lock(idle_mutex_);
    notified_ = true;
  }
  idle_cv_.notify_all();
}

namespace {

template <typename... SchedulerArgs>
FiberRun run_installed(const std::function<void()>& body, SchedulerArgs&&... args) {
  boost::fibers::use_scheduling_algorithm<controlled_scheduler>(std::forward<SchedulerArgs>(args)...);
  controlled_scheduler* const scheduler = controlled_scheduler::current();
  struct RestoreRoundRobin {
    ~RestoreRoundRobin() { boost::fibers::use_scheduling_algorithm<boost::fibers::algo::round_robin>(); }
  } restore;
  body();
  return scheduler->result();
}

}  // namespace

FiberRun run_controlled(const RunSpec& spec, const std::function<void()>& body) {
  return run_installed(body, spec);
}

FiberRun run_controlled(const RunSpec& spec, std::vector<Decision> decisions, const std::function<void()>& body) {
  return run_installed(body, spec, std::move(decisions));
}

}  // namespace ctrlsched::fibers
