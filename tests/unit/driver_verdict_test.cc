// Verdict statistics of forced patterns (localize/verdict.h) and binding a pattern to its
// occurrence in a reference failing run (localize/reference_binding.h).
#include <catch2/catch.hpp>

#include <cmath>

#include "localize/reference_binding.h"
#include "localize/symptoms.h"
#include "localize/verdict.h"
#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

TEST_CASE("verdict: exact one-sided binomial tails", "[verdict]") {
  CHECK(binomial_at_least(0, 20, 0.1) == 1.0);
  CHECK(binomial_at_least(21, 20, 0.1) == 0.0);
  CHECK(binomial_at_least(20, 20, 0.5) == Approx(std::pow(0.5, 20)));
  CHECK(binomial_at_least(1, 10, 0.1) == Approx(1 - std::pow(0.9, 10)));
  CHECK(binomial_at_most(0, 7, 0.5) == Approx(0.0078125));
  CHECK(binomial_at_most(10, 20, 0.5) == Approx(0.588099).epsilon(1e-4));
  CHECK(binomial_at_least(3, 20, 0.0) == 0.0);
  CHECK(binomial_at_most(20, 20, 0.3) == 1.0);
}

TEST_CASE("verdict: thresholds", "[verdict]") {
  auto decide = [](std::uint64_t completed, std::uint64_t failed, double baseline, bool symptom = false) {
    return decide_verdict({completed, failed, baseline, symptom}).verdict;
  };
  // Too few completed runs: nothing can be said, whatever failed.
  CHECK(decide(0, 0, 0.02) == Verdict::Unrealized);
  CHECK(decide(kMinCompletedRuns - 1, kMinCompletedRuns - 1, 0.02) == Verdict::Unrealized);
  CHECK(decide(kMinCompletedRuns - 1, 0, 0.02) == Verdict::Unrealized);
  // Reliable and far above baseline.
  CHECK(decide(20, 20, 0.02) == Verdict::Confirmed);
  CHECK(decide(kMinCompletedRuns, kMinCompletedRuns, 0.5) == Verdict::Confirmed);
  CHECK(decide(20, 12, 0.1) == Verdict::Confirmed);
  // A symptom never comes out confirmed.
  CHECK(decide(20, 20, 0.02, true) == Verdict::Inconclusive);
  // Never failing once it happened: refuted.
  CHECK(decide(kMinCompletedRuns, 0, 0.02) == Verdict::Refuted);
  CHECK(decide(18, 1, 0.02) == Verdict::Refuted);
  // At the baseline rate of a frequently failing test: refuted, it adds nothing.
  CHECK(decide(20, 3, 0.3) == Verdict::Refuted);
  // Above baseline but not reliable (a contributing order): inconclusive.
  CHECK(decide(20, 5, 0.02) == Verdict::Inconclusive);
  // Reliable but not above a high baseline: inconclusive.
  CHECK(decide(20, 12, 0.6) == Verdict::Inconclusive);
  const VerdictDecision d = decide_verdict({20, 20, 0.02, false});
  CHECK(d.p_above_baseline == Approx(std::pow(0.02, 20)));
  CHECK(d.p_below_cause == 1.0);
}

TEST_CASE("verdict: a refutation survives counting the runs that failed before the order", "[verdict]") {
  // heldout4's peak_gauge: the lost maximum, bound to an occurrence the failure often comes before
  // (9 of 20 forced runs failed the same way before the order completed, 0 of the 11 where it
  // did). Those 11 are the runs the failure spared: counted with the 9, 9 of 20, which is no
  // evidence that the order does not fail like a cause.
  const VerdictDecision spared = decide_verdict({11, 0, 0.03, false, 9});
  CHECK(spared.p_below_cause < kVerdictAlpha);
  CHECK(spared.p_below_cause_counting_before == Approx(binomial_at_most(9, 20, 0.5)));
  CHECK(spared.verdict == Verdict::Inconclusive);
  // A few early failures do not save it: 1 of 20 counted that way is still far below half.
  CHECK(decide_verdict({12, 0, 0.02, false, 1}).verdict == Verdict::Refuted);
  CHECK(decide_verdict({20, 0, 0.02, false, 0}).verdict == Verdict::Refuted);
  // Nothing else moves: confirmation looks at the completed runs only.
  CHECK(decide_verdict({11, 11, 0.03, false, 9}).verdict == Verdict::Confirmed);
}

TEST_CASE("verdict: a refutation survives counting the completed runs that failed another way", "[verdict]") {
  // heldout11's config_reload: the port read before the loader's store fails 19 of the 19 runs
  // where the order completed, at the port's assertion (line 60), not the timeout's (61) that the
  // reference run hit. 0 of 19 the same way, and the order is plainly not harmless.
  const VerdictDecision other = decide_verdict({19, 0, 0.01, false, 0, 19});
  CHECK(other.p_below_cause < kVerdictAlpha);
  CHECK(other.p_below_cause_counting_otherwise == 1);
  CHECK(other.verdict == Verdict::Inconclusive);
  // The flag's store before the reader's check: 2 the same way and 5 otherwise of 20, 7 of 20.
  const VerdictDecision some = decide_verdict({20, 2, 0.01, false, 0, 5});
  CHECK(some.p_below_cause_counting_otherwise == Approx(binomial_at_most(7, 20, 0.5)));
  CHECK(some.verdict == Verdict::Inconclusive);
  // One other failure of 20 leaves the refutation standing; more than the completed runs is capped.
  CHECK(decide_verdict({20, 0, 0.01, false, 0, 1}).verdict == Verdict::Refuted);
  CHECK(decide_verdict({20, 18, 0.01, false, 0, 9}).p_below_cause_counting_otherwise == 1);
  // Confirmation still counts the same failure only.
  CHECK(decide_verdict({20, 2, 0.0, false, 0, 18}).verdict == Verdict::Inconclusive);
}

namespace {

TraceEvent access(std::uint32_t thread, EventKind kind, std::uint64_t site, std::uint64_t address) {
  TraceEvent e{};
  e.thread = thread;
  e.kind = static_cast<std::uint8_t>(kind);
  e.site = site;
  e.address = address;
  return e;
}

constexpr std::uint64_t kRead = 0x10, kWrite = 0x20, kX = 0x1000, kY = 0x2000;

// An order of two steps, roles as the steps have them.
ForceDirective two_steps(ForceStep first, ForceStep second) {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.count = 2;
  d.steps[0] = first;
  d.steps[1] = second;
  return d;
}

// R1-W2-W1 on one location.
ForceDirective lost_update() {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.count = 3;
  d.steps[0] = ForceStep{kRead, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0};
  d.steps[1] = ForceStep{kWrite, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0};
  d.steps[2] = ForceStep{kWrite, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0};
  return d;
}

}  // namespace

TEST_CASE("reference binding: main's initialization is not the pattern's occurrence", "[verdict]") {
  localize::Trace t;
  // main deposits alone, then T1 and T2 interleave R1 W2 W1; the last one is T2's read.
  t.events = {access(0, EventKind::Read, kRead, kX),  access(0, EventKind::Write, kWrite, kX),
              access(1, EventKind::Read, kRead, kX),  access(2, EventKind::Read, kRead, kX),
              access(2, EventKind::Write, kWrite, kX), access(1, EventKind::Write, kWrite, kX),
              access(0, EventKind::Read, kRead, kY)};
  const auto o = last_occurrence(lost_update(), t);
  REQUIRE(o.has_value());
  CHECK(o->events == std::vector<std::size_t>{2, 4, 5});
  CHECK(o->threads == std::vector<std::uint32_t>{1, 2, 1});
  const auto bound = bind_to_occurrence(lost_update(), t, *o, true);
  REQUIRE(bound.has_value());
  CHECK(bound_thread(*bound, 0) == 1);
  CHECK(bound_thread(*bound, 1) == 2);
  CHECK(bound_thread(*bound, 2) == kNoBoundThread);
  CHECK(bound->steps[0].occurrence == 1);  // T1's first read at kRead
  CHECK(bound->steps[1].occurrence == 1);
  CHECK(bound->steps[2].occurrence == 0);  // later steps of a role: the next one
  CHECK(binding_text(*bound) == "role 1 = T1 (its 1st access at step 1), role 2 = T2 (its 1st access at step 2)");
  const auto threads_only = bind_to_occurrence(lost_update(), t, *o, false);
  REQUIRE(threads_only.has_value());
  CHECK(threads_only->steps[0].occurrence == 0);
  CHECK(binding_text(*threads_only) == "role 1 = T1, role 2 = T2");
  CHECK(binding_text(lost_update()) == "roles bind at first match");
}

TEST_CASE("reference binding: a step matches its statement's other copy, and is bound to the copy its thread ran",
          "[verdict]") {
  // pop() inlined into two lambdas: its check and its decrement each have one pc per thread. The
  // pattern's example names T1's check (kReadA) and T2's decrement (kWriteB); the failing run had
  // T2's check (kReadB) before T1's decrement (kWriteA).
  constexpr std::uint64_t kReadA = 0x11, kReadB = 0x12, kWriteA = 0x21, kWriteB = 0x22;
  const ForceDirective d =
      two_steps(ForceStep{kReadA, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0},
                ForceStep{kWriteB, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0});
  localize::Trace t;
  t.events = {access(1, EventKind::Read, kReadA, kX), access(2, EventKind::Read, kReadB, kX),
              access(1, EventKind::Write, kWriteA, kX)};
  CHECK_FALSE(last_occurrence(d, t).has_value());  // T2 never ran kWriteB
  const SiteStatements statements = {{kReadA, kReadA}, {kReadB, kReadA}, {kWriteA, kWriteA}, {kWriteB, kWriteA}};
  const auto o = last_occurrence(d, t, &statements);
  REQUIRE(o.has_value());
  CHECK(o->events == std::vector<std::size_t>{1, 2});
  CHECK(o->threads == std::vector<std::uint32_t>{2, 1});
  const auto bound = bind_to_occurrence(d, t, *o, true);
  REQUIRE(bound.has_value());
  CHECK(bound->steps[0].site == kReadB);  // T2's copy of the check
  CHECK(bound->steps[1].site == kWriteA);  // T1's copy of the decrement
  CHECK(bound_thread(*bound, 0) == 2);
  CHECK(bound_thread(*bound, 1) == 1);
  CHECK(bound->steps[0].occurrence == 1);
}

TEST_CASE("reference binding: a loop's failing iteration is the last occurrence", "[verdict]") {
  localize::Trace t;
  for (int i = 0; i < 3; ++i) {  // three harmless iterations, T1 then T2
    t.events.push_back(access(1, EventKind::Read, kRead, kX));
    t.events.push_back(access(1, EventKind::Write, kWrite, kX));
    t.events.push_back(access(2, EventKind::Read, kRead, kX));
    t.events.push_back(access(2, EventKind::Write, kWrite, kX));
  }
  // The failing one: T2 reads, T1 writes, T2 writes (roles swapped).
  t.events.push_back(access(2, EventKind::Read, kRead, kX));
  t.events.push_back(access(1, EventKind::Write, kWrite, kX));
  t.events.push_back(access(2, EventKind::Write, kWrite, kX));
  const auto o = last_occurrence(lost_update(), t);
  REQUIRE(o.has_value());
  CHECK(o->threads == std::vector<std::uint32_t>{2, 1, 2});
  const auto bound = bind_to_occurrence(lost_update(), t, *o, true);
  REQUIRE(bound.has_value());
  CHECK(bound->steps[0].occurrence == 4);  // T2's fourth read
  CHECK(bound->steps[1].occurrence == 4);  // T1's fourth write
}

TEST_CASE("reference binding: the occurrence whose steps saw each other, not the latest", "[verdict]") {
  // W1 → R2: T1 adds to a phase total (kWrite); T2, the serial thread, reads it (kRead) and
  // resets it (kReset). Failing: T1's second-phase add lands before T2's first-phase read. The
  // latest occurrence of W1 → R2 is T1's second add and T2's second read, with T2's reset and
  // its own add between them: an order every passing run has. The one that failed is T1's
  // second add and T2's first read, back to back.
  constexpr std::uint64_t kReset = 0x30;
  const ForceDirective d =
      two_steps(ForceStep{kWrite, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0},
                ForceStep{kRead, static_cast<std::uint8_t>(ForceAccess::Read), 1, 0, 0});
  localize::Trace t;
  t.events = {access(1, EventKind::Write, kWrite, kX), access(2, EventKind::Write, kWrite, kX),
              access(1, EventKind::Write, kWrite, kX),  // T1's next-phase add, too early
              access(2, EventKind::Read, kRead, kX),   access(2, EventKind::Write, kReset, kX),
              access(2, EventKind::Write, kWrite, kX), access(2, EventKind::Read, kRead, kX),
              access(2, EventKind::Write, kReset, kX)};
  const auto o = last_occurrence(d, t);
  REQUIRE(o.has_value());
  CHECK(o->events == std::vector<std::size_t>{2, 3});
  const auto bound = bind_to_occurrence(d, t, *o, true);
  REQUIRE(bound.has_value());
  CHECK(binding_text(*bound) == "role 1 = T1 (its 2nd access at step 1), role 2 = T2 (its 1st access at step 2)");
  // Another thread's adjacent occurrence does not move the binding: main's initializing write
  // read next by T1 is an order every run has; the latest occurrence (main's write, T2's read
  // after T1's write) keeps its threads, and without an adjacent occurrence of them, itself.
  t.events = {access(0, EventKind::Write, kWrite, kX), access(1, EventKind::Read, kRead, kX),
              access(1, EventKind::Write, kReset, kX), access(2, EventKind::Read, kRead, kX)};
  const auto main_first = last_occurrence(d, t);
  REQUIRE(main_first.has_value());
  CHECK(main_first->events == std::vector<std::size_t>{0, 3});
  // With a write between every occurrence's steps, the latest occurrence as before.
  t.events = {access(1, EventKind::Write, kWrite, kX), access(2, EventKind::Write, kReset, kX),
              access(2, EventKind::Read, kRead, kX)};
  const auto fallback = last_occurrence(d, t);
  REQUIRE(fallback.has_value());
  CHECK(fallback->events == std::vector<std::size_t>{0, 2});
}

TEST_CASE("reference binding: the occurrence the run's end cut short, when no occurrence saw each other",
          "[verdict]") {
  // R1 → W2 on a ring slot: the consumer (T2) reads a slot and stores NULL there (kReset); the
  // producer (T1) fills slots (kWrite). Each complete occurrence is a reuse of a slot, the
  // consumer's NULL store between the read and the producer's next fill. The failing run's last
  // read is of slot Y, announced and never filled: the run crashed before the producer's store.
  constexpr std::uint64_t kReset = 0x30;
  const ForceDirective d =
      two_steps(ForceStep{kRead, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0},
                ForceStep{kWrite, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0});
  localize::Trace t;
  t.events = {access(1, EventKind::Write, kWrite, kX), access(2, EventKind::Read, kRead, kX),
              access(2, EventKind::Write, kReset, kX), access(1, EventKind::Write, kWrite, kY),
              access(2, EventKind::Read, kRead, kY),   access(2, EventKind::Write, kReset, kY),
              access(1, EventKind::Write, kWrite, kX), access(2, EventKind::Read, kRead, kY)};
  const auto o = last_occurrence(d, t);
  REQUIRE(o.has_value());
  CHECK(o->cut_short);
  CHECK(o->events == std::vector<std::size_t>{7, 6});  // the last read; the producer's last fill stands for it
  CHECK(o->threads == std::vector<std::uint32_t>{2, 1});
  const auto bound = bind_to_occurrence(d, t, *o, true);
  REQUIRE(bound.has_value());
  CHECK(binding_text(*bound) == "role 1 = T2 (its 3rd access at step 1), role 2 = T1 (its 4th access at step 2)");
  // A producer that had exited would never have filled it: the latest complete occurrence, the
  // reuse of X.
  localize::Trace exited = t;
  TraceEvent exit{};
  exit.thread = 1;
  exit.kind = static_cast<std::uint8_t>(EventKind::ThreadExit);
  exited.events.insert(exited.events.begin() + 7, exit);
  const auto complete = last_occurrence(d, exited);
  REQUIRE(complete.has_value());
  CHECK_FALSE(complete->cut_short);
  CHECK(complete->events == std::vector<std::size_t>{1, 6});
  // A read that saw the producer's fill did not miss it: the producer's later fills go to other
  // slots (heldout9's lazy_codec table), so nothing was cut short.
  localize::Trace saw_fill;
  saw_fill.events = {access(1, EventKind::Write, kWrite, kX), access(2, EventKind::Read, kRead, kX),
                     access(2, EventKind::Write, kReset, kX), access(1, EventKind::Write, kWrite, kY),
                     access(2, EventKind::Read, kRead, kY)};
  CHECK_FALSE(last_occurrence(d, saw_fill).has_value());
  // An occurrence whose steps saw each other is kept over a cut-short one.
  t.events.insert(t.events.begin() + 2, access(1, EventKind::Write, kWrite, kX));
  const auto adjacent = last_occurrence(d, t);
  REQUIRE(adjacent.has_value());
  CHECK_FALSE(adjacent->cut_short);
  CHECK(adjacent->events == std::vector<std::size_t>{1, 2});
}

TEST_CASE("reference binding: a sync step binds to its thread's n-th call, a blocked call counted once", "[verdict]") {
  // lock1@A → lock2@B on one mutex (a lock-order half). T1 locks it at A in a loop; its third
  // call has to wait, is woken, finds the mutex taken again and waits once more before it gets
  // it (Block, switch, Block, switch, Acquire): one call, not three. T2's lock at B comes after.
  constexpr std::uint64_t kLockA = 0xa0, kLockB = 0xb0, kUnlock = 0xc0, kMutex = 0x5000;
  const auto sync = [](std::uint32_t thread, EventKind kind, std::uint64_t site) {
    TraceEvent e = access(thread, kind, site, kMutex);
    e.aux = static_cast<std::uint16_t>(WaitKind::Mutex);
    return e;
  };
  const TraceEvent t1_switch = access(1, EventKind::Switch, 0, 2);
  const ForceDirective d =
      two_steps(force_sync_step(kLockA, static_cast<std::uint8_t>(SyncOp::Lock), 0),
                force_sync_step(kLockB, static_cast<std::uint8_t>(SyncOp::Lock), 1));
  localize::Trace t;
  t.events = {sync(1, EventKind::Acquire, kLockA), sync(1, EventKind::Release, kUnlock),
              sync(1, EventKind::Acquire, kLockA), sync(1, EventKind::Release, kUnlock),
              sync(1, EventKind::Block, kLockA),   t1_switch,
              sync(1, EventKind::Block, kLockA),   t1_switch,
              sync(1, EventKind::Acquire, kLockA), sync(2, EventKind::Block, kLockB)};
  const auto o = last_occurrence(d, t);
  REQUIRE(o.has_value());
  CHECK(o->threads == std::vector<std::uint32_t>{1, 2});
  const auto bound = bind_to_occurrence(d, t, *o, true);
  REQUIRE(bound.has_value());
  CHECK(bound->steps[0].occurrence == 3);
  CHECK(bound->steps[1].occurrence == 1);
  CHECK(binding_text(*bound) == "role 1 = T1 (its 3rd lock at step 1), role 2 = T2 (its 1st lock at step 2)");
  // A Block or Acquire after a Block of the same call continues it; an Acquire after the
  // thread's unlock is a new call.
  CHECK(continues_blocked_call(t.events[4], t.events[6]));
  CHECK(continues_blocked_call(t.events[6], t.events[8]));
  CHECK_FALSE(continues_blocked_call(t.events[3], t.events[4]));
  CHECK_FALSE(continues_blocked_call(t.events[1], t.events[2]));
  CHECK_FALSE(continues_blocked_call(t.events[6], t.events[9]));  // another thread's
}

TEST_CASE("reference binding: the critical section a pattern's first step is in begins at its thread's outermost lock",
          "[verdict]") {
  // T1: lock M at A (twice: a recursive lock, released once), lock N at B, condition wait at C
  // (which releases and retakes M at C), then writes x: the step W1 of W1 → R2. The section it is
  // in began at T1's second call of the lock at A (the first was released before).
  constexpr std::uint64_t kLockA = 0xa0, kLockB = 0xb0, kWaitC = 0xc0, kUnlock = 0xd0, kM = 0x5000, kN = 0x6000,
                          kCond = 0x7000;
  const auto sync = [](std::uint32_t thread, EventKind kind, std::uint64_t site, std::uint64_t object, WaitKind wait) {
    TraceEvent e = access(thread, kind, site, object);
    e.aux = static_cast<std::uint16_t>(wait);
    return e;
  };
  const ForceDirective d =
      two_steps(ForceStep{kWrite, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0},
                ForceStep{kRead, static_cast<std::uint8_t>(ForceAccess::Read), 1, 0, 0});
  localize::Trace t;
  t.events = {sync(1, EventKind::Acquire, kLockA, kM, WaitKind::Mutex),  // 1st call at A, released
              sync(1, EventKind::Release, kUnlock, kM, WaitKind::Mutex),
              sync(1, EventKind::Block, kLockA, kM, WaitKind::Mutex),  // 2nd call at A: waits, then gets it
              sync(1, EventKind::Acquire, kLockA, kM, WaitKind::Mutex),
              sync(1, EventKind::Acquire, kLockA, kM, WaitKind::Mutex),  // 3rd call: recursive
              sync(1, EventKind::Release, kUnlock, kM, WaitKind::Mutex),
              sync(1, EventKind::Acquire, kLockB, kN, WaitKind::Mutex),
              sync(1, EventKind::Release, kWaitC, kM, WaitKind::Mutex),  // the wait lets M go ...
              sync(1, EventKind::Block, kWaitC, kCond, WaitKind::Cond),
              sync(1, EventKind::Acquire, kWaitC, kCond, WaitKind::Cond),
              sync(1, EventKind::Acquire, kWaitC, kM, WaitKind::Mutex),  // ... and takes it back
              access(1, EventKind::Write, kWrite, kX),
              access(2, EventKind::Read, kRead, kX)};
  const auto o = last_occurrence(d, t);
  REQUIRE(o.has_value());
  const auto entry = critical_section_entry(d, t, *o);
  REQUIRE(entry.has_value());
  CHECK(entry->site == kLockA);
  CHECK(entry->access == kForceSync + static_cast<std::uint8_t>(SyncOp::Lock));
  CHECK(entry->occurrence == 2);
  CHECK(entry->role == 0);
  CHECK(entry->location != 0);  // the lock is not the pattern's location
  // Released before the step: no critical section.
  t.events = {sync(1, EventKind::Acquire, kLockA, kM, WaitKind::Mutex), sync(1, EventKind::Release, kUnlock, kM, WaitKind::Mutex),
              access(1, EventKind::Write, kWrite, kX), access(2, EventKind::Read, kRead, kX)};
  const auto unlocked = last_occurrence(d, t);
  REQUIRE(unlocked.has_value());
  CHECK_FALSE(critical_section_entry(d, t, *unlocked).has_value());
  // Another thread's lock is not the step's thread's.
  t.events = {sync(2, EventKind::Acquire, kLockA, kM, WaitKind::Mutex), access(1, EventKind::Write, kWrite, kX),
              access(2, EventKind::Read, kRead, kX)};
  const auto other = last_occurrence(d, t);
  REQUIRE(other.has_value());
  CHECK_FALSE(critical_section_entry(d, t, *other).has_value());
}

TEST_CASE("reference binding: no occurrence when roles cannot be told apart", "[verdict]") {
  localize::Trace t;
  t.events = {access(1, EventKind::Read, kRead, kX), access(1, EventKind::Write, kWrite, kX),
              access(1, EventKind::Write, kWrite, kX)};
  CHECK_FALSE(last_occurrence(lost_update(), t).has_value());
  // Two locations: a write to another address does not complete the order on x.
  t.events = {access(1, EventKind::Read, kRead, kX), access(2, EventKind::Write, kWrite, kY),
              access(1, EventKind::Write, kWrite, kX)};
  CHECK_FALSE(last_occurrence(lost_update(), t).has_value());
}

TEST_CASE("reference binding: two pairs on two locations coupled by the threads' program order", "[verdict]") {
  // latency_stats: the handler (T1) adds to the sum (kAddSum) and then counts (kAddCount), twice;
  // the reporter (T2) reads the sum (kReadSum) and then the count (kReadCount). The trace is the
  // other straddle (the sum read before the first add, the count after the first increment).
  constexpr std::uint64_t kAddSum = 0x22, kAddCount = 0x25, kReadSum = 0x39, kReadCount = 0x42, kSum = 0x100,
                          kCount = 0x200;
  localize::Trace t;
  t.events = {access(2, EventKind::Read, kReadSum, kSum),      access(1, EventKind::Write, kAddSum, kSum),
              access(1, EventKind::Write, kAddCount, kCount),  access(2, EventKind::Read, kReadCount, kCount),
              access(1, EventKind::Write, kAddSum, kSum),      access(1, EventKind::Write, kAddCount, kCount)};
  ForceDirective sum_flow{};  // W(sum) by one thread, then R(sum) by another: confirmed alone
  sum_flow.kind = static_cast<std::uint32_t>(ForceKind::Order);
  sum_flow.count = 2;
  sum_flow.steps[0] = ForceStep{kAddSum, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0};
  sum_flow.steps[1] = ForceStep{kReadSum, static_cast<std::uint8_t>(ForceAccess::Read), 1, 0, 0};
  ForceDirective stale_count = sum_flow;  // R(count), then W(count): the half to couple
  stale_count.steps[0] = ForceStep{kReadCount, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0};
  stale_count.steps[1] = ForceStep{kAddCount, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0};
  const auto both = couple_pairs(sum_flow, stale_count, t);
  REQUIRE(both.has_value());
  // W(sum) → R(sum) → R(count) → W(count): the handler's add before its increment, the reporter's
  // sum before its count.
  REQUIRE(both->count == 4);
  CHECK(both->steps[0].site == kAddSum);
  CHECK(both->steps[1].site == kReadSum);
  CHECK(both->steps[2].site == kReadCount);
  CHECK(both->steps[3].site == kAddCount);
  CHECK(both->steps[0].role == both->steps[3].role);
  CHECK(both->steps[1].role == both->steps[2].role);
  CHECK(both->steps[0].role != both->steps[1].role);
  CHECK(both->steps[0].location == 0);
  CHECK(both->steps[1].location == 0);
  CHECK(both->steps[2].location == 1);
  CHECK(both->steps[3].location == 1);
  CHECK(bound_thread(*both, both->steps[0].role) == 1);
  CHECK(bound_thread(*both, both->steps[1].role) == 2);
  CHECK(both->steps[0].occurrence == 1);  // each role's first step: the thread's first access there
  CHECK(both->steps[1].occurrence == 1);
  CHECK(both->steps[2].occurrence == 0);
  // One location: no coupling.
  CHECK_FALSE(couple_pairs(sum_flow, sum_flow, t).has_value());
  // A site main also runs (its initializing add to the count): the step is the pair's, at the
  // pair's occurrence in the trace (the reporter's count read, the handler's second increment);
  // with no occurrence of that pair, no coupling.
  localize::Trace with_main = t;
  with_main.events.insert(with_main.events.begin(), access(0, EventKind::Write, kAddCount, kCount));
  const auto past_main = couple_pairs(sum_flow, stale_count, with_main);
  REQUIRE(past_main.has_value());
  CHECK(past_main->steps[3].site == kAddCount);
  CHECK(bound_thread(*past_main, past_main->steps[3].role) == 1);
  CHECK(bound_thread(*past_main, past_main->steps[2].role) == 2);
  with_main.events.pop_back();  // the second increment: the count read is then never overwritten
  CHECK_FALSE(couple_pairs(sum_flow, stale_count, with_main).has_value());
  // A "pair" across the two locations (the count's read, then the sum's add) is not a pair.
  ForceDirective across = stale_count;
  across.steps[1] = ForceStep{kAddSum, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0};
  CHECK_FALSE(couple_pairs(sum_flow, across, t).has_value());
  // Orders that contradict the threads' program order: the handler's increment before the
  // reporter's sum read, with the reporter's count read before the handler's add, would need the
  // increment before the add (the handler adds first) or the count read before the sum read.
  ForceDirective count_flow = sum_flow;  // W(count) by T1 → R(count) by T2
  count_flow.steps[0] = ForceStep{kAddCount, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0};
  count_flow.steps[1] = ForceStep{kReadCount, static_cast<std::uint8_t>(ForceAccess::Read), 1, 0, 0};
  ForceDirective stale_sum = sum_flow;  // R(sum) by T2 → W(sum) by T1
  stale_sum.steps[0] = ForceStep{kReadSum, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0};
  stale_sum.steps[1] = ForceStep{kAddSum, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0};
  // W(count) → R(count) with R(sum) → W(sum): W(sum) ≺ W(count) (T1), R(sum) ≺ R(count) (T2);
  // the four fit: R(sum), W(sum), W(count), R(count) — the straddle this trace has.
  const auto other_straddle = couple_pairs(count_flow, stale_sum, t);
  REQUIRE(other_straddle.has_value());
  CHECK(other_straddle->steps[0].site == kReadSum);
  CHECK(other_straddle->steps[1].site == kAddSum);
  CHECK(other_straddle->steps[2].site == kAddCount);
  CHECK(other_straddle->steps[3].site == kReadCount);
  // A trace where the reporter reads the count first: R(count) ≺ R(sum) on T2, W(sum) ≺ W(count)
  // on T1; with W(count) → R(count) and R(sum) → W(sum) that is a cycle.
  localize::Trace count_first;
  count_first.events = {access(2, EventKind::Read, kReadCount, kCount), access(1, EventKind::Write, kAddSum, kSum),
                        access(1, EventKind::Write, kAddCount, kCount), access(2, EventKind::Read, kReadSum, kSum)};
  CHECK_FALSE(couple_pairs(count_flow, stale_sum, count_first).has_value());
}

TEST_CASE("couplings: a half couples with the confirmed pair in its order and reversed", "[verdict]") {
  // table_resize: the writer (T1) stores the capacity (kStoreCap) and then the slots pointer
  // (kStoreSlots); the reader (T2) loads the capacity (kLoadCap) and then the slots (kLoadSlots).
  // Either straddle fails. Confirmed alone: the capacity's store before its load (one straddle's
  // half). Not confirmed alone: the slots' store before their load, which is the OTHER
  // straddle's half: it fails with the capacity loaded before it is stored, the confirmed pair
  // reversed. With the pair in its own order the reader sees both new values, which passes.
  constexpr std::uint64_t kStoreCap = 0x38, kStoreSlots = 0x39, kLoadCap = 0x28, kLoadSlots = 0x29, kCap = 0x100,
                          kSlots = 0x200;
  localize::Trace t;
  t.events = {access(1, EventKind::Write, kStoreCap, kCap), access(2, EventKind::Read, kLoadCap, kCap),
              access(2, EventKind::Read, kLoadSlots, kSlots), access(1, EventKind::Write, kStoreSlots, kSlots)};
  ForceDirective capacity_flow{};
  capacity_flow.kind = static_cast<std::uint32_t>(ForceKind::Order);
  capacity_flow.count = 2;
  capacity_flow.steps[0] = ForceStep{kStoreCap, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0};
  capacity_flow.steps[1] = ForceStep{kLoadCap, static_cast<std::uint8_t>(ForceAccess::Read), 1, 0, 0};
  ForceDirective slots_flow = capacity_flow;
  slots_flow.steps[0] = ForceStep{kStoreSlots, static_cast<std::uint8_t>(ForceAccess::Write), 0, 0, 0};
  slots_flow.steps[1] = ForceStep{kLoadSlots, static_cast<std::uint8_t>(ForceAccess::Read), 1, 0, 0};
  const std::vector<ForceDirective> found = couplings(capacity_flow, slots_flow, t);
  REQUIRE(found.size() == 2);
  const auto sites = [](const ForceDirective& d) {
    std::vector<std::uint64_t> out;
    for (std::uint32_t i = 0; i < d.count; ++i) out.push_back(d.steps[i].site);
    return out;
  };
  // Its own order first: both stores before both loads (the writer's program order keeps the
  // capacity's store first, the reader's its capacity load first).
  CHECK(sites(found[0]) == std::vector<std::uint64_t>{kStoreCap, kLoadCap, kStoreSlots, kLoadSlots});
  // Reversed: the capacity loaded before it is stored, the slots after they are: the straddle the
  // half belongs to.
  CHECK(sites(found[1]) == std::vector<std::uint64_t>{kLoadCap, kStoreCap, kStoreSlots, kLoadSlots});
  CHECK(found[1].steps[0].role == found[1].steps[3].role);  // the reader's two loads
  CHECK(found[1].steps[1].role == found[1].steps[2].role);  // the writer's two stores
  CHECK(found[1].steps[0].location == 0);                     // the confirmed pair's location
  CHECK(found[1].steps[2].location == 1);
  CHECK(bound_thread(found[1], found[1].steps[0].role) == 2);
  CHECK(bound_thread(found[1], found[1].steps[1].role) == 1);
  // Not a pair (three steps): only its own order is tried, and couple_pairs places none.
  ForceDirective triple = capacity_flow;
  triple.count = 3;
  triple.steps[2] = ForceStep{kLoadCap, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0};
  CHECK(couplings(triple, slots_flow, t).empty());
  // Both pairs on one location: nothing to couple, in either order.
  CHECK(couplings(capacity_flow, capacity_flow, t).empty());
}

TEST_CASE("occurs_in: the pattern's steps in order, any threads and iterations, sync operations too", "[verdict]") {
  localize::Trace t;
  t.events = {access(0, EventKind::Read, kRead, kX),  // main's own read: no partner after it
              access(1, EventKind::Read, kRead, kX), access(2, EventKind::Write, kWrite, kX),
              access(1, EventKind::Write, kWrite, kX)};
  CHECK(occurs_in(lost_update(), t) == true);
  // Its steps, but not in its order: no occurrence.
  t.events = {access(1, EventKind::Read, kRead, kX), access(1, EventKind::Write, kWrite, kX),
              access(2, EventKind::Write, kWrite, kX)};
  CHECK(occurs_in(lost_update(), t) == false);
  // Cut short: the read happened and the run ended before any write at the pattern's last site
  // (an order violation whose read crashes).
  ForceDirective read_then_write{};
  read_then_write.kind = static_cast<std::uint32_t>(ForceKind::Order);
  read_then_write.count = 2;
  read_then_write.steps[0] = ForceStep{kRead, static_cast<std::uint8_t>(ForceAccess::Read), 0, 0, 0};
  read_then_write.steps[1] = ForceStep{kWrite, static_cast<std::uint8_t>(ForceAccess::Write), 1, 0, 0};
  t.events = {access(1, EventKind::Read, kRead, kX)};
  CHECK(occurs_in(read_then_write, t) == true);
  t.events = {access(2, EventKind::Write, kWrite, kX), access(1, EventKind::Read, kRead, kX)};
  CHECK(occurs_in(read_then_write, t) == false);  // the run wrote there: the order was W → R
  t.events = {access(1, EventKind::Read, kRead, kX), access(1, EventKind::Write, kWrite, kX)};
  CHECK(occurs_in(read_then_write, t) == false);  // written by the reading thread: no order
  t.events = {access(2, EventKind::Write, kWrite, kX)};
  CHECK(occurs_in(read_then_write, t) == false);  // no read at all
  // A binding is ignored: the occurrence may be any thread's, at any iteration.
  ForceDirective bound = lost_update();
  REQUIRE(bind_role(bound, 0, 7));
  bound.steps[0].occurrence = 3;
  t.events = {access(1, EventKind::Read, kRead, kX), access(2, EventKind::Write, kWrite, kX),
              access(1, EventKind::Write, kWrite, kX)};
  CHECK(occurs_in(bound, t) == true);
  // A sync pattern (heldout2's start_gate, woken1 → wait2 on the gate's condition): a worker woken
  // by the broadcast, then the other starting to wait.
  constexpr std::uint64_t kWait = 0x40, kCond = 0x3000;
  ForceDirective woken_then_wait{};
  woken_then_wait.kind = static_cast<std::uint32_t>(ForceKind::Order);
  woken_then_wait.count = 2;
  woken_then_wait.steps[0] = force_sync_step(kWait, static_cast<std::uint8_t>(SyncOp::Woken), 0);
  woken_then_wait.steps[1] = force_sync_step(kWait, static_cast<std::uint8_t>(SyncOp::Wait), 1);
  auto cond_event = [](std::uint32_t thread, EventKind kind) {
    TraceEvent e = access(thread, kind, kWait, kCond);
    e.aux = static_cast<std::uint16_t>(WaitKind::Cond);
    return e;
  };
  t.events = {cond_event(1, EventKind::Block), cond_event(2, EventKind::Block)};
  CHECK(occurs_in(woken_then_wait, t) == false);  // nobody woken
  t.events = {cond_event(1, EventKind::Block), cond_event(2, EventKind::Block), cond_event(1, EventKind::Acquire)};
  CHECK(occurs_in(woken_then_wait, t) == false);  // woken after the other's wait began
  t.events = {cond_event(1, EventKind::Block), cond_event(1, EventKind::Acquire), cond_event(2, EventKind::Block)};
  CHECK(occurs_in(woken_then_wait, t) == true);
  // The binding search finds the same operations (a sync pattern is bound like any other).
  const auto occurrence = last_occurrence(woken_then_wait, t);
  REQUIRE(occurrence.has_value());
  CHECK(occurrence->threads == std::vector<std::uint32_t>{1, 2});
}

TEST_CASE("symptoms: a pattern with a site no passing run executes goes last and is flagged", "[verdict]") {
  localize::FalconRanking ranking;
  auto pattern = [](FalconKind kind, std::uint64_t a, std::uint64_t b, std::uint64_t c, double score) {
    localize::RankedFalconPattern p;
    p.id.kind = kind;
    p.id.sites = {a, b, c};
    p.score = score;
    return p;
  };
  // The symptom (error-path store 0x50, then main's check 0x60) ties with the cause at 1.0.
  ranking.patterns = {pattern(FalconKind::W1R2, 0x50, 0x60, 0, 1.0),
                      pattern(FalconKind::R1W2W1, kRead, kWrite, kWrite, 1.0),
                      pattern(FalconKind::W1W2, kWrite, kWrite, 0, 0.5)};
  const std::set<std::uint64_t> passing = {kRead, kWrite, 0x60};
  CHECK(is_symptom(ranking.patterns[0].id, passing, true));
  CHECK_FALSE(is_symptom(ranking.patterns[1].id, passing, true));
  CHECK_FALSE(is_symptom(ranking.patterns[0].id, passing, false));  // nothing to compare with
  const std::vector<bool> flags = demote_symptoms(ranking, passing, true);
  CHECK(flags == std::vector<bool>{false, false, true});
  CHECK(ranking.patterns[0].id.kind == FalconKind::R1W2W1);
  CHECK(ranking.patterns[0].rank == 1);
  CHECK(ranking.patterns[1].rank == 2);
  CHECK(ranking.patterns[2].rank == 3);
  CHECK(ranking.patterns[2].id.sites[0] == 0x50);
  CHECK(ranking.patterns[0].tied == 1);
}
