// The dfs exploration engine (ctrlsched/dfs_explorer.h) and the dfs strategy (ctrlsched/dfs.h) on
// a toy model, with exact schedule counts computed by hand below. Pure: no processes.
//
// The toy model: every thread exists from the start, T0 holds the baton first, and each thread is
// a list of steps (a write to a location). Before each step the thread is at a scheduling point;
// after its last step it is at its exit point, where it can no longer run (a free switch). Points
// with one candidate ask the strategy too, as the shim does after a block or an exit; only points
// with several candidates are decisions. The real dfs strategy runs the model, its step log is
// decoded, and the explorer produces the next prefixes, as the driver does with processes.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "ctrlsched/dfs.h"
#include "ctrlsched/dfs_explorer.h"
#include "ctrlsched/prng.h"
#include "ctrlsched/run_spec.h"
#include "ctrlsched/sync_ops.h"

namespace ctrlsched {
namespace {

struct ToyStep {
  std::uint64_t location;
  bool write = true;
  int join = -1;  // >= 0: a join of that thread (blocks until its last step has run), no access
};
using ToyProgram = std::vector<std::vector<ToyStep>>;  // steps per thread

struct ToyRun {
  std::vector<DfsPoint> points;
  std::string order;  // thread letters in the order their steps ran, e.g. "AABB"
};

ToyRun run_toy(const ToyProgram& program, const std::vector<Decision>& prefix) {
  std::vector<std::uint8_t> encoded;
  for (const Decision d : prefix) {
    std::uint8_t bytes[kMaxEncodedDecision];
    const std::size_t n = encode_decision(d, bytes);
    encoded.insert(encoded.end(), bytes, bytes + n);
  }
  std::vector<std::uint8_t> area(1 << 16);
  auto strategy = make_dfs_strategy(encoded, area);
  std::vector<std::size_t> next(program.size(), 0);
  std::vector<char> blocked(program.size(), 0);  // in a join whose thread has not finished
  const auto finished = [&](std::size_t t) { return next[t] >= program[t].size(); };
  ThreadId current = 0;
  ToyRun run;
  for (std::uint64_t step = 1;; ++step) {
    std::vector<Candidate> candidates;
    for (ThreadId t = 0; t < program.size(); ++t) {
      if (finished(t)) continue;
      const ToyStep& s = program[t][next[t]];
      if (blocked[t]) {
        // Woken: it resumes inside the join (an unknown step to the engine, as in the shim).
        if (finished(static_cast<std::size_t>(s.join))) candidates.push_back(Candidate{t, false, PendingKind::None, 0, 0, 0});
        continue;
      }
      if (s.join >= 0) {
        candidates.push_back(Candidate{t, false, PendingKind::Sync, 0, static_cast<std::uint64_t>(s.join),
                                       static_cast<std::uint8_t>(SyncOp::Join)});
        continue;
      }
      // Location 0: a thread's start, which touches nothing shared (its pending event is
      // unknown to the engine, as in the shim).
      const PendingKind kind = s.location == 0 ? PendingKind::None : s.write ? PendingKind::Write : PendingKind::Read;
      candidates.push_back(Candidate{t, false, kind, 0, s.location, 0});
    }
    if (candidates.empty()) break;
    bool enabled = false;
    for (const Candidate& c : candidates) enabled = enabled || c.tid == current;
    const PointKind kind = finished(current) ? PointKind::ThreadExit : blocked[current] ? PointKind::Blocked : PointKind::Access;
    const SchedulingPoint point{current, enabled, enabled ? PointKind::Access : kind, step, candidates};
    const ThreadId chosen = strategy->next_thread(point);
    const ToyStep& s = program[chosen][next[chosen]];
    if (s.join < 0) {
      run.order += static_cast<char>('A' + chosen);
      ++next[chosen];
    } else if (blocked[chosen] || finished(static_cast<std::size_t>(s.join))) {
      run.order += static_cast<char>('a' + chosen);  // the join returns
      blocked[chosen] = 0;
      ++next[chosen];
    } else {
      run.order += static_cast<char>('a' + chosen);  // the join blocks
      blocked[chosen] = 1;
    }
    current = chosen;
  }
  REQUIRE_FALSE(strategy->divergence().has_value());
  const std::optional<DfsLog> log = read_dfs_log(area);
  REQUIRE(log);
  REQUIRE_FALSE(log->truncated);
  run.points = log->points;
  return run;
}

struct Counts {
  std::uint64_t runs = 0;
  std::uint64_t schedules = 0;  // runs not redundant
  std::uint64_t redundant = 0;
  std::set<std::string> orders;  // distinct step orders over all runs
  std::set<std::string> schedule_orders;
  std::uint32_t max_preemptions = 0;
};

Counts explore(const ToyProgram& program, std::uint32_t bound, DfsReduction reduction, std::size_t batch = 3) {
  DfsExplorer explorer(bound, reduction);
  Counts c;
  while (!explorer.complete()) {
    for (const DfsBranch& branch : explorer.next_batch(batch)) {
      const ToyRun run = run_toy(program, branch.prefix);
      const DfsRunVerdict verdict = explorer.explored(branch, run.points);
      REQUIRE(verdict.followed);
      ++c.runs;
      c.redundant += verdict.redundant;
      c.schedules += !verdict.redundant;
      c.orders.insert(run.order);
      if (!verdict.redundant) c.schedule_orders.insert(run.order);
      c.max_preemptions = std::max(c.max_preemptions, branch.preemptions);
    }
  }
  return c;
}

Counts explore(const ToyProgram& program, std::uint32_t bound, bool sleep_sets, std::size_t batch = 3) {
  return explore(program, bound, sleep_sets ? DfsReduction::SleepSets : DfsReduction::None, batch);
}

// n steps per thread: `shared` = every step writes location 1 (all dependent), otherwise thread t
// writes location 100 * (t + 1) + i (all independent).
ToyProgram threads_of(std::size_t threads, std::size_t n, bool shared) {
  ToyProgram program(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    for (std::size_t i = 0; i < n; ++i) program[t].push_back({shared ? 1u : 100 * (t + 1) + i});
  }
  return program;
}

// How the counts without reduction come about, two threads A (T0, holding the baton) and B, n
// steps each. A schedule is an interleaving of a^n and b^n, cut into maximal blocks of one
// thread. A switch between blocks is a preemption unless the thread switched away from has no
// step left; only the last switch can be such (after it only one thread has steps). Starting with
// B preempts A. So a schedule of b >= 2 blocks costs b - 2 preemptions when it starts with A and
// b - 1 when it starts with B. Blocks alternate; with ceil(b/2) blocks of the first thread and
// floor(b/2) of the other, the number of interleavings with b blocks is
// C(n-1, ceil(b/2)-1) * C(n-1, floor(b/2)-1).
//   0 preemptions: A-start, b = 2: 1.
//   1 preemption:  A-start, b = 3: C(n-1,1) = n-1;  B-start, b = 2: 1.          -> total n
//   2 preemptions: A-start, b = 4: (n-1)^2;         B-start, b = 3: n-1.        -> total n(n-1)
// At most K: K=0: 1;  K=1: n+1;  K=2: n+1 + n(n-1) = n^2+1.
//   n = 2: 1, 3, 5 (of the C(4,2) = 6 interleavings: only BABA, 3 preemptions, is left out)
//   n = 3: 1, 4, 10 (of 20).
TEST_CASE("dfs without reduction: every interleaving within the bound, exactly once", "[dfs]") {
  for (const bool shared : {false, true}) {
    const ToyProgram two = threads_of(2, 2, shared);
    CHECK(explore(two, 0, false).runs == 1);
    CHECK(explore(two, 1, false).runs == 3);
    const Counts k2 = explore(two, 2, false);
    CHECK(k2.runs == 5);
    CHECK(k2.orders.size() == 5);  // all distinct
    CHECK(k2.orders.count("BABA") == 0);
    CHECK(explore(two, 3, false).orders.size() == 6);

    const ToyProgram three = threads_of(2, 3, shared);
    CHECK(explore(three, 0, false).runs == 1);
    CHECK(explore(three, 1, false).runs == 4);
    CHECK(explore(three, 2, false).runs == 10);
    CHECK(explore(three, 2, false).orders.size() == 10);
  }
}

// With reduction. Independent steps: every interleaving is equivalent. The run without a prefix
// (AA..BB) is the only schedule; each branch preempts A at one of its n points in favour of B with
// A asleep (A's step is independent of B's), B runs to its end, then A runs alone: redundant.
// Those runs find no new branch (the only alternative, A, sleeps). So for K >= 1: n + 1 runs,
// 1 schedule, n redundant.
// Dependent steps: A wakes at once (B's step writes A's location), so nothing is pruned: the
// counts are those without reduction (1, n+1, n^2+1).
TEST_CASE("dfs with sleep sets: independent steps collapse, dependent ones do not", "[dfs]") {
  for (const std::size_t n : {2u, 3u}) {
    const ToyProgram independent = threads_of(2, n, false);
    const Counts k0 = explore(independent, 0, true);
    CHECK(k0.runs == 1);
    CHECK(k0.schedules == 1);
    for (const std::uint32_t k : {1u, 2u}) {
      const Counts c = explore(independent, k, true);
      CHECK(c.runs == n + 1);
      CHECK(c.schedules == 1);
      CHECK(c.redundant == n);
    }
    const ToyProgram dependent = threads_of(2, n, true);
    CHECK(explore(dependent, 0, true).schedules == 1);
    CHECK(explore(dependent, 1, true).schedules == n + 1);
    const Counts d2 = explore(dependent, 2, true);
    CHECK(d2.schedules == n * n + 1);
    CHECK(d2.redundant == 0);
  }
}

// Each thread: one independent step (its own location), then one dependent step (location 1).
// Interleavings of a1 a2 / b1 b2 and their preemptions:
//   a1 a2 b1 b2: 0   a1 b1 b2 a2: 1   b1 b2 a1 a2: 1
//   a1 b1 a2 b2: 2   b1 a1 a2 b2: 2   b1 a1 b2 a2: 3
// Without reduction: K=0: 1, K=1: 3, K=2: 5. Up to the order of independent steps only the order
// of a2 and b2 matters: two classes, {a2 before b2} and {b2 before a2}, both reachable with one
// preemption.
// With reduction (K=1 and K=2 alike): the first run a1 a2 b1 b2 branches at A's two points
// (preempting A, which sleeps: a1 and a2 are independent of b1).
//   [B at a1's point]: b1, then at b2's point A still sleeps (b2 is independent of a1) and is not
//   an alternative; B finishes and A runs alone: redundant.
//   [A, B at a2's point]: b1, then at b2's point A sleeps and is not an alternative (a1 b1 a2 ..
//   is covered by a1 a2 b1 ..); b2 wakes A (a2 and b2 write location 1); A finishes: the
//   schedule a1 b1 b2 a2, the class {b2 before a2}.
// So 3 runs, 2 schedules (one per class), 1 redundant.
TEST_CASE("dfs with sleep sets: one schedule per order of the dependent steps", "[dfs]") {
  const ToyProgram mixed = {{{10}, {1}}, {{20}, {1}}};
  CHECK(explore(mixed, 0, false).runs == 1);
  CHECK(explore(mixed, 1, false).runs == 3);
  CHECK(explore(mixed, 2, false).runs == 5);
  CHECK(explore(mixed, 0, true).runs == 1);
  for (const std::uint32_t k : {1u, 2u}) {
    const Counts c = explore(mixed, k, true);
    CHECK(c.runs == 3);
    CHECK(c.schedules == 2);
    CHECK(c.redundant == 1);
    CHECK(c.schedule_orders == std::set<std::string>{"AABB", "ABBA"});
  }
}

// Three threads A (holding the baton), B, C of one step each. A's exit is a free switch, so
// with 0 preemptions: ABC and ACB (2). Starting with B or C preempts A (1); after that thread's
// exit the choice between the other two is free: BAC, BCA, CAB, CBA. K=1: 6 = 3!.
// Dependent (one location): the reduction prunes nothing: 2 and 6.
// Independent: at A's exit the sleep sets add nothing (only a preempted thread sleeps, see
// docs/strategies.md), so ACB is a schedule of its own (2 at K=0). With K=1 the four branches that
// start with B or C keep A asleep; each runs A alone at the end, or schedules it by default at
// the free switch: redundant. 6 runs, 2 schedules, 4 redundant.
TEST_CASE("dfs on three threads", "[dfs]") {
  const ToyProgram dependent = threads_of(3, 1, true);
  CHECK(explore(dependent, 0, false).runs == 2);
  CHECK(explore(dependent, 1, false).runs == 6);
  CHECK(explore(dependent, 1, false).orders.size() == 6);
  CHECK(explore(dependent, 1, true).schedules == 6);
  const ToyProgram independent = threads_of(3, 1, false);
  CHECK(explore(independent, 0, true).schedules == 2);
  const Counts c = explore(independent, 1, true);
  CHECK(c.runs == 6);
  CHECK(c.schedules == 2);
  CHECK(c.redundant == 4);
}

// The Mazurkiewicz class of a toy run: which of two dependent steps of different threads (same
// location, at least one a write) came first, for every such pair.
std::string class_of(const ToyProgram& program, const std::string& order) {
  struct Done {
    std::size_t thread, index;
  };
  std::vector<Done> done;
  std::vector<std::size_t> next(program.size(), 0);
  std::vector<std::string> pairs;
  for (const char c : order) {
    if (c >= 'a') continue;  // a join's attempt or return: no access
    const auto t = static_cast<std::size_t>(c - 'A');
    while (program[t][next[t]].join >= 0) ++next[t];
    const ToyStep& step = program[t][next[t]];
    for (const Done& d : done) {
      const ToyStep& other = program[d.thread][d.index];
      if (d.thread == t || step.location == 0 || other.location != step.location || (!other.write && !step.write)) continue;
      pairs.push_back(std::to_string(d.thread) + "." + std::to_string(d.index) + "<" + std::to_string(t) + "." +
                      std::to_string(next[t]));
    }
    done.push_back({t, next[t]});
    ++next[t];
  }
  std::sort(pairs.begin(), pairs.end());
  std::string key;
  for (const std::string& p : pairs) key += p + " ";
  return key;
}

std::set<std::string> classes_of(const ToyProgram& program, const std::set<std::string>& orders) {
  std::set<std::string> out;
  for (const std::string& o : orders) out.insert(class_of(program, o));
  return out;
}

// DPOR (dfs_dpor.cc): branches only where a run's steps depend on each other, plus BPOR's
// conservative points. Counts by hand (all runs are schedules: DPOR cuts nothing short).
//
// Independent steps (two threads of n, or three threads of one): no step depends on another's,
// so no run asks for a branch: 1 run at every bound (sleep sets: n+1 runs for two threads,
// K >= 1; 6 runs of which 2 schedules for three threads, K = 1).
// Dependent steps (every step writes location 1): every interleaving is a class of its own, so a
// sound search runs at least every schedule within the bound, and DPOR never runs a prefix twice
// (the tree of explored choices) nor beyond the bound: exactly the counts without reduction,
// 1, n+1, n^2+1 for K = 0, 1, 2.
//
// n private steps, then one shared write, per thread: A = p1..pn sA, B = q1..qn sB (sA, sB write
// location 1; everything else is independent). Steps are numbered from 0 in each run; the
// point before step i is where a branch at i is made.
//   Run 1 (no prefix): A^(n+1) B^(n+1). The only dependent pair is sA (step n) and sB (step
//   2n+1): B's next step at 2n+1 asks for B at step n (cost 1: A could go on), and the last
//   context switch before step n is step 0 (the run's first step): B there too (cost 1).
//   K=0: 1 run.
//   Run 2 (B at step n): A^n B^(n+1) A: sA now follows sB (step 2n); A's sA asks for A at step
//   2n (B could go on: cost 1 + 1 = 2), and the last switch before 2n is step n, where A was
//   run already (run 1).
//   Run 3 (B at step 0): B^(n+1) A^(n+1): sA (step 2n+1) asks for A at step n (B's sB; cost 2);
//   the last switch before n is step 0, where A was run already.
//   K=1: 3 runs, whatever n is (sleep sets: n+2, one per point of A, n of them cut short).
//   Run 4 (A^n B^n, then A at sB's point): A^n B^n A B: sB after sA asks for B at sA's step,
//   where run 2 went on with B, and at the last switch before it (step n): B again. Nothing new.
//   Run 5 (B^n, then A at sB's point): B^n A^(n+1) B: sB asks for B at sA's step (cost 3) and at
//   the last switch before it (step n), where run 3 took B.
//   K=2: 5 runs. K=3: run 5's branch too (B^n A^n B A): 6.
// So DPOR runs 1, 3, 5, 6 for K = 0..3 for every n; sleep sets 1, n+2, n+2, n+2 (n+2 = 1 schedule
// of each order of sA and sB, and n runs cut short). n = 1: DPOR runs more at K >= 2 (5 against 3;
// it has no sleep sets, and two of its runs reorder sA and sB back); n = 3: fewer at K = 1, as
// many at K = 2; n = 6: fewer at every bound from 1.
TEST_CASE("dfs with DPOR: exact counts, and where it prunes more than sleep sets", "[dfs]") {
  for (const std::size_t n : {2u, 3u}) {
    for (const std::uint32_t k : {0u, 1u, 2u}) {
      CHECK(explore(threads_of(2, n, false), k, DfsReduction::Dpor).runs == 1);
      const std::uint64_t dependent[] = {1, n + 1, n * n + 1};
      const Counts d = explore(threads_of(2, n, true), k, DfsReduction::Dpor);
      CHECK(d.runs == dependent[k]);
      CHECK(d.orders.size() == dependent[k]);
    }
  }
  CHECK(explore(threads_of(3, 1, false), 1, DfsReduction::Dpor).runs == 1);
  for (const std::size_t n : {1u, 3u, 6u}) {
    ToyProgram program(2);
    for (std::size_t i = 0; i < n; ++i) {
      program[0].push_back({10 + i});
      program[1].push_back({20 + i});
    }
    program[0].push_back({1});
    program[1].push_back({1});
    const std::uint64_t dpor[] = {1, 3, 5, 6};
    for (std::uint32_t k = 0; k <= 3; ++k) {
      INFO("n=" << n << " K=" << k);
      const Counts c = explore(program, k, DfsReduction::Dpor);
      CHECK(c.runs == dpor[k]);
      CHECK(c.redundant == 0);
      CHECK(c.max_preemptions <= k);
      // Both orders of sA and sB from K = 1 on (only A's first at K = 0).
      const std::set<std::string> classes = classes_of(program, c.orders);
      CHECK(classes.size() == (k == 0 ? 1u : 2u));
      const Counts sleep = explore(program, k, DfsReduction::SleepSets);
      CHECK(sleep.runs == (k == 0 ? 1 : n + 2));
    }
  }
}

TEST_CASE("dfs exploration order does not depend on the batch size", "[dfs]") {
  const ToyProgram program = threads_of(2, 3, false);
  std::vector<std::vector<Decision>> orders[2];
  for (const std::size_t batch : {1u, 7u}) {
    DfsExplorer explorer(2, DfsReduction::None);
    auto& seen = orders[batch == 1 ? 0 : 1];
    while (!explorer.complete()) {
      for (const DfsBranch& branch : explorer.next_batch(batch)) {
        seen.push_back(branch.prefix);
        explorer.explored(branch, run_toy(program, branch.prefix).points);
      }
    }
  }
  CHECK(orders[0] == orders[1]);
  CHECK(orders[0].size() == 10);  // n^2 + 1 for n = 3, K = 2
}

TEST_CASE("dfs: a run that leaves its prefix is reported, not explored", "[dfs]") {
  const ToyProgram program = threads_of(2, 2, true);
  DfsExplorer explorer(1, DfsReduction::None);
  DfsBranch branch;
  branch.prefix = {{DecisionKind::Schedule, 1}};
  const ToyRun other = run_toy(program, {});  // took A where the prefix says B
  const DfsRunVerdict verdict = explorer.explored(branch, other.points);
  CHECK_FALSE(verdict.followed);
  CHECK(verdict.branches == 0);
}

TEST_CASE("dfs dependence: same location with a write, same sync object, unknown steps", "[dfs]") {
  const DfsOption read_x{1, false, PendingKind::Read, 0, 0x1000};
  const DfsOption read_x2{2, false, PendingKind::Read, 0, 0x1000};
  const DfsOption write_x{2, false, PendingKind::Write, 0, 0x1004};  // same 8-byte granule
  const DfsOption write_y{2, false, PendingKind::Write, 0, 0x1008};
  const DfsOption lock_m{2, false, PendingKind::Sync, 1, 0x2000};
  const DfsOption unlock_m{1, false, PendingKind::Sync, 2, 0x2000};
  const DfsOption unknown{1, false, PendingKind::None, 0, 0};
  const DfsOption timed{1, true, PendingKind::Sync, 1, 0x3000};
  CHECK_FALSE(dependent(read_x, read_x2));
  CHECK(dependent(read_x, write_x));
  CHECK_FALSE(dependent(read_x, write_y));
  CHECK(dependent(lock_m, unlock_m));
  CHECK_FALSE(dependent(lock_m, write_y));
  CHECK(dependent(unknown, write_y));
  CHECK(dependent(timed, write_y));
  // A join depends on every step of the thread it joins (its last step runs into the exit).
  const DfsOption join_t2{1, false, PendingKind::Sync, static_cast<std::uint8_t>(SyncOp::Join), 2};
  CHECK(dependent(join_t2, write_y));  // write_y is thread 2's step
  CHECK_FALSE(dependent(join_t2, DfsOption{3, false, PendingKind::Write, 0, 0x1008}));
}

}  // namespace
}  // namespace ctrlsched

namespace ctrlsched {
namespace {

TEST_CASE("dfs handles name a schedule of the exploration", "[dfs]") {
  RunSpec spec;
  spec.seed = 12;
  spec.strategy = StrategyKind::Dfs;
  spec.expected_hash = 0xc9314b0ae278ccbdull;
  CHECK(to_handle(spec) == "12:dfs@c9314b0ae278ccbd");
  const std::optional<RunSpec> parsed = parse_handle("12:dfs:acc@c9314b0ae278ccbd");
  REQUIRE(parsed);
  CHECK(parsed->strategy == StrategyKind::Dfs);
  CHECK(parsed->points == PointsMode::Accesses);
  CHECK(parsed->seed == 12);
  std::string error;
  CHECK_FALSE(parse_handle("3:dfs:pb2", &error));
  CHECK(error == "a preemption bound ('pb2') is only valid for random");
}

}  // namespace
}  // namespace ctrlsched

namespace ctrlsched {
namespace {

// The prefixes run, in order, with batches of `batch` runs.
std::vector<std::vector<Decision>> prefixes_of(const ToyProgram& program, std::uint32_t bound, DfsReduction reduction,
                                               std::size_t batch) {
  DfsExplorer explorer(bound, reduction);
  std::vector<std::vector<Decision>> seen;
  while (!explorer.complete()) {
    for (const DfsBranch& branch : explorer.next_batch(batch)) {
      seen.push_back(branch.prefix);
      explorer.explored(branch, run_toy(program, branch.prefix).points);
    }
  }
  return seen;
}

// Random toy programs (2-3 threads of 1-3 steps, reads and writes on 3 shared locations or a
// private one; half with thread starts, a third with a join in A), every bound 0..3: every class of the schedules within the bound (the search
// without reduction) has a run with DPOR and a schedule with sleep sets, and neither runs more
// than the search without reduction.
TEST_CASE("dfs reductions miss no class of schedules within the bound (random programs)", "[dfs]") {
  Prng prng(13);
  std::uint64_t totals[3] = {0, 0, 0};
  for (int trial = 0; trial < 400; ++trial) {
    ToyProgram program(2 + prng.below(2));
    const bool starts = trial % 2 == 1;  // threads other than A begin with their start
    for (std::size_t t = 0; t < program.size(); ++t) {
      if (starts && t > 0) program[t].push_back({0, false});
      const std::uint64_t steps = 1 + prng.below(3);
      for (std::uint64_t i = 0; i < steps; ++i) {
        const std::uint64_t where = prng.below(5);
        program[t].push_back({where < 3 ? where + 1 : 100 * (t + 1) + i, prng.below(2) == 0});
      }
    }
    // In every third program A joins another thread somewhere (before, between or after its
    // accesses): A is then blocked, not an option, until that thread's last step has run.
    if (trial % 3 == 2) {
      const auto target = static_cast<int>(1 + prng.below(program.size() - 1));
      const auto at = static_cast<std::ptrdiff_t>(prng.below(program[0].size() + 1));
      program[0].insert(program[0].begin() + at, ToyStep{0, false, target});
    }
    for (std::uint32_t k = 0; k <= 3; ++k) {
      INFO("trial " << trial << " K=" << k);
      const Counts none = explore(program, k, DfsReduction::None);
      const Counts sleep = explore(program, k, DfsReduction::SleepSets);
      const Counts dpor = explore(program, k, DfsReduction::Dpor);
      const std::set<std::string> want = classes_of(program, none.orders);
      const std::set<std::string> by_dpor = classes_of(program, dpor.orders);
      const std::set<std::string> by_sleep = classes_of(program, sleep.schedule_orders);
      for (const std::string& c : want) {
        INFO("class " << c);
        CHECK(by_dpor.count(c) == 1);
        CHECK(by_sleep.count(c) == 1);
      }
      CHECK(dpor.runs <= none.runs);
      CHECK(dpor.max_preemptions <= k);
      // The same runs in the same order whatever the batch size (-j): branches found late at a
      // lower preemption count join the level being run.
      CHECK(prefixes_of(program, k, DfsReduction::Dpor, 1) == prefixes_of(program, k, DfsReduction::Dpor, 5));
      totals[0] += none.runs;
      totals[1] += sleep.runs;
      totals[2] += dpor.runs;
    }
  }
  WARN("runs: none " << totals[0] << " sleep " << totals[1] << " dpor " << totals[2]);
}

}  // namespace
}  // namespace ctrlsched

namespace ctrlsched {
namespace {

// The step log (dfs.h): every thread choice the strategy is asked for is an entry, also one with a
// single candidate; an entry after steps the strategy never saw (the engine's fast path: only
// the current thread could run) is marked hidden.
TEST_CASE("dfs step log: single-candidate choices are entries, unseen steps mark the next entry", "[dfs]") {
  std::vector<std::uint8_t> area(1 << 12);
  auto strategy = make_dfs_strategy({}, area);
  const Candidate a{0, false, PendingKind::Write, 0, 0x10, 0};
  const Candidate b{1, false, PendingKind::Write, 0, 0x20, 0};
  const std::vector<Candidate> both = {a, b};
  const std::vector<Candidate> only_b = {b};
  CHECK(strategy->next_thread({0, true, PointKind::Access, 1, both}) == 0);       // A goes on
  CHECK(strategy->next_thread({0, true, PointKind::Access, 2, both}) == 0);       // the next step
  CHECK(strategy->next_thread({0, false, PointKind::Blocked, 7, only_b}) == 1);  // steps 3-6 unseen
  CHECK(strategy->next_thread({1, true, PointKind::Access, 8, both}) == 1);
  const std::optional<DfsLog> log = read_dfs_log(area);
  REQUIRE(log);
  REQUIRE(log->points.size() == 4);
  CHECK_FALSE(log->points[1].hidden);
  CHECK(log->points[2].hidden);
  CHECK(log->points[2].options.size() == 1);
  CHECK(log->points[2].chosen == 1);
  CHECK_FALSE(log->points[3].hidden);
}

DfsPoint access_point(ThreadId current, ThreadId chosen, bool hidden, std::vector<DfsOption> options) {
  DfsPoint p;
  p.kind = PointKind::Access;
  p.current = current;
  p.chosen = chosen;
  p.hidden = hidden;
  p.options = std::move(options);
  return p;
}

// dpor_backtracks on a hand-made log: A writes 0x10, then 0x30, B waits to write 0x20. No step of
// A depends on B's, so nothing is asked for; unless A took unseen steps between its two entries:
// they are of unknown kind, B's write depends on them, and although no branch can be made among
// them (only A could run), the last context switch before them (the first step) gets B.
TEST_CASE("dpor_backtracks: unseen steps depend on everything, the conservative point catches them", "[dfs]") {
  const DfsOption b{1, false, PendingKind::Write, 0, 0x20};
  for (const bool hidden : {false, true}) {
    INFO("hidden " << hidden);
    const std::vector<DfsPoint> log = {
        access_point(0, 0, false, {{0, false, PendingKind::Write, 0, 0x10}, b}),
        access_point(0, 0, hidden, {{0, false, PendingKind::Write, 0, 0x30}, b}),
    };
    std::vector<DfsBacktrack> asked = dpor_backtracks(log, true);
    if (hidden) {
      CHECK(asked == std::vector<DfsBacktrack>{{0, 1}});
    } else {
      CHECK(asked.empty());
    }
  }
  // A dependent pair: A's second write hits B's location: B at that entry, and at the first step
  // (the last context switch before it).
  const std::vector<DfsPoint> racing = {
      access_point(0, 0, false, {{0, false, PendingKind::Write, 0, 0x10}, b}),
      access_point(0, 0, false, {{0, false, PendingKind::Write, 0, 0x20}, b}),
      access_point(0, 1, false, {b}),
  };
  CHECK(dpor_backtracks(racing, true) == std::vector<DfsBacktrack>{{0, 1}, {1, 1}});
}

}  // namespace
}  // namespace ctrlsched
