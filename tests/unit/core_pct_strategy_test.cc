// PCT (Burckhardt et al. 2010), checked rule by rule against the white-box view in
// pct_strategy.h, and end to end: a depth-2 bug is found at least as often as the paper's bound
// 1/(n * k^(d-1)) promises.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>

#include "core_simulation.h"
#include "ctrlsched/strategy.h"
#include "pct_strategy.h"

using namespace ctrlsched;

namespace {

void announce(Strategy& strategy, ThreadId threads) {
  for (ThreadId t = 0; t < threads; ++t) strategy.on_thread_created(t, t == 0 ? kNoThread : 0);
}

std::vector<Candidate> all_threads(ThreadId threads) {
  std::vector<Candidate> candidates;
  for (ThreadId t = 0; t < threads; ++t) candidates.push_back({t, false});
  return candidates;
}

// Forwards to a PctStrategy and checks, at every point, that the answer had the highest
// priority among the candidates (priorities read after the call: lowering precedes the choice).
class HighestPriorityCheck final : public Strategy {
 public:
  explicit HighestPriorityCheck(PctStrategy& pct) : pct_(pct) {}
  void on_thread_created(ThreadId child, ThreadId parent) override { pct_.on_thread_created(child, parent); }
  ThreadId next_thread(const SchedulingPoint& point) override {
    const ThreadId chosen = pct_.next_thread(point);
    for (const Candidate& c : point.candidates) violations += pct_.priority(c.tid) > pct_.priority(chosen) ? 1 : 0;
    return chosen;
  }
  std::size_t pick_waiter(WakeKind kind, std::span<const ThreadId> waiters) override {
    const std::size_t index = pct_.pick_waiter(kind, waiters);
    for (const ThreadId w : waiters) violations += pct_.priority(w) > pct_.priority(waiters[index]) ? 1 : 0;
    return index;
  }
  bool spurious_wakeup(ThreadId waiter) override { return pct_.spurious_wakeup(waiter); }
  std::uint64_t preemptions() const override { return pct_.preemptions(); }
  int violations = 0;

 private:
  PctStrategy& pct_;
};

}  // namespace

TEST_CASE("pct: initial priorities are a permutation of d+1 .. d+n", "[pct]") {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::uint32_t depth = 1 + static_cast<std::uint32_t>(seed % 4);
    const ThreadId threads = 1 + static_cast<ThreadId>(seed % 9);
    PctStrategy pct(seed, depth, 50);
    announce(pct, threads);
    std::set<PctStrategy::Priority> priorities;
    for (ThreadId t = 0; t < threads; ++t) priorities.insert(pct.priority(t));
    REQUIRE(priorities.size() == threads);
    REQUIRE(*priorities.begin() == depth + 1);
    REQUIRE(*priorities.rbegin() == depth + threads);
    REQUIRE(pct.priority(threads) == PctStrategy::kUnknownThread);
  }
}

TEST_CASE("pct: every initial priority order is equally likely", "[pct]") {
  std::map<std::vector<PctStrategy::Priority>, int> orders;
  for (std::uint64_t seed = 0; seed < 6000; ++seed) {
    PctStrategy pct(seed, 2, 10);
    announce(pct, 3);
    ++orders[{pct.priority(0), pct.priority(1), pct.priority(2)}];
  }
  REQUIRE(orders.size() == 6);
  for (const auto& [order, count] : orders) {
    CHECK(count > 850);
    CHECK(count < 1150);
  }
}

TEST_CASE("pct: change points are d-1 distinct steps in [1, k]", "[pct]") {
  std::array<int, 11> hits{};
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    PctStrategy pct(seed, 5, 10);
    const auto points = pct.change_points();
    REQUIRE(points.size() == 4);
    REQUIRE(std::set<std::uint64_t>(points.begin(), points.end()).size() == 4);
    for (const std::uint64_t step : points) {
      REQUIRE(step >= 1);
      REQUIRE(step <= 10);
      ++hits[step];
    }
  }
  // 12000 change points over 10 steps: about 1200 each.
  for (std::size_t step = 1; step <= 10; ++step) CHECK(hits[step] > 1000);
}

TEST_CASE("pct: with fewer steps than d-1, every step is a change point", "[pct]") {
  PctStrategy pct(9, 6, 3);
  const auto points = pct.change_points();
  CHECK(std::set<std::uint64_t>(points.begin(), points.end()) == std::set<std::uint64_t>{1, 2, 3});
  CHECK(PctStrategy(9, 1, 100).change_points().empty());
  CHECK(PctStrategy(9, 0, 100).change_points().empty());
  CHECK(PctStrategy(9, 3, 0).change_points().empty());
}

TEST_CASE("pct: at change point i the running thread drops to priority i", "[pct]") {
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    PctStrategy pct(seed, 4, 30);
    announce(pct, 4);
    const std::vector<Candidate> candidates = all_threads(4);
    const auto change_points = pct.change_points();
    ThreadId current = 0;
    for (ThreadId t = 1; t < 4; ++t) current = pct.priority(t) > pct.priority(current) ? t : current;
    for (std::uint64_t step = 1; step <= 30; ++step) {
      const ThreadId chosen = pct.next_thread({current, true, PointKind::Sync, step, candidates});
      const auto hit = std::find(change_points.begin(), change_points.end(), step);
      if (hit != change_points.end()) {
        REQUIRE(pct.priority(current) == hit - change_points.begin() + 1);
        REQUIRE(chosen != current);  // the others keep initial priorities above it
      } else {
        REQUIRE(chosen == current);  // no change point: the highest thread keeps running
      }
      current = chosen;
    }
    CHECK(pct.preemptions() == 3);
  }
}

TEST_CASE("pct: always runs the highest-priority candidate and wakes the highest waiter", "[pct]") {
  Prng scenarios(5);
  for (std::uint64_t seed = 0; seed < 1500; ++seed) {
    PctStrategy pct(seed, 1 + static_cast<std::uint32_t>(seed % 4), 40);
    HighestPriorityCheck checked(pct);
    const sim::Run run = sim::simulate(sim::random_program(scenarios, 5, 10), checked);
    REQUIRE_FALSE(run.invalid_answer);
    REQUIRE(checked.violations == 0);
    REQUIRE(pct.preemptions() == run.preemptions);
  }
}

TEST_CASE("pct: timed waiters compete by priority like any other candidate", "[pct]") {
  PctStrategy pct(1, 1, 10);
  announce(pct, 3);
  const ThreadId highest = pct.priority(1) > pct.priority(2) ? 1 : 2;
  const std::vector<Candidate> candidates = {{1, true}, {2, false}};
  CHECK(pct.next_thread({0, false, PointKind::Blocked, 1, candidates}) == highest);
}

TEST_CASE("pct: a yield drops the yielder below everyone, and yielders rotate", "[pct]") {
  PctStrategy pct(3, 3, 100);
  announce(pct, 3);
  const std::vector<Candidate> candidates = all_threads(3);
  // Find the top thread, then let it yield at a step that is no change point.
  ThreadId top = 0;
  for (ThreadId t = 1; t < 3; ++t) top = pct.priority(t) > pct.priority(top) ? t : top;
  std::uint64_t step = 1;
  const auto change_points = pct.change_points();
  const auto next_free_step = [&] {
    while (std::find(change_points.begin(), change_points.end(), step) != change_points.end()) ++step;
    return step++;
  };
  const ThreadId after = pct.next_thread({top, true, PointKind::Yield, next_free_step(), candidates});
  CHECK(after != top);
  for (ThreadId t = 0; t < 3; ++t) {
    if (t != top) CHECK(pct.priority(top) < pct.priority(t));
  }
  CHECK(pct.preemptions() == 0);  // a yield is no preemption

  // Three threads that only yield take turns: T a, T b, T c, T a, ...
  sim::Program spinners = sim::uniform_program(3, 8);
  for (auto& thread : spinners) {
    for (sim::Step& s : thread) s.kind = PointKind::Yield;
  }
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    PctStrategy spinning(seed, 1, 100);
    const std::vector<ThreadId> executed = sim::simulate(spinners, spinning).executed;
    REQUIRE(executed.size() == 24);
    for (std::size_t i = 3; i < 24; ++i) REQUIRE(executed[i] == executed[i - 3]);
  }
}

TEST_CASE("pct: depth 1 runs each thread to its end, highest priority first", "[pct]") {
  const sim::Program program = sim::uniform_program(4, 6);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    PctStrategy pct(seed, 1, 30);
    std::vector<ThreadId> by_priority = {0, 1, 2, 3};
    const sim::Run run = sim::simulate(program, pct);
    std::sort(by_priority.begin(), by_priority.end(),
              [&](ThreadId a, ThreadId b) { return pct.priority(a) > pct.priority(b); });
    std::vector<ThreadId> expected;
    for (const ThreadId t : by_priority) expected.insert(expected.end(), 6, t);
    REQUIRE(run.executed == expected);
    // The only possible preemption: T0 at the very first point, when another thread ranks higher.
    REQUIRE(run.preemptions == (by_priority.front() == 0 ? 0u : 1u));
  }
}

TEST_CASE("pct: a fixed seed gives a pinned schedule", "[pct]") {
  const sim::Program program = sim::uniform_program(3, 4);
  PctStrategy pct(1, 3, 14);
  // Change point 1 at step 10, change point 2 at step 8. T1 starts highest and runs to its end,
  // T0 runs until step 8 drops it to 2, T2 runs until step 10 drops it to 1, T0 finishes, T2
  // finishes. Pinned: a change here remaps every recorded PCT seed.
  CHECK(std::vector<std::uint64_t>(pct.change_points().begin(), pct.change_points().end()) ==
        std::vector<std::uint64_t>{10, 8});
  CHECK(sim::simulate(program, pct).executed == std::vector<ThreadId>{1, 1, 1, 1, 0, 0, 0, 2, 2, 0, 2, 2});
  CHECK(pct.preemptions() == 3);  // T0 at step 1 (T1 is higher), T0 at step 8, T2 at step 10
}

TEST_CASE("pct: spurious wakeups come about once in 8", "[pct]") {
  PctStrategy pct(4, 3, 10);
  int spurious = 0;
  for (int i = 0; i < 8000; ++i) spurious += pct.spurious_wakeup(0) ? 1 : 0;
  CHECK(spurious > 800);
  CHECK(spurious < 1200);
}

TEST_CASE("pct: finds a depth-2 bug at least as often as 1/(n*k)", "[pct]") {
  // T1 checks a pointer then uses it; T2 clears it. The bug needs T2's step exactly between T1's
  // two steps: one ordering constraint plus one preemption, i.e. depth 2. T0 does one step.
  sim::Program program(3);
  program[0] = {sim::Step{}};
  program[1] = {sim::Step{}, sim::Step{}};
  program[2] = {sim::Step{}};
  constexpr std::uint64_t kSteps = 4;  // one point before each step (an exit point is also the next one's)
  constexpr int kSeeds = 4000;
  int found = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    PctStrategy pct(seed, 2, kSteps);
    const sim::Run run = sim::simulate(program, pct);
    REQUIRE(run.points == kSteps);
    const auto first_of_t1 = std::find(run.executed.begin(), run.executed.end(), 1u);
    const auto t2 = std::find(run.executed.begin(), run.executed.end(), 2u);
    const auto second_of_t1 = std::find(first_of_t1 + 1, run.executed.end(), 1u);
    found += first_of_t1 < t2 && t2 < second_of_t1 ? 1 : 0;
  }
  const double rate = static_cast<double>(found) / kSeeds;
  const double bound = 1.0 / (3 * kSteps);
  INFO("found in " << found << " of " << kSeeds << " runs; PCT guarantees at least " << bound);
  CHECK(rate >= bound);
  // And without change points (depth 1) the preemption the bug needs never happens.
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    PctStrategy depth1(seed, 1, kSteps);
    const std::vector<ThreadId> executed = sim::simulate(program, depth1).executed;
    const auto first_of_t1 = std::find(executed.begin(), executed.end(), 1u);
    REQUIRE(first_of_t1 + 1 < executed.end());
    REQUIRE(*(first_of_t1 + 1) == 1u);
  }
}
