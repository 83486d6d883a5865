// ForcingStrategy with roles bound in advance (ForceDirective::role_threads), occurrences
// (ForceStep::occurrence), lock owners that must not be held (Candidate::owns_awaited_lock) and
// partners that do not exist yet (docs/forcing.md, rules 7-9). Decisions are driven by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/forcing.h"

using namespace ctrlsched;

namespace {

constexpr std::uint64_t kRead = 0x10, kWrite = 0x20, kOther = 0x30, kX = 0x1000;

ForceDirective lost_update_triple(std::uint32_t hold_limit = 0) {
  return order_directive({force_step(kRead, ForceAccess::Read, 0), force_step(kWrite, ForceAccess::Write, 1),
                          force_step(kWrite, ForceAccess::Write, 0)},
                         hold_limit);
}

Candidate pending(ThreadId t, bool write, std::uint64_t site, bool owns_lock = false) {
  return Candidate{t, false, write ? PendingKind::Write : PendingKind::Read, site, kX, 0, owns_lock};
}

void perform(ForcingStrategy& s, ThreadId t, bool write, std::uint64_t site) {
  s.observe(TraceEvent{static_cast<std::uint8_t>(write ? EventKind::Write : EventKind::Read), 4, 0, t, kX, site});
}

ThreadId decide(ForcingStrategy& s, ThreadId current, const std::vector<Candidate>& candidates, std::uint64_t step) {
  return s.next_thread(SchedulingPoint{current, true, PointKind::Access, step, candidates});
}

}  // namespace

TEST_CASE("forcing binding: a bound role ignores other threads running the same code", "[forcing]") {
  ForceDirective d = lost_update_triple();
  REQUIRE(bind_role(d, 0, 1));
  REQUIRE(bind_role(d, 1, 2));
  CHECK(bound_thread(d, 0) == 1);
  CHECK(bound_thread(d, 1) == 2);
  CHECK(bound_thread(d, 2) == kNoBoundThread);
  const auto base = make_random_strategy(3, std::nullopt);
  ForcingStrategy forcing(*base, d);
  forcing.on_thread_created(1, 0);
  forcing.on_thread_created(2, 0);
  // main's initialization reads and writes at the pattern's sites: not step 0 (role 0 is T1).
  perform(forcing, 0, false, kRead);
  perform(forcing, 0, true, kWrite);
  CHECK(forcing.outcome().steps_done == 0);
  // T2 reading first does not take role 0 either.
  perform(forcing, 2, false, kRead);
  CHECK(forcing.outcome().steps_done == 0);
  perform(forcing, 1, false, kRead);
  CHECK(forcing.outcome().steps_done == 1);
  // Role 0's thread waits for its partner, which is T2 only: main's write does not count.
  perform(forcing, 0, true, kWrite);
  CHECK(forcing.outcome().steps_done == 1);
  perform(forcing, 2, true, kWrite);
  perform(forcing, 1, true, kWrite);
  CHECK(forcing.outcome().completed == 1);
  CHECK(forcing.outcome().role_thread[0] == 2);  // T1 + 1
  CHECK(forcing.outcome().role_thread[1] == 3);
}

TEST_CASE("forcing binding: an occurrence picks the thread's n-th access at the site", "[forcing]") {
  ForceDirective d = lost_update_triple();
  d.steps[0].occurrence = 3;
  const auto base = make_random_strategy(4, std::nullopt);
  ForcingStrategy forcing(*base, d);
  forcing.on_thread_created(1, 0);
  for (int i = 0; i < 2; ++i) {  // two harmless iterations of T1
    // T1 about to read at its 1st/2nd occurrence: step 0 does not match, nothing is held.
    const ThreadId chosen = decide(forcing, 1, {pending(0, true, kOther), pending(1, false, kRead)}, 1);
    CHECK((chosen == 0 || chosen == 1));
    perform(forcing, 1, false, kRead);
    perform(forcing, 1, true, kWrite);
    CHECK(forcing.outcome().steps_done == 0);
  }
  perform(forcing, 1, false, kRead);  // the third read
  CHECK(forcing.outcome().steps_done == 1);
  CHECK(forcing.outcome().role_thread[0] == 2);
}

TEST_CASE("forcing binding: a thread owning a lock someone waits for is not held", "[forcing]") {
  const auto base = make_random_strategy(5, std::nullopt);
  ForcingStrategy forcing(*base, lost_update_triple());
  forcing.on_thread_created(1, 0);
  forcing.on_thread_created(2, 0);
  perform(forcing, 1, false, kRead);  // T1 read inside the region; T2 is blocked on the lock
  REQUIRE(forcing.outcome().steps_done == 1);
  bool t1_ran = false;
  for (std::uint64_t step = 1; step <= 40; ++step) {
    // T1 is about to unlock (no access pending) and owns the lock T2 waits for; T0 is busy.
    const ThreadId chosen = decide(forcing, 0, {pending(0, false, kOther), Candidate{1, false, PendingKind::None, 0, 0, 0, true}}, step);
    t1_ran = t1_ran || chosen == 1;
  }
  CHECK(t1_ran);
  CHECK(forcing.outcome().holds == 0);
  CHECK(forcing.outcome().starvation_skips == 40);
  // Without the lock, T1 waits for its partner again.
  for (std::uint64_t step = 41; step <= 60; ++step) {
    CHECK(decide(forcing, 0, {pending(0, false, kOther), Candidate{1, false, PendingKind::None, 0, 0, 0, false}}, step) == 0);
  }
}

TEST_CASE("forcing binding: a lock owner let through to a later step says where it took the lock", "[forcing]") {
  // R1 -> W2, an order violation whose writer writes inside a lock the reader needs first.
  constexpr std::uint64_t kLockCall = 0x40;
  const ForceDirective d = order_directive(
      {force_step(kRead, ForceAccess::Read, 0), force_step(kWrite, ForceAccess::Write, 1)}, 0);
  const auto base = make_random_strategy(7, std::nullopt);
  ForcingStrategy forcing(*base, d);
  forcing.on_thread_created(1, 0);
  forcing.on_thread_created(2, 0);
  // T1 owns no awaited lock yet: about to write, it is held for T2's read.
  CHECK(decide(forcing, 0, {pending(1, true, kWrite), pending(2, false, kOther)}, 1) == 2);
  CHECK(forcing.outcome().starved_lock_site == 0);
  // T2 is blocked on the lock T1 took at kLockCall: T1 runs on to its write, out of order.
  Candidate owner = pending(1, true, kWrite, true);
  owner.owned_lock_site = kLockCall;
  CHECK(decide(forcing, 0, {owner}, 2) == 1);
  CHECK(forcing.outcome().starvation_skips == 1);
  CHECK(forcing.outcome().starved_step == 1);
  CHECK(forcing.outcome().starved_lock_site == kLockCall);
  // The first such owner is the one reported.
  owner.owned_lock_site = kLockCall + 8;
  decide(forcing, 0, {owner}, 3);
  CHECK(forcing.outcome().starved_lock_site == kLockCall);
}

TEST_CASE("forcing binding: a lock owner with no later step pending is not reported", "[forcing]") {
  const auto base = make_random_strategy(8, std::nullopt);
  ForcingStrategy forcing(*base, lost_update_triple());
  forcing.on_thread_created(1, 0);
  forcing.on_thread_created(2, 0);
  perform(forcing, 1, false, kRead);
  // T1 waits for its partner while it owns the awaited lock (about to unlock): skipped, but it
  // is not going on to a step of its own, so there is no lock call to hold it at.
  Candidate unlocking{1, false, PendingKind::None, 0, 0, 0, true, 0x40};
  decide(forcing, 0, {pending(0, false, kOther), unlocking}, 1);
  CHECK(forcing.outcome().starvation_skips == 1);
  CHECK(forcing.outcome().starved_lock_site == 0);
}

TEST_CASE("forcing binding: waiting for a partner not created yet does not use up the budget", "[forcing]") {
  ForceDirective d = lost_update_triple(5);
  REQUIRE(bind_role(d, 0, 1));
  REQUIRE(bind_role(d, 1, 2));
  const auto base = make_random_strategy(6, std::nullopt);
  ForcingStrategy forcing(*base, d);
  forcing.on_thread_created(1, 0);
  perform(forcing, 1, false, kRead);
  REQUIRE(forcing.outcome().steps_done == 1);
  // main runs a long setup before creating T2: T1 stays held far beyond hold_limit (5).
  for (std::uint64_t step = 1; step <= 30; ++step) {
    CHECK(decide(forcing, 0, {pending(0, false, kOther), pending(1, true, kWrite)}, step) == 0);
  }
  CHECK(forcing.outcome().holds_dropped == 0);
  forcing.on_thread_created(2, 0);
  // Now the budget runs: after 5 more holds T1 is released.
  for (std::uint64_t step = 31; step <= 35; ++step) decide(forcing, 0, {pending(0, false, kOther), pending(1, true, kWrite)}, step);
  CHECK(forcing.outcome().holds_dropped == 1);
}
