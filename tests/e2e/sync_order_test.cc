// Synchronization orders as causes (docs/localization.md, "Synchronization orders"): the real
// driver with --localize on the lock-order deadlock (of two threads, and a ring of three), the
// lost wakeup and a flag re-set before the waiter saw it. The rank-1 Falcon pattern must be the
// sync order, true by examples/root_causes.txt's rule where the example is listed there, and
// forcing it must bring the deadlock back (confirmed); the deadlock's lock-order cycle is
// explained and forced as a whole. Fixed seeds, so every count is deterministic.
#include <catch2/catch.hpp>

#include "e2e.h"

using namespace e2e;

namespace {

const Json& localized(const SeedsRun& run) { return run.json.at("localization"); }

SeedsRun localize_binary(const TempDir& dir, const std::string& binary_path) {
  return run_seeds(dir, binary_path, {"--seeds", "200", "--localize", "-j2", "--strategy", "pct"});  // measured with pct
}

// The rank-1 pattern is a sync pattern and forcing it fails the same way in at least 18/20 runs.
void check_rank_one_confirmed(const Json& first) {
  CHECK(first.at("rank") == 1);
  CHECK(first.at("sync") == true);
  REQUIRE(first.contains("confirmation"));
  CHECK(first.at("confirmation").at("verdict") == "confirmed");
  CHECK(first.at("confirmation").at("failed").get<int>() >= 18);
  CHECK(first.at("confirmation").at("forced_runs") == 20);
}

}  // namespace

TEST_CASE("sync order: abba_deadlock ranks the lock-order inversion first and explains the cycle", "[sync]") {
  TempDir dir;
  const SeedsRun r = localize_binary(dir, binary("example_inst", "abba_deadlock"));
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& loc = localized(r);
  REQUIRE(loc.at("failing").get<int>() > 0);
  const Json& patterns = loc.at("falcon").at("patterns");
  REQUIRE(patterns.size() >= 2);
  INFO("Falcon: " << patterns.dump());
  const Json& first = patterns.at(0);
  CHECK(first.at("kind") == "lock1-lock2");
  CHECK(first.at("score").get<double>() == 1.0);
  CHECK(falcon_true("abba_deadlock", first));
  check_rank_one_confirmed(first);
  // The other half of the cycle shares rank 1.
  CHECK(patterns.at(1).at("rank") == 1);
  CHECK(falcon_true("abba_deadlock", patterns.at(1)));

  // Who holds what, acquired where, waiting where.
  REQUIRE(loc.contains("lock_cycle"));
  const Json& cycle = loc.at("lock_cycle").at("threads");
  REQUIRE(cycle.size() == 2);
  CHECK(cycle.at(0).at("thread") == 1);
  CHECK(cycle.at(0).at("holds") == "lock_a");
  CHECK(contains(cycle.at(0).at("acquired_at").get<std::string>(), "abba_deadlock.c:26"));
  CHECK(cycle.at(0).at("waits_for") == "lock_b");
  CHECK(contains(cycle.at(0).at("waits_at").get<std::string>(), "abba_deadlock.c:27"));
  CHECK(cycle.at(1).at("holds") == "lock_b");
  CHECK(contains(cycle.at(1).at("acquired_at").get<std::string>(), "abba_deadlock.c:38"));
  CHECK(contains(cycle.at(1).at("waits_at").get<std::string>(), "abba_deadlock.c:39"));
  CHECK(contains(r.process.out, "T1 holds lock_a (acquired at abba_deadlock.c:26"));
  // The cycle forced as one order (lock_cycle_directive) deadlocks again.
  REQUIRE(loc.at("lock_cycle").contains("confirmation"));
  const Json& cycle_forced = loc.at("lock_cycle").at("confirmation");
  CHECK(cycle_forced.at("verdict") == "confirmed");
  CHECK(cycle_forced.at("completed").get<int>() >= 18);
  CHECK(cycle_forced.at("failed").get<int>() >= 18);

  // Locon: the two lock pairs are coupled (procedure III: each in passing runs, never both),
  // and forced as one cycle (both first locks, then both second ones) they deadlock again.
  const Json& findings = loc.at("locon").at("findings");
  REQUIRE_FALSE(findings.empty());
  INFO("Locon: " << findings.dump());
  CHECK(findings.at(0).at("procedure") == "III");
  REQUIRE(findings.at(0).at("pairs").size() == 2);
  for (const Json& pair : findings.at(0).at("pairs")) {
    CHECK(pair.at("head").at("kind") == "lock");
    CHECK(pair.at("tail").at("kind") == "lock");
  }
  REQUIRE(findings.at(0).contains("confirmation"));
  CHECK(findings.at(0).at("confirmation").at("verdict") == "confirmed");
  CHECK(findings.at(0).at("confirmation").at("failed").get<int>() >= 18);
}

TEST_CASE("sync order: a lock-order cycle of three threads is explained and confirmed by forcing", "[sync]") {
  TempDir dir;
  const SeedsRun r = localize_binary(dir, binary("program_inst", "transfer_ring"));
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& loc = localized(r);
  REQUIRE(loc.at("failing").get<int>() > 0);
  REQUIRE(loc.contains("lock_cycle"));
  const Json& cycle = loc.at("lock_cycle").at("threads");
  REQUIRE(cycle.size() == 3);
  // Each teller holds its own till and waits for the next one's.
  const char* tills[3] = {"till_lock", "till_lock+40", "till_lock+80"};
  for (int i = 0; i < 3; ++i) {
    INFO("thread " << i);
    CHECK(cycle.at(i).at("thread") == i + 1);
    CHECK(cycle.at(i).at("holds") == tills[i]);
    CHECK(cycle.at(i).at("waits_for") == tills[(i + 1) % 3]);
    CHECK(contains(cycle.at(i).at("acquired_at").get<std::string>(), "transfer_ring.c:19"));
    CHECK(contains(cycle.at(i).at("waits_at").get<std::string>(), "transfer_ring.c:21"));
  }
  // Forced as one order of six lock steps, in the order the deadlocked run took them, bound to
  // the report's threads (two-thread cycles are symmetric, three are not): it deadlocks again,
  // and its opposite order never does.
  REQUIRE(loc.at("lock_cycle").contains("confirmation"));
  const Json& forced = loc.at("lock_cycle").at("confirmation");
  INFO(forced.dump());
  CHECK(forced.at("verdict") == "confirmed");
  for (const char* role : {"role 1 = T1", "role 2 = T2", "role 3 = T3"}) {
    CHECK(contains(forced.at("binding").get<std::string>(), role));
  }
  CHECK(forced.at("completed").get<int>() >= 7);
  CHECK(forced.at("failed") == forced.at("completed"));
  CHECK(forced.at("counterfactual").at("outcome") == "order matters");
  CHECK(forced.at("counterfactual").at("failed") == 0);
  // One till's half (a teller takes its till, the previous teller asks for it) cannot deadlock
  // alone, with the third till free: it is never refuted.
  bool seen_half = false;
  for (const Json& p : loc.at("falcon").at("patterns")) {
    if (p.at("kind") != "lock1-lock2" || !p.contains("confirmation")) continue;
    seen_half = true;
    INFO(p.dump());
    CHECK(p.at("confirmation").at("verdict") != "refuted");
  }
  CHECK(seen_half);
}

TEST_CASE("sync order: missed_signal ranks signal-before-wait first and forcing it loses the wakeup", "[sync]") {
  TempDir dir;
  const SeedsRun r = localize_binary(dir, binary("example_inst", "missed_signal"));
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& loc = localized(r);
  REQUIRE(loc.at("failing").get<int>() > 0);
  const Json& patterns = loc.at("falcon").at("patterns");
  REQUIRE_FALSE(patterns.empty());
  INFO("Falcon: " << patterns.dump());
  const Json& first = patterns.at(0);
  CHECK(first.at("kind") == "signal1-wait2");
  CHECK(first.at("location") == "cond");
  CHECK(first.at("score").get<double>() == 1.0);
  CHECK(falcon_true("missed_signal", first));
  CHECK(first.at("rank") == 1);
  CHECK(first.at("sync") == true);
  // Forced alone, signal-before-wait needs the waiter to have checked `ready` first, which the
  // pair does not say: the order completes in few runs (measured 2/20, docs/localization.md).
  REQUIRE(first.contains("confirmation"));
  CHECK(first.at("confirmation").at("failed").get<int>() > 0);
  // The triple that does say it (the waiter's check section ends, the notifier's whole section,
  // the waiter's wait) is confirmed.
  bool triple_confirmed = false;
  for (const Json& p : patterns) {
    if (p.at("kind") == "unlock1-unlock2-unlock1" && p.contains("confirmation"))
      triple_confirmed = p.at("confirmation").at("verdict") == "confirmed";
  }
  CHECK(triple_confirmed);
  CHECK_FALSE(loc.contains("lock_cycle"));  // a lost wakeup is no lock cycle
}

TEST_CASE("sync order: a flag re-set before the woken waiter re-checked it", "[sync]") {
  TempDir dir;
  const SeedsRun r = localize_binary(dir, binary("program_inst", "gate_reset"));
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& loc = localized(r);
  REQUIRE(loc.at("failing").get<int>() > 0);
  const Json& patterns = loc.at("falcon").at("patterns");
  REQUIRE_FALSE(patterns.empty());
  INFO("Falcon: " << patterns.dump());
  const Json& first = patterns.at(0);
  // The worker waits (line 28), the controller broadcasts (36), the worker waits again (28).
  CHECK(first.at("kind") == "wait1-signal2-wait1");
  CHECK(contains(first.at("accesses").at(0).at("site").get<std::string>(), "gate_reset.c:28"));
  CHECK(contains(first.at("accesses").at(1).at("site").get<std::string>(), "gate_reset.c:36"));
  CHECK(contains(first.at("accesses").at(2).at("site").get<std::string>(), "gate_reset.c:28"));
  CHECK(first.at("rank") == 1);
  CHECK(first.at("sync") == true);
  // The memory side of the same cause, the flag re-checked after the close (line 42), is the
  // first memory pattern, right after the sync patterns of its score (a deadlock: sync patterns
  // first, and that is part of the rank key, so it no longer shares their rank).
  const Json* first_memory = nullptr;
  for (const Json& p : patterns) {
    if (!p.contains("sync")) {
      first_memory = &p;
      break;
    }
  }
  REQUIRE(first_memory != nullptr);
  CHECK(first_memory->at("kind") == "R1-W2-R1");
  CHECK(contains(first_memory->at("accesses").at(1).at("site").get<std::string>(), "gate_reset.c:42"));
  CHECK(first_memory->at("score") == first.at("score"));
  CHECK(first_memory->at("rank").get<int>() > 1);
  // Forcing it is reported; the order needs the broadcasting thread to go on to the close while
  // the woken worker waits for the lock, which forcing's rule 3b (a pattern's thread waits for
  // its partner) prevents: docs/localization.md. So no verdict is asserted here.
  REQUIRE(first.contains("confirmation"));
  CHECK(first.at("confirmation").at("forced_runs") == 20);
}
