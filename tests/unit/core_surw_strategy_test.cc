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
