// Recording, replay and verification: a recorded run replays to the identical schedule and hash,
// and every way of leaving a schedule is reported with the documented one-line text.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "core_simulation.h"
#include "ctrlsched/schedule.h"
#include "ctrlsched/strategy.h"

using namespace ctrlsched;

namespace {

constexpr Decision S(std::uint32_t v) { return {DecisionKind::Schedule, v}; }
constexpr Decision W(std::uint32_t v) { return {DecisionKind::Wake, v}; }
constexpr Decision P(std::uint32_t v) { return {DecisionKind::Spurious, v}; }

struct Recorded {
  sim::Run run;
  std::vector<Decision> log;
  std::uint64_t hash;
};

Recorded record(const sim::Program& program, Strategy& strategy) {
  sim::VectorSink sink;
  RecordingStrategy recording(strategy, sink);
  Recorded result{sim::simulate(program, recording), sink.decisions, recording.hash()};
  REQUIRE(recording.decisions() == result.log.size());
  return result;
}

const std::array<Candidate, 2> kT0T1 = {Candidate{0, false}, Candidate{1, false}};
const std::array<Candidate, 3> kT0T1T2 = {Candidate{0, false}, Candidate{1, false}, Candidate{2, false}};

SchedulingPoint point_among(std::span<const Candidate> candidates, std::uint64_t step) {
  return {0, true, PointKind::Sync, step, candidates};
}

}  // namespace

TEST_CASE("recording logs exactly the requests with more than one option, and their hash", "[replay]") {
  Prng scenarios(3);
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const sim::Program program = sim::random_program(scenarios, 5, 8);
    const auto strategy = make_random_strategy(seed, std::nullopt);
    const Recorded recorded = record(program, *strategy);
    REQUIRE(recorded.log.size() == recorded.run.choices);
    REQUIRE(recorded.hash == hash_decisions(recorded.log));
  }
}

TEST_CASE("a recorded run replays to identical decisions and hash", "[replay]") {
  Prng scenarios(4);
  for (std::uint64_t seed = 0; seed < 600; ++seed) {
    const sim::Program program = sim::random_program(scenarios, 5, 8);
    const auto original = seed % 2 ? make_random_strategy(seed, std::nullopt) : make_pct_strategy(seed, 3, 30);
    const Recorded first = record(program, *original);

    const auto replay = make_replay_strategy(first.log);
    const Recorded second = record(program, *replay);
    INFO("seed " << seed);
    REQUIRE_FALSE(replay->divergence().has_value());
    REQUIRE(second.run.answers == first.run.answers);
    REQUIRE(second.run.executed == first.run.executed);
    REQUIRE(second.log == first.log);
    REQUIRE(second.hash == first.hash);
    REQUIRE(replay->preemptions() == first.run.preemptions);
  }
}

TEST_CASE("replay: a forced choice consumes no recorded decision", "[replay]") {
  const auto replay = make_replay_strategy({S(1)});
  const std::array<Candidate, 1> only_t0 = {Candidate{0, false}};
  CHECK(replay->next_thread({1, false, PointKind::Blocked, 1, only_t0}) == 0);
  CHECK(replay->next_thread(point_among(kT0T1, 2)) == 1);
  const std::array<ThreadId, 1> one_waiter = {4};
  CHECK(replay->pick_waiter(WakeKind::CondSignal, one_waiter) == 0);
  CHECK_FALSE(replay->divergence().has_value());
}

TEST_CASE("replay: a recorded thread that is not a candidate diverges", "[replay]") {
  const auto replay = make_replay_strategy({S(1), S(2), S(1)});
  CHECK(replay->next_thread(point_among(kT0T1, 5)) == 1);
  CHECK(replay->next_thread(point_among(kT0T1, 6)) == 0);  // falls back to the first candidate
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->decision_index == 1);
  CHECK(replay->divergence()->step == 6);
  CHECK(replay->divergence()->what == "recorded S2 (run T2) but the candidates were T0 T1");
  // From then on: first candidate, first waiter, no spurious wakeup; the divergence stays.
  CHECK(replay->next_thread(point_among(kT0T1, 7)) == 0);
  const std::array<ThreadId, 2> waiters = {3, 4};
  CHECK(replay->pick_waiter(WakeKind::FutexWake, waiters) == 0);
  CHECK_FALSE(replay->spurious_wakeup(3));
  CHECK(replay->divergence()->decision_index == 1);
}

TEST_CASE("replay: running out of decisions diverges", "[replay]") {
  const auto replay = make_replay_strategy({S(1)});
  CHECK(replay->next_thread(point_among(kT0T1, 1)) == 1);
  CHECK(replay->next_thread(point_among(kT0T1, 2)) == 0);
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->decision_index == 1);
  CHECK(replay->divergence()->step == 2);
  CHECK(replay->divergence()->what ==
        "schedule ended after 1 decision but the run asked for another (Schedule among T0 T1)");

  const auto empty = make_replay_strategy({});
  const std::array<ThreadId, 2> waiters = {1, 2};
  CHECK(empty->pick_waiter(WakeKind::CondSignal, waiters) == 0);
  CHECK(empty->divergence()->what ==
        "schedule ended after 0 decisions but the run asked for another (Wake among T1 T2)");
  CHECK(empty->divergence()->step == 0);

  const auto spurious = make_replay_strategy({});
  CHECK_FALSE(spurious->spurious_wakeup(3));
  CHECK(spurious->divergence()->what ==
        "schedule ended after 0 decisions but the run asked for another (Spurious for T3)");
}

TEST_CASE("replay: a decision of another kind diverges", "[replay]") {
  const auto replay = make_replay_strategy({W(1)});
  CHECK(replay->next_thread(point_among(kT0T1, 3)) == 0);
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->decision_index == 0);
  CHECK(replay->divergence()->what == "recorded a Wake decision but the run asked for a Schedule decision");

  const auto spurious = make_replay_strategy({S(0)});
  CHECK_FALSE(spurious->spurious_wakeup(2));
  CHECK(spurious->divergence()->what == "recorded a Schedule decision but the run asked for a Spurious decision");
}

TEST_CASE("replay: wake and spurious decisions are followed and checked", "[replay]") {
  const std::array<ThreadId, 3> waiters = {1, 2, 5};
  const auto replay = make_replay_strategy({W(5), P(1), P(0), W(3)});
  CHECK(replay->pick_waiter(WakeKind::CondSignal, waiters) == 2);
  CHECK(replay->spurious_wakeup(1));
  CHECK_FALSE(replay->spurious_wakeup(1));
  CHECK_FALSE(replay->divergence().has_value());
  const std::array<ThreadId, 2> other_waiters = {1, 2};
  CHECK(replay->pick_waiter(WakeKind::CondSignal, other_waiters) == 0);
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->decision_index == 3);
  CHECK(replay->divergence()->what == "recorded W3 but the waiters were T1 T2");

  const auto bad_value = make_replay_strategy({P(2)});
  CHECK_FALSE(bad_value->spurious_wakeup(1));
  CHECK(bad_value->divergence()->what == "recorded P2 but a spurious-wakeup decision is P0 or P1");
}

TEST_CASE("replay: a long candidate list is cut, never breaking the one-line text", "[replay]") {
  std::vector<Candidate> many;
  for (ThreadId t = 0; t < 500; ++t) many.push_back({t, false});
  const auto replay = make_replay_strategy({S(9999)});
  CHECK(replay->next_thread(point_among(many, 1)) == 0);
  const std::string& what = replay->divergence()->what;
  CHECK(what.starts_with("recorded S9999 (run T9999) but the candidates were T0 T1 T2 "));
  CHECK(what.ends_with(" ..."));
  CHECK(what.size() <= 400);
}

TEST_CASE("replay of a changed program reports where it left the schedule", "[replay]") {
  const sim::Program program = sim::uniform_program(3, 5);
  const auto original = make_random_strategy(8, std::nullopt);
  const Recorded first = record(program, *original);

  sim::Program changed = program;
  changed[2].resize(1);  // T2 now finishes early
  const auto replay = make_replay_strategy(first.log);
  const sim::Run run = sim::simulate(changed, *replay);
  CHECK_FALSE(run.invalid_answer);
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->decision_index < first.log.size());
  CHECK(replay->divergence()->what.find('\n') == std::string::npos);
}

TEST_CASE("make_strategy on a Replay spec gives a replay of nothing", "[replay]") {
  RunSpec spec;
  spec.strategy = StrategyKind::Replay;
  const auto strategy = make_strategy(spec);
  CHECK(strategy->next_thread(point_among(kT0T1, 1)) == 0);
  REQUIRE(strategy->divergence().has_value());
  CHECK(strategy->divergence()->what.starts_with("schedule ended after 0 decisions"));
}

TEST_CASE("verifying: the same seed matches its own recording", "[verify]") {
  Prng scenarios(6);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const sim::Program program = sim::random_program(scenarios, 4, 8);
    const auto original = make_pct_strategy(seed, 2, 20);
    const Recorded first = record(program, *original);
    const auto again = make_pct_strategy(seed, 2, 20);
    const auto verifying = make_verifying_strategy(*again, first.log);
    const sim::Run run = sim::simulate(program, *verifying);
    REQUIRE_FALSE(verifying->divergence().has_value());
    REQUIRE(run.answers == first.run.answers);
    REQUIRE(verifying->preemptions() == first.run.preemptions);
  }
}

TEST_CASE("verifying: reports the first differing decision without changing the run", "[verify]") {
  const sim::Program program = sim::uniform_program(3, 6);
  int diverged = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const auto other_seed = make_random_strategy(seed + 1000, std::nullopt);
    const Recorded saved = record(program, *other_seed);

    const auto unwrapped = make_random_strategy(seed, std::nullopt);
    const Recorded plain = record(program, *unwrapped);

    const auto inner = make_random_strategy(seed, std::nullopt);
    const auto verifying = make_verifying_strategy(*inner, saved.log);
    const sim::Run run = sim::simulate(program, *verifying);
    REQUIRE(run.answers == plain.run.answers);  // the checked strategy is never steered

    std::size_t first_difference = 0;
    while (first_difference < saved.log.size() && first_difference < plain.log.size() &&
           saved.log[first_difference] == plain.log[first_difference]) {
      ++first_difference;
    }
    if (first_difference == plain.log.size()) {  // the run is a prefix of the saved schedule
      REQUIRE_FALSE(verifying->divergence().has_value());
      continue;
    }
    ++diverged;
    REQUIRE(verifying->divergence().has_value());
    REQUIRE(verifying->divergence()->decision_index == first_difference);
    if (first_difference < saved.log.size()) {
      const std::string expected_start =
          "recorded " + to_token(saved.log[first_difference]) + " but the run decided " +
          to_token(plain.log[first_difference]) + " (Schedule among ";
      REQUIRE(verifying->divergence()->what.starts_with(expected_start));
    } else {
      REQUIRE(verifying->divergence()->what.starts_with("schedule ended after "));
    }
  }
  CHECK(diverged > 90);
}

TEST_CASE("verifying: exact texts for a mismatch and for a different kind", "[verify]") {
  const auto inner = make_random_strategy(1, std::nullopt);
  const std::array<Candidate, 1> only_t2 = {Candidate{2, false}};
  // Whatever the inner strategy picks among T0 T1 T2, expect something else: T5.
  const auto verifying = make_verifying_strategy(*inner, {S(5), W(1)});
  CHECK(verifying->next_thread({2, false, PointKind::ThreadExit, 1, only_t2}) == 2);  // forced: not checked
  CHECK_FALSE(verifying->divergence().has_value());
  const ThreadId chosen = verifying->next_thread(point_among(kT0T1T2, 2));
  REQUIRE(verifying->divergence().has_value());
  CHECK(verifying->divergence()->decision_index == 0);
  CHECK(verifying->divergence()->step == 2);
  CHECK(verifying->divergence()->what ==
        "recorded S5 but the run decided S" + std::to_string(chosen) + " (Schedule among T0 T1 T2)");

  const auto inner2 = make_random_strategy(1, std::nullopt);
  const auto kinds = make_verifying_strategy(*inner2, {W(1)});
  kinds->spurious_wakeup(4);
  CHECK(kinds->divergence()->what == "recorded a Wake decision but the run asked for a Spurious decision");
}
