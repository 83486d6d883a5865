// Synchronization operations as events of the analyses (ctrlsched/sync_ops.h): Falcon windows
// over sync objects, the ranking with sync patterns, and Locon's procedure I over sync pairs,
// on synthetic streams of the missed-signal and ABBA-deadlock programs (examples/).
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/falcon_window.h"
#include "ctrlsched/localize/falcon.h"
#include "ctrlsched/localize/locon.h"
#include "ctrlsched/sync_ops.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;

namespace {

constexpr auto op_code(SyncOp op) { return static_cast<std::uint8_t>(op); }

FalconAccess sync_access(std::uint32_t thread, std::uint64_t site, SyncOp op) {
  return FalconAccess{site, thread, true, op_code(op)};
}

// Every pattern one window yields for a stream of operations on one object, drained at the end.
std::vector<FalconHit> window_hits(const std::vector<FalconAccess>& stream, std::uint32_t size = 5) {
  FalconWindow window{};
  window.reset(size);
  std::vector<FalconHit> hits;
  for (const FalconAccess& a : stream) window.add(a, [&](const FalconHit& h) { hits.push_back(h); });
  window.drain([&](const FalconHit& h) { hits.push_back(h); });
  return hits;
}

FalconPatternId id_of(const FalconHit& hit) {
  FalconPatternId id;
  id.kind = hit.kind;
  for (std::uint32_t i = 0; i < falcon_kind_length(hit.kind); ++i) {
    id.sites[i] = hit.accesses[i].site;
    id.ops[i] = hit.accesses[i].op;
  }
  return id;
}

FalconRun falcon_run(bool failed, const std::vector<std::vector<FalconAccess>>& streams) {
  FalconRun run;
  run.failed = failed;
  for (const auto& stream : streams) {
    for (const FalconHit& hit : window_hits(stream)) {
      FalconSighting s;
      s.id = id_of(hit);
      bool known = false;
      for (FalconSighting& seen : run.patterns) known = known || (seen.id == s.id && ++seen.count);
      if (!known) run.patterns.push_back(s);
    }
  }
  return run;
}

TraceEvent event(EventKind kind, WaitKind aux) {
  TraceEvent e{};
  e.kind = static_cast<std::uint8_t>(kind);
  e.aux = static_cast<std::uint16_t>(aux);
  return e;
}

}  // namespace

TEST_CASE("sync ops: events map to the operation words of reports", "[localize][sync]") {
  CHECK(sync_op_of(event(EventKind::Acquire, WaitKind::Mutex)) == SyncOp::Lock);
  CHECK(sync_op_of(event(EventKind::Block, WaitKind::Mutex)) == SyncOp::Lock);
  CHECK(sync_op_of(event(EventKind::Release, WaitKind::RwlockRead)) == SyncOp::Unlock);
  CHECK(sync_op_of(event(EventKind::Release, WaitKind::Cond)) == SyncOp::Signal);
  CHECK(sync_op_of(event(EventKind::Block, WaitKind::Cond)) == SyncOp::Wait);
  CHECK(sync_op_of(event(EventKind::Acquire, WaitKind::Cond)) == SyncOp::Woken);
  CHECK(sync_op_of(event(EventKind::Release, WaitKind::Semaphore)) == SyncOp::Post);
  CHECK(sync_op_of(event(EventKind::Block, WaitKind::Semaphore)) == SyncOp::SemWait);
  CHECK(sync_op_of(event(EventKind::ThreadCreate, WaitKind::None)) == SyncOp::Create);
  CHECK(sync_op_of(event(EventKind::ThreadJoin, WaitKind::None)) == SyncOp::Join);
  CHECK(sync_op_of(event(EventKind::Acquire, WaitKind::Barrier)) == SyncOp::None);
  CHECK(sync_op_of(event(EventKind::Write, WaitKind::None)) == SyncOp::None);
  CHECK(std::string(sync_op_name(SyncOp::SemWait)) == "semwait");
  CHECK(sync_op_of_side(sync_side_kind(SyncOp::Signal)) == SyncOp::Signal);
  CHECK(sync_op_of_side(1) == SyncOp::None);
}

TEST_CASE("sync window: a lost wakeup is signal1-wait2, a delivered one wait1-signal2-woken1", "[localize][sync]") {
  // missed_signal.c: the notifier (T2) signals at line 42, the waiter (T1) waits at line 32.
  const auto lost = window_hits({sync_access(2, 42, SyncOp::Signal), sync_access(1, 32, SyncOp::Wait)});
  REQUIRE(lost.size() == 1);
  CHECK(lost[0].kind == FalconKind::SyncPair);
  CHECK(falcon_pattern_name(id_of(lost[0])) == "signal1-wait2");
  CHECK(lost[0].accesses[0].site == 42);
  CHECK(lost[0].accesses[1].site == 32);

  const auto delivered = window_hits(
      {sync_access(1, 32, SyncOp::Wait), sync_access(2, 42, SyncOp::Signal), sync_access(1, 32, SyncOp::Woken)});
  REQUIRE(delivered.size() == 2);
  CHECK(falcon_pattern_name(id_of(delivered[0])) == "wait1-signal2-woken1");
  CHECK(delivered[0].kind == FalconKind::SyncTriple);
  CHECK(falcon_pattern_name(id_of(delivered[1])) == "signal1-woken2");  // the drain's pair
}

TEST_CASE("sync window: a thread's later operation replaces its last slot", "[localize][sync]") {
  // abba_deadlock.c lock_a: a passing run, T1 locks (26) and unlocks (31), then T2 locks (39).
  const auto passing = window_hits({sync_access(1, 26, SyncOp::Lock), sync_access(1, 31, SyncOp::Unlock),
                                    sync_access(2, 39, SyncOp::Lock)});
  REQUIRE(passing.size() == 1);
  CHECK(falcon_pattern_name(id_of(passing[0])) == "unlock1-lock2");
  // The deadlock: T1 holds lock_a (26) when T2's lock (39) blocks.
  const auto failing = window_hits({sync_access(1, 26, SyncOp::Lock), sync_access(2, 39, SyncOp::Lock)});
  REQUIRE(failing.size() == 1);
  CHECK(falcon_pattern_name(id_of(failing[0])) == "lock1-lock2");
}

TEST_CASE("sync ranking: the lock-order patterns of the deadlock rank first", "[localize][sync]") {
  // Three passing runs (T1 first, T2 first, T1 first), one deadlocked run.
  const std::vector<FalconAccess> a_t1_first = {sync_access(1, 26, SyncOp::Lock), sync_access(1, 31, SyncOp::Unlock),
                                                sync_access(2, 39, SyncOp::Lock), sync_access(2, 42, SyncOp::Unlock)};
  const std::vector<FalconAccess> b_t1_first = {sync_access(1, 27, SyncOp::Lock), sync_access(1, 30, SyncOp::Unlock),
                                                sync_access(2, 38, SyncOp::Lock), sync_access(2, 43, SyncOp::Unlock)};
  const std::vector<FalconAccess> a_t2_first = {sync_access(2, 39, SyncOp::Lock), sync_access(2, 42, SyncOp::Unlock),
                                                sync_access(1, 26, SyncOp::Lock), sync_access(1, 31, SyncOp::Unlock)};
  const std::vector<FalconAccess> b_t2_first = {sync_access(2, 38, SyncOp::Lock), sync_access(2, 43, SyncOp::Unlock),
                                                sync_access(1, 27, SyncOp::Lock), sync_access(1, 30, SyncOp::Unlock)};
  const std::vector<FalconRun> runs = {
      falcon_run(false, {a_t1_first, b_t1_first}),
      falcon_run(false, {a_t2_first, b_t2_first}),
      falcon_run(false, {a_t1_first, b_t1_first}),
      falcon_run(true, {{sync_access(1, 26, SyncOp::Lock), sync_access(2, 39, SyncOp::Lock)},
                        {sync_access(2, 38, SyncOp::Lock), sync_access(1, 27, SyncOp::Lock)}}),
  };
  const FalconRanking ranking = rank_falcon(runs);
  REQUIRE(ranking.patterns.size() >= 2);
  CHECK(ranking.patterns[0].rank == 1);
  CHECK(ranking.patterns[0].tied == 2);
  CHECK(ranking.patterns[0].score == 1.0);
  CHECK(falcon_pattern_name(ranking.patterns[0].id) == "lock1-lock2");
  CHECK(falcon_pattern_name(ranking.patterns[1].id) == "lock1-lock2");
  // Sites in order: lock_a's (26 → 39) before lock_b's (38 → 27).
  CHECK(ranking.patterns[0].id.sites[0] == 26);
  CHECK(ranking.patterns[1].id.sites[0] == 38);
  for (std::size_t i = 2; i < ranking.patterns.size(); ++i) CHECK(ranking.patterns[i].score == 0.0);
}

TEST_CASE("sync ranking: sync_first puts sync patterns before equal memory patterns", "[localize][sync]") {
  FalconRun failing;
  failing.failed = true;
  FalconSighting data;
  data.id.kind = FalconKind::R1W2R1;
  data.id.sites = {1, 2, 1};
  FalconSighting sync;
  sync.id.kind = FalconKind::SyncTriple;
  sync.id.sites = {3, 4, 3};
  sync.id.ops = {op_code(SyncOp::Wait), op_code(SyncOp::Signal), op_code(SyncOp::Wait)};
  failing.patterns = {data, sync};
  FalconRun passing;
  const std::vector<FalconRun> runs = {failing, passing};
  const FalconRanking plain = rank_falcon(runs);
  REQUIRE(plain.patterns.size() == 2);
  CHECK(plain.patterns[0].id.kind == FalconKind::R1W2R1);
  const FalconRanking deadlock = rank_falcon(runs, FalconScore::Jaccard, true);
  CHECK(deadlock.patterns[0].id.kind == FalconKind::SyncTriple);
  CHECK(falcon_pattern_name(deadlock.patterns[0].id) == "wait1-signal2-wait1");
  // sync_first is part of the rank key: the memory pattern no longer shares rank 1.
  CHECK(deadlock.patterns[0].rank == 1);
  CHECK(deadlock.patterns[1].rank == 2);
  CHECK(deadlock.patterns[0].tied == 1);
}

TEST_CASE("sync Locon: procedure I finds the lock pairs only the deadlocked run has", "[localize][sync][locon]") {
  using namespace ctrlsched::localize::locon;
  const std::uint8_t lock = op_code(SyncOp::Lock), unlock = op_code(SyncOp::Unlock);
  auto side = [](std::uint64_t site, std::uint8_t op, std::uint32_t thread) { return Side{site, true, thread, 0, op}; };
  RunPairs failed;
  failed.pairs = {Pair{PairKey{side(26, lock, 1), side(39, lock, 2)}, 0xa, 0, 3, 1},
                  Pair{PairKey{side(38, lock, 2), side(27, lock, 1)}, 0xb, 2, 4, 1}};
  RunPairs passing;
  passing.pairs = {Pair{PairKey{side(31, unlock, 1), side(39, lock, 2)}, 0xa, 3, 5, 1},
                   Pair{PairKey{side(30, unlock, 1), side(38, lock, 2)}, 0xb, 2, 4, 1}};
  // The same sites as memory accesses are other keys: the operation is part of the identity.
  const Side plain_write{26, true, 1, 0};
  CHECK(plain_write != side(26, lock, 1));
  const std::vector<Finding> findings = locon::localize(failed, {passing});
  REQUIRE_FALSE(findings.empty());
  CHECK(findings[0].procedure == Procedure::I);
  CHECK(findings[0].level == Level::Pc);
  CHECK(findings[0].pairs[0].head.sync == lock);
  CHECK(findings[0].pairs[0].tail.sync == lock);
}
