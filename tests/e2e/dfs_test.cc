// --strategy dfs (docs/strategies.md "dfs") on real programs: exact schedule counts on
// programs/dfs_steps.c, a known bug found and replayed from its handle, the bound on the number
// of schedules, and the same exploration whatever -j is.
//
// How the counts come about. dfs_steps has main (M) create W workers (T1..TW) and join them in
// order; each worker makes n stores. Its scheduling points, instrumented only where it matters:
//   M:  C1 (after creating T1), S2 (before creating T2), C2 (after), ..., J1 (join T1), J2, ...
//       A join whose worker has not exited blocks M: a free switch. When that worker exits M is
//       runnable again and, when it runs, returns from the join and goes on to the next one.
//   Ti: "start" (an option at every point once created: choosing it runs Ti to its first store),
//       w1..wn (one point before each store), then its exit: a free switch.
// A preemption is a switch away from a thread that could go on (at C, S, J or w points);
// switches at a block or an exit are free, and the strategy's default there is the lowest id.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "e2e.h"

using namespace e2e;

namespace {

struct Explored {
  std::uint64_t schedules = 0;
  std::uint64_t redundant = 0;
  bool exhaustive = false;
  SeedsRun run;
};

enum class Reduction { None, SleepSets, Dpor };

Explored explore(const TempDir& dir, std::uint32_t bound, Reduction reduction, std::vector<std::string> args,
                 std::vector<std::string> extra = {}) {
  std::vector<std::string> options = {"--strategy", "dfs", "--preemption-bound", std::to_string(bound), "-j2"};
  if (reduction == Reduction::None) options.push_back("--no-reduction");
  if (reduction == Reduction::SleepSets) options.push_back("--sleep-sets");
  options.insert(options.end(), extra.begin(), extra.end());
  Explored e{0, 0, false, run_seeds(dir, binary("program_inst", "dfs_steps"), options, std::move(args), 120)};
  INFO(e.run.describe());
  REQUIRE(e.run.json.is_object());
  const Json& dfs = e.run.json.at("dfs");
  e.schedules = dfs.at("schedules").get<std::uint64_t>();
  e.redundant = dfs.at("redundant_runs").get<std::uint64_t>();
  e.exhaustive = dfs.at("exhaustive").get<bool>();
  return e;
}

}  // namespace

// One worker, n = 2 stores. Points: M at C1 and J1, T1 at w1, w2. No free choice ever arises
// before T1 exits except M blocking in J1 (then T1 is the only candidate).
//   K=0: M runs C1, J1, blocks; T1 runs alone: 1.
//   exactly 1: preempt M at C1 or at J1 in favour of T1; T1 then runs to its end and M alone: 2.
//   exactly 2: in each of those, preempt T1 back at w1 or w2 (M is enabled at C1 or J1): M goes on
//   to J1, blocks, T1 finishes: 2 + 2 = 2n.
//   So 1, 3, 3 + 2n = 7. M's steps here depend on every step of T1 (T1's start is of unknown
//   kind, so is a create, and a join depends on every step of the thread it joins), so the
//   reduction changes nothing.
TEST_CASE("dfs: one worker of two steps, exact counts for K = 0, 1, 2", "[dfs]") {
  TempDir dir;
  const std::uint64_t expected[] = {1, 3, 7};
  for (std::uint32_t k = 0; k <= 2; ++k) {
    for (const Reduction reduction : {Reduction::None, Reduction::SleepSets, Reduction::Dpor}) {
      INFO("K=" << k << " reduction " << static_cast<int>(reduction));
      const Explored e = explore(dir, k, reduction, {"1", "2", "private"});
      CHECK(e.schedules == expected[k]);
      CHECK(e.redundant == 0);
      CHECK(e.exhaustive);
      CHECK(e.run.process.exit_code == 0);
      CHECK(contains(e.run.process.out, "every interleaving with at most " + std::to_string(k) + " preemption"));
    }
  }
}

// Two workers of n stores.
//   K=0 (only free choices): M blocks in J1 with T1 and T2 unstarted. T1 first: at T1's exit M
//   (runnable again) or T2; M goes on to J2 and blocks, T2 finishes; or T2 runs, then M: 2.
//   T2 first: at its exit M still waits for T1, so T1 then M: 1. Total 3.
//   Exactly 1 preemption: the places of the K=0 runs where the current thread could go on, each
//   alternative followed by every free completion:
//     M at C1 -> T1, M at S2 -> T1: T1 finishes, then M alone: 1 + 1
//     M at C2 -> T1, C2 -> T2, J1 -> T1, J1 -> T2: the worker finishes, then M or the other
//       worker at its exit: 2 each, 8
//     T1 at w1..wn -> T2 (M blocked): T2, then T1, then M: n
//     M at J2 -> T2 (after T1): 1
//     T2 at w1..wn -> M (T2 ran after T1, M woke): M blocks in J2, T2 finishes: n
//     T2 at w1..wn -> T1 (T2 ran first): T1 finishes, then M or T2 at its exit: 2n
//   = 11 + 4n. So K=1: 14 + 4n: 18 for n = 1, 22 for n = 2. The reduction prunes nothing here:
//   every preempted step depends on its alternative (a worker's start, M's create and join are
//   of unknown kind or on a thread object).
//   K=2: measured and pinned (not derived by hand): 64 for n = 1 without reduction; with it the
//   preemptions between two started workers put threads to sleep: 62 runs of which 61 schedules
//   and 1 redundant when the stores are private, 63 runs, all schedules, when they share one word
//   (fewer independent pairs, less pruned).
TEST_CASE("dfs: two workers, exact counts with and without reduction", "[dfs]") {
  TempDir dir;
  for (const std::string n : {"1", "2"}) {
    const std::uint64_t four_n = 4 * std::stoull(n);
    for (const std::string mode : {"private", "shared"}) {
      for (const Reduction reduction : {Reduction::None, Reduction::SleepSets}) {
        INFO("n=" << n << " " << mode << " reduction " << static_cast<int>(reduction));
        CHECK(explore(dir, 0, reduction, {"2", n, mode}).schedules == 3);
        const Explored k1 = explore(dir, 1, reduction, {"2", n, mode});
        CHECK(k1.schedules == 14 + four_n);
        CHECK(k1.redundant == 0);
      }
    }
  }
  const Explored plain = explore(dir, 2, Reduction::None, {"2", "1", "private"});
  CHECK(plain.schedules == 64);
  CHECK(plain.redundant == 0);
  const Explored private_reduced = explore(dir, 2, Reduction::SleepSets, {"2", "1", "private"});
  CHECK(private_reduced.schedules == 61);
  CHECK(private_reduced.redundant == 1);
  CHECK(private_reduced.exhaustive);
  const Explored shared_reduced = explore(dir, 2, Reduction::SleepSets, {"2", "1", "shared"});
  CHECK(shared_reduced.schedules == 63);
  CHECK(shared_reduced.redundant == 0);
  CHECK(contains(shared_reduced.run.process.out, "up to the order of independent steps"));
}

// The same program with DPOR (the default reduction; docs/strategies.md "Reduction: DPOR").
// K=0 and K=1 with one store per worker: as without reduction (3 and 18): every choice of those
// runs is between steps that depend on each other (M's create and join, a worker's store and
// the join of it), and the bound's conservative points ask for the free switches too.
// K=2, and K=1 with more stores: measured and pinned (not derived by hand). Fewer runs than
// sleep sets, every one a schedule: 60 against 62 (n=1), 97 against 105 (n=2), 214 against 264
// (n=5); 21 against 22 at K=1 with n=2. The hand-derived counts of DPOR are on the toy model
// (tests/unit/core_dfs_explorer_test.cc), where a property test also checks against the
// search without reduction that no class of schedules within the bound is missed.
TEST_CASE("dfs: two workers with DPOR, fewer runs than sleep sets", "[dfs]") {
  TempDir dir;
  CHECK(explore(dir, 0, Reduction::Dpor, {"2", "1", "private"}).schedules == 3);
  CHECK(explore(dir, 1, Reduction::Dpor, {"2", "1", "private"}).schedules == 18);
  struct Pinned {
    std::uint32_t k;
    const char* n;
    std::uint64_t dpor, sleep_runs;
  };
  for (const Pinned p : {Pinned{2, "1", 60, 62}, Pinned{1, "2", 21, 22}, Pinned{2, "2", 97, 105}, Pinned{2, "5", 214, 264}}) {
    INFO("K=" << p.k << " n=" << p.n);
    const Explored dpor = explore(dir, p.k, Reduction::Dpor, {"2", p.n, "private"});
    CHECK(dpor.schedules == p.dpor);
    CHECK(dpor.redundant == 0);
    CHECK(dpor.exhaustive);
    CHECK(contains(dpor.run.process.out, "partial-order reduction"));
    const Explored sleep = explore(dir, p.k, Reduction::SleepSets, {"2", p.n, "private"});
    CHECK(sleep.schedules + sleep.redundant == p.sleep_runs);
  }
}

// Three workers of one store, K=0: M blocks in J1 with T1, T2, T3 unstarted; at every exit the
// choice is between M (if the worker it waits for is done) and the unstarted workers.
//   T1 first -> {M: then T2 -> {M, T3}: 2, or T3 -> T2: 1} 3;  {T2 -> {M, T3}} 2;  {T3 -> {M, T2}} 2: 7
//   T2 first -> {T1 -> {M, T3}: 2, T3 -> T1: 1}: 3
//   T3 first -> {T1 -> {M, T2}: 2, T2 -> T1: 1}: 3
//   = 13.
TEST_CASE("dfs: three workers, every order of the free switches", "[dfs]") {
  TempDir dir;
  const Explored e = explore(dir, 0, Reduction::SleepSets, {"3", "1", "private"});
  CHECK(e.schedules == 13);
  CHECK(e.exhaustive);
}

// No outcome missed on a real program (programs/dfs_outcomes.c: two workers, a mutex, creates
// and joins, private and shared accesses; its exit status names what the threads read and the
// final value). Every run exits non-zero, so every schedule is a failure, and the failure groups
// (one per exit status) are the outcomes the exploration reached. Each reduction must reach
// every outcome that the search without reduction reaches within the bound. Run counts measured
// and pinned: 3, 59, 912 without reduction; 3, 59, 851 with sleep sets; 3, 49, 706 with DPOR.
TEST_CASE("dfs: every reduction reaches every outcome within the bound", "[dfs]") {
  TempDir dir;
  const auto outcomes = [&](std::uint32_t k, const char* reduction, std::uint64_t* runs) {
    std::vector<std::string> options = {"--strategy", "dfs", "--preemption-bound", std::to_string(k), "-j2",
                                        "--stop-after", "1000000", "--no-save"};
    if (*reduction) options.push_back(reduction);
    const SeedsRun r = run_seeds(dir, binary("program_inst", "dfs_outcomes"), options, {}, 120);
    INFO(r.describe());
    REQUIRE(r.json.is_object());
    CHECK(r.json.at("dfs").at("exhaustive") == true);
    *runs = r.json.at("dfs").at("runs").get<std::uint64_t>();
    std::set<std::string> seen;
    for (const Json& g : r.json.at("groups")) seen.insert(g.at("signature").get<std::string>());
    return seen;
  };
  const std::uint64_t none_runs[] = {3, 59, 912};
  const std::uint64_t sleep_runs[] = {3, 59, 851};
  const std::uint64_t dpor_runs[] = {3, 49, 706};
  const std::size_t reached[] = {2, 9, 12};
  for (std::uint32_t k = 0; k <= 2; ++k) {
    INFO("K=" << k);
    std::uint64_t runs[3] = {0, 0, 0};
    const std::set<std::string> all = outcomes(k, "--no-reduction", &runs[0]);
    CHECK(all.size() == reached[k]);
    CHECK(outcomes(k, "--sleep-sets", &runs[1]) == all);
    CHECK(outcomes(k, "", &runs[2]) == all);
    CHECK(runs[0] == none_runs[k]);
    CHECK(runs[1] == sleep_runs[k]);
    CHECK(runs[2] == dpor_runs[k]);
  }
}

TEST_CASE("dfs: --max-schedules makes the result not exhaustive", "[dfs]") {
  TempDir dir;
  const Explored e = explore(dir, 1, Reduction::None, {"2", "1", "private"}, {"--max-schedules", "5"});
  CHECK(e.schedules == 5);
  CHECK_FALSE(e.exhaustive);
  CHECK(e.run.json.at("dfs").at("max_schedules_reached") == true);
  // Branches found by the first 5 runs and not run yet (more would be found by running them).
  CHECK(e.run.json.at("dfs").at("branches_left").get<std::uint64_t>() == 8);
  CHECK(contains(e.run.process.out, "NOT exhaustive (--max-schedules 5 reached, 8 branches left"));
  CHECK(e.run.process.exit_code == 0);
}

// lost_update (examples/): two threads increment a counter twice without a lock. One preemption
// between a thread's load and its store loses an update; dfs finds it within bound 1 and stops
// at the first failing schedule, whose handle replays it from the saved schedule.
TEST_CASE("dfs finds the lost update and its handle replays it", "[dfs]") {
  TempDir dir;
  const std::string target = binary("example_inst", "lost_update");
  const SeedsRun one = run_seeds(dir, target, {"--strategy", "dfs", "--preemption-bound", "1", "-j1"});
  const SeedsRun two = run_seeds(dir, target, {"--strategy", "dfs", "--preemption-bound", "1", "-j2"});
  INFO(one.describe() << "\n" << two.describe());
  REQUIRE(one.json.is_object());
  CHECK(one.process.exit_code == 1);
  CHECK(one.failures() == 1);
  CHECK(one.json.at("dfs").at("stopped_at_failures") == true);
  CHECK(one.json.at("dfs").at("exhaustive") == false);
  CHECK(contains(one.process.out, "stopped at the first failure"));
  // Same exploration, same numbers, whatever -j is.
  REQUIRE(two.json.is_object());
  CHECK(one.runs() == two.runs());
  const Json& failing = one.runs().back();
  CHECK(failing.at("kind") == "assertion");
  const std::string handle = failing.at("handle").get<std::string>();
  CHECK(contains(handle, ":dfs@"));
  CHECK(contains(one.process.out, "replay:  ctrlsched replay " + handle));

  const Process replay = run_replay(dir, {handle, "--save-schedules", one.schedules.string()}, target);
  INFO(replay.describe());
  CHECK(replay.exit_code == 1);
  CHECK(contains(replay.out, "lost update"));
  CHECK(contains(replay.out, "replay matched schedule"));

  // Without the bound's one preemption the bug cannot happen: K=0 is exhaustive and passes.
  // Each reduction finds it too (DPOR is the default above).
  for (const char* reduction : {"--sleep-sets", "--no-reduction"}) {
    const SeedsRun other = run_seeds(dir, target, {"--strategy", "dfs", "--preemption-bound", "1", reduction});
    INFO(other.describe());
    CHECK(other.process.exit_code == 1);
    CHECK(other.failures() == 1);
  }

  const SeedsRun none = run_seeds(dir, target, {"--strategy", "dfs", "--preemption-bound", "0"});
  CHECK(none.process.exit_code == 0);
  CHECK(contains(none.process.out, "every interleaving with at most 0 preemptions"));
  CHECK(contains(none.process.out, "no failure"));
}

TEST_CASE("dfs: options that do not apply are usage errors", "[dfs]") {
  TempDir dir;
  const std::string target = binary("program_inst", "dfs_steps");
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--strategy", "dfs", "--seeds", "10"},
           {"--strategy", "dfs", "--localize"},
           {"--strategy", "random", "--max-schedules", "3"},
           {"--no-reduction"},
           {"--sleep-sets"},
           {"--strategy", "dfs", "--sleep-sets", "--no-reduction"}}) {
    std::vector<std::string> argv = {ctrlsched_path()};
    argv.insert(argv.end(), bad.begin(), bad.end());
    argv.push_back(target);
    const Process p = run(argv);
    INFO(p.describe());
    CHECK(p.exit_code == 2);
    CHECK(contains(p.err, "ctrlsched: "));
  }
}

// A reader blocked in read() on a pipe (outside the model) is released by the watchdog: such a
// run depends on timing, so the exploration may pass but must not claim to be exhaustive.
TEST_CASE("dfs: a run released by the watchdog makes the result not exhaustive", "[dfs]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("program", "pipe_block"), {"--strategy", "dfs", "--preemption-bound", "1", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  CHECK(r.process.exit_code == 0);
  CHECK(r.json.at("dfs").at("exhaustive") == false);
  REQUIRE(r.json.at("dfs").at("gaps").size() >= 1);
  CHECK(contains(r.json.at("dfs").at("gaps")[0].get<std::string>(), "watchdog released a thread"));
  CHECK(contains(r.process.out, "note: not exhaustive: the watchdog released a thread"));
  CHECK(contains(r.process.out, "NOT exhaustive within at most 1 preemption"));
}
