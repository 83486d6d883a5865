// SURW (surw_strategy.cc): determinism per seed, the weights, and the property it exists for: with
// exact estimates every interleaving of the interesting events is about equally likely, where the
// random walk favours the interleavings in which one thread runs ahead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "core_simulation.h"
#include "ctrlsched/strategy.h"
#include "surw_strategy.h"

using namespace ctrlsched;

namespace {

// T0 (main) makes three Sync steps; T1 is started (a ThreadStart step, as the shim reports a new
// thread) and then makes three. The interleaving of the six Sync steps, as a string of thread ids.
std::string sync_interleaving(Strategy& strategy) {
  sim::Program program(2);
  program[0] = std::vector<sim::Step>(3);
  program[1] = {sim::Step{PointKind::ThreadStart}, sim::Step{}, sim::Step{}, sim::Step{}};
  const sim::Run run = sim::simulate(program, strategy);
  std::string order;
  std::array<std::size_t, 2> done{};
  for (const ThreadId t : run.executed) {
    if (program[t][done[t]++].kind == PointKind::Sync) order += static_cast<char>('0' + t);
  }
  return order;
}

// SURW's estimates as the calibration measures them (runs/calibration.cc): per thread, the most
// steps it took (points at which it was current) in three runs of the random walk, seeds 0-2.
// A thread's exit is a step unless it is the last thread to exit, as in the shim.
std::vector<std::uint32_t> calibrated(const sim::Program& program) {
  std::vector<std::uint32_t> estimates(program.size(), 0);
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    const sim::Run run = sim::simulate(program, *make_random_strategy(seed, std::nullopt));
    for (std::size_t t = 0; t < program.size(); ++t) estimates[t] = std::max(estimates[t], run.thread_points[t]);
  }
  return estimates;
}

}  // namespace

TEST_CASE("surw: one seed, one schedule; different seeds differ", "[surw]") {
  const std::vector<std::uint32_t> estimates = {4, 4, 4};
  const sim::Program program = sim::uniform_program(3, 4);
  const auto order = [&](std::uint64_t seed) {
    auto strategy = make_surw_strategy(seed, estimates);
    return sim::simulate(program, *strategy).executed;
  };
  CHECK(order(11) == order(11));
  CHECK(order(11) != order(12));
}

TEST_CASE("surw: weights are the estimated events left, at least 1; unknown threads get the mean", "[surw]") {
  const std::vector<std::uint32_t> estimates = {2, 6};
  SurwStrategy surw(3, estimates);
  CHECK(surw.remaining(0) == 2);
  CHECK(surw.remaining(1) == 6);
  CHECK(surw.remaining(5) == 4);  // past the list: mean of 2 and 6
  const std::array<Candidate, 1> alone = {Candidate{0, false}};
  for (std::uint64_t step = 1; step <= 3; ++step) surw.next_thread({0, true, PointKind::Sync, step, alone});
  CHECK(surw.remaining(0) == 1);  // three events executed, estimate 2: never below 1
  CHECK(surw.remaining(1) == 6);
}

TEST_CASE("surw: the steps between two decisions count for the thread that took them", "[surw]") {
  // Rule 3: between two calls only the thread chosen at the first one ran, also at points where
  // nothing was decided (the shim's fast path); the call's step tells how many steps that was.
  SurwStrategy surw(5, std::vector<std::uint32_t>{20, 6});
  const std::array<Candidate, 2> both = {Candidate{0, false}, Candidate{1, false}};
  CHECK(surw.next_thread({0, true, PointKind::Sync, 3, both}) == 1);  // T1's start runs first
  CHECK(surw.remaining(0) == 17);  // T0 took steps 1-3 and waits at the third
  CHECK(surw.remaining(1) == 6);
  surw.next_thread({1, true, PointKind::Sync, 7, both});
  CHECK(surw.remaining(0) == 17);
  CHECK(surw.remaining(1) == 2);  // steps 4-7 were T1's
  surw.next_thread({1, true, PointKind::Sync, 12, both});
  CHECK(surw.remaining(1) == 1);  // past its estimate: never below 1
}

TEST_CASE("surw: a creator's weight includes the events of the threads it will create", "[surw]") {
  // Rule 4: each thread not created yet adds its estimate less its exit step to the weight of
  // the parent of the most recently created thread (T0 before any).
  SurwStrategy surw(1, std::vector<std::uint32_t>{10, 6, 5, 4});
  surw.on_thread_created(0, kNoThread);
  CHECK(surw.uncreated_events() == 5 + 4 + 3);
  CHECK(surw.weight(0) == 10 + 12);
  surw.on_thread_created(1, 0);
  CHECK(surw.uncreated_events() == 4 + 3);
  CHECK(surw.weight(0) == 10 + 7);
  CHECK(surw.weight(1) == 6);
  surw.on_thread_created(2, 1);  // T1 creates: it is now the one expected to create T3
  CHECK(surw.weight(0) == 10);
  CHECK(surw.weight(1) == 6 + 3);
  CHECK(surw.weight(2) == 5);
  surw.on_thread_created(3, 1);
  CHECK(surw.uncreated_events() == 0);
  CHECK(surw.weight(1) == 6);
}

namespace {

// T0 takes one step and creates T2; T1 exists from the start. Both workers take six Sync steps.
// Whether T1 ran all of its steps before T2 started, i.e. the two workers did not overlap.
bool workers_apart(Strategy& strategy, const sim::Program& program) {
  const sim::Run run = sim::simulate(program, strategy);
  std::size_t t1_done = 0;
  for (const ThreadId t : run.executed) {
    if (t == 2) return t1_done == 7;  // T1's start and its six steps
    if (t == 1) ++t1_done;
  }
  return true;
}

sim::Program create_later_program() {
  sim::Program program(3);
  program[0] = {sim::Step{}, sim::Step{PointKind::Sync, {}, false, 2}, sim::Step{PointKind::Create}};
  program[1] = {sim::Step{PointKind::ThreadStart}};
  for (int i = 0; i < 6; ++i) program[1].push_back(sim::Step{});
  program[2] = program[1];
  return program;
}

}  // namespace

TEST_CASE("surw: a worker created later is not left behind by one created earlier", "[surw]") {
  // T0's tree has 9 events left (its step, the create, the continuation, T2's six), T1 six. Uniform
  // over the orders of the forest, T1 runs all six before T0's second event, the create, in
  // 7/C(15,6) = 0.14% of the runs (6 of 4000): T1 is chosen 6 to 9. Weighing T0 by its own three
  // steps only (T2 not in the estimates, so nothing counts for T0), T1 is chosen 6 to 3 and runs
  // ahead in 7/C(9,3) = 8.3% (333 of 4000).
  const sim::Program program = create_later_program();
  const std::vector<std::uint32_t> estimates = calibrated(program);
  REQUIRE(estimates == std::vector<std::uint32_t>{4, 7, 7});
  const std::vector<std::uint32_t> without_t2(estimates.begin(), estimates.begin() + 2);
  constexpr std::uint64_t kSeeds = 4000;
  int apart = 0, apart_without_t2 = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    apart += workers_apart(*make_surw_strategy(seed, estimates), program) ? 1 : 0;
    apart_without_t2 += workers_apart(*make_surw_strategy(seed, without_t2), program) ? 1 : 0;
  }
  CHECK(apart < 60);
  CHECK(apart_without_t2 > 200);
}

TEST_CASE("surw: a thread start runs before the weighted choice", "[surw]") {
  SurwStrategy surw(9, std::vector<std::uint32_t>{100, 1});
  const std::array<Candidate, 2> both = {Candidate{0, false}, Candidate{1, false}};
  // T1 was never the current thread: its pending event is its start, which runs first.
  CHECK(surw.next_thread({0, true, PointKind::Sync, 1, both}) == 1);
  CHECK(surw.pending(1) == PointKind::ThreadStart);
}

TEST_CASE("surw: interleavings of the interesting events are sampled uniformly", "[surw]") {
  // 6!/(3!3!) = 20 interleavings, 200 expected each in 4000 seeds (sd 14). The estimates are what
  // the calibration counts: three events and the exit step per thread.
  sim::Program program(2);
  program[0] = std::vector<sim::Step>(3);
  program[1] = {sim::Step{PointKind::ThreadStart}, sim::Step{}, sim::Step{}, sim::Step{}};
  const std::vector<std::uint32_t> estimates = calibrated(program);
  REQUIRE(estimates == std::vector<std::uint32_t>{4, 4});
  constexpr std::uint64_t kSeeds = 4000;
  std::map<std::string, int> surw_counts, random_counts;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    ++surw_counts[sync_interleaving(*make_surw_strategy(seed, estimates))];
    ++random_counts[sync_interleaving(*make_random_strategy(seed, std::nullopt))];
  }
  REQUIRE(surw_counts.size() == 20);
  for (const auto& [order, count] : surw_counts) {
    INFO(order);
    CHECK(count >= 140);
    CHECK(count <= 260);
  }
  // The random walk: "000111" needs T0 to win three coin flips after T1 started (1/8 of
  // those runs), far more than 1/20; "010101" needs six alternations, far fewer.
  CHECK(random_counts["000111"] > 350);
  CHECK(surw_counts["000111"] < 260);
}

namespace {

// How often T1 is chosen at a weighted choice between T0 (estimate 99) and T1 (estimate 1),
// both past their start, over `seeds` seeds of SURW with `uniform_percent`.
int t1_chosen(std::uint32_t uniform_percent, std::uint64_t seeds) {
  const std::vector<std::uint32_t> estimates = {99, 1};
  const std::array<Candidate, 2> both = {Candidate{0, false}, Candidate{1, false}};
  int count = 0;
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    SurwStrategy surw(seed, estimates, uniform_percent);
    surw.next_thread({1, true, PointKind::Sync, 1, both});  // T1 becomes current: no longer a start
    count += surw.next_thread({0, true, PointKind::Sync, 2, both}) == 1 ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_CASE("surw uniform: 0 is plain SURW, draw for draw", "[surw]") {
  const std::vector<std::uint32_t> estimates = {4, 7, 2};
  const sim::Program program = sim::uniform_program(3, 6);
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto plain = make_surw_strategy(seed, estimates);
    auto zero = make_surw_strategy(seed, estimates, 0);
    const sim::Run a = sim::simulate(program, *plain);
    const sim::Run b = sim::simulate(program, *zero);
    CHECK(a.executed == b.executed);
    CHECK(a.answers == b.answers);
  }
}

TEST_CASE("surw uniform: one seed, one schedule; the percent changes the schedules", "[surw]") {
  const std::vector<std::uint32_t> estimates = {4, 4, 4};
  const sim::Program program = sim::uniform_program(3, 4);
  const auto order = [&](std::uint64_t seed, std::uint32_t percent) {
    auto strategy = make_surw_strategy(seed, estimates, percent);
    return sim::simulate(program, *strategy).executed;
  };
  CHECK(order(11, 50) == order(11, 50));
  int differ = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) differ += order(seed, 50) != order(seed, 0) ? 1 : 0;
  CHECK(differ > 0);
}

TEST_CASE("surw uniform: a share P of the weighted choices ignores the weights", "[surw]") {
  // T1's weight is 1 of 100: plain SURW picks it 1% of the time, uniform choices 50%, so with
  // P = 50 about 0.5 * 0.5 + 0.5 * 0.01 = 25.5% and with P = 100 about 50%. 4000 seeds: sd <= 32.
  constexpr std::uint64_t kSeeds = 4000;
  CHECK(t1_chosen(0, kSeeds) < 100);
  const int half = t1_chosen(50, kSeeds);
  CHECK(half > 920);
  CHECK(half < 1120);
  const int all = t1_chosen(100, kSeeds);
  CHECK(all > 1860);
  CHECK(all < 2140);
  CHECK(t1_chosen(1000, kSeeds) == all);  // above 100 counts as 100
}

TEST_CASE("surw uniform: thread starts still run first", "[surw]") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SurwStrategy surw(seed, std::vector<std::uint32_t>{100, 1}, 100);
    const std::array<Candidate, 2> both = {Candidate{0, false}, Candidate{1, false}};
    CHECK(surw.next_thread({0, true, PointKind::Sync, 1, both}) == 1);
  }
}
