// SURW (surw_strategy.cc): determinism per seed, the weights, and the property it exists for: with
// exact estimates every interleaving of the interesting events is about equally likely, where the
// random walk favours the interleavings in which one thread runs ahead.
#include <catch2/catch.hpp>

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

TEST_CASE("surw: a thread start runs before the weighted choice", "[surw]") {
  SurwStrategy surw(9, std::vector<std::uint32_t>{100, 1});
  const std::array<Candidate, 2> both = {Candidate{0, false}, Candidate{1, false}};
  // T1 was never the current thread: its pending event is its start, which runs first.
  CHECK(surw.next_thread({0, true, PointKind::Sync, 1, both}) == 1);
  CHECK(surw.pending(1) == PointKind::ThreadStart);
}

TEST_CASE("surw: interleavings of the interesting events are sampled uniformly", "[surw]") {
  // 6!/(3!3!) = 20 interleavings, 200 expected each in 4000 seeds (sd 14).
  constexpr std::uint64_t kSeeds = 4000;
  std::map<std::string, int> surw_counts, random_counts;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    ++surw_counts[sync_interleaving(*make_surw_strategy(seed, std::vector<std::uint32_t>{3, 3}))];
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
