// Locon's test procedures on the paper's worked examples (Figures 3 and 4) and on Table 1
// scenarios. Runs are written as interleavings of accesses; a small model of the access-pair
// collector turns them into the pairs a run would record.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "ctrlsched/localize/locon.h"

using namespace ctrlsched::localize::locon;

namespace {

constexpr std::uint64_t kX = 0x1000;
constexpr std::uint64_t kY = 0x2000;
constexpr std::uint32_t kT1 = 1;
constexpr std::uint32_t kT2 = 2;

struct Step {
  std::uint32_t thread;
  std::uint64_t site;  // the statement number of the figure
  bool write;
  std::uint64_t location;
};
Step W(std::uint32_t thread, std::uint64_t site, std::uint64_t location) { return {thread, site, true, location}; }
Step R(std::uint32_t thread, std::uint64_t site, std::uint64_t location) { return {thread, site, false, location}; }

// What the collector records for an interleaving (one function activation per thread).
RunPairs run(const std::vector<Step>& steps) {
  struct Last {
    Side side;
    std::uint32_t access;
  };
  std::map<std::uint64_t, Last> last;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint8_t> executions;
  RunPairs result;
  for (std::uint32_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const Side now{s.site, s.write, s.thread, executions[{s.thread, s.site}]++};
    if (auto it = last.find(s.location);
        it != last.end() && it->second.side.thread != s.thread && (it->second.side.write || s.write)) {
      const PairKey key{it->second.side, now};
      bool known = false;
      for (Pair& p : result.pairs) known = known || (p.key == key && ++p.count);
      if (!known) result.pairs.push_back(Pair{key, s.location, it->second.access, i, 1});
    }
    last[s.location] = Last{now, i};
  }
  return result;
}

Side side(std::uint64_t site, bool write, std::uint32_t thread = 0, std::uint8_t iteration = 0) {
  return Side{site, write, thread, iteration};
}

}  // namespace

TEST_CASE("Figure 3: the pair that predicts the bug's pair is filtered out", "[locon]") {
  // T1: 1: x = local1; 2: *y = local2;   T2: 3: y = NULL; 4: local3 = x;
  const RunPairs passing = run({W(kT1, 1, kX), R(kT1, 2, kY), W(kT2, 3, kY), R(kT2, 4, kX)});
  const RunPairs failed2 = run({W(kT2, 3, kY), R(kT2, 4, kX), W(kT1, 1, kX), R(kT1, 2, kY)});
  REQUIRE(failed2.pairs.size() == 2);
  // R4x → W1x predicts W3y → R2y: 3 before 4 in T2, 1 before 2 in T1.
  CHECK(predictable_by(failed2.pairs[1], failed2.pairs[0]));
  CHECK_FALSE(predictable_by(failed2.pairs[0], failed2.pairs[1]));

  const std::vector<Finding> expected{
      Finding{Procedure::I, Level::Pc, {PairKey{side(3, true), side(2, false)}}, 1,
              "only in the failed run, in none of the 1 passing run"}};
  CHECK(localize(failed2, {passing}) == expected);

  // FRun1 (1, 3, 2: T1 crashes at 2 before T2 reads x): the bug's pair alone, first.
  const RunPairs failed1 = run({W(kT1, 1, kX), W(kT2, 3, kY), R(kT1, 2, kY)});
  const auto findings = localize(failed1, {passing});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].pairs == std::vector{PairKey{side(3, true), side(2, false)}});
  CHECK(findings[0].order == 0);
}

namespace {

// Figure 4: T1 { for (i = 0; i < 2; i++) { 2: x = i+1; 3: y = i+1; } }   T2 { 5: var1 = x; 6: var2 = y; }
std::vector<Step> t1_iteration() { return {W(kT1, 2, kX), W(kT1, 3, kY)}; }
std::vector<Step> t2_reads() { return {R(kT2, 5, kX), R(kT2, 6, kY)}; }
std::vector<Step> concat(std::initializer_list<std::vector<Step>> parts) {
  std::vector<Step> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}
std::vector<RunPairs> figure4_passing() {
  return {run(concat({t2_reads(), t1_iteration(), t1_iteration()})),
          run(concat({t1_iteration(), t2_reads(), t1_iteration()})),
          run(concat({t1_iteration(), t1_iteration(), t2_reads()}))};
}
RunPairs figure4_failed() {
  return run({R(kT2, 5, kX), W(kT1, 2, kX), W(kT1, 3, kY), R(kT2, 6, kY), W(kT1, 2, kX), W(kT1, 3, kY)});
}

}  // namespace

TEST_CASE("Figure 4: nothing at pc level, nothing at tid level, the MAV bug at loop level", "[locon]") {
  const RunPairs failed = figure4_failed();
  const std::vector<RunPairs> passing = figure4_passing();
  REQUIRE(failed.pairs.size() == 3);
  CHECK(procedure_one(failed, passing, Level::Pc).empty());
  CHECK(procedure_two(failed, passing, Level::Pc).empty());
  CHECK(procedure_three(failed, passing, Level::Pc).empty());
  CHECK(procedure_three(failed, passing, Level::Tid).empty());

  const std::vector<Finding> expected{Finding{
      Procedure::III,
      Level::Loop,
      {PairKey{side(5, false, kT2, 0), side(2, true, kT1, 0)}, PairKey{side(3, true, kT1, 0), side(6, false, kT2, 0)}},
      0,
      "both in the failed run; each is in passing runs but never together in any of the 3 passing runs"}};
  CHECK(procedure_three(failed, passing, Level::Loop) == expected);
  CHECK(localize(failed, passing) == expected);  // the default walks I, II, III and the levels
  CHECK(localize(failed, passing, Options{Procedure::III, Level::Tid}).empty());
  CHECK(localize(failed, passing, Options{Procedure::I, std::nullopt}).empty());
}

TEST_CASE("Figure 4, reader between the iterations: a coupled pair missing at loop level", "[locon]") {
  // T1 finishes iteration 0 and writes x of iteration 1; T2 reads x (2) and y (1) and fails
  // before T1's last write of y, so R6y → W3y (iteration 1) never forms.
  const RunPairs failed = run({W(kT1, 2, kX), W(kT1, 3, kY), W(kT1, 2, kX), R(kT2, 5, kX), R(kT2, 6, kY)});
  const std::vector<RunPairs> passing = figure4_passing();
  for (Level level : {Level::Pc, Level::Tid}) {
    CHECK(procedure_one(failed, passing, level).empty());
    CHECK(procedure_two(failed, passing, level).empty());
    CHECK(procedure_three(failed, passing, level).empty());
  }
  CHECK(procedure_one(failed, passing, Level::Loop).empty());
  // Always together in passing runs: W2x(1) → R5x and W3y(1) → R6y. Other coupled candidates
  // are dropped because the failed run shows their tail executing (W2x of iteration 1, R5x).
  const std::vector<Finding> expected{Finding{
      Procedure::II,
      Level::Loop,
      {PairKey{side(6, false, kT2, 0), side(3, true, kT1, 1)}, PairKey{side(2, true, kT1, 1), side(5, false, kT2, 0)}},
      1,
      "always together with its partner in the 3 passing runs; the failed run has only the partner"}};
  CHECK(localize(failed, passing) == expected);
}

TEST_CASE("Procedure II: a failing read that ends the run reports the reversed pair first", "[locon]") {
  // T1 initialises bw->rate (11) and publishes h->bandwidth (10); T2 reads h->bandwidth (20) and
  // then bandwidth->rate (21). In the failed run T2 reads first and crashes: no pair at all.
  constexpr std::uint64_t kBandwidth = 0x3000, kRate = 0x4000;
  const RunPairs ok = run({W(kT1, 11, kRate), W(kT1, 10, kBandwidth), R(kT2, 20, kBandwidth), R(kT2, 21, kRate)});
  const RunPairs ok_late = run({W(kT1, 11, kRate), W(kT1, 10, kBandwidth), W(kT1, 12, 0x5000),
                                R(kT2, 20, kBandwidth), R(kT2, 21, kRate), R(kT2, 22, 0x5000)});
  const RunPairs failed = run({R(kT2, 20, kBandwidth)});
  REQUIRE(failed.pairs.empty());

  const std::string reason =
      "in all 2 passing runs but not in the failed run: the reversed order ended the run before its tail";
  const std::vector<Finding> expected{
      Finding{Procedure::II, Level::Pc, {PairKey{side(20, false), side(10, true)}}, 0, reason},
      Finding{Procedure::II, Level::Pc, {PairKey{side(21, false), side(11, true)}}, 1, reason}};
  CHECK(localize(failed, {ok, ok_late}) == expected);
  CHECK(localize(failed, {ok, ok_late}, Options{Procedure::II, Level::Tid}).front().pairs ==
        std::vector{PairKey{side(20, false, kT2), side(10, true, kT1)}});
  CHECK(procedure_two(failed, {}, Level::Pc).empty());  // no passing runs: nothing is "always"
}

TEST_CASE("Procedure II: a culprit whose head never ran in the failed run is no reversed order", "[locon]") {
  // Same program; the failed run also knows what it executed. Its crashing read (20) ran, so
  // R@20 → W@10 stands; R@21 never ran (the crash came first), so "R@21 → W@11" is no order that
  // happened: the run simply ended before T2 got there (an assertion in another thread ends a
  // run the same way, and then every later pair is "missing").
  constexpr std::uint64_t kBandwidth = 0x3000, kRate = 0x4000;
  const RunPairs ok = run({W(kT1, 11, kRate), W(kT1, 10, kBandwidth), R(kT2, 20, kBandwidth), R(kT2, 21, kRate)});
  RunPairs failed = run({R(kT2, 20, kBandwidth)});
  failed.executed = std::vector<std::pair<std::uint64_t, bool>>{{20, false}};
  const std::vector<Finding> findings = procedure_two(failed, {ok}, Level::Pc);
  REQUIRE(findings.size() == 1);
  CHECK(findings.front().pairs == std::vector{PairKey{side(20, false), side(10, true)}});
  // Nothing ran at all: no culprit.
  failed.executed = std::vector<std::pair<std::uint64_t, bool>>{};
  CHECK(procedure_two(failed, {ok}, Level::Pc).empty());
}

TEST_CASE("Procedure II: partially missing coupled pairs (Table 1, ID-10, third case)", "[locon]") {
  // T1: a: x = ..; d: y = ..;   T2: b: .. = x; c: .. = y;  (a, d) and (b, c) should be atomic.
  const RunPairs t1_first = run({W(kT1, 1, kX), W(kT1, 4, kY), R(kT2, 2, kX), R(kT2, 3, kY)});
  const RunPairs t2_first = run({R(kT2, 2, kX), R(kT2, 3, kY), W(kT1, 1, kX), W(kT1, 4, kY)});
  // The failing read of y (c) ends the run: W a → R b is there, R c → W d never forms.
  const RunPairs failed = run({W(kT1, 1, kX), R(kT2, 2, kX), R(kT2, 3, kY)});

  CHECK(procedure_one(failed, {t1_first, t2_first}, Level::Pc).empty());
  const std::vector<Finding> expected{Finding{
      Procedure::II,
      Level::Pc,
      {PairKey{side(3, false), side(4, true)}, PairKey{side(1, true), side(2, false)}},
      1,
      "always together with its partner in the 2 passing runs; the failed run has only the partner"}};
  CHECK(localize(failed, {t1_first, t2_first}) == expected);
}

TEST_CASE("a deadlocked failed run: no Procedure II, the cycle's coupled halves from Procedure III", "[locon]") {
  // Lock operations are write-like sides of their lock (one write per operation here; a blocked
  // lock is a `lock` side as its acquisition is). T1: 1 lock A, 2 lock B (only to evict), 3 unlock
  // B, 4 unlock A; T2: 5 lock B, 6 lock A, 7 unlock A, 8 unlock B (heldout3's cache_stats, two
  // locks taken in opposite orders). Each half of the cycle happens in some passing run.
  constexpr std::uint64_t kA = kX, kB = kY;
  const RunPairs t1_without_b = run({W(kT1, 1, kA), W(kT2, 5, kB), W(kT2, 6, kA), W(kT1, 4, kA), W(kT2, 6, kA),
                                     W(kT2, 7, kA), W(kT2, 8, kB)});
  const RunPairs t1_first = run({W(kT1, 1, kA), W(kT1, 2, kB), W(kT1, 3, kB), W(kT1, 4, kA), W(kT2, 5, kB),
                                 W(kT2, 6, kA), W(kT2, 7, kA), W(kT2, 8, kB)});
  const RunPairs t2_without_a_first = run({W(kT2, 5, kB), W(kT1, 1, kA), W(kT1, 2, kB), W(kT2, 8, kB), W(kT1, 2, kB),
                                           W(kT1, 3, kB), W(kT1, 4, kA), W(kT2, 6, kA), W(kT2, 7, kA)});
  const std::vector<RunPairs> passing{t1_without_b, t1_first, t2_without_a_first};
  // T1 holds A and blocks on B, T2 holds B and blocks on A.
  const RunPairs deadlocked = run({W(kT1, 1, kA), W(kT2, 5, kB), W(kT2, 6, kA), W(kT1, 2, kB)});

  // Read as a run that an error-terminating access cut short, it lacks T1's unlock of A after
  // T2's lock (4 → 6, in every passing run): "6 → 4", as every deadlocked run would.
  const std::vector<Finding> as_cut_short = localize(deadlocked, passing);
  REQUIRE_FALSE(as_cut_short.empty());
  CHECK(as_cut_short.front().procedure == Procedure::II);
  CHECK(as_cut_short.front().pairs.front() == PairKey{side(6, true), side(4, true)});

  Options deadlock;
  deadlock.failed_run_deadlocked = true;
  const std::vector<Finding> findings = localize(deadlocked, passing, deadlock);
  REQUIRE(findings.size() == 1);
  CHECK(findings.front().procedure == Procedure::III);
  CHECK(findings.front().level == Level::Pc);
  CHECK(findings.front().pairs ==
        std::vector{PairKey{side(1, true), side(6, true)}, PairKey{side(5, true), side(2, true)}});
  // Asked for by name, Procedure II still runs.
  deadlock.procedure = Procedure::II;
  CHECK(localize(deadlocked, passing, deadlock) == localize(deadlocked, passing, Options{Procedure::II, {}}));
}

TEST_CASE("Procedure III: coupled pairs seen apart in passing runs (Table 1, ID-10, first case)", "[locon]") {
  const RunPairs t1_first = run({W(kT1, 1, kX), W(kT1, 4, kY), R(kT2, 2, kX), R(kT2, 3, kY)});
  const RunPairs t2_first = run({R(kT2, 2, kX), R(kT2, 3, kY), W(kT1, 1, kX), W(kT1, 4, kY)});
  const RunPairs failed = run({W(kT1, 1, kX), R(kT2, 2, kX), R(kT2, 3, kY), W(kT1, 4, kY)});
  const auto findings = procedure_three(failed, {t1_first, t2_first}, Level::Pc);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].pairs ==
        std::vector{PairKey{side(1, true), side(2, false)}, PairKey{side(3, false), side(4, true)}});
  CHECK(findings[0].order == 0);
  // Procedure II leaves it alone: each reversed pair it could report is in the failed run.
  CHECK(procedure_two(failed, {t1_first, t2_first}, Level::Pc).empty());
  CHECK(localize(failed, {t1_first, t2_first}) == findings);
  // A passing run with both pairs together clears them.
  const RunPairs together = failed;
  CHECK(procedure_three(failed, {t1_first, t2_first, together}, Level::Pc).empty());
}

TEST_CASE("Procedure II: a culprit whose tail ran without forming a pair is no reversed order", "[locon]") {
  // A table grows: T1 fills the new array (37: z), doubles the capacity (38: x) and publishes the
  // array (39: y); a lock-free reader T2 reads the capacity (28), the array (29) and a slot of it
  // (30). It fails reading the new capacity with the old array: W38x → R28x and R29y → W39y.
  constexpr std::uint64_t kOldSlot = 0x5000, kNewSlot = 0x6000;
  const RunPairs writer_first = run({W(kT1, 37, kNewSlot), W(kT1, 38, kX), W(kT1, 39, kY), R(kT2, 28, kX),
                                     R(kT2, 29, kY), R(kT2, 30, kNewSlot)});
  const RunPairs reader_first = run({R(kT2, 28, kX), R(kT2, 29, kY), R(kT2, 30, kOldSlot), W(kT1, 37, kNewSlot),
                                     W(kT1, 38, kX), W(kT1, 39, kY)});
  RunPairs failed = run({W(kT1, 37, kNewSlot), W(kT1, 38, kX), R(kT2, 28, kX), R(kT2, 29, kY), R(kT2, 30, kOldSlot),
                         W(kT1, 39, kY)});
  const std::vector<RunPairs> passing{writer_first, reader_first};
  // W37 → R30 is missing from the failed run (the reader looked in the old array), and its
  // pairs alone cannot show that W37 ran: without the executed accesses, "R30 → W37" stands.
  REQUIRE(procedure_two(failed, passing, Level::Pc).size() == 1);
  CHECK(procedure_two(failed, passing, Level::Pc).front().pairs.front() == PairKey{side(30, false), side(37, true)});
  // It did run: no order of the failed run put R30 before it.
  failed.executed = std::vector<std::pair<std::uint64_t, bool>>{{28, false}, {29, false}, {30, false},
                                                               {37, true},  {38, true},  {39, true}};
  CHECK(procedure_two(failed, passing, Level::Pc).empty());
  const std::vector<Finding> findings = localize(failed, passing);
  REQUIRE(findings.size() == 1);
  CHECK(findings.front().procedure == Procedure::III);
  CHECK(findings.front().pairs ==
        std::vector{PairKey{side(38, true), side(28, false)}, PairKey{side(29, false), side(39, true)}});
}

TEST_CASE("levels project threads and iterations away", "[locon]") {
  const PairKey k{side(1, true, 3, 7), side(2, false, 4, 9)};
  CHECK(at_level(k, Level::Loop) == k);
  CHECK(at_level(k, Level::Tid) == PairKey{side(1, true, 3), side(2, false, 4)});
  CHECK(at_level(k, Level::Pc) == PairKey{side(1, true), side(2, false)});
  CHECK(reversed(k) == PairKey{k.tail, k.head});
  CHECK(name(Level::Loop) == "loop");
  CHECK(name(Procedure::III) == "III");
}
