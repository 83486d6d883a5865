// ForcingStrategy in the failing run's context (ForceDirective::context, ContextStrategy): the
// reference run's decisions are followed, nothing held, until that run chose the context thread
// for the pattern's first step at its occurrence; there the directive takes over
// (docs/forcing.md, "In the failing run's context"). Decisions are driven by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/context_strategy.h"
#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"

using namespace ctrlsched;

namespace {

constexpr std::uint64_t kWrite = 0x20, kRead = 0x10, kOther = 0x30, kX = 0x1000;

Candidate pending(ThreadId t, bool write, std::uint64_t site) {
  return Candidate{t, false, write ? PendingKind::Write : PendingKind::Read, site, kX, 0, false};
}

void perform(ForcingStrategy& s, ThreadId t, bool write, std::uint64_t site) {
  s.observe(TraceEvent{static_cast<std::uint8_t>(write ? EventKind::Write : EventKind::Read), 4, 0, t, kX, site});
}

ThreadId decide(ForcingStrategy& s, ThreadId current, const std::vector<Candidate>& candidates, std::uint64_t step) {
  return s.next_thread(SchedulingPoint{current, true, PointKind::Access, step, candidates});
}

// W1 → R2, T1's 2nd write at kWrite first, T2's 1st read at kRead second; cut at T1's 2nd write.
ForceDirective pair_in_context() {
  ForceDirective d = order_directive({force_step(kWrite, ForceAccess::Write, 0), force_step(kRead, ForceAccess::Read, 1)});
  d.steps[0].occurrence = 2;
  d.steps[1].occurrence = 1;
  REQUIRE(bind_role(d, 0, 1));
  REQUIRE(bind_role(d, 1, 2));
  d.context = 1;
  d.context_thread = 1;
  d.context_step = d.steps[0];
  return d;
}

std::vector<Decision> schedule(std::initializer_list<ThreadId> threads) {
  std::vector<Decision> out;
  for (ThreadId t : threads) out.push_back({DecisionKind::Schedule, t});
  return out;
}

}  // namespace

TEST_CASE("forcing in context: the reference run is followed up to the pattern's first step", "[forcing]") {
  // The reference ran T1 (its 1st write), T2 (elsewhere), T1 (its 2nd write: the cut), then T1 again.
  const auto follower = make_replay_strategy(schedule({1, 2, 1, 1}));
  const auto continuation = make_random_strategy(7, std::nullopt);
  ContextStrategy context(*follower, *continuation);
  ForcingStrategy forcing(context, pair_in_context(), nullptr, &context);
  for (ThreadId t : {1u, 2u}) forcing.on_thread_created(t, 0);
  // Followed: T1's first write is step 0's site but not its occurrence, and nothing is held
  // (without the context, T1 would not be held either; T2 at another site is not a step).
  CHECK(decide(forcing, 0, {pending(1, true, kWrite), pending(2, false, kOther)}, 1) == 1);
  CHECK(forcing.lease(SchedulingPoint{1, true, PointKind::Access, 2, {}}) == 0);  // the log has no lease here
  perform(forcing, 1, true, kWrite);
  CHECK(forcing.outcome().steps_done == 0);
  CHECK(decide(forcing, 1, {pending(1, true, kWrite), pending(2, false, kRead)}, 2) == 2);
  // T2's read at kRead is step 1's site, followed as the reference had it: not performed, no
  // role bound by it, no step.
  perform(forcing, 2, false, kOther);
  CHECK(context.following());
  CHECK(forcing.outcome().context_reached == 0);
  // The reference chooses T1 for its 2nd write: the cut. Step 0 happens now, as in the reference.
  CHECK(decide(forcing, 2, {pending(1, true, kWrite), pending(2, false, kRead)}, 3) == 1);
  CHECK_FALSE(context.following());
  CHECK(forcing.outcome().context_reached == 1);
  CHECK(forcing.outcome().context_step == 3);
  perform(forcing, 1, true, kWrite);
  CHECK(forcing.outcome().steps_done == 1);
  // From here the directive decides: immediacy makes T2's read next, whatever the log said (T1).
  CHECK(decide(forcing, 1, {pending(1, false, kOther), pending(2, false, kRead)}, 4) == 2);
  perform(forcing, 2, false, kRead);
  CHECK(forcing.outcome().completed == 1);
}

TEST_CASE("forcing in context: the opposite order starts at the same cut", "[forcing]") {
  // R2 → W1 with the pattern's cut (T1's 2nd write): at the cut T1 is held and T2 reads first,
  // although the reference run let T1 write there.
  ForceDirective d = pair_in_context();
  std::swap(d.steps[0], d.steps[1]);
  const auto follower = make_replay_strategy(schedule({1, 1, 2}));
  const auto continuation = make_random_strategy(3, std::nullopt);
  ContextStrategy context(*follower, *continuation);
  ForcingStrategy forcing(context, d, nullptr, &context);
  for (ThreadId t : {1u, 2u}) forcing.on_thread_created(t, 0);
  // T2 about to read at kRead is the opposite's step 0, but the reference runs T1 here: followed.
  CHECK(decide(forcing, 0, {pending(1, true, kWrite), pending(2, false, kRead)}, 1) == 1);
  perform(forcing, 1, true, kWrite);
  CHECK(forcing.outcome().steps_done == 0);
  // The cut: T1 would perform step 1 before step 0, so it is held; T2 reads.
  CHECK(decide(forcing, 1, {pending(1, true, kWrite), pending(2, false, kRead)}, 2) == 2);
  CHECK(forcing.outcome().context_reached == 1);
  perform(forcing, 2, false, kRead);
  CHECK(forcing.outcome().steps_done == 1);
  CHECK(decide(forcing, 2, {pending(1, true, kWrite), pending(2, false, kOther)}, 3) == 1);
  perform(forcing, 1, true, kWrite);
  CHECK(forcing.outcome().completed == 1);
}

TEST_CASE("forcing in context: a log that ends before the cut leaves the context unreached", "[forcing]") {
  const auto follower = make_replay_strategy(schedule({2}));
  const auto continuation = make_random_strategy(5, std::nullopt);
  ContextStrategy context(*follower, *continuation);
  ForcingStrategy forcing(context, pair_in_context(), nullptr, &context);
  for (ThreadId t : {1u, 2u}) forcing.on_thread_created(t, 0);
  CHECK(decide(forcing, 0, {pending(1, true, kWrite), pending(2, false, kOther)}, 1) == 2);
  perform(forcing, 2, false, kOther);
  // The log is exhausted: following stops, the run goes on with the continuation and the rules,
  // and is never a divergence.
  const ThreadId next = decide(forcing, 2, {pending(1, true, kWrite), pending(2, false, kOther)}, 2);
  CHECK((next == 1 || next == 2));
  CHECK_FALSE(context.following());
  CHECK(forcing.outcome().context_reached == 0);
  CHECK_FALSE(context.divergence().has_value());
}

TEST_CASE("forcing in context: a directive without a context ignores the context strategy", "[forcing]") {
  ForceDirective d = pair_in_context();
  d.context = 0;
  const auto follower = make_replay_strategy(schedule({1, 1}));
  const auto continuation = make_random_strategy(5, std::nullopt);
  ContextStrategy context(*follower, *continuation);
  ForcingStrategy forcing(context, d, nullptr, &context);
  for (ThreadId t : {1u, 2u}) forcing.on_thread_created(t, 0);
  // Not in context: the rules apply from the first point; T1's first write is not step 0's
  // occurrence, T2 reading at kRead matches a later step and is held.
  CHECK(decide(forcing, 0, {pending(1, true, kWrite), pending(2, false, kRead)}, 1) == 1);
  CHECK(forcing.outcome().context_reached == 0);
}

TEST_CASE("forcing in context: a sync cut is its thread's n-th call, a blocked call counted once", "[forcing][sync]") {
  // lock1@A → lock2@B, cut at T1's 2nd lock call at A. T1's 1st call waits (Block, Block again,
  // then Acquire once T2 let the mutex go): one call. The reference then runs T1 to its 2nd call:
  // the cut.
  constexpr std::uint64_t kLockA = 0xa0, kLockB = 0xb0, kOtherSite = 0xc0, kMutex = 0x5000, kMutex2 = 0x6000;
  ForceDirective d = order_directive({force_sync_step(kLockA, static_cast<std::uint8_t>(SyncOp::Lock), 0),
                                      force_sync_step(kLockB, static_cast<std::uint8_t>(SyncOp::Lock), 1)});
  REQUIRE(bind_role(d, 0, 1));
  REQUIRE(bind_role(d, 1, 2));
  d.context = 1;
  d.context_thread = 1;
  d.context_step = d.steps[0];
  d.context_step.occurrence = 2;
  const auto lock_at = [](ThreadId t, std::uint64_t site, std::uint64_t object) {
    return Candidate{t, false, PendingKind::Sync, site, object, static_cast<std::uint8_t>(SyncOp::Lock), false};
  };
  const auto event = [](ThreadId t, EventKind kind, std::uint64_t site, std::uint64_t object) {
    TraceEvent e{};
    e.kind = static_cast<std::uint8_t>(kind);
    e.aux = static_cast<std::uint16_t>(WaitKind::Mutex);
    e.thread = t;
    e.address = object;
    e.site = site;
    return e;
  };
  const auto sync_point = [](ForcingStrategy& s, ThreadId current, const std::vector<Candidate>& candidates,
                             std::uint64_t step) {
    return s.next_thread(SchedulingPoint{current, true, PointKind::Sync, step, candidates});
  };
  // A point with one candidate takes no decision from the log: the reference's are T1, T1.
  const auto follower = make_replay_strategy(schedule({1, 1}));
  const auto continuation = make_random_strategy(11, std::nullopt);
  ContextStrategy context(*follower, *continuation);
  ForcingStrategy forcing(context, d, nullptr, &context);
  for (ThreadId t : {1u, 2u}) forcing.on_thread_created(t, 0);
  // T1's 1st call: followed, not the cut; it waits.
  CHECK(sync_point(forcing, 0, {lock_at(1, kLockA, kMutex), lock_at(2, kOtherSite, kMutex2)}, 1) == 1);
  forcing.observe(event(1, EventKind::Block, kLockA, kMutex));
  CHECK(sync_point(forcing, 1, {lock_at(2, kOtherSite, kMutex2)}, 2) == 2);
  forcing.observe(event(2, EventKind::Acquire, kOtherSite, kMutex2));
  // Woken, it finds the mutex taken again and waits once more (a switch between), then gets it:
  // all the same call.
  TraceEvent t1_switch{};
  t1_switch.kind = static_cast<std::uint8_t>(EventKind::Switch);
  t1_switch.thread = 1;
  forcing.observe(event(1, EventKind::Block, kLockA, kMutex));
  forcing.observe(t1_switch);
  forcing.observe(event(1, EventKind::Acquire, kLockA, kMutex));
  CHECK(context.following());
  // T1's 2nd call is the cut: step 0 happens at once, as in the reference run.
  CHECK(sync_point(forcing, 1, {lock_at(1, kLockA, kMutex), lock_at(2, kLockB, kMutex)}, 3) == 1);
  CHECK(forcing.outcome().context_reached == 1);
  CHECK(forcing.outcome().context_step == 3);
  forcing.observe(event(1, EventKind::Acquire, kLockA, kMutex));
  CHECK(forcing.outcome().steps_done == 1);
  // Immediacy: T2's lock at B is next, and completes the order (it waits for T1).
  CHECK(sync_point(forcing, 1, {lock_at(1, kOtherSite, kMutex2), lock_at(2, kLockB, kMutex)}, 4) == 2);
  forcing.observe(event(2, EventKind::Block, kLockB, kMutex));
  CHECK(forcing.outcome().completed == 1);
}
