// ForcingStrategy with synchronization steps (force_sync_step): a thread stopped at a sync
// operation's point is a candidate with PendingKind::Sync, its SyncOp, call site and object;
// the step is performed by the operation's event (sync_op_of). Simulated like core_forcing_test:
// each thread is a list of sync operations, performed when chosen.
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"

using namespace ctrlsched;

namespace {

struct Op {
  SyncOp op;
  std::uint64_t site;
  std::uint64_t object;
};

struct Done {
  ThreadId thread;
  std::uint64_t site;
};

constexpr std::uint64_t kLockA = 0xa000, kLockB = 0xb000;

// The event a performed operation emits (a lock as its Acquire, a wait as its Block, ...).
TraceEvent event_of(ThreadId t, const Op& op) {
  TraceEvent e{};
  e.thread = t;
  e.address = op.object;
  e.site = op.site;
  switch (op.op) {
    case SyncOp::Lock:
      e.kind = static_cast<std::uint8_t>(EventKind::Acquire);
      e.aux = static_cast<std::uint16_t>(WaitKind::Mutex);
      break;
    case SyncOp::Signal:
      e.kind = static_cast<std::uint8_t>(EventKind::Release);
      e.aux = static_cast<std::uint16_t>(WaitKind::Cond);
      break;
    case SyncOp::Wait:
      e.kind = static_cast<std::uint8_t>(EventKind::Block);
      e.aux = static_cast<std::uint16_t>(WaitKind::Cond);
      break;
    default:
      e.kind = static_cast<std::uint8_t>(EventKind::Release);
      e.aux = static_cast<std::uint16_t>(WaitKind::Mutex);
      break;
  }
  return e;
}

std::vector<Done> simulate(const std::vector<std::vector<Op>>& program, ForcingStrategy& strategy) {
  const std::size_t n = program.size();
  for (ThreadId t = 0; t < n; ++t) strategy.on_thread_created(t, t == 0 ? kNoThread : 0);
  std::vector<std::size_t> pc(n, 0);
  std::vector<Done> done;
  std::vector<Candidate> candidates;
  ThreadId current = 0;
  for (std::uint64_t step = 1;; ++step) {
    candidates.clear();
    for (ThreadId t = 0; t < n; ++t) {
      if (pc[t] == program[t].size()) continue;
      const Op& op = program[t][pc[t]];
      candidates.push_back({t, false, PendingKind::Sync, op.site, op.object, static_cast<std::uint8_t>(op.op)});
    }
    if (candidates.empty()) break;
    const SchedulingPoint point{current, pc[current] < program[current].size(), PointKind::Sync, step, candidates};
    const ThreadId chosen = strategy.next_thread(point);
    const Op& op = program[chosen][pc[chosen]++];
    strategy.observe(event_of(chosen, op));
    done.push_back({chosen, op.site});
    current = chosen;
  }
  return done;
}

std::size_t position(const std::vector<Done>& done, ThreadId t, std::uint64_t site) {
  for (std::size_t i = 0; i < done.size(); ++i)
    if (done[i].thread == t && done[i].site == site) return i;
  return done.size();
}

}  // namespace

TEST_CASE("forcing sync: lock1-lock2 makes the lock-order inversion happen for every seed", "[forcing][sync]") {
  // T0 locks A (site 1) then B (2); T1 locks B (3) then A (4). Forcing "lock1@1 → lock2@4" on
  // one object: T0 takes A, then is held (its partner has not taken A yet) while T1 runs to its
  // lock of A, so both first locks happen before either second one: the ABBA deadlock's order.
  const std::vector<std::vector<Op>> program = {
      {{SyncOp::Lock, 1, kLockA}, {SyncOp::Lock, 2, kLockB}},
      {{SyncOp::Lock, 3, kLockB}, {SyncOp::Lock, 4, kLockA}},
  };
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const auto base = make_random_strategy(seed, std::nullopt);
    ForcingStrategy forcing(*base, order_directive({force_sync_step(1, static_cast<std::uint8_t>(SyncOp::Lock), 0),
                                                    force_sync_step(4, static_cast<std::uint8_t>(SyncOp::Lock), 1)}));
    const std::vector<Done> done = simulate(program, forcing);
    INFO("seed " << seed);
    REQUIRE(forcing.outcome().completed == 1);
    CHECK(position(done, 0, 1) < position(done, 1, 4));
    CHECK(position(done, 1, 3) < position(done, 0, 2));  // T1 took B before T0 tried it
    CHECK(position(done, 1, 4) < position(done, 0, 2));  // T0 held until T1's lock of A
  }
}

TEST_CASE("forcing sync: a step matches only its operation on the bound object", "[forcing][sync]") {
  // signal1@10 → wait2@20: the waiter is held at its wait until the signal happened; its unlock
  // at the same site (another operation) is not the step.
  const std::uint64_t cond = 0xc000, other = 0xd000;
  const std::vector<std::vector<Op>> program = {
      {{SyncOp::Signal, 10, cond}},
      {{SyncOp::Unlock, 20, kLockA}, {SyncOp::Wait, 20, cond}},
  };
  const ForceDirective d = order_directive({force_sync_step(10, static_cast<std::uint8_t>(SyncOp::Signal), 0),
                                            force_sync_step(20, static_cast<std::uint8_t>(SyncOp::Wait), 1)});
  REQUIRE(valid_directive(d));
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto base = make_random_strategy(seed, std::nullopt);
    ForcingStrategy forcing(*base, d);
    const std::vector<Done> done = simulate(program, forcing);
    INFO("seed " << seed);
    CHECK(forcing.outcome().completed == 1);
    CHECK(done.back().thread == 1);  // the wait came last, after the signal
    CHECK(done.back().site == 20);
  }
  // Once the signal bound the condition variable, a wait on another object is not the step.
  const auto base = make_random_strategy(1, std::nullopt);
  ForcingStrategy forcing(*base, d);
  forcing.on_thread_created(0, kNoThread);
  forcing.on_thread_created(1, 0);
  forcing.observe(event_of(0, {SyncOp::Signal, 10, cond}));
  CHECK(forcing.outcome().steps_done == 1);
  forcing.observe(event_of(1, {SyncOp::Wait, 20, other}));
  CHECK(forcing.outcome().steps_done == 1);
  forcing.observe(event_of(1, {SyncOp::Wait, 20, cond}));
  CHECK(forcing.outcome().completed == 1);
}

TEST_CASE("forcing sync: a sync step never matches a memory access and vice versa", "[forcing][sync]") {
  const auto base = make_random_strategy(1, std::nullopt);
  ForcingStrategy forcing(*base, order_directive({force_sync_step(5, static_cast<std::uint8_t>(SyncOp::Lock), 0),
                                                  force_step(6, ForceAccess::Write, 1)}));
  forcing.on_thread_created(0, kNoThread);
  forcing.on_thread_created(1, 0);
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::Write), 4, 0, 0, 0x1000, 5});
  CHECK(forcing.outcome().steps_done == 0);
  TraceEvent lock{};
  lock.kind = static_cast<std::uint8_t>(EventKind::Block);
  lock.aux = static_cast<std::uint16_t>(WaitKind::Mutex);
  lock.thread = 0;
  lock.address = kLockA;
  lock.site = 5;
  forcing.observe(lock);  // a lock attempt that blocks performs the step
  CHECK(forcing.outcome().steps_done == 1);
  ForceDirective bad = order_directive({force_sync_step(5, kSyncOps, 0)});
  CHECK_FALSE(valid_directive(bad));
}
